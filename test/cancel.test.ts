import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ApiRequest } from '../fixtures/reference/types.ts';
import { originalValues, readJournal } from '../src/safety/journal.ts';
import { unsettledItems } from '../src/safety/restore.ts';
import { runCli, spawnCli } from './support/cli.ts';
import { keyArgs } from './support/reference.ts';
import { stateOf } from './support/state.ts';

/** Each request waits this long at the reference, as over a network: the toggling phase lasts long enough to be interrupted. */
const LATENCY_MS = 15;
/** A request the checks sent just before the signal was handled may still arrive this long after it. */
const IN_FLIGHT_MS = 500;

interface Seen {
  at: number;
  method: string;
  path: string;
  id: string | undefined;
}

/**
 * A reference whose every answer takes LATENCY_MS; `toggled` settles at the first kept toggle, and
 * `hang()` holds every later read of an item and every toggle until `release()`.
 */
async function slowReference() {
  const seen: Seen[] = [];
  let firstToggle = () => {};
  const toggled = new Promise<void>((resolve) => (firstToggle = resolve));
  let hanging = false;
  const hung: (() => void)[] = [];
  const reference = await startReference({
    wrap: (inner) => async (req: ApiRequest) => {
      const id = req.path.endsWith('/artifact-kept.php') ? idOfBody(req.bodyText) : (req.query.get('id') ?? undefined);
      seen.push({ at: performance.now(), method: req.method, path: req.path, id });
      if (req.path.endsWith('/artifact-kept.php')) firstToggle();
      if (hanging && (req.path.endsWith('/artifact-kept.php') || req.path.endsWith('/artifact.php'))) await new Promise<void>((resolve) => hung.push(resolve));
      await sleep(LATENCY_MS);
      return inner(req);
    },
  });
  const release = () => {
    hanging = false;
    for (const resume of hung.splice(0)) resume();
  };
  return { reference, seen, toggled, hang: () => void (hanging = true), release };
}

function idOfBody(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return id === undefined ? undefined : String(id);
  } catch {
    return undefined;
  }
}

/** Runs the CLI, signals it `delayMs` after the first toggle reached the reference, and sends `then` (ms after the first). */
async function interrupt(reference: RunningReference, toggled: Promise<void>, first: NodeJS.Signals, delayMs: number, then: [NodeJS.Signals, number][] = []) {
  const outDir = mkdtempSync(join(tmpdir(), 'conform-cancel-'));
  const { child, done } = spawnCli([...keyArgs(reference), '--only', 'KEPT-*,SCOPE-*,FILT-*', '--seed', '3'], outDir);
  await Promise.race([toggled, done]);
  await sleep(delayMs);
  const signalledAt = performance.now();
  child.kill(first);
  for (const [signal, after] of then) setTimeout(() => child.exitCode === null && child.kill(signal), after);
  const ended = await done;
  return { ...ended, outDir, signalledAt, exitMs: performance.now() - signalledAt, journal: join(outDir, 'journal.jsonl') };
}

type Case = [label: string, first: NodeJS.Signals, then: [NodeJS.Signals, number][], said: RegExp];

const cases: Case[] = [
  ['SIGINT', 'SIGINT', [], /no verdict \(interrupted \(SIGINT\); kept values restored: yes/],
  ['SIGTERM', 'SIGTERM', [], /no verdict \(interrupted \(SIGTERM\); kept values restored: yes/],
  ['SIGINT, then SIGTERM during the restore', 'SIGINT', [['SIGTERM', 150]], /SIGTERM: (still putting back \d+ kept value|every kept value changed is back)/],
];

describe('a signal during the toggling phase', () => {
  it.each(cases)('%s: sends nothing new, restores every kept value at once and exits 3', async (_label, first, then, said) => {
    const { reference, seen, toggled } = await slowReference();
    try {
      const before = stateOf(reference);
      const run = await interrupt(reference, toggled, first, 40, then);
      expect(run.code, run.output).toBe(3);
      expect(run.output).toMatch(said);
      expect(stateOf(reference)).toBe(before);
      // The journal is in the report folder, and names no item left changed.
      expect(readJournal(run.journal)[0]).toMatchObject({ op: 'run', url: reference.url });
      expect(unsettledItems(run.journal)).toEqual([]);
      // Once the checks in flight were aborted, the only requests are the restore's: single reads and toggles of journaled items.
      const journaled = new Set(originalValues(readJournal(run.journal)).map((item) => item.id));
      const late = seen.filter((r) => r.at > run.signalledAt + IN_FLIGHT_MS);
      const notRestore = late.filter((r) => !(r.path.endsWith('/artifact.php') || r.path.endsWith('/artifact-kept.php')) || !journaled.has(r.id ?? ''));
      expect(notRestore, JSON.stringify(notRestore.slice(0, 5))).toEqual([]);
    } finally {
      await reference.close();
    }
  });
});

describe('a restore that cannot finish', () => {
  it('a second signal gives it a grace, then names the items left and the restore command; conform restore puts them back', async () => {
    const { reference, toggled, hang, release } = await slowReference();
    try {
      const before = stateOf(reference);
      const outDir = mkdtempSync(join(tmpdir(), 'conform-cancel-'));
      const { child, done } = spawnCli([...keyArgs(reference), '--only', 'KEPT-*', '--seed', '3'], outDir);
      await Promise.race([toggled, done]);
      // Wait until the journal names an item the run has changed and not yet put back; from then on the target does not answer the restore.
      const journal = join(outDir, 'journal.jsonl');
      for (let i = 0; i < 400 && unsettledItems(journal).length === 0; i++) await sleep(5);
      expect(unsettledItems(journal).length).toBeGreaterThan(0);
      hang();
      child.kill('SIGINT');
      await sleep(300);
      child.kill('SIGTERM');
      const started = performance.now();
      const { code, output } = await done;
      expect(code, output).toBe(3);
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(output).toMatch(/SIGTERM: still putting back \d+ kept value\(s\) \((primary|other):\d+/);
      expect(output).toMatch(/the restore could not finish: \d+ kept value\(s\) still changed \((primary|other):\d+/);
      expect(output).toContain(`put them back with: conform restore --journal ${journal} --target ${reference.url} --profile primary`);
      expect(output).not.toContain(reference.keys.primary);
      // What the message says to do works once the target answers again (the held requests go through first).
      release();
      await sleep(200);
      const restore = await runCli(['restore', '--journal', journal, ...keyArgs(reference)]);
      expect(restore.code, restore.stdout + restore.stderr).toBe(0);
      expect(stateOf(reference)).toBe(before);
    } finally {
      release();
      await reference.close();
    }
  });
});

describe('the journal', () => {
  it('is flushed before each toggle is sent: every toggle the target saw is journaled by then', async () => {
    const journals: string[] = [];
    let path = '';
    const reference = await startReference({
      wrap: (inner) => (req) => {
        if (req.path.endsWith('/artifact-kept.php') && path) journals.push(`${idOfBody(req.bodyText)}|${readFileSync(path, 'utf8')}`);
        return inner(req);
      },
    });
    try {
      const outDir = mkdtempSync(join(tmpdir(), 'conform-journal-'));
      path = join(outDir, 'journal.jsonl');
      const run = await runCli([...keyArgs(reference), '--only', 'KEPT-001,KEPT-007', '--seed', '3', '--out', outDir]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(journals.length).toBeGreaterThan(0);
      for (const seenThen of journals) {
        const [id, text] = [seenThen.slice(0, seenThen.indexOf('|')), seenThen.slice(seenThen.indexOf('|') + 1)];
        expect(text).toContain(`"op":"change","at":`);
        expect(text).toMatch(new RegExp(`"id":"${id}"`));
      }
    } finally {
      await reference.close();
    }
  });
});

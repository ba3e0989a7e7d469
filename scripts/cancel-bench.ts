/**
 * The "cancel" row of the bench (issue 24): a cancelled CI job signals conform in the middle of its
 * toggling phase, over a network. Each try runs the real CLI against a fresh reference behind the
 * delaying proxy (remote defaults), waits for the first kept toggle to reach the reference, waits a
 * random part of the toggling phase (measured by one uninterrupted run first), and signals the way a
 * cancelled GitHub job does: the first signal, SIGTERM 7.5 s later, SIGKILL 2.5 s after that, each only
 * if the process is still there. One try in three also sends a SIGTERM during the restore. Once the
 * process is gone (and the proxy has had time to deliver what was on its way), the items whose kept
 * flag differs from before the run are counted: that must be 0.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dataset } from '../fixtures/dataset.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { packageRoot } from '../src/runner/vitest-host.ts';
import { unsettledItems } from '../src/safety/restore.ts';
import { startDelayProxy } from './bench-network.ts';

/** What the issue asks: exit within this long of the first signal. */
const EXIT_TARGET_S = 5;
/** A cancelled GitHub job: the second signal this long after the first, then SIGKILL. */
const SECOND_SIGNAL_MS = 7_500;
const KILL_MS = 10_000;
/** After the process is gone, time for a request the proxy still holds to reach the reference. */
const DRAIN_MS = 500;

const KINDS = [
  { name: 'SIGINT', first: 'SIGINT', early: false },
  { name: 'SIGTERM', first: 'SIGTERM', early: false },
  { name: 'SIGINT + SIGTERM in the restore', first: 'SIGINT', early: true },
] as const;

export interface CancelTry {
  kind: string;
  /** When the first signal went, after the first toggle reached the reference (ms), and the phase it was drawn from. */
  signalAfterFirstToggleMs: number;
  /** Every signal sent, with its time after the first (ms). */
  signals: string[];
  /** From the first signal to the process's exit. */
  exitS: number;
  exitCode: number | null;
  killed: boolean;
  /** Items whose kept flag differs from before the run, once the process was gone. */
  itemsLeftChanged: number;
  /** Items the journal in the report folder names as not restored. */
  journalUnsettled: number;
  /** The verdict line, or what conform said last. */
  said: string;
}

const keptFlags = (dataset: Dataset) => new Map(dataset.items.map((item) => [item.id, item.is_kept]));

function changedSince(before: Map<number, unknown>, now: Dataset): number {
  return now.items.filter((item) => before.get(item.id) !== item.is_kept).length;
}

/** A fresh reference behind a fresh proxy; `onToggle` hears each kept toggle as it reaches the reference. */
async function target(dataset: Dataset, rttMs: number, onToggle: () => void) {
  const reference = await startReference({
    dataset,
    wrap: (inner) => (req) => {
      if (req.method === 'POST' && req.path.endsWith('/artifact-kept.php')) onToggle();
      return inner(req);
    },
  });
  const proxy = await startDelayProxy(reference.url, { oneWayMs: rttMs / 2 });
  return {
    reference,
    proxy,
    close: async () => {
      await proxy.close();
      await reference.close();
    },
  };
}

function spawnConform(url: string, keys: { primary: string; other: string }, outDir: string, seed: number) {
  const child = spawn(
    process.execPath,
    [join(packageRoot, 'bin', 'conform.js'), '--target', url, '--key', keys.primary, '--other-key', keys.other, '--seed', String(seed), '--out', outDir],
    { cwd: packageRoot, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

/** One uninterrupted run: how long its toggling phase lasts, from the first toggle to the last (ms). */
async function togglingPhase(dataset: Dataset, rttMs: number): Promise<number> {
  const times: number[] = [];
  const t = await target(dataset, rttMs, () => times.push(performance.now()));
  const dir = mkdtempSync(join(tmpdir(), 'conform-cancel-'));
  try {
    const run = spawnConform(t.proxy.url, t.reference.keys, dir, 1);
    const { code } = await run.exited;
    if (times.length === 0) throw new Error(`the uninterrupted run toggled nothing (exit ${code}): ${run.output().slice(-500)}`);
    return times.at(-1)! - times[0]!;
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One try; a run whose toggling phase ended before the drawn moment (runs differ in length, more so
 * on a busy machine) is not a try: it is drawn again, earlier.
 */
async function oneTry(dataset: Dataset, rttMs: number, phaseMs: number, index: number): Promise<CancelTry> {
  for (let draw = 0, share = 1; ; draw++, share /= 2) {
    const done = await attempt(dataset, rttMs, phaseMs * share, index);
    if (done || draw === 3) return done ?? Promise.reject(new Error(`try ${index + 1}: the run ended before every moment drawn`));
  }
}

async function attempt(dataset: Dataset, rttMs: number, phaseMs: number, index: number): Promise<CancelTry | undefined> {
  const kind = KINDS[index % KINDS.length]!;
  let firstToggle: () => void = () => {};
  const toggled = new Promise<void>((resolve) => (firstToggle = resolve));
  const t = await target(dataset, rttMs, () => firstToggle());
  const before = keptFlags(t.reference.store.snapshot());
  const dir = mkdtempSync(join(tmpdir(), 'conform-cancel-'));
  const timers: NodeJS.Timeout[] = [];
  try {
    const run = spawnConform(t.proxy.url, t.reference.keys, dir, index + 1);
    const ended = run.exited.then(() => 'ended' as const);
    if ((await Promise.race([toggled.then(() => 'toggled' as const), ended])) === 'ended') {
      throw new Error(`try ${index + 1} ended before its first toggle: ${run.output().slice(-500)}`);
    }
    const delay = Math.random() * phaseMs;
    await sleep(delay);
    const signals: string[] = [];
    const started = performance.now();
    const send = (signal: NodeJS.Signals) => {
      if (run.child.exitCode !== null || run.child.signalCode !== null) return;
      run.child.kill(signal);
      signals.push(`${signal}@${Math.round(performance.now() - started)}ms`);
    };
    send(kind.first);
    if (signals.length === 0) return undefined;
    if (kind.early) timers.push(setTimeout(() => send('SIGTERM'), 50 + Math.random() * 350));
    timers.push(
      setTimeout(() => send('SIGTERM'), SECOND_SIGNAL_MS),
      setTimeout(() => send('SIGKILL'), KILL_MS),
    );
    const { code, signal } = await run.exited;
    const exitS = (performance.now() - started) / 1000;
    for (const timer of timers) clearTimeout(timer);
    // The signal came as the run was ending on its own (its report has a verdict of its own): not a try.
    if (finishedOnItsOwn(join(dir, 'report.json'))) return undefined;
    await sleep(DRAIN_MS);
    const lines = run
      .output()
      .trim()
      .split('\n')
      .filter((line) => line.trim() !== '');
    let journalUnsettled = 0;
    try {
      journalUnsettled = unsettledItems(join(dir, 'journal.jsonl')).length;
    } catch {
      journalUnsettled = -1;
    }
    return {
      kind: kind.name,
      signalAfterFirstToggleMs: Math.round(delay),
      signals,
      exitS,
      exitCode: code,
      killed: signal === 'SIGKILL',
      itemsLeftChanged: changedSince(before, t.reference.store.snapshot()),
      journalUnsettled,
      said: lines.find((line) => /^verdict|no verdict/.test(line)) ?? lines.at(-1) ?? '',
    };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function finishedOnItsOwn(reportPath: string): boolean {
  try {
    return !/interrupted/.test((JSON.parse(readFileSync(reportPath, 'utf8')) as { reason?: string }).reason ?? '');
  } catch {
    return false;
  }
}

export async function measureCancel(dataset: Dataset, options: { tries: number; rttMs: number }, log: (line: string) => void): Promise<CancelTry[]> {
  const phaseMs = await togglingPhase(dataset, options.rttMs);
  log(`  cancel: the toggling phase of an uninterrupted run lasts ${(phaseMs / 1000).toFixed(2)} s`);
  const tries: CancelTry[] = [];
  for (let i = 0; i < options.tries; i++) {
    const one = await oneTry(dataset, options.rttMs, phaseMs, i);
    tries.push(one);
    log(
      `  cancel try ${i + 1}/${options.tries} (${one.kind}, ${one.signalAfterFirstToggleMs} ms into the toggling phase): exit ${one.exitCode} after ${one.exitS.toFixed(2)} s, ${one.itemsLeftChanged} item(s) left changed`,
    );
  }
  return tries;
}

export function renderCancel(tries: readonly CancelTry[], context: { rttMs: number; load: { before: number; after: number } }): string {
  const lines: string[] = [];
  lines.push('');
  lines.push(
    `conform bench: cancel, ${tries.length} tries through a ${context.rttMs} ms round-trip proxy (remote defaults, 120 items); ${availableParallelism()} cores, load average ${context.load.before.toFixed(1)} before, ${context.load.after.toFixed(1)} after`,
  );
  lines.push('');
  const header = ['try', 'signals', 'into phase ms', 'exit s', 'exit', 'items left', 'journal left', 'conform said'];
  const table = tries.map((t, i) => [
    String(i + 1),
    t.signals.join(' '),
    String(t.signalAfterFirstToggleMs),
    t.exitS.toFixed(2),
    t.killed ? 'KILLED' : String(t.exitCode),
    String(t.itemsLeftChanged),
    String(t.journalUnsettled),
    t.said.slice(0, 90),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  lines.push(line(header), ...table.map(line));
  const exits = tries.map((t) => t.exitS).sort((a, b) => a - b);
  const within = tries.filter((t) => !t.killed && t.exitS <= EXIT_TARGET_S).length;
  const clean = tries.filter((t) => t.itemsLeftChanged === 0).length;
  const exit3 = tries.filter((t) => t.exitCode === 3).length;
  lines.push('');
  lines.push(
    `time to exit: median ${exits[Math.floor(exits.length / 2)]!.toFixed(2)} s, max ${exits.at(-1)!.toFixed(2)} s; exit 3 in ${exit3} of ${tries.length}; items left changed in all: ${tries.reduce((sum, t) => sum + t.itemsLeftChanged, 0)}`,
  );
  const met = within === tries.length && clean === tries.length;
  lines.push(
    `target: exit within ${EXIT_TARGET_S} s and 0 items left changed in ${tries.length} of ${tries.length} tries: ${met ? 'met' : 'NOT met'} (${within} within ${EXIT_TARGET_S} s, ${clean} with 0 left)`,
  );
  return `${lines.join('\n')}\n`;
}

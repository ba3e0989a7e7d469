import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { keyFingerprint, keyFingerprints, writeJournalHeader } from '../src/safety/journal.ts';
import { runCli } from './support/cli.ts';
import { stateOf } from './support/state.ts';

async function withReferences<T>(count: number, body: (...r: RunningReference[]) => Promise<T>): Promise<T> {
  const references = await Promise.all(Array.from({ length: count }, () => startReference()));
  try {
    return await body(...references);
  } finally {
    await Promise.all(references.map((r) => r.close()));
  }
}

const keyArgs = (r: RunningReference, key = r.keys.primary) => ['--target', r.url, '--key', key, '--other-key', r.keys.other];

/**
 * What an interrupted run leaves behind: the item's kept value flipped on `reference`, and a journal
 * (written for `journalFor`) that records the change. Returns the journal's path and the item.
 */
function interruptedRun(reference: RunningReference, journalFor: { url: string; profile: string; key: string }) {
  const user = reference.store.userByKey(reference.keys.primary)!;
  const item = reference.store.items(user.id)[0]!;
  const original = item.is_kept;
  const path = join(mkdtempSync(join(tmpdir(), 'conform-journal-')), 'journal.jsonl');
  writeJournalHeader(path, { url: journalFor.url, profile: journalFor.profile, keys: keyFingerprints({ primary: journalFor.key }) });
  appendFileSync(
    path,
    `${JSON.stringify({ op: 'change', at: new Date().toISOString(), user: 'primary', id: String(item.id), from: original, to: original ? 0 : 1 })}\n`,
  );
  return { path, flip: () => void (item.is_kept = original ? 0 : 1) };
}

describe('the journal says where it was written', () => {
  it('records the target URL, the profile and fingerprints of the keys, never the keys', async () => {
    await withReferences(1, async (reference) => {
      const run = await runCli([...keyArgs(reference), '--only', 'KEPT-001', '--seed', '5']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const text = readFileSync(join(run.outDir, 'journal.jsonl'), 'utf8');
      const header = JSON.parse(text.split('\n')[0]!) as Record<string, unknown>;
      expect(header).toMatchObject({
        op: 'run',
        url: reference.url,
        profile: 'primary',
        keys: { primary: keyFingerprint(reference.keys.primary), other: keyFingerprint(reference.keys.other) },
      });
      expect(keyFingerprint(reference.keys.primary)).toMatch(/^sha256:[0-9a-f]{16}$/);
      for (const key of [reference.keys.primary, reference.keys.other]) expect(text).not.toContain(key);
    });
  });
});

describe('conform restore', () => {
  it('puts the value back on the target and with the key the journal names', async () => {
    await withReferences(1, async (reference) => {
      const before = stateOf(reference);
      const { path, flip } = interruptedRun(reference, { url: reference.url, profile: 'primary', key: reference.keys.primary });
      flip();
      expect(stateOf(reference)).not.toBe(before);
      const restore = await runCli(['restore', '--journal', path, ...keyArgs(reference)]);
      expect(restore.code, restore.stdout + restore.stderr).toBe(0);
      expect(restore.stdout).toMatch(/1 item\(s\) in the journal, 1 put back, 0 problem/);
      expect(stateOf(reference)).toBe(before);
    });
  });

  it('refuses another target (exit 2) and writes nothing there', async () => {
    await withReferences(2, async (written, other) => {
      const { path } = interruptedRun(written, { url: written.url, profile: 'primary', key: written.keys.primary });
      const before = stateOf(other);
      // Same dataset, same keys: only the URL tells the two deployments apart.
      const restore = await runCli(['restore', '--journal', path, ...keyArgs(other, written.keys.primary)]);
      expect(restore.code).toBe(2);
      expect(restore.stderr).toMatch(new RegExp(`refusing to restore from .*: it was written against ${written.url}, not ${other.url}`));
      expect(stateOf(other)).toBe(before);
    });
  });

  it('refuses another key or profile (exit 2)', async () => {
    await withReferences(1, async (reference) => {
      const { path, flip } = interruptedRun(reference, { url: reference.url, profile: 'primary', key: reference.keys.primary });
      flip();
      const flipped = stateOf(reference);
      const wrongKey = await runCli(['restore', '--journal', path, '--target', reference.url, '--key', reference.keys.empty]);
      expect(wrongKey.code).toBe(2);
      expect(wrongKey.stderr).toMatch(/written with another key/);
      expect(wrongKey.stderr).not.toContain(reference.keys.empty);
      const wrongProfile = await runCli(['restore', '--journal', path, ...keyArgs(reference), '--profile', 'staging']);
      expect(wrongProfile.code).toBe(2);
      expect(wrongProfile.stderr).toMatch(/written with the primary profile, not staging/);
      expect(stateOf(reference)).toBe(flipped);
    });
  });

  it.each([
    ['missing', (_dir: string) => undefined, /no journal at/],
    ['not a journal', (dir: string) => writeFileSync(join(dir, 'journal.jsonl'), '<html>not json</html>\n'), /is not a conform journal \(line 1/],
    [
      'without its target',
      (dir: string) => writeFileSync(join(dir, 'journal.jsonl'), '{"op":"change","at":"x","user":"primary","id":"1","from":0,"to":1}\n'),
      /does not record which target/,
    ],
    ['a folder', (dir: string) => void dir, /cannot read the journal/],
  ])('a journal that is %s exits 2 and sends nothing', async (label, make, message) => {
    let requests = 0;
    const reference = await startReference({ wrap: (inner) => (req) => (requests++, inner(req)) });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'conform-journal-'));
      make(dir);
      const path = label === 'a folder' ? dir : join(dir, 'journal.jsonl');
      const restore = await runCli(['restore', '--journal', path, ...keyArgs(reference)]);
      expect(restore.code, restore.stdout + restore.stderr).toBe(2);
      expect(restore.stderr).toMatch(message);
      expect(requests).toBe(0);
    } finally {
      await reference.close();
    }
  });
});

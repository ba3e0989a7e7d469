import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { keyFingerprint, keyFingerprints, readJournal, verifiedSinceLastChange, writeJournalHeader } from '../src/safety/journal.ts';
import { settleJournal, singleReads, verifyJournal } from '../src/safety/restore.ts';
import { ApiClient } from '../src/http/client.ts';
import { Api } from '../src/http/api.ts';
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

describe('reads made once the kept writes are over spare the end-of-run sweep', () => {
  const at = new Date().toISOString();
  const change = (id: string, from: 0 | 1) => ({ op: 'change' as const, at, user: 'primary' as const, id, from, to: 1 - from });
  const verified = (id: string, value: 0 | 1) => ({ op: 'verified' as const, at, user: 'primary' as const, id, value });

  it('trusts a read at the original value only when no change came after it', () => {
    expect([...verifiedSinceLastChange([change('1', 0), change('2', 1), verified('1', 0), verified('2', 1)])]).toEqual(['primary:1', 'primary:2']);
    // A later change (to any item) may have moved an item read before it; a read at another value proves nothing.
    expect([...verifiedSinceLastChange([change('1', 0), verified('1', 0), change('2', 1), verified('2', 1)])]).toEqual(['primary:2']);
    expect([...verifiedSinceLastChange([change('1', 0), verified('1', 1)])]).toEqual([]);
  });

  it('verifyJournal records the items found at their value before the run; the sweep then reads only the others and puts them back', async () => {
    await withReferences(1, async (reference) => {
      const user = reference.store.userByKey(reference.keys.primary)!;
      const [left, moved] = reference.store.items(user.id);
      const path = join(mkdtempSync(join(tmpdir(), 'conform-journal-')), 'journal.jsonl');
      writeJournalHeader(path, { url: reference.url, profile: 'primary', keys: keyFingerprints({ primary: reference.keys.primary }) });
      for (const item of [left!, moved!]) appendFileSync(path, `${JSON.stringify(change(String(item.id), item.is_kept as 0 | 1))}\n`);
      const client = new ApiClient({ baseUrl: reference.url, keys: { primary: reference.keys.primary }, timeoutMs: 2000 });
      const api = new Api(client);
      try {
        const original = moved!.is_kept;
        moved!.is_kept = original ? 0 : 1;
        await verifyJournal(
          path,
          singleReads(() => api),
        );
        expect(readFileSync(path, 'utf8').match(/"op":"verified"/g)).toHaveLength(1);
        const sent = client.counts().requests;
        const report = await settleJournal(path, () => api, { trustVerified: true });
        expect(report).toMatchObject({ changedItems: 2, restoredAfterRun: 1, problems: [] });
        expect(moved!.is_kept).toBe(original);
        // Only the moved item is read first (the verified one is not); its restore reads, writes back and reads
        // again; after a write both are read again, the trusted one too: 1 + 3 + 2, where an untrusting sweep sends 7.
        expect(client.counts().requests - sent).toBe(6);
        const untrusted = client.counts().requests;
        await settleJournal(path, () => api);
        expect(client.counts().requests - untrusted).toBe(2);
      } finally {
        await client.close();
      }
    });
  });
});

describe('a full run verifies its kept changes before it ends', () => {
  it('reads every journaled item once the toggles are over, with one walk per user, and leaves the end-of-run sweep nothing to read', async () => {
    let served = 0;
    const reference = await startReference({
      wrap: (inner) => (req) => {
        served++;
        return inner(req);
      },
    });
    try {
      const run = await runCli([...keyArgs(reference), '--seed', '1', '--reporter', 'json', '-q']);
      expect(run.code).toBe(0);
      const report = run.report();
      expect(report.safety.problems).toEqual([]);
      const entries = readJournal(join(run.outDir, 'journal.jsonl'));
      const changed = new Set(entries.flatMap((e) => (e.op === 'change' ? [`${e.user}:${e.id}`] : [])));
      expect(changed.size).toBe(report.safety.changedItems);
      expect(changed.size).toBeGreaterThan(2);
      expect(verifiedSinceLastChange(entries)).toEqual(changed);
      // Beyond the checks' requests: the pre-flight (5) and one page of each user's 120 items, not a read per item.
      expect(served - (report.requests ?? 0)).toBe(5 + 2);
    } finally {
      await reference.close();
    }
  });
});

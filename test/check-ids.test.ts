import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';

/** What a check id means: a report, a waiver or a CI log that names the id relies on all four. */
interface PinnedCheck {
  id: string;
  level: string;
  sections: string[];
  title: string;
}

const snapshotPath = './check-ids.snapshot.json';
const snapshotUrl = new URL(snapshotPath, import.meta.url);

/** Ids added, removed or changed between the committed snapshot and the suite as it is now. */
function changes(pinned: readonly PinnedCheck[], current: readonly PinnedCheck[]): string[] {
  const before = new Map(pinned.map((c) => [c.id, c]));
  const now = new Map(current.map((c) => [c.id, c]));
  const lines: string[] = [];
  for (const [id, check] of now) {
    const old = before.get(id);
    if (!old) lines.push(`added ${id}: ${check.title}`);
    else if (JSON.stringify(old) !== JSON.stringify(check)) lines.push(`changed ${id}: ${JSON.stringify(old)} -> ${JSON.stringify(check)}`);
  }
  for (const id of before.keys()) if (!now.has(id)) lines.push(`removed ${id}`);
  return lines;
}

describe('check ids', () => {
  it('keep their meaning: id, level, sections and title match test/check-ids.snapshot.json', async () => {
    const run = await runCli(['--list', '--format', 'json']);
    expect(run.code).toBe(0);
    const current = (JSON.parse(run.stdout) as PinnedCheck[]).map(({ id, level, sections, title }) => ({ id, level, sections, title }));
    expect(current.length).toBeGreaterThan(0);
    const pinned = existsSync(snapshotUrl) ? (JSON.parse(readFileSync(snapshotUrl, 'utf8')) as PinnedCheck[]) : [];
    const message = [
      'a check id must never silently change meaning; what differs from the snapshot:',
      ...changes(pinned, current).map((line) => `  ${line}`),
      'if this is deliberate (a new check, a retired id, a corrected title), update the snapshot on purpose',
      `(npx vitest run test/check-ids.test.ts -u) and commit test/check-ids.snapshot.json with the change`,
    ].join('\n');
    await expect(`${JSON.stringify(current, null, 2)}\n`, message).toMatchFileSnapshot(snapshotPath);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import type { Api } from '../http/api.ts';
import { Journal, originalValues, readJournal, verifiedSinceLastChange, type KeyRef } from './journal.ts';
import { readKept, restoreOne } from './kept.ts';

export interface SafetyReport {
  changedItems: number;
  /** Items the end-of-run sweep had to put back (a check's own restore did not). */
  restoredAfterRun: number;
  problems: string[];
}

/**
 * Brings every item named in the journal back to its value before the run and verifies it with a
 * fresh read. Used at the end of every run and by `conform restore`. The items are read together
 * first (after a run whose checks restored everything, that is all it takes); those that differ are
 * restored one at a time, and after any write every item is read again.
 */
export async function settleJournal(
  path: string,
  apiFor: (user: 'primary' | 'other') => Api | undefined,
  { trustVerified = false }: { trustVerified?: boolean } = {},
): Promise<SafetyReport> {
  const entries = readJournal(path);
  const originals = originalValues(entries);
  // At the end of a run, an item read at its original value once the last kept write was over (verifyJournal) needs no second read.
  const verified = trustVerified ? verifiedSinceLastChange(entries) : new Set<string>();
  const journal = new Journal(path);
  const report: SafetyReport = { changedItems: originals.length, restoredAfterRun: 0, problems: [] };
  const items = originals.flatMap((item) => {
    const api = apiFor(item.user);
    if (api) return [{ ...item, api }];
    report.problems.push(`item ${item.id} of the ${item.user} user: no key to restore it to is_kept=${item.original}`);
    return [];
  });
  const read = singleReads(apiFor);
  const readAll = async (skipVerified = false): Promise<(0 | 1 | undefined)[]> => {
    const skipped = (user: KeyRef, id: string) => skipVerified && verified.has(`${user}:${id}`);
    const values = await Promise.all(
      (['primary', 'other'] as const).map((user) =>
        read(
          user,
          items.filter((item) => item.user === user && !skipped(user, item.id)).map((item) => item.id),
        ),
      ),
    );
    return items.map(({ user, id, original }) => (skipped(user, id) ? original : values[user === 'primary' ? 0 : 1]!.get(id)));
  };
  const before = await readAll(true);
  for (const [i, { api, user, id, original }] of items.entries()) {
    if (before[i] === original) {
      if (!verified.has(`${user}:${id}`)) journal.recordRestored(user, id, original);
      continue;
    }
    try {
      const restored = await restoreOne(api, journal, user, id, original);
      if (restored) report.restoredAfterRun++;
    } catch (error) {
      report.problems.push(`item ${id} (${user} user) could not be restored to is_kept=${original}: ${(error as Error).message}`);
    }
  }
  // A write to one item must not have moved another that read right before it.
  if (report.restoredAfterRun > 0) {
    const after = await readAll();
    items.forEach(({ user, id, original }, i) => {
      if (after[i] !== undefined && after[i] !== original)
        report.problems.push(`item ${id} (${user} user) is kept=${after[i]} after the restores, not ${original}`);
    });
  }
  return report;
}

/**
 * Reads every item the journal names, once the run's kept writes are over, and records those found at their
 * value before the run (the end-of-run sweep then reads only the others). Puts nothing back: an item found
 * elsewhere, or not read, is left to the sweep, which restores it. Sent while the run's last checks still
 * read, it takes the sweep's reads off the end of the run.
 */
export async function verifyJournal(path: string, read: KeptReader): Promise<void> {
  const journal = new Journal(path);
  const originals = originalValues(readJournal(path));
  await Promise.all(
    (['primary', 'other'] as const).map(async (user) => {
      const items = originals.filter((item) => item.user === user);
      if (items.length === 0) return;
      const values = await read(
        user,
        items.map((item) => item.id),
      ).catch(() => new Map<string, 0 | 1>());
      for (const { id, original } of items) if (values.get(id) === original) journal.recordVerified(user, id, original);
    }),
  );
}

/** Kept values of a user's items, by id, as read now; an item that could not be read is left out. */
export type KeptReader = (user: KeyRef, ids: readonly string[]) => Promise<Map<string, 0 | 1>>;

/** Each item read on its own (GET /artifact.php), as the end-of-run sweep reads them. */
export function singleReads(apiFor: (user: KeyRef) => Api | undefined): KeptReader {
  return async (user, ids) => {
    const values = new Map<string, 0 | 1>();
    const api = apiFor(user);
    if (!api) return values;
    await Promise.all(
      ids.map(async (id) => {
        const read = await readKept(api, id, user).catch(() => undefined);
        if (read) values.set(id, read.value);
      }),
    );
    return values;
  };
}

/** Items whose last journal entry is a change: the run that wrote it did not finish its restores. */
export function unsettledItems(path: string): string[] {
  const last = new Map<string, string>();
  for (const entry of readJournal(path)) if (entry.op !== 'run') last.set(`${entry.user}:${entry.id}`, entry.op);
  return [...last].filter(([, op]) => op === 'change').map(([key]) => key);
}

/**
 * The sweep of an interrupted run, started as soon as its checks have stopped. A toggle aborted on its
 * way may still reach the target after the first sweep read its item, so the items are read again a
 * moment later, and put back again if one moved. `recheckMs` is that moment.
 */
export async function settleAfterStop(path: string, apiFor: (user: 'primary' | 'other') => Api | undefined, recheckMs = STRAY_WRITE_MS): Promise<SafetyReport> {
  const first = await settleJournal(path, apiFor);
  let report = first;
  for (let round = 0; round < STRAY_ROUNDS; round++) {
    await sleep(recheckMs);
    const again = await settleJournal(path, apiFor);
    report = { changedItems: again.changedItems, restoredAfterRun: report.restoredAfterRun + again.restoredAfterRun, problems: again.problems };
    if (again.restoredAfterRun === 0) break;
  }
  return report;
}

/** How long a request aborted on its way may take to reach the target, and how often the sweep looks again. */
const STRAY_WRITE_MS = 300;
const STRAY_ROUNDS = 2;

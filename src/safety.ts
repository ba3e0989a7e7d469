import type { Api } from './http/api.ts';
import { Journal, originalValues, readJournal } from './journal.ts';
import { restoreOne } from './kept.ts';

export interface SafetyReport {
  changedItems: number;
  /** Items the end-of-run sweep had to put back (a check's own restore did not). */
  restoredAfterRun: number;
  problems: string[];
}

/**
 * Brings every item named in the journal back to its value before the run and verifies it with a
 * fresh read. Used at the end of every run and by `conform restore`.
 */
export async function settleJournal(path: string, apiFor: (user: 'primary' | 'other') => Api | undefined): Promise<SafetyReport> {
  const originals = originalValues(readJournal(path));
  const journal = new Journal(path);
  const report: SafetyReport = { changedItems: originals.length, restoredAfterRun: 0, problems: [] };
  for (const { user, id, original } of originals) {
    const api = apiFor(user);
    if (!api) {
      report.problems.push(`item ${id} of the ${user} user: no key to restore it to is_kept=${original}`);
      continue;
    }
    try {
      const restored = await restoreOne(api, journal, user, id, original);
      if (restored) report.restoredAfterRun++;
    } catch (error) {
      report.problems.push(`item ${id} (${user} user) could not be restored to is_kept=${original}: ${(error as Error).message}`);
    }
  }
  return report;
}

/** Items whose last journal entry is a change: the run that wrote it did not finish its restores. */
export function unsettledItems(path: string): string[] {
  const last = new Map<string, string>();
  for (const entry of readJournal(path)) if (entry.op !== 'run') last.set(`${entry.user}:${entry.id}`, entry.op);
  return [...last].filter(([, op]) => op === 'change').map(([key]) => key);
}

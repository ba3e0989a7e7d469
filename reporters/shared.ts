import type { CheckResult, RunResult, Status } from '../src/results.ts';

/** Helpers shared by the renderers. Grouping and ordering only: verdicts come from the model. */

export const statusOrder: readonly Status[] = ['passed', 'failed', 'error', 'skipped', 'not-applicable'];

export const statusLabels: Record<Status, string> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
  skipped: 'skipped',
  'not-applicable': 'not applicable',
};

/** Checks by area (the suite file), areas in alphabetical order, checks in model order. */
export function byArea(checks: readonly CheckResult[]): [string, CheckResult[]][] {
  const areas = new Map<string, CheckResult[]>();
  for (const check of checks) areas.set(check.area, [...(areas.get(check.area) ?? []), check]);
  return [...areas].sort(([a], [b]) => a.localeCompare(b, 'en'));
}

/** "§3, §4" → ["§3", "§4"]. */
export function sectionsOf(section: string): string[] {
  const parts = section.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  return parts.length > 0 ? [...new Set(parts)] : ['(none)'];
}

export function compareSections(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** Spec section × status counts; a check enforcing "§3, §4" counts toward both. */
export function sectionMatrix(checks: readonly CheckResult[]): [string, Record<Status, number>][] {
  const rows = new Map<string, Record<Status, number>>();
  for (const check of checks) {
    for (const section of sectionsOf(check.section)) {
      const row = rows.get(section) ?? { passed: 0, failed: 0, error: 0, skipped: 0, 'not-applicable': 0 };
      row[check.status]++;
      rows.set(section, row);
    }
  }
  return [...rows].sort(([a], [b]) => compareSections(a, b));
}

export const failuresOf = (run: RunResult): CheckResult[] => run.checks.filter((c) => c.status === 'failed' || c.status === 'error');

export const notRunOf = (run: RunResult): CheckResult[] => run.checks.filter((c) => c.status === 'skipped' || c.status === 'not-applicable');

export function countOf(checks: readonly CheckResult[], status: Status): number {
  return checks.filter((c) => c.status === status).length;
}

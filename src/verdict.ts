import type { CheckResult, Status } from './results.ts';

export type Verdict = 'conforms' | 'does not conform' | 'no verdict';

export const exitCodes = { conforms: 0, 'does not conform': 1, usage: 2, 'no verdict': 3 } as const;

export type Counts = Record<Status, number>;

export function countStatuses(checks: readonly CheckResult[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0, error: 0 };
  for (const c of checks) counts[c.status]++;
  return counts;
}

/**
 * The one place a verdict is decided. It fails closed: a MUST failure is non-conformance; otherwise
 * any harness error, or a run where nothing could be judged, gives no verdict rather than a pass.
 */
export function decideVerdict(checks: readonly CheckResult[]): { verdict: Verdict; reason: string } {
  const counts = countStatuses(checks);
  const mustFailures = checks.filter((c) => c.status === 'failed' && c.level === 'MUST').length;
  if (mustFailures > 0) return { verdict: 'does not conform', reason: `${mustFailures} MUST check(s) failed` };
  if (counts.error > 0) return { verdict: 'no verdict', reason: `${counts.error} check(s) could not be judged (errors)` };
  if (counts.passed === 0) return { verdict: 'no verdict', reason: 'no check could pass or fail (all skipped or not applicable)' };
  const shouldFailures = counts.failed;
  return { verdict: 'conforms', reason: shouldFailures > 0 ? `every MUST check passed; ${shouldFailures} SHOULD check(s) failed` : 'every MUST check passed' };
}

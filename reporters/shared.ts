import { naturalOrder } from '../src/core/natural-order.ts';
import type { CheckResult, RunResult, Status } from '../src/runner/results.ts';

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

/** Spec section × status counts; a check enforcing ['§3', '§4'] counts toward both. */
export function sectionMatrix(checks: readonly CheckResult[]): [string, Record<Status, number>][] {
  const rows = new Map<string, Record<Status, number>>();
  for (const check of checks) {
    for (const section of check.sections.length > 0 ? new Set(check.sections) : ['(none)']) {
      const row = rows.get(section) ?? { passed: 0, failed: 0, error: 0, skipped: 0, 'not-applicable': 0 };
      row[check.status]++;
      rows.set(section, row);
    }
  }
  return [...rows].sort(([a], [b]) => naturalOrder(a, b));
}

/** Failures and errors that count against the gate (advice and waived ones are listed apart). */
export const failuresOf = (run: RunResult): CheckResult[] => run.checks.filter((c) => (c.status === 'failed' || c.status === 'error') && c.effect === 'blocks');

/** What a list of advice holds, for its heading: SHOULD checks, robustness failures, or both. */
export function adviceKinds(advice: readonly CheckResult[]): string {
  const robustness = advice.some((c) => c.level === 'ROBUSTNESS');
  const should = advice.some((c) => c.level !== 'ROBUSTNESS');
  return robustness && should ? 'SHOULD checks and robustness failures' : robustness ? 'robustness failures (HTTP practice, not the spec)' : 'SHOULD checks';
}

/** SHOULD and robustness failures that do not gate: advice. */
export const adviceOf = (run: RunResult): CheckResult[] => run.checks.filter((c) => c.effect === 'advice');

/** Checks whose failure, error or skip a waiver in force accepted. */
export const waivedOf = (run: RunResult): CheckResult[] => run.checks.filter((c) => c.effect === 'waived');

/** Waivers to act on: expired ones, ones whose check passed, ones nothing used. */
export const waiverNoticesOf = (run: RunResult) => run.waivers.filter((w) => w.state !== 'applied');

/**
 * Checks that could not be judged for an absent precondition and were not waived: every gating one
 * (those make a run incomplete) and every MUST one (also when --allow-incomplete let the run pass).
 */
export const notJudgedOf = (run: RunResult): CheckResult[] =>
  run.checks.filter((c) => c.status === 'skipped' && c.effect !== 'waived' && (c.effect === 'blocks' || c.level === 'MUST'));

/** What a check's effect and waiver mean, in words ("advice: …", "waived until 2026-01-31: reason" …). */
export function effectNote(check: CheckResult): string | undefined {
  const parts: string[] = [];
  if (check.effect === 'advice')
    parts.push(
      check.level === 'ROBUSTNESS'
        ? 'advice: a robustness failure (HTTP practice, not a sentence of the spec), not gating (--fail-on should makes it gate)'
        : 'advice: a SHOULD check, not gating (--fail-on should makes it gate)',
    );
  if (check.effect === 'waived' && check.waiver) parts.push(`waived until ${check.waiver.expires}: ${check.waiver.reason}`);
  if (check.effect === 'unexpected-pass' && check.waiver)
    parts.push(`passed although waived until ${check.waiver.expires} (${check.waiver.reason}): remove the waiver`);
  if (check.waiver?.state === 'expired') parts.push(`waiver expired on ${check.waiver.expires}, no longer applies (${check.waiver.reason})`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** Short labels for the same: advice, waived, unexpected pass, waiver expired. */
export function effectLabels(check: CheckResult): string[] {
  const labels: string[] = [];
  if (check.effect === 'advice') labels.push('advice');
  if (check.effect === 'waived') labels.push('waived');
  if (check.effect === 'unexpected-pass') labels.push('unexpected pass');
  if (check.waiver?.state === 'expired') labels.push('waiver expired');
  return labels;
}

/**
 * Failures that share one cause: the same non-2xx status from the same endpoint, or the same first
 * line of message. Groups of two or more come first, largest first; the rest follow one by one.
 */
export function byCause(checks: readonly CheckResult[]): { cause?: string; checks: CheckResult[] }[] {
  const groups = new Map<string, CheckResult[]>();
  const single: CheckResult[] = [];
  for (const check of checks) {
    const cause = causeOf(check);
    if (cause === undefined) single.push(check);
    else groups.set(cause, [...(groups.get(cause) ?? []), check]);
  }
  const shared = [...groups].filter(([, members]) => members.length > 1).sort(([, a], [, b]) => b.length - a.length);
  const rest = [...groups].filter(([, members]) => members.length === 1).flatMap(([, members]) => members);
  const alone = checks.filter((c) => single.includes(c) || rest.includes(c));
  return [...shared.map(([cause, members]) => ({ cause, checks: members })), ...alone.map((c) => ({ checks: [c] }))];
}

function causeOf(check: CheckResult): string | undefined {
  const exchange = check.exchange;
  if (exchange && (exchange.status >= 300 || exchange.status === 0)) {
    const [method, url] = exchange.request.split(' ');
    const path = url ? url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\?.*$/, '') : '';
    return `${method} ${path} answered ${exchange.status}`;
  }
  const first = (check.message ?? '').split('\n')[0]?.trim();
  return first ? first : undefined;
}

export const notRunOf = (run: RunResult): CheckResult[] => run.checks.filter((c) => c.status === 'skipped' || c.status === 'not-applicable');

export function countOf(checks: readonly CheckResult[], status: Status): number {
  return checks.filter((c) => c.status === status).length;
}

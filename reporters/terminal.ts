import { describeSelection, type CheckResult, type RunResult } from '../src/runner/results.ts';
import { failureText } from './junit.ts';
import { adviceKinds, adviceOf, byArea, byCause, countOf, failuresOf, notJudgedOf, waivedOf, waiverNoticesOf } from './shared.ts';
import { symbols, type Style } from './style.ts';
import { isBudgetUnjudged } from '../src/runner/budget.ts';

/** --budget: what it bought, what it left unjudged, and what a full run would cost. */
function budgetLines(run: RunResult, style: Style): string[] {
  const budget = run.budget;
  if (!budget) return [];
  const lines = [
    '',
    style.paint(
      'bold',
      `Budget: ${budget.spent} of ${budget.limit} requests spent (--budget ${budget.limit}); a full run needs about ${budget.estimatedFull}; ${budget.notJudged.length} check(s) not judged (budget)`,
    ),
    `  the chosen checks ran lean: ${budget.propertyRuns} case(s) per property and smaller samples, as the budget table measured them (a full run judges them with more)`,
  ];
  const left = run.checks.filter(isBudgetUnjudged);
  const consequence =
    left.some((c) => c.effect === 'blocks') || !run.policy.allowIncomplete ? 'the run is incomplete without them' : 'allowed by --allow-incomplete';
  if (left.length > 0) lines.push(`  not judged (budget), ${consequence}: ${left.map((c) => c.id).join(', ')}`);
  return lines;
}

export interface SummaryOptions {
  /**
   * Only what gates or needs acting on: the failures and errors (with their reproduction), what could
   * not be judged, waived checks and waivers to act on, any safety problem, and the verdict line.
   */
  quiet?: boolean;
}

/**
 * The closing summary: counts per area, every failure and error (those with one shared cause together,
 * the rest by area) with its reproduction, SHOULD failures as advice, waived checks, the checks that
 * could not be judged with their reasons, then the counts and the verdict line. Colour comes from the
 * style (terminalStyle honours NO_COLOR, TERM=dumb and non-TTY streams).
 */
export function renderSummary(run: RunResult, style: Style, options: SummaryOptions = {}): string {
  const lines: string[] = [];
  const quiet = options.quiet === true;
  if (!quiet) {
    lines.push('', style.paint('bold', `conform: ${run.target.label} (${run.target.url}), profile ${run.target.profile}, seed ${run.seed}`));
    for (const [area, checks] of byArea(run.checks)) {
      const parts = [`${countOf(checks, 'passed')} passed`];
      for (const s of ['failed', 'error', 'skipped', 'not-applicable'] as const) {
        const n = countOf(checks, s);
        if (n > 0) parts.push(style.paint(s, `${n} ${s}`));
      }
      lines.push(`  ${area.padEnd(22)} ${parts.join(', ')}`);
    }
    if (run.selection) {
      const left = run.selection.deselected;
      lines.push('', `${describeSelection(run.selection)}; not run: ${left.slice(0, 12).join(', ')}${left.length > 12 ? ` and ${left.length - 12} more` : ''}`);
    }
  }
  lines.push(...failureSection(failuresOf(run), style));
  const advice = adviceOf(run);
  if (advice.length > 0 && !quiet) {
    lines.push('', style.paint('bold', `Advice: ${adviceKinds(advice)} that failed, not gating (${advice.length}; --fail-on should makes them gate):`));
    for (const check of advice) lines.push(...detailLines(check, style, 'skipped'));
  }
  const waived = waivedOf(run);
  if (waived.length > 0) {
    lines.push('', style.paint('bold', `Waived (${waived.length}): not gating while the waiver is in force`));
    for (const check of waived) {
      lines.push(
        `  ~ ${check.id} ${check.level} ${check.status}: ${firstLine(check.message)}`,
        style.paint('dim', `      waived until ${check.waiver!.expires}: ${check.waiver!.reason}`),
      );
    }
  }
  const notices = waiverNoticesOf(run);
  if (notices.length > 0) {
    lines.push('', style.paint('bold', `Waivers to act on (${notices.length}):`));
    for (const w of notices) lines.push(`  ${w.state === 'unused' ? '-' : '!'} ${w.check} (${w.reason}): ${w.note ?? w.state}`);
  }
  lines.push(...budgetLines(run, style));
  const notJudged = notJudgedOf(run).filter((c) => !isBudgetUnjudged(c));
  if (notJudged.length > 0) {
    const gating = notJudged.some((c) => c.effect === 'blocks');
    const consequence = gating ? 'the run cannot conform without them (waive them or pass --allow-incomplete)' : 'allowed by --allow-incomplete';
    lines.push('', style.paint('bold', `Not judged (${notJudged.length}), their precondition is absent on this target; ${consequence}:`));
    for (const check of notJudged) lines.push(`  ${style.paint('skipped', symbols.skipped)} ${check.id} ${check.level} ${check.message ?? ''}`);
  }
  if (!quiet) {
    const skipped = run.checks.filter((c) => c.status === 'skipped' && !notJudged.includes(c) && c.effect !== 'waived' && !isBudgetUnjudged(c));
    if (skipped.length > 0) {
      lines.push('', 'Skipped (precondition absent on this target):');
      for (const check of skipped) lines.push(`  ${style.paint('skipped', symbols.skipped)} ${check.id} ${check.message ?? ''}`);
    }
    const notApplicable = run.checks.filter((c) => c.status === 'not-applicable');
    if (notApplicable.length > 0) {
      lines.push('', `Not applicable to the ${run.target.profile} profile:`);
      for (const check of notApplicable) lines.push(style.paint('dim', `  ${symbols['not-applicable']} ${check.id} ${check.message ?? ''}`));
    }
  }
  for (const problem of run.safety.problems) lines.push('', style.paint('error', `SAFETY: ${problem}`));
  const c = run.counts;
  lines.push('');
  if (!quiet) {
    lines.push(`${c.passed} passed, ${c.failed} failed, ${c.error} errors, ${c.skipped} skipped, ${c['not-applicable']} not applicable`);
    const transport = transportLine(run);
    if (transport) lines.push(style.paint('dim', transport));
  }
  lines.push(
    style.paint(run.exitCode === 0 ? 'passed' : run.exitCode === 1 ? 'failed' : 'error', `verdict: ${run.verdict} (${run.reason}); exit ${run.exitCode}`),
    '',
  );
  return lines.join('\n');
}

/** Retries and 429s, when there were any: none of them was judged, but they explain a slow run. */
function transportLine(run: RunResult): string | undefined {
  const t = run.transport;
  if (!t || (t.retries === 0 && t.rateLimited === 0)) return undefined;
  const parts = [`${t.retries} ${t.retries === 1 ? 'retry' : 'retries'}`, `${t.rateLimited} answer(s) 429 (none judged)`];
  if (t.rateLimitWaitMs > 0) parts.push(`${Math.round(t.rateLimitWaitMs / 1000)} s paused for the rate limit`);
  if (t.rps !== undefined) parts.push(`slowest pace ${t.rps.toPrecision(2)} requests/s`);
  return `network: ${parts.join(', ')}`;
}

/** Failures that share a cause first (one block naming the cause and every check, the first in full), then the rest by area. */
function failureSection(failures: readonly CheckResult[], style: Style): string[] {
  if (failures.length === 0) return [];
  const lines = ['', style.paint('bold', `Failures and errors (${failures.length}):`)];
  const groups = byCause(failures);
  for (const group of groups.filter((g) => g.cause !== undefined && g.checks.length > 1)) {
    lines.push('', style.paint('bold', `  ${group.checks.length} checks share one cause: ${group.cause}`));
    for (const check of group.checks)
      lines.push(
        style.paint(check.status, `  ${symbols[check.status]} ${check.id} ${check.level} ${check.title} [${where(check)}] (${check.status})`),
        ...clauseLines(check),
      );
    lines.push(...indented(failureText(group.checks[0]!, { withClause: false })).map((l) => style.paint('dim', l)));
  }
  const alone = groups.filter((g) => g.checks.length === 1).map((g) => g.checks[0]!);
  for (const [area, checks] of byArea(alone)) {
    lines.push('', style.paint('dim', `  ${area}`));
    for (const check of checks) lines.push(...detailLines(check, style, check.status));
  }
  return lines;
}

function detailLines(check: CheckResult, style: Style, paint: CheckResult['status']): string[] {
  const mark = check.effect === 'advice' ? '△' : symbols[check.status];
  const label = check.effect === 'advice' ? 'advice' : check.status;
  return [
    style.paint(paint, `  ${mark} ${check.id} ${check.level} ${check.title} [${where(check)}] (${label})`),
    ...clauseLines(check),
    ...indented(failureText(check, { withClause: false })),
  ];
}

/** The sections a check cites, and beside them the clause its failed assertion enforces: "§3, §4; clause C3.2". */
function where(check: CheckResult): string {
  const sections = check.sections.join(', ');
  return check.clause ? `${sections}; clause ${check.clause.id}` : sections;
}

/** The failed clause in words, under the line that names it. */
function clauseLines(check: CheckResult): string[] {
  return check.clause ? [`      clause ${check.clause.id} (${check.clause.section}): ${check.clause.text}`] : [];
}

const indented = (text: string): string[] => text.split('\n').map((l) => `      ${l}`);

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

import type { CheckResult, RunResult } from '../src/results.ts';
import { failureText } from './junit.ts';
import { byArea, countOf, failuresOf } from './shared.ts';
import { symbols, type Style } from './style.ts';

export interface SummaryOptions {
  /** Only the failures and errors (with their reproduction), any safety problem, and the verdict line. */
  quiet?: boolean;
}

/**
 * The closing summary: counts per area, every failure and error grouped by area with its reproduction,
 * the skipped checks with their reasons, then the counts and the verdict line. Colour comes from the
 * style (terminalStyle honours NO_COLOR, TERM=dumb and non-TTY streams).
 */
export function renderSummary(run: RunResult, style: Style, options: SummaryOptions = {}): string {
  const lines: string[] = [];
  const failures = failuresOf(run);
  if (!options.quiet) {
    lines.push('', style.paint('bold', `conform: ${run.target.label} (${run.target.url}), profile ${run.target.profile}, seed ${run.seed}`));
    for (const [area, checks] of byArea(run.checks)) {
      const parts = [`${countOf(checks, 'passed')} passed`];
      for (const s of ['failed', 'error', 'skipped', 'not-applicable'] as const) {
        const n = countOf(checks, s);
        if (n > 0) parts.push(style.paint(s, `${n} ${s}`));
      }
      lines.push(`  ${area.padEnd(22)} ${parts.join(', ')}`);
    }
  }
  if (failures.length > 0) {
    lines.push('', style.paint('bold', `Failures and errors (${failures.length}):`));
    for (const [area, checks] of byArea(failures)) {
      lines.push('', style.paint('dim', `  ${area}`));
      for (const check of checks) lines.push(...failureLines(check, style));
    }
  }
  if (!options.quiet) {
    const skipped = run.checks.filter((c) => c.status === 'skipped');
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
  if (!options.quiet) {
    lines.push(`${c.passed} passed, ${c.failed} failed, ${c.error} errors, ${c.skipped} skipped, ${c['not-applicable']} not applicable`);
    const transport = transportLine(run);
    if (transport) lines.push(style.paint('dim', transport));
  }
  lines.push(style.paint(run.exitCode === 0 ? 'passed' : run.exitCode === 1 ? 'failed' : 'error', `verdict: ${run.verdict} (${run.reason}); exit ${run.exitCode}`), '');
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

function failureLines(check: CheckResult, style: Style): string[] {
  return [
    style.paint(check.status, `  ${symbols[check.status]} ${check.id} ${check.level} ${check.title} [${check.section}] (${check.status})`),
    ...failureText(check)
      .split('\n')
      .map((l) => `      ${l}`),
  ];
}

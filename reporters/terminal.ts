import type { CheckResult, RunResult } from '../src/results.ts';
import { failureText } from './junit.ts';
import { symbols, type Style } from './style.ts';

/** The closing summary: counts per area, then every failure and error with its reproduction. */
export function renderSummary(run: RunResult, style: Style): string {
  const lines: string[] = ['', style.paint('bold', `conform: ${run.target.label} (${run.target.url}), profile ${run.target.profile}, seed ${run.seed}`)];
  const areas = new Map<string, CheckResult[]>();
  for (const check of run.checks) areas.set(check.area, [...(areas.get(check.area) ?? []), check]);
  for (const [area, checks] of [...areas].sort(([a], [b]) => a.localeCompare(b))) {
    const n = (s: CheckResult['status']) => checks.filter((c) => c.status === s).length;
    const parts = [`${n('passed')} passed`];
    for (const s of ['failed', 'error', 'skipped', 'not-applicable'] as const) if (n(s) > 0) parts.push(`${n(s)} ${s}`);
    lines.push(`  ${area.padEnd(22)} ${parts.join(', ')}`);
  }
  const bad = run.checks.filter((c) => c.status === 'failed' || c.status === 'error');
  for (const check of bad) {
    lines.push('', style.paint(check.status, `${symbols[check.status]} ${check.id} ${check.level} ${check.title} [${check.section}] (${check.status})`));
    lines.push(...failureText(check).split('\n').map((l) => `    ${l}`));
  }
  const skipped = run.checks.filter((c) => c.status === 'skipped');
  if (skipped.length > 0) {
    lines.push('', 'Skipped (precondition absent on this target):');
    for (const check of skipped) lines.push(`  ${check.id} ${check.message ?? ''}`);
  }
  for (const problem of run.safety.problems) lines.push('', style.paint('error', `SAFETY: ${problem}`));
  const c = run.counts;
  lines.push(
    '',
    `${c.passed} passed, ${c.failed} failed, ${c.error} errors, ${c.skipped} skipped, ${c['not-applicable']} not applicable`,
    style.paint(run.exitCode === 0 ? 'passed' : run.exitCode === 1 ? 'failed' : 'error', `verdict: ${run.verdict} (${run.reason}); exit ${run.exitCode}`),
    '',
  );
  return lines.join('\n');
}

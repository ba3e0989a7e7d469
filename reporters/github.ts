import type { CheckResult, RunResult } from '../src/results.ts';
import type { Verdict } from '../src/verdict.ts';
import { byArea, countOf, failuresOf, notRunOf, statusLabels, statusOrder } from './shared.ts';

/**
 * GitHub Actions output: the job summary (Markdown appended to $GITHUB_STEP_SUMMARY) and workflow
 * commands that annotate the run with one line per failed or errored check.
 */

const verdictIcon: Record<Verdict, string> = {
  conforms: '✅',
  'does not conform': '❌',
  'no verdict': '⚠️',
};

export function renderStepSummary(run: RunResult): string {
  const c = run.counts;
  const lines: string[] = [
    `## ${verdictIcon[run.verdict]} conform: ${md(run.verdict)} — ${md(run.target.label)}`,
    '',
    `**Verdict: ${md(run.verdict)}** (${md(run.reason)}); exit code ${run.exitCode}`,
    '',
    `Target ${md(run.target.label)} (${code(run.target.url)}), profile ${code(run.target.profile)}, seed ${code(String(run.seed))}, ${md(run.tool.name)} ${md(run.tool.version)}`,
    '',
    `| ${statusOrder.map((s) => statusLabels[s]).join(' | ')} | total |`,
    `|${statusOrder.map(() => '---:').join('|')}|---:|`,
    `| ${statusOrder.map((s) => String(c[s])).join(' | ')} | ${run.checks.length} |`,
    '',
  ];
  const areas = byArea(run.checks);
  if (areas.length > 0) {
    lines.push('<details><summary>Counts by area</summary>', '', `| area | ${statusOrder.map((s) => statusLabels[s]).join(' | ')} |`, `|---|${statusOrder.map(() => '---:').join('|')}|`);
    for (const [area, checks] of areas) {
      lines.push(`| ${cell(area)} | ${statusOrder.map((s) => String(countOf(checks, s))).join(' | ')} |`);
    }
    lines.push('', '</details>', '');
  }
  if (run.safety.problems.length > 0) {
    lines.push(`### ⚠️ Changes to the target not put back (${run.safety.problems.length})`, '');
    for (const problem of run.safety.problems) lines.push(`- ${md(problem)}`);
    lines.push('');
  }
  const failures = failuresOf(run);
  if (failures.length > 0) {
    lines.push(`### Failures and errors (${failures.length})`, '');
    for (const check of failures) lines.push(...failure(check));
  }
  const notRun = notRunOf(run);
  if (notRun.length > 0) {
    lines.push(`<details><summary>Skipped and not applicable (${notRun.length})</summary>`, '', '| check | status | section | reason |', '|---|---|---|---|');
    for (const check of notRun) {
      lines.push(`| ${cell(check.id)} | ${cell(statusLabels[check.status])} | ${cell(check.section)} | ${cell(check.message ?? '')} |`);
    }
    lines.push('', '</details>', '');
  }
  return `${lines.join('\n')}\n`;
}

function failure(check: CheckResult): string[] {
  const lines = [
    `#### ${check.status === 'failed' ? '❌' : '⚠️'} ${md(check.id)} ${md(check.level)}: ${md(check.title)}`,
    '',
    `${md(statusLabels[check.status])} · section ${md(check.section)} · area ${md(check.area)}`,
    '',
    ...fenced(check.message ?? '', 'text'),
  ];
  if (check.exchange) {
    lines.push('Request sent:', '', ...fenced(check.exchange.request, 'http'), 'Response received:', '', ...fenced(`HTTP ${check.exchange.status}\n${check.exchange.responseBody}`, 'http'));
  }
  if (check.reproduction) lines.push('Reproduce:', '', ...fenced(check.reproduction, 'sh'));
  return lines;
}

/**
 * `::error title=KEPT-001 MUST [§3, §4]::message` per failed check, `::warning` per errored one.
 * Data is escaped per the workflow-command rules (% \r \n); property values also escape : and ,.
 */
export function renderAnnotations(run: RunResult): string {
  return failuresOf(run)
    .map((check) => {
      const command = check.status === 'failed' ? 'error' : 'warning';
      const title = `${check.id} ${check.level} [${check.section}]`;
      return `::${command} title=${escapeProperty(title)}::${escapeData(check.message ?? check.status)}\n`;
    })
    .join('');
}

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Inline Markdown text: one line, Markdown and HTML punctuation backslash-escaped. */
function md(text: string): string {
  return text.replace(/\r?\n|\r/g, ' ').replace(/[\\`*_{}[\]<>()#+!|~&]/g, (c) => `\\${c}`);
}

/** A table cell: inline text, and pipes escaped (md already does). */
function cell(text: string): string {
  return md(text);
}

function code(text: string): string {
  const flat = text.replace(/\r?\n|\r/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** A fenced code block whose fence is longer than any backtick run inside, so content can't close it. */
function fenced(text: string, lang: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, text.replace(/\r\n?/g, '\n'), fence, ''];
}

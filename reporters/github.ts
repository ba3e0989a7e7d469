import { describeSelection, type CheckResult, type RunResult } from '../src/runner/results.ts';
import type { Verdict } from '../src/runner/results.ts';
import {
  adviceKinds,
  adviceOf,
  byArea,
  countOf,
  effectNote,
  failuresOf,
  notJudgedOf,
  notRunOf,
  statusLabels,
  statusOrder,
  waivedOf,
  waiverNoticesOf,
} from './shared.ts';

/**
 * GitHub Actions output: the job summary (Markdown appended to $GITHUB_STEP_SUMMARY) and workflow
 * commands that annotate the run with one line per failed or errored check.
 */

const verdictIcon: Record<Verdict, string> = {
  conforms: '✅',
  'does not conform': '❌',
  incomplete: '⏸️',
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
    `Gate: ${run.policy.failOn === 'should' ? 'MUST and SHOULD checks' : 'MUST checks (SHOULD failures are advice)'}${run.policy.allowIncomplete ? '; checks that cannot be judged are allowed (--allow-incomplete)' : ''}`,
    '',
    ...(run.selection ? [`**${md(describeSelection(run.selection))}**; not run: ${md(run.selection.deselected.join(', '))}`, ''] : []),
    `| ${statusOrder.map((s) => statusLabels[s]).join(' | ')} | total |`,
    `|${statusOrder.map(() => '---:').join('|')}|---:|`,
    `| ${statusOrder.map((s) => String(c[s])).join(' | ')} | ${run.checks.length} |`,
    '',
  ];
  const areas = byArea(run.checks);
  if (areas.length > 0) {
    lines.push(
      '<details><summary>Counts by area</summary>',
      '',
      `| area | ${statusOrder.map((s) => statusLabels[s]).join(' | ')} |`,
      `|---|${statusOrder.map(() => '---:').join('|')}|`,
    );
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
  const notJudged = notJudgedOf(run);
  if (notJudged.length > 0) {
    const gating = notJudged.some((c) => c.effect === 'blocks');
    lines.push(
      `### ⏸️ Not judged (${notJudged.length}): precondition absent on this target${gating ? ', so the run cannot conform (waive them or pass --allow-incomplete)' : ' (allowed by --allow-incomplete)'}`,
      '',
      '| check | level | reason |',
      '|---|---|---|',
    );
    for (const check of notJudged) lines.push(`| ${cell(check.id)} | ${cell(check.level)} | ${cell(check.message ?? '')} |`);
    lines.push('');
  }
  const advice = adviceOf(run);
  if (advice.length > 0) {
    lines.push(`### 💡 Advice: ${adviceKinds(advice)} that failed (${advice.length}), not gating`, '');
    for (const check of advice) lines.push(...failure(check));
  }
  const waived = waivedOf(run);
  const notices = waiverNoticesOf(run);
  if (waived.length > 0 || notices.length > 0) {
    lines.push(`### Waivers`, '', '| check | outcome | waiver |', '|---|---|---|');
    for (const check of waived) lines.push(`| ${cell(check.id)} | ${cell(`${statusLabels[check.status]}, waived`)} | ${cell(effectNote(check) ?? '')} |`);
    for (const w of notices) lines.push(`| ${cell(w.check)} | ${cell(w.state)} | ${cell(`${w.note ?? ''} (${w.reason}; expires ${w.expires})`)} |`);
    lines.push('');
  }
  const notRun = notRunOf(run);
  if (notRun.length > 0) {
    lines.push(`<details><summary>Skipped and not applicable (${notRun.length})</summary>`, '', '| check | status | section | reason |', '|---|---|---|---|');
    for (const check of notRun) {
      lines.push(`| ${cell(check.id)} | ${cell(statusLabels[check.status])} | ${cell(check.sections.join(', '))} | ${cell(check.message ?? '')} |`);
    }
    lines.push('', '</details>', '');
  }
  return `${lines.join('\n')}\n`;
}

function failure(check: CheckResult): string[] {
  const lines = [
    `#### ${check.effect === 'advice' ? '💡' : check.status === 'failed' ? '❌' : '⚠️'} ${md(check.id)} ${md(check.level)}: ${md(check.title)}`,
    '',
    `${md(check.effect === 'advice' ? 'failed (advice, not gating)' : statusLabels[check.status])} · section ${md(check.sections.join(', '))} · area ${md(check.area)}`,
    '',
    ...fenced(check.message ?? '', 'text'),
  ];
  if (check.exchange) {
    lines.push(
      'Request sent:',
      '',
      ...fenced(check.exchange.request, 'http'),
      'Response received:',
      '',
      ...fenced(`HTTP ${check.exchange.status}\n${check.exchange.responseBody}`, 'http'),
    );
  }
  if (check.reproduction) lines.push('Reproduce:', '', ...fenced(check.reproduction, 'sh'));
  return lines;
}

/**
 * Workflow commands whose severity matches the exit code: `::error` for what gates (a failure at a
 * gating level, an error, an incomplete run), `::warning` for advice and for waivers to act on,
 * `::notice` for waived checks and partial runs. Data is escaped per the workflow-command rules
 * (% \r \n); property values also escape : and ,.
 */
export function renderAnnotations(run: RunResult): string {
  const lines: string[] = [];
  const emit = (command: 'error' | 'warning' | 'notice', title: string, message: string) =>
    lines.push(`::${command} title=${escapeProperty(title)}::${escapeData(message)}\n`);
  const titleOf = (check: CheckResult) => `${check.id} ${check.level} [${check.sections.join(', ')}]`;
  for (const check of failuresOf(run)) emit('error', titleOf(check), check.message ?? check.status);
  for (const check of adviceOf(run)) emit('warning', `${titleOf(check)} (advice, not gating)`, check.message ?? check.status);
  for (const check of waivedOf(run))
    emit('notice', `${titleOf(check)} (waived)`, `${statusLabels[check.status]}, ${effectNote(check) ?? 'waived'}: ${firstLine(check.message)}`);
  for (const w of waiverNoticesOf(run))
    emit(w.state === 'unused' ? 'notice' : 'warning', `waiver for ${w.check} (${w.state})`, `${w.note ?? w.state}; reason: ${w.reason}; expires ${w.expires}`);
  const notJudged = notJudgedOf(run);
  if (notJudged.length > 0) {
    const gating = notJudged.some((c) => c.effect === 'blocks');
    const list = notJudged.map((c) => `${c.id} (${c.message ?? 'skipped'})`).join('; ');
    emit(
      gating ? 'error' : 'warning',
      `conform: ${notJudged.length} check(s) not judged${gating ? '' : ' (--allow-incomplete)'}`,
      `precondition absent on this target: ${list}`,
    );
  }
  if (run.selection) emit('notice', 'conform: partial run', `${describeSelection(run.selection)}; verdict: ${run.verdict}`);
  return lines.join('');
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
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

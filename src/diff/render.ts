import { sideNames, type Disagreement } from './compare.ts';
import type { IgnoredField } from './ignore.ts';
import { agrees, type DiffReport } from './run.ts';

/** What `--out DIR` writes: the whole report, every disagreement with both values. */
export const DIFF_FILE = 'diff.json';

const VALUE_WIDTH = 60;
/** Lines of disagreements printed; the summary still counts every one, and diff.json holds them all. */
const SHOWN_LINES = 30;
const SHOWN_IDS = 12;
/** A difference found on this many items or more is printed once, with its item ids and examples. */
const GROUP_FROM = 2;
const EXAMPLES = 2;

/** A value as JSON, cut to a readable width; `(absent)` when the side has no such field. */
export function shownValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > VALUE_WIDTH ? `${text.slice(0, VALUE_WIDTH - 1)}… (${text.length} chars)` : text;
}

const valuesOf = (d: Disagreement): string => (d.values ? `target ${shownValue(d.values.target)} | against ${shownValue(d.values.against)}` : '');

export function disagreementLine(d: Disagreement): string {
  const where = d.itemId === '(none)' ? d.where : `item ${d.itemId}, ${d.where}`;
  const field = d.field !== undefined ? `, ${d.field}` : '';
  return `✗ ${where}${field}: ${d.note}${d.values ? `: ${valuesOf(d)}` : ''}`;
}

function idList(ids: readonly string[]): string {
  const shown = ids.slice(0, SHOWN_IDS).join(', ');
  return ids.length > SHOWN_IDS ? `${shown} … and ${ids.length - SHOWN_IDS} more` : shown;
}

/** One line per disagreement, except that the same difference on many items is one line with examples. */
function disagreementLines(disagreements: readonly Disagreement[]): string[] {
  const groups = new Map<string, Disagreement[]>();
  for (const d of disagreements) {
    const key = `${d.where}\u0000${d.field ?? ''}\u0000${d.note}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const lines: string[] = [];
  for (const group of groups.values()) {
    if (group.length < GROUP_FROM) {
      lines.push(...group.map(disagreementLine));
      continue;
    }
    const first = group[0]!;
    lines.push(
      `✗ ${first.where}${first.field !== undefined ? `, ${first.field}` : ''}: ${first.note}, on ${group.length} items: ${idList(group.map((d) => d.itemId))}`,
    );
    for (const d of group.slice(0, EXAMPLES)) if (d.values) lines.push(`    e.g. item ${d.itemId}: ${valuesOf(d)}`);
  }
  return lines;
}

/**
 * The diff as text: both sides, the disagreements (the same difference on several items once, values
 * trimmed), and a summary with the verdict. Without `full`, only the summary.
 */
export function renderDiff(report: DiffReport, options: { full?: boolean } = {}): string {
  const lines: string[] = [];
  if (options.full === false) return `${summaryLines(report).join('\n')}\n`;
  for (const side of sideNames) {
    const s = report.sides[side];
    const where = s.label === s.baseUrl ? s.baseUrl : `${s.label} (${s.baseUrl})`;
    lines.push(`${side.padEnd(7)} ${where}, ${s.profile} profile: ${s.items} item(s)`);
  }
  const found: string[] = [];
  for (const side of sideNames) {
    const ids = report.onlyOn[side];
    if (ids.length > 0) found.push(`✗ ${ids.length} item id(s) only on ${side}: ${idList(ids)}`);
  }
  found.push(...disagreementLines(report.disagreements));
  if (found.length > 0) lines.push('', ...found.slice(0, SHOWN_LINES));
  if (found.length > SHOWN_LINES) lines.push(`… ${found.length - SHOWN_LINES} more line(s) not shown; --out DIR writes every difference to ${DIFF_FILE}`);
  lines.push('', ...summaryLines(report));
  return `${lines.join('\n')}\n`;
}

function summaryLines(report: DiffReport): string[] {
  const lines: string[] = [];
  const onlyCount = report.onlyOn.target.length + report.onlyOn.against.length;
  lines.push(`ids: ${report.common} in common, ${report.onlyOn.target.length} only on target, ${report.onlyOn.against.length} only on against`);
  lines.push(
    `list rows: ${report.rowsCompared} compared; single reads: ${report.sampled.length} sampled item(s) compared (seed ${report.seed}); ${report.requests} request(s)`,
  );
  if (report.ignored.length > 0) lines.push(`not counted: ${report.ignored.map(ignoredText).join('; ')}`);
  const counted = [onlyCount > 0 ? `${onlyCount} id(s) on one side only` : '', countByKind(report.disagreements)].filter(Boolean).join('; ');
  lines.push(agrees(report) ? 'verdict: the deployments agree; exit 0' : `verdict: the deployments disagree (${counted}); exit 1`);
  return lines;
}

function ignoredText(ignored: IgnoredField): string {
  const where = ignored.differedOn > 0 ? `differed on ${ignored.differedOn} item(s)` : 'never differed';
  const why =
    ignored.reason === 'modification stamp'
      ? 'a modification stamp, which the spec does not fix'
      : ignored.reason === '--ignore-field'
        ? 'named by --ignore-field'
        : `on items a conform run toggled and put back (${ignored.journal})`;
  return `${ignored.field} (${why}; ${where})`;
}

/** diff.json: the report as data, with the verdict. A side that lacks a field has no entry in `values`. */
export function diffJson(report: DiffReport): string {
  const agree = agrees(report);
  return `${JSON.stringify({ agrees: agree, exitCode: agree ? 0 : 1, ...report }, null, 2)}\n`;
}

/** The GitHub job summary of a diff: the verdict as a heading, the text below it. */
export function renderDiffSummary(report: DiffReport): string {
  const heading = agrees(report) ? '✅ conform diff: the deployments agree' : '❌ conform diff: the deployments disagree';
  return `## ${heading}\n\n\`\`\`text\n${renderDiff(report)}\`\`\`\n`;
}

function countByKind(disagreements: readonly Disagreement[]): string {
  const counts = new Map<string, number>();
  for (const d of disagreements) {
    const kind = d.where === 'list row' && d.field === 'Title' ? 'title' : d.where === 'collection' ? 'collection' : d.where;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, n]) => `${n} ${kind} difference(s)`).join(', ');
}

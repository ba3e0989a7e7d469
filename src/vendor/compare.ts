/**
 * The implementations matrix: checks (by spec section) × implementations, from the reports or statements of
 * several runs. Pure: the CLI reads the files; src/vendor/compare-render.ts renders the model.
 */
import type { RunResult } from '../runner/results.ts';
import { embeddedDigestMatches, publicUrl, type Level, type Statement, type StatementStatus } from './statement.ts';
import { naturalOrder } from '../core/natural-order.ts';

/** A cell's status; absent: the run's suite has no such check. */
export type CellStatus = StatementStatus | 'absent';

/** One run, as the matrix reads it, whether from report.json or a conformance statement. */
export interface Implementation {
  label: string;
  /** The file it was read from, as given. */
  source: string;
  suite: { name: string; version: string };
  profile: string;
  baseUrl: string;
  verdict: string;
  checks: { id: string; level: Level; sections: string[]; title?: string; status: StatementStatus; message?: string }[];
  /** Where this run's own report details a check (report.html beside report.json), relative to the matrix. */
  detailPage?: string;
  /** Why this run's column is not to be trusted as it stands (an edited statement). */
  doubt?: string;
}

export function fromReport(report: RunResult, source: string, detailPage?: string): Implementation {
  return {
    label: report.target.label === report.target.url ? publicUrl(report.target.label) : report.target.label,
    source,
    suite: { name: report.tool.name, version: report.tool.version },
    profile: report.target.profile,
    baseUrl: publicUrl(report.target.url),
    verdict: report.verdict,
    checks: report.checks.map(({ id, level, sections, title, status, message }) => ({
      id,
      level,
      sections: [...sections],
      title,
      status,
      ...(message ? { message } : {}),
    })),
    ...(detailPage ? { detailPage } : {}),
  };
}

export function fromStatement(statement: Statement, source: string): Implementation {
  const sections = new Map(statement.checkSet.checks.map((c) => [c.id, c.sections]));
  return {
    label: statement.run.target.label,
    source,
    suite: { ...statement.suite },
    profile: statement.run.profile,
    baseUrl: statement.run.target.baseUrl,
    verdict: statement.verdict.verdict,
    checks: statement.checks.map(({ id, level, status }) => ({ id, level, sections: sections.get(id) ?? [], status })),
    ...(embeddedDigestMatches(statement)
      ? {}
      : { doubt: `${source} does not match its embedded digest: it was edited after it was issued (conform statement --verify says more)` }),
  };
}

export interface Cell {
  status: CellStatus;
  /** In-page anchor of the failure's detail (failed and error cells). */
  anchor?: string;
  message?: string;
  /** The run's own report, at this check. */
  href?: string;
}

export interface Row {
  id: string;
  level: Level;
  title?: string;
  sections: string[];
  cells: Cell[];
  /** The implementations that judged it do not agree. */
  disagree: boolean;
}

export interface Column {
  key: string;
  label: string;
  source: string;
  suite: string;
  profile: string;
  baseUrl: string;
  verdict: string;
  failures: { must: number; should: number };
}

export interface Comparison {
  columns: Column[];
  groups: { section: string; rows: Row[] }[];
  /** Shown above the matrix: runs of different suite versions, profiles or check sets. */
  warnings: string[];
}

const sectionOrder = (a: string, b: string) => naturalOrder(a.replace('§', ''), b.replace('§', ''));

/** Labels as given (--label), else each run's own; a repeated label gets its position appended. */
export function labelsFor(implementations: readonly Implementation[], labels: readonly string[] = []): string[] {
  const chosen = implementations.map((impl, i) => labels[i] ?? impl.label);
  return chosen.map((label, i) => (chosen.indexOf(label) === i ? label : `${label} (${i + 1})`));
}

export function compareRuns(implementations: readonly Implementation[], labels: readonly string[] = []): Comparison {
  const names = labelsFor(implementations, labels);
  const columns: Column[] = implementations.map((impl, i) => ({
    key: `c${i + 1}`,
    label: names[i]!,
    source: impl.source,
    suite: `${impl.suite.name} ${impl.suite.version}`,
    profile: impl.profile,
    baseUrl: impl.baseUrl,
    verdict: impl.verdict,
    failures: {
      must: impl.checks.filter((c) => c.level === 'MUST' && (c.status === 'failed' || c.status === 'error')).length,
      should: impl.checks.filter((c) => c.level === 'SHOULD' && (c.status === 'failed' || c.status === 'error')).length,
    },
  }));
  const described = new Map<string, Implementation['checks'][number]>();
  for (const impl of implementations) for (const c of impl.checks) if (!described.has(c.id) || (c.title && !described.get(c.id)!.title)) described.set(c.id, c);
  const lookups = implementations.map((impl) => new Map(impl.checks.map((c) => [c.id, c])));
  const rows: Row[] = [...described.values()]
    .sort((a, b) => naturalOrder(a.id, b.id))
    .map((check) => {
      const cells = lookups.map((lookup, i): Cell => {
        const own = lookup.get(check.id);
        if (!own) return { status: 'absent' };
        const failing = own.status === 'failed' || own.status === 'error';
        const detailPage = implementations[i]!.detailPage;
        return {
          status: own.status,
          ...(failing ? { anchor: `${columns[i]!.key}-${check.id}` } : {}),
          ...(failing && own.message ? { message: own.message } : {}),
          ...(failing && detailPage ? { href: `${detailPage}#check-${check.id}` } : {}),
        };
      });
      const judged = new Set(cells.map((c) => c.status).filter((s) => s !== 'absent'));
      return { id: check.id, level: check.level, ...(check.title ? { title: check.title } : {}), sections: check.sections, cells, disagree: judged.size > 1 };
    });
  const sections = [...new Set(rows.map((r) => r.sections[0] ?? '(no section)'))].sort(sectionOrder);
  const groups = sections.map((section) => ({ section, rows: rows.filter((r) => (r.sections[0] ?? '(no section)') === section) }));
  const doubts = implementations.flatMap((impl) => (impl.doubt ? [impl.doubt] : []));
  return { columns, groups, warnings: [...doubts, ...warningsFor(columns, rows)] };
}

function warningsFor(columns: readonly Column[], rows: readonly Row[]): string[] {
  const warnings: string[] = [];
  const differ = (what: (c: Column) => string) => new Set(columns.map(what)).size > 1;
  const list = (what: (c: Column) => string) => columns.map((c) => `${c.label}: ${what(c)}`).join(', ');
  if (differ((c) => c.suite))
    warnings.push(`these runs were judged by different suite versions (${list((c) => c.suite)}): a check's status may differ because the check did`);
  if (differ((c) => c.profile))
    warnings.push(`these runs were held to different profiles (${list((c) => c.profile)}): a check not applicable under one profile is judged under the other`);
  const uneven = rows.filter((r) => r.cells.some((c) => c.status === 'absent')).map((r) => r.id);
  if (uneven.length > 0) warnings.push(`some checks are absent from some runs: ${uneven.join(', ')}`);
  return warnings;
}

/** Column order by failures (MUST first, then SHOULD); ties keep the order given. */
export function columnOrderByFailures(columns: readonly Column[], direction: 'fewest' | 'most' = 'fewest'): number[] {
  const sign = direction === 'fewest' ? 1 : -1;
  return columns
    .map((c, i) => ({ c, i }))
    .sort((a, b) => sign * (a.c.failures.must - b.c.failures.must || a.c.failures.should - b.c.failures.should) || a.i - b.i)
    .map(({ i }) => i);
}

/** Rows where the implementations that judged a check disagree. */
export function disagreements(comparison: Comparison): Row[] {
  return comparison.groups.flatMap((g) => g.rows.filter((r) => r.disagree));
}

/**
 * The conformance statement: what one run showed, in a form anyone can check against the suite they
 * install. Pure functions: the CLI (src/cli/vendor.ts) reads the files and the installed suite.
 */
import { UsageError } from '../core/errors.ts';
import { MASK } from '../core/redact.ts';
import type { CheckResult, Counts, RunResult, Status, Verdict } from '../runner/results.ts';
import { canonicalJson, readDetachedDigest, sha256, sha256Hex } from './digest.ts';
import { naturalOrder } from '../core/natural-order.ts';

export const STATEMENT_FILE = 'conformance-statement.json';
export const STATEMENT_DIGEST_FILE = `${STATEMENT_FILE}.sha256`;
export const BADGE_FILE = 'badge.svg';
export const STATEMENT_VERSION = 1;

export type Level = CheckResult['level'];

/** One check of the suite as a statement pins it: its id, level and spec sections. */
export interface CheckSetEntry {
  id: string;
  level: Level;
  sections: string[];
}

/** The suite a statement is made or verified with. */
export interface SuiteIdentity {
  name: string;
  version: string;
  /** The digest of the spec as the suite reads it, and what it is a digest of. */
  spec: { digest: string; basis: string };
  checks: readonly CheckSetEntry[];
}

/** A check's status in a statement; not-run: left out of the run by --only/--skip. */
export type StatementStatus = Status | 'not-run';

export interface Statement {
  statementVersion: typeof STATEMENT_VERSION;
  suite: { name: string; version: string };
  spec: { digest: string; basis: string };
  checkSet: { digest: string; checks: CheckSetEntry[] };
  run: {
    target: { label: string; baseUrl: string };
    profile: string;
    seed: number;
    policy: RunResult['policy'];
    /** Present for a partial run. */
    selection?: { only: string[]; skip: string[] };
    /** sha256 of the report.json the statement was made from: whoever holds the report can tie the two. */
    reportDigest: string;
  };
  dates: { issued: string; report?: string };
  checks: { id: string; level: Level; status: StatementStatus; effect?: NonNullable<CheckResult['effect']> }[];
  /** Waivers that kept a check from the gate in this run. */
  waivers: { check: string; reason: string; expires: string }[];
  verdict: { verdict: Verdict; reason: string; exitCode: number; mustFailed: number; counts: Counts & { 'not-run': number } };
  /** sha256 of the canonical JSON of every other field. */
  digest: string;
}

/** The check set's digest: over ids, levels and sections, in id order, whatever order they come in. */
export function checkSetDigest(checks: readonly CheckSetEntry[]): string {
  return sha256(canonicalJson(normalChecks(checks)));
}

function normalChecks(checks: readonly CheckSetEntry[]): CheckSetEntry[] {
  return [...checks].map(({ id, level, sections }) => ({ id, level, sections: [...sections] })).sort((a, b) => naturalOrder(a.id, b.id));
}

/** The spec as the suite reads it: the digest of its clause registry (the spec's text is not shipped with the suite). */
export function specIdentity(clauses: readonly { id: string; section: string; statement: string; checks: readonly string[] }[]): SuiteIdentity['spec'] {
  const basis = clauses.map(({ id, section, statement, checks }) => ({ id, section, statement, checks: [...checks] }));
  return { digest: sha256(canonicalJson(basis)), basis: `clause registry (src/spec/clauses.ts, ${clauses.length} clauses)` };
}

/**
 * A base URL fit to publish: credentials in it are masked, and so are query values whose name says
 * they are one (a key in the query string is still a key).
 */
export function publicUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username) parsed.username = MASK;
  if (parsed.password) parsed.password = MASK;
  for (const name of [...parsed.searchParams.keys()]) {
    if (/key|token|secret|pass|auth|sig|cred/i.test(name)) parsed.searchParams.set(name, MASK);
  }
  const text = parsed.toString();
  // URL adds a slash to a bare origin; keep the URL as the run was given it.
  return url.endsWith('/') || !text.endsWith('/') || parsed.pathname !== '/' ? text : text.slice(0, -1);
}

export interface StatementDates {
  issued: string;
  report?: string;
}

/** The statement of one run. Refuses a report the installed suite did not write: the statement speaks for that suite. */
export function buildStatement(report: RunResult, reportText: string, suite: SuiteIdentity, dates: StatementDates): Statement {
  if (report.tool.version !== suite.version) {
    throw new UsageError(
      `the report was written by ${report.tool.name} ${report.tool.version} and this is ${suite.name} ${suite.version}; make the statement with the version that ran`,
    );
  }
  const known = new Map(suite.checks.map((c) => [c.id, c]));
  const strangers = report.checks.filter((c) => known.get(c.id)?.level !== c.level).map((c) => c.id);
  if (strangers.length > 0) throw new UsageError(`the report holds checks this suite does not have at that level: ${strangers.join(', ')}`);
  const ran = new Map(report.checks.map((c) => [c.id, c]));
  const checks = normalChecks(suite.checks).map((entry) => {
    const result = ran.get(entry.id);
    return {
      id: entry.id,
      level: entry.level,
      status: result?.status ?? ('not-run' as const),
      ...(result?.effect ? { effect: result.effect } : {}),
    };
  });
  const counts = { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0, error: 0, 'not-run': 0 };
  for (const c of checks) counts[c.status]++;
  const body: Omit<Statement, 'digest'> = {
    statementVersion: STATEMENT_VERSION,
    suite: { name: suite.name, version: suite.version },
    spec: { ...suite.spec },
    checkSet: { digest: checkSetDigest(suite.checks), checks: normalChecks(suite.checks) },
    run: {
      target: {
        label: report.target.label === report.target.url ? publicUrl(report.target.label) : report.target.label,
        baseUrl: publicUrl(report.target.url),
      },
      profile: report.target.profile,
      seed: report.seed,
      policy: { ...report.policy },
      ...(report.selection ? { selection: { only: [...report.selection.only], skip: [...report.selection.skip] } } : {}),
      reportDigest: sha256(reportText),
    },
    dates: { issued: dates.issued, ...(dates.report ? { report: dates.report } : {}) },
    checks,
    waivers: report.waivers.filter((w) => w.state === 'applied').map(({ check, reason, expires }) => ({ check, reason, expires })),
    verdict: { verdict: report.verdict, reason: report.reason, exitCode: report.exitCode, mustFailed: mustFailedOf(checks), counts },
  };
  return { ...body, digest: bodyDigest(body) };
}

/** MUST checks that failed and count against the gate (a waived failure is not one). */
function mustFailedOf(checks: readonly Statement['checks'][number][]): number {
  return checks.filter((c) => c.level === 'MUST' && c.status === 'failed' && c.effect === 'blocks').length;
}

/** The statement's content is what its embedded digest says it is (a quick check, without the suite). */
export function embeddedDigestMatches(statement: Statement): boolean {
  return bodyDigest(statement) === statement.digest;
}

function bodyDigest(body: object): string {
  const { digest: _ignored, ...rest } = body as { digest?: unknown };
  return sha256(canonicalJson(rest));
}

/** conformance-statement.json: what a reader wants first comes first; the same statement always gives the same bytes. */
export function renderStatement(statement: Statement): string {
  const order = ['statementVersion', 'suite', 'spec', 'run', 'dates', 'verdict', 'waivers', 'checks', 'checkSet', 'digest'] as const;
  const inOrder = Object.fromEntries(order.map((key) => [key, JSON.parse(canonicalJson(statement[key]))]));
  return `${JSON.stringify(inOrder, null, 2)}\n`;
}

export interface Verification {
  ok: boolean;
  /** Why it fails: a digest that does not match, a statement that contradicts itself, a suite that differs. */
  problems: string[];
  /** What differs without failing it (another suite version with the same checks and spec). */
  notes: string[];
}

/**
 * Verifies a statement's text: its own digest, the detached digest (when given), the check set's digest,
 * that its checks, counts and verdict agree with each other, and that the installed suite has the same
 * check set and spec digest. A digest proves the file is the one issued, not who issued it.
 */
export function verifyStatement(text: string, detached: string | undefined, fileName: string, installed: SuiteIdentity): Verification {
  const problems: string[] = [];
  const notes: string[] = [];
  if (detached !== undefined) {
    const line = readDetachedDigest(detached);
    if (!line) problems.push('the detached digest file is not a sha256 line (<hex>  <file>)');
    else if (line.hex !== sha256Hex(text)) problems.push(`the file's sha256 is not the one in its detached digest: the file was changed after it was issued`);
    else if (line.fileName !== fileName) notes.push(`the detached digest names ${line.fileName}, the file is ${fileName}`);
  } else notes.push('no detached digest file beside the statement; only the embedded digest was checked');
  let statement: Statement;
  try {
    statement = JSON.parse(text) as Statement;
  } catch (error) {
    return { ok: false, problems: [...problems, `not JSON: ${(error as Error).message}`], notes };
  }
  const shape = shapeProblems(statement);
  if (shape.length > 0) return { ok: false, problems: [...problems, ...shape], notes };
  if (bodyDigest(statement) !== statement.digest) problems.push('the embedded digest does not match the content: the statement was edited');
  if (checkSetDigest(statement.checkSet.checks) !== statement.checkSet.digest) problems.push("the check set's digest does not match its checks");
  problems.push(...consistencyProblems(statement));
  problems.push(...suiteDifferences(statement, installed));
  if (statement.suite.name !== installed.name || statement.suite.version !== installed.version) {
    notes.push(`made with ${statement.suite.name} ${statement.suite.version}; verified with ${installed.name} ${installed.version}`);
  }
  return { ok: problems.length === 0, problems, notes };
}

function shapeProblems(s: Statement): string[] {
  if (s === null || typeof s !== 'object') return ['not a conformance statement (not an object)'];
  if (s.statementVersion !== STATEMENT_VERSION)
    return [`not a conformance statement of version ${STATEMENT_VERSION} (statementVersion: ${String(s.statementVersion)})`];
  const missing = ['suite', 'spec', 'checkSet', 'run', 'checks', 'waivers', 'verdict', 'digest'].filter((k) => !(k in s));
  if (missing.length > 0) return [`not a conformance statement: no ${missing.join(', ')}`];
  if (!Array.isArray(s.checks) || !Array.isArray(s.checkSet?.checks)) return ['not a conformance statement: checks are not lists'];
  return [];
}

/** What a statement says about its checks must agree with its counts and verdict. */
function consistencyProblems(s: Statement): string[] {
  const problems: string[] = [];
  const set = new Map(s.checkSet.checks.map((c) => [c.id, c.level]));
  const ids = s.checks.map((c) => c.id);
  if (ids.length !== set.size || ids.some((id) => !set.has(id)) || new Set(ids).size !== ids.length) {
    problems.push('the checks with a status are not exactly the check set');
  }
  for (const c of s.checks)
    if (set.has(c.id) && set.get(c.id) !== c.level) problems.push(`${c.id} is ${c.level} in the statement and ${set.get(c.id)} in its check set`);
  const counts: Record<string, number> = { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0, error: 0, 'not-run': 0 };
  for (const c of s.checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
  for (const [status, n] of Object.entries(counts)) {
    if (s.verdict.counts?.[status as keyof Statement['verdict']['counts']] !== n)
      problems.push(`the count of ${status} checks says ${s.verdict.counts?.[status as 'passed']}, the checks say ${n}`);
  }
  const mustFailed = mustFailedOf(s.checks);
  if (s.verdict.mustFailed !== mustFailed) problems.push(`the statement says ${s.verdict.mustFailed} MUST check(s) failed, its checks say ${mustFailed}`);
  const blocking = s.checks.filter((c) => c.effect === 'blocks');
  const failedBlocking = blocking.filter((c) => c.status === 'failed');
  if (s.verdict.verdict === 'conforms' && blocking.length > 0)
    problems.push(`the verdict is conforms but ${blocking.map((c) => c.id).join(', ')} count against it`);
  if (s.verdict.verdict === 'does not conform' && failedBlocking.length === 0)
    problems.push('the verdict is does not conform but no failed check counts against it');
  if (s.verdict.verdict !== 'does not conform' && failedBlocking.length > 0)
    problems.push(`the verdict is ${s.verdict.verdict} but ${failedBlocking.map((c) => c.id).join(', ')} failed`);
  const codes: Record<Verdict, number> = { conforms: 0, 'does not conform': 1, incomplete: 3, 'no verdict': 3 };
  if (codes[s.verdict.verdict] === undefined) problems.push(`unknown verdict '${s.verdict.verdict}'`);
  else if (codes[s.verdict.verdict] !== s.verdict.exitCode) problems.push(`exit code ${s.verdict.exitCode} does not go with the verdict ${s.verdict.verdict}`);
  for (const w of s.waivers)
    if (!s.checks.some((c) => c.id === w.check && c.effect === 'waived')) problems.push(`the waiver of ${w.check} was applied to no check`);
  return problems;
}

/** The installed suite against the statement's: same check set and spec digest, or what differs. */
export function suiteDifferences(s: Pick<Statement, 'spec' | 'checkSet'>, installed: SuiteIdentity): string[] {
  const problems: string[] = [];
  if (s.spec.digest !== installed.spec.digest)
    problems.push(`spec digest differs: the statement's ${s.spec.digest}, the installed suite's ${installed.spec.digest}`);
  if (s.checkSet.digest === checkSetDigest(installed.checks)) return problems;
  const mine = new Map(s.checkSet.checks.map((c) => [c.id, c]));
  const theirs = new Map(installed.checks.map((c) => [c.id, c]));
  const missing = [...mine.keys()].filter((id) => !theirs.has(id));
  const added = [...theirs.keys()].filter((id) => !mine.has(id));
  const changed = [...mine.values()]
    .filter((c) => theirs.has(c.id))
    .flatMap((c) => {
      const t = theirs.get(c.id)!;
      if (t.level !== c.level) return [`${c.id} ${c.level} → ${t.level}`];
      if (t.sections.join(',') !== c.sections.join(',')) return [`${c.id} sections ${c.sections.join(',')} → ${t.sections.join(',')}`];
      return [];
    });
  const parts = [
    missing.length > 0 ? `not in the installed suite: ${missing.join(', ')}` : '',
    added.length > 0 ? `only in the installed suite: ${added.join(', ')}` : '',
    changed.length > 0 ? `changed: ${changed.join('; ')}` : '',
  ].filter(Boolean);
  problems.push(`check set differs from the installed suite's${parts.length > 0 ? ` (${parts.join('; ')})` : ' (its digest)'}`);
  return problems;
}

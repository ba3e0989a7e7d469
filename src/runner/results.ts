import type { TestCase, TestModule } from 'vitest/node';
import type { CheckTransport } from '../http/client.ts';
import type { CheckInfo, CheckMeta, RecordedFailure } from '../harness/meta.ts';
import type { Waiver, WaiverState } from '../config/waivers.ts';
import type { GateOptions } from '../config/plan.ts';
import type { PACKAGE_NAME } from '../core/package-name.ts';
import { clauses } from '../spec/clauses.ts';
import { naturalOrder } from '../core/natural-order.ts';

export type Status = 'passed' | 'failed' | 'skipped' | 'not-applicable' | 'error';

export type Verdict = 'conforms' | 'does not conform' | 'incomplete' | 'no verdict';

export type Counts = Record<Status, number>;

/** What a check declares for its scheduling and its explanation, which its result does not carry. */
type Declaration = 'requires' | 'appliesTo' | 'needsOtherKey' | 'toggles' | 'lane' | 'keptBlind' | 'accepts';

/** A check's result: its static description (id, level, sections, title) as it declares it, and what became of it. */
export interface CheckResult extends Omit<CheckInfo, Declaration> {
  /** The suite file the check lives in: auth, scoping, kept-toggle … */
  area: string;
  status: Status;
  /** Why it failed, errored or was skipped. */
  message?: string;
  exchange?: RecordedFailure['exchange'];
  reproduction?: string;
  /** The spec clause the failed assertion enforces, with its statement, so that a report reads without `conform explain`. */
  clause?: { id: string; section: string; text: string };
  durationMs: number;
  /** Requests sent while the check ran; the run's shared reads (walks, uses) count where they were sent. */
  requests?: number;
  /** Of those, the run's shared reads (walks, every use, snapshots), sent for whichever check needed them first; absent when none. */
  sharedRequests?: number;
  /** The run's shared reads the check used, whoever sent them, each with the requests it took; absent when none. */
  sharedReads?: Record<string, number>;
  /** Items the check journaled (wrote through the kept toggle): the end-of-run sweep reads each once; absent when none. */
  itemsJournaled?: number;
  /** Those items, as `user:id`; absent when none. */
  journaledItems?: string[];
  /** Retries, 429s and rate-limit waits while the check ran; absent when there were none. */
  transport?: CheckTransport;
  /** The check read the seed (it ran a property or drew a seeded choice): under another --seed it may send other requests. */
  seeded?: true;
  /** How the outcome weighs in the verdict; absent when it neither gates nor needs a word. Set by decideVerdict. */
  effect?: Effect;
  /** The waiver that names this check, and what became of it. */
  waiver?: { reason: string; expires: string; state: WaiverState };
}

/**
 * How a check's outcome weighs in the verdict, decided in src/runner/verdict.ts so that no reporter has to:
 * - blocks: counts against the gate (a failure at a gating level, an error, or a gating check that could not be judged)
 * - advice: a SHOULD failure while only MUST checks gate; shown as advice, never gating
 * - waived: would block, but a waiver in force accepts it
 * - unexpected-pass: passed although a waiver in force names it (the waiver can go)
 */
export type Effect = 'blocks' | 'advice' | 'waived' | 'unexpected-pass';

/** A partial run: what --only/--skip chose, and the checks they left out. */
export interface Selection {
  only: string[];
  skip: string[];
  /** Checks that ran (or were judged not applicable) / checks the suite has. */
  selected: number;
  total: number;
  deselected: string[];
}

/** "partial run: --only AUTH-* (4 of 67 checks)". */
export function describeSelection(selection: Selection): string {
  const flags = [selection.only.length > 0 ? `--only ${selection.only.join(',')}` : '', selection.skip.length > 0 ? `--skip ${selection.skip.join(',')}` : ''];
  return `partial run: ${flags.filter(Boolean).join(' ')} (${selection.selected} of ${selection.total} checks)`;
}

/** A waiver that names the run's target, and what became of it. */
export interface WaiverOutcome extends Waiver {
  state: WaiverState;
  /** Why an unused waiver was not used. */
  note?: string;
}

/** Checks that vitest collected and ran (those deselected by --only/--skip are left out). */
export function checkResults(modules: readonly TestModule[]): CheckResult[] {
  const results: CheckResult[] = [];
  for (const module of modules) {
    for (const testCase of module.children.allTests()) {
      const result = checkResultOf(testCase);
      if (result) results.push(result);
    }
  }
  return results.sort((a, b) => naturalOrder(a.id, b.id));
}

/** Ids of every check the suite has, and of those --only/--skip left out of the run. */
export function checkIds(modules: readonly TestModule[]): { all: string[]; deselected: string[] } {
  const all: string[] = [];
  const deselected: string[] = [];
  for (const module of modules) {
    for (const testCase of module.children.allTests()) {
      const meta = testCase.meta().conform as CheckMeta | undefined;
      if (!meta) continue;
      all.push(meta.id);
      if (!checkResultOf(testCase)) deselected.push(meta.id);
    }
  }
  return { all: all.sort(naturalOrder), deselected: deselected.sort(naturalOrder) };
}

/** One check's result; undefined for tests that are not checks or were deselected. */
export function checkResultOf(testCase: TestCase): CheckResult | undefined {
  const meta = testCase.meta().conform as CheckMeta | undefined;
  if (!meta) return undefined;
  const result = testCase.result();
  const diagnostic = testCase.diagnostic();
  if (result.state === 'pending' || (result.state === 'skipped' && result.note === undefined && meta.outcome === undefined)) {
    return undefined;
  }
  const base = {
    id: meta.id,
    level: meta.level,
    sections: meta.sections,
    title: meta.title,
    area: meta.area,
    durationMs: Math.round(Math.max(0, (diagnostic?.duration ?? 0) - (meta.waitedMs ?? 0))),
    ...(meta.requests !== undefined ? { requests: meta.requests } : {}),
    ...(meta.sharedRequests !== undefined ? { sharedRequests: meta.sharedRequests } : {}),
    ...(meta.sharedReads !== undefined ? { sharedReads: meta.sharedReads } : {}),
    ...(meta.itemsJournaled !== undefined ? { itemsJournaled: meta.itemsJournaled } : {}),
    ...(meta.journaledItems !== undefined ? { journaledItems: meta.journaledItems } : {}),
    ...(meta.transport !== undefined ? { transport: meta.transport } : {}),
    ...(meta.seeded ? { seeded: true as const } : {}),
  };
  if (result.state === 'passed') return { ...base, status: 'passed' };
  if (result.state === 'skipped') {
    return { ...base, status: meta.outcome === 'not-applicable' ? 'not-applicable' : 'skipped', message: result.note ?? 'skipped' };
  }
  const failure = meta.failure;
  const fallback = result.errors?.map((e) => e.message).join('\n') ?? 'failed';
  return {
    ...base,
    status: meta.outcome === 'failed' ? 'failed' : 'error',
    message: failure?.message || fallback,
    ...(failure?.exchange ? { exchange: failure.exchange } : {}),
    ...(failure?.reproduction ? { reproduction: failure.reproduction } : {}),
    ...clauseOf(failure?.clause),
  };
}

function clauseOf(id: string | undefined): Pick<CheckResult, 'clause'> {
  const clause = id === undefined ? undefined : clauses.find((c) => c.id === id);
  return clause ? { clause: { id: clause.id, section: clause.section, text: clause.statement } } : {};
}

export interface RunResult {
  schemaVersion: 5;
  tool: { name: typeof PACKAGE_NAME; version: string };
  target: { label: string; url: string; profile: string };
  seed: number;
  verdict: Verdict;
  reason: string;
  exitCode: number;
  /** What gates: --fail-on and --allow-incomplete. */
  policy: GateOptions;
  /** Present when --only/--skip left checks out. */
  selection?: Selection;
  /** Waivers that name this target (or every target), and what became of each. */
  waivers: WaiverOutcome[];
  counts: Counts;
  checks: CheckResult[];
  /** Requests the checks sent in all (bounded by --max-requests). */
  requests?: number;
  /** Retries and 429s over the whole run (checks, pre-flight and end-of-run restores), and the pace the rate limit left. */
  transport?: RunTransport;
  /** --budget: the limit, the requests spent, what was left unjudged, and the estimated requests of a full run. */
  budget?: RunBudget;
  /** What the run changed on the target and whether every change was put back. */
  safety: { changedItems: number; restoredAfterRun: number; problems: string[] };
}

export interface RunTransport {
  retries: number;
  /** Answers with status 429; none of them was judged. */
  rateLimited: number;
  /** Time spent paused for the target's rate limit. */
  rateLimitWaitMs: number;
  /** The slowest pace the run had to keep (requests per second), when a rate limit or --rps set one. */
  rps?: number;
  /** The rate limit the catalog declares, when it declares one in a form conform reads. */
  declared?: { requests: number; seconds: number };
}

/** What --budget bought, as the report states it. */
export interface RunBudget {
  /** --budget N. */
  limit: number;
  /** Requests the run sent: pre-flight, checks (their restores included) and the end-of-run sweep. */
  spent: number;
  /** Cases per property: a budgeted run's checks run lean (fewer cases, smaller samples), as the budget table measured them. */
  propertyRuns: number;
  /** Estimated requests of the whole selection without a budget (pre-flight included). */
  estimatedFull: number;
  /** Estimated requests of the checks the budget chose (pre-flight included). */
  estimatedChosen: number;
  /** Checks the budget left unjudged: not scheduled, or refused a request once it was spent. */
  notJudged: string[];
}

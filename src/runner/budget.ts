import { readFileSync } from 'node:fs';
import type { TestModule } from 'vitest/node';
import type { CheckMeta, Level } from '../harness/meta.ts';
import { matchesSelection, selectionPattern } from '../config/selection.ts';
import { NOT_JUDGED_BUDGET, PREFLIGHT_REQUESTS } from '../http/request-budget.ts';
import { AWAY_ROUND } from '../safety/journal.ts';
import type { CheckResult, RunBudget } from './results.ts';

/** One row of src/runner/budget-estimates.json (scripts/budget-estimates.ts regenerates it). */
export interface BudgetEstimate {
  id: string;
  level: Level;
  area: string;
  /** The spec sections it enforces: a budget judges every MUST section once before any twice. */
  sections: string[];
  /** Requests the check sent in a seed-1 run against the embedded reference (restores included). */
  requests: number;
  /**
   * Requests it sent in a lean seed-1 run (as a budgeted run runs it: LEAN_RUNS cases per property, smaller
   * samples), less the run's shared reads it happened to send first (BudgetTable.sharedReads): what a
   * budget pays for it. Absent: `requests`.
   */
  leanRequests?: number;
  /** The run's shared reads the check uses, whoever sends them (BudgetTable.sharedReadCosts prices each once). */
  shares?: string[];
  /**
   * Items it journaled (wrote through the kept toggle) in that lean run: the end-of-run sweep reads each once.
   * When the table has these, a budget keeps back the sweep of the checks it chooses instead of RESTORE_RESERVE.
   */
  sweepReads?: number;
  /**
   * Those items, as `user:id`: with them, the plan keeps back one sweep read per item whichever chosen checks
   * journal it (a budgeted run deals the items as that run did, so the chosen checks write the same ones).
   */
  sweepItems?: string[];
  /** Self-test mutants that name the check in their `kills`: what a request of it buys. */
  kills: number;
  /**
   * Self-test mutants the check failed at MUST level when every check ran against each of them (seed 1,
   * lean like a budgeted run). With it, a budget buys the most mutants not yet found per request; without
   * it, `kills` per request.
   */
  detects?: string[];
}

export interface BudgetTable {
  $comment: string;
  /**
   * Without sharedReadCosts: the run's shared reads in that lean run and the reads the harness sent outside
   * any check, paid once before any check. With it: the reads the harness sent outside any check only.
   */
  sharedReads?: number;
  /**
   * The run's shared reads (each user's collection walk and uses, the catalog, players, proposals, upcoming,
   * types: whichever check needs one first sends it) and the requests each took in that lean run: a budgeted
   * run pays for one with the first chosen check that `shares` it.
   */
  sharedReadCosts?: Record<string, number>;
  checks: BudgetEstimate[];
}

/**
 * Kept back for the end-of-run sweep by a table without each check's sweep (BudgetEstimate.sweepReads).
 * The plan's reserve only: during the run, the client keeps back what the journal's items still call for
 * (Journal.requestsToSettle), and restores are never refused, even past it.
 */
export const RESTORE_RESERVE = 6;

let table: BudgetTable | undefined;

export function budgetTable(): BudgetTable {
  table ??= JSON.parse(readFileSync(new URL('./budget-estimates.json', import.meta.url), 'utf8')) as BudgetTable;
  return table;
}

/** Requests the check sent in the table's seed-1 run of every check against the reference; undefined for a check it lacks. */
export function estimatedRequests(id: string): number | undefined {
  return budgetTable().checks.find((c) => c.id === id)?.requests;
}

export interface BudgetChoice {
  chosen: string[];
  left: string[];
  estimatedFull: number;
  estimatedChosen: number;
  /** Kept back from the checks' share for the end-of-run sweep (and restores of a check cut short). */
  sweepReserve: number;
}

/** A check missing from the table (added since it was generated) is priced like the dearest known one. */
function estimateOf(id: string, rows: ReadonlyMap<string, BudgetEstimate>, fallback: number): BudgetEstimate {
  return rows.get(id) ?? { id, level: 'MUST', area: id, sections: [], requests: fallback, kills: 1 };
}

/**
 * What a budgeted run pays for a check: its requests when it runs lean. None for a check that only judges
 * the run's shared reads, which the checks that start them pay for (the table counts a read once, for the
 * check that sent it).
 */
export function leanCost(e: BudgetEstimate): number {
  return e.leanRequests ?? e.requests;
}

/** What a budget plans with besides the checks' rows: the reads outside the checks, and the shared reads' prices. */
export interface BudgetOverhead {
  /** Requests sent before the checks (the pre-flight); at least PREFLIGHT_REQUESTS. */
  preflight?: number;
  /** Reads paid once whatever is chosen (BudgetTable.sharedReads). */
  sharedReads?: number;
  /** Per shared read, its requests: paid with the first chosen check that `shares` it. */
  sharedReadCosts?: Readonly<Record<string, number>>;
}

const tableOverhead = (): BudgetOverhead => {
  const t = budgetTable();
  return { sharedReads: t.sharedReads ?? 0, ...(t.sharedReadCosts ? { sharedReadCosts: t.sharedReadCosts } : {}) };
};

/**
 * Chooses the checks a budget of `limit` requests pays for, among the selected `ids`: first, by value per
 * request, a MUST check for every section no chosen check judges yet; then the rest by value per request;
 * each only while the estimated total (pre-flight, the shared reads of the chosen checks and the sweep
 * reserve included) fits. A check's price is its lean requests and the shared reads it uses that no check
 * chosen before it pays for. A check's value is the self-test mutants it finds that no check chosen before
 * it finds (greedy coverage), or, for a check the table has no detections of, the mutants that name it.
 * The greedy plans of the budget and of a few smaller ones (they fit too) are compared, and the best is
 * improved by leaving out one of its checks at a time and planning again: a plan that finds more mutants
 * replaces it (greedy coverage can spend on a check whose finds others share).
 */
export function chooseWithin(
  limit: number,
  ids: readonly string[],
  estimates: readonly BudgetEstimate[] = budgetTable().checks,
  overhead: BudgetOverhead = estimates === budgetTable().checks ? tableOverhead() : {},
): BudgetChoice {
  const rows = new Map(estimates.map((e) => [e.id, e]));
  const dearest = Math.max(1, ...estimates.map((e) => e.requests));
  const set = prepare(
    ids.map((id) => estimateOf(id, rows, dearest)),
    overhead,
  );
  if (!estimates.some((e) => e.detects)) return greedyChoice(limit, set, set.candidates, estimates, overhead).choice;
  // Greedy coverage is not monotonic in the budget: the plan of a slightly smaller one, which fits too, may find more.
  let best = improved(limit, set, estimates, overhead);
  for (let less = 1; less <= SMALLER_BUDGETS && limit - less > 0; less++) {
    const smaller = improved(limit - less, set, estimates, overhead);
    if (smaller.found > best.found) best = smaller;
  }
  return best.choice;
}

/** The greedy plan of `limit`, improved by leaving out one chosen check at a time and planning again. */
function improved(limit: number, set: PreparedSet, estimates: readonly BudgetEstimate[], overhead: BudgetOverhead): { choice: BudgetChoice; found: number } {
  let candidates = set.candidates;
  let best = greedyChoice(limit, set, candidates, estimates, overhead);
  for (let round = 0; round < MAX_IMPROVEMENTS; round++) {
    let better: { left: string; plan: { choice: BudgetChoice; found: number } } | undefined;
    for (const left of best.choice.chosen) {
      const plan = greedyChoice(
        limit,
        set,
        candidates.filter((p) => p.e.id !== left),
        estimates,
        overhead,
      );
      if (plan.found > best.found) {
        better = { left, plan };
        break;
      }
    }
    if (!better) break;
    const { left } = better;
    candidates = candidates.filter((p) => p.e.id !== left);
    best = better.plan;
  }
  return best;
}

/** Rounds of the drop-one improvement: each costs a greedy pass per chosen check. */
const MAX_IMPROVEMENTS = 4;
/** Check ids in their natural order (one collator: a budget compares ids in thousands of greedy passes). */
const byId = new Intl.Collator('en', { numeric: true }).compare;
/** Smaller budgets whose greedy plans a budget also tries. */
const SMALLER_BUDGETS = 8;

/** A candidate as the greedy passes read it: its mutants, shared reads and swept items as indices. */
interface Prepared {
  e: BudgetEstimate;
  detects: Int32Array | undefined;
  shares: Int32Array;
  sweepItems: Int32Array | undefined;
}

interface PreparedSet {
  candidates: readonly Prepared[];
  mutants: number;
  /** Per shared read index, its price. */
  shareCosts: number[];
  items: number;
}

function prepare(candidates: readonly BudgetEstimate[], overhead: BudgetOverhead): PreparedSet {
  const index = (map: Map<string, number>, key: string) => {
    let i = map.get(key);
    if (i === undefined) map.set(key, (i = map.size));
    return i;
  };
  const mutants = new Map<string, number>();
  const shares = new Map<string, number>();
  const items = new Map<string, number>();
  const readCosts = overhead.sharedReadCosts ?? {};
  const prepared = candidates.map((e) => ({
    e,
    detects: e.detects ? Int32Array.from(e.detects, (m) => index(mutants, m)) : undefined,
    shares: Int32Array.from(e.shares ?? [], (k) => index(shares, k)),
    sweepItems: e.sweepItems ? Int32Array.from(e.sweepItems, (k) => index(items, k)) : undefined,
  }));
  const shareCosts = [...shares.keys()].map((k) => readCosts[k] ?? 1);
  return { candidates: prepared, mutants: mutants.size, shareCosts, items: items.size };
}

function greedyChoice(
  limit: number,
  set: PreparedSet,
  candidates: readonly Prepared[],
  estimates: readonly BudgetEstimate[],
  overhead: BudgetOverhead,
): { choice: BudgetChoice; found: number } {
  const paid = new Uint8Array(set.shareCosts.length);
  // With each check's sweep measured, a budget keeps back the sweep of the chosen checks that write (a writing check
  // cut short still restores its items: the client keeps back what that takes as the run goes). Without it,
  // RESTORE_RESERVE whatever is chosen.
  const sweepPerCheck = estimates.some((e) => e.sweepReads !== undefined);
  const swept = new Uint8Array(set.items);
  const sweepOf = (p: Prepared) => {
    if (!sweepPerCheck) return 0;
    if (!p.sweepItems) return p.e.sweepReads ?? 0;
    let fresh = 0;
    for (const item of p.sweepItems) if (!swept[item]) fresh++;
    return fresh;
  };
  // While a writing check has an item at the other kept value, the client keeps back a round of its restore beyond the
  // sweep read (Journal.requestsToSettle); the check's own put-back makes it unneeded on a conforming server, so the
  // plan keeps it back once, for the first writing check it chooses, and spends it on nothing.
  let awayKept = false;
  const writes = (p: Prepared) => sweepPerCheck && (p.sweepItems ? p.sweepItems.length > 0 : (p.e.sweepReads ?? 0) > 0);
  const cost = (p: Prepared) => {
    let c = leanCost(p.e) + sweepOf(p) + (writes(p) && !awayKept ? AWAY_ROUND : 0);
    for (const k of p.shares) if (!paid[k]) c += set.shareCosts[k]!;
    return c;
  };
  const preflight = Math.max(PREFLIGHT_REQUESTS, overhead.preflight ?? 0);
  let reserve = sweepPerCheck ? 0 : RESTORE_RESERVE;
  let spent = preflight + reserve + (overhead.sharedReads ?? 0);
  const chosen = new Set<string>();
  const found = new Uint8Array(set.mutants);
  let foundCount = 0;
  const judged = new Set<string>();
  const gain = (p: Prepared) => {
    if (!p.detects) return p.e.kills;
    let fresh = 0;
    for (const m of p.detects) if (!found[m]) fresh++;
    return fresh;
  };
  interface Scored {
    p: Prepared;
    cost: number;
    perRequest: number;
    killsPerRequest: number;
  }
  const score = (p: Prepared): Scored => {
    const c = cost(p);
    // Value per request: a check of no requests of its own counts as one, so that the mutants it finds still rank it.
    const price = Math.max(1, c);
    return { p, cost: c, perRequest: gain(p) / price, killsPerRequest: p.e.kills / price };
  };
  const better = (a: Scored, b: Scored) => b.perRequest - a.perRequest || b.killsPerRequest - a.killsPerRequest || a.cost - b.cost || byId(a.p.e.id, b.p.e.id);
  /** Takes, one at a time, the best of the candidates `eligible` admits that still fit. */
  const takeWhile = (eligible: (e: BudgetEstimate) => boolean) => {
    for (;;) {
      let top: Scored | undefined;
      for (const p of candidates) {
        if (chosen.has(p.e.id) || !eligible(p.e)) continue;
        const s = score(p);
        if (spent + s.cost <= limit && (!top || better(s, top) < 0)) top = s;
      }
      if (!top) return;
      const pick = top.p;
      chosen.add(pick.e.id);
      reserve += sweepOf(pick);
      if (writes(pick) && !awayKept) {
        reserve += AWAY_ROUND;
        awayKept = true;
      }
      for (const item of pick.sweepItems ?? []) swept[item] = 1;
      spent += top.cost;
      for (const k of pick.shares) paid[k] = 1;
      for (const m of pick.detects ?? []) {
        if (!found[m]) foundCount++;
        found[m] = 1;
      }
      if (pick.e.level === 'MUST') for (const s of pick.e.sections) judged.add(s);
    }
  };
  // Sections, not suite files: judging every suite file once first cost 12 points of the mutants a
  // budget of 120 covers (55% against 67%, counted by the mutants' `kills`).
  takeWhile((e) => e.level === 'MUST' && e.sections.some((s) => !judged.has(s)));
  takeWhile(() => true);
  const order = (list: string[]) => list.sort(byId);
  const choice = {
    chosen: order([...chosen]),
    left: order(candidates.filter((p) => !chosen.has(p.e.id)).map((p) => p.e.id)),
    estimatedFull: preflight + candidates.reduce((sum, p) => sum + p.e.requests, 0),
    estimatedChosen: spent - reserve,
    sweepReserve: reserve,
  };
  return { choice, found: foundCount };
}

/** The result of a check the budget did not schedule. */
export function notScheduled(info: Pick<CheckResult, 'id' | 'level' | 'sections' | 'title' | 'area'>, limit: number): CheckResult {
  return {
    id: info.id,
    level: info.level,
    sections: info.sections,
    title: info.title,
    area: info.area,
    status: 'skipped',
    message: `${NOT_JUDGED_BUDGET}: not scheduled within --budget ${limit}`,
    durationMs: 0,
    requests: 0,
  };
}

export function isBudgetUnjudged(check: Pick<CheckResult, 'status' | 'message'>): boolean {
  return check.status === 'skipped' && (check.message ?? '').includes(NOT_JUDGED_BUDGET);
}

/** What the run declared and did not run, as the budget left it: check id → its static description. */
export function declaredChecks(modules: readonly TestModule[]): Map<string, CheckMeta> {
  const found = new Map<string, CheckMeta>();
  for (const module of modules) {
    for (const testCase of module.children.allTests()) {
      const meta = testCase.meta().conform as CheckMeta | undefined;
      if (meta) found.set(meta.id, meta);
    }
  }
  return found;
}

/** Requests the checks' client sent in all (each check records the running total when it ends). */
export function checkClientSent(metas: Iterable<CheckMeta>): number {
  let most = 0;
  for (const meta of metas) most = Math.max(most, meta.runSentSoFar ?? 0);
  return most;
}

/** A selection pattern of exactly these ids; none at all matches no check. */
export function chosenPattern(chosen: readonly string[]): RegExp {
  return selectionPattern(chosen, []) ?? /^(?!)/;
}

/** A run's budget as execute() applies it: the checks it pays for, as a test-name pattern, and the checks' share. */
export interface AppliedBudget extends BudgetChoice {
  limit: number;
  pattern: RegExp;
  /** Requests the checks' client may send, restores and the journal's reserve for them included (restores are sent past it). */
  checkBudget: number;
}

/** The budget's choice among the checks --only/--skip select; `alreadySent`: the pre-flight's requests. */
export function planBudget(limit: number, only: readonly string[], skip: readonly string[], alreadySent: number): AppliedBudget {
  const ids = budgetTable()
    .checks.map((e) => e.id)
    .filter((id) => matchesSelection(id, only, skip));
  const choice = chooseWithin(limit, ids, budgetTable().checks, { ...tableOverhead(), preflight: alreadySent });
  return { ...choice, limit, pattern: chosenPattern(choice.chosen), checkBudget: Math.max(0, limit - alreadySent) };
}

/** Checks --only/--skip selected that the budget did not schedule, as unjudged results. */
export function budgetLeftOut(
  modules: readonly TestModule[],
  deselected: readonly string[],
  plan: { only: readonly string[]; skip: readonly string[]; budget?: number },
): CheckResult[] {
  const declared = declaredChecks(modules);
  return deselected
    .filter((id) => matchesSelection(id, plan.only, plan.skip))
    .flatMap((id) => {
      const meta = declared.get(id);
      return meta ? [notScheduled(meta, plan.budget ?? 0)] : [];
    });
}

export function budgetReport(budget: AppliedBudget, checks: readonly CheckResult[], spent: number, propertyRuns: number): RunBudget {
  return {
    limit: budget.limit,
    spent,
    propertyRuns,
    estimatedFull: budget.estimatedFull,
    estimatedChosen: budget.estimatedChosen,
    notJudged: checks.filter(isBudgetUnjudged).map((c) => c.id),
  };
}

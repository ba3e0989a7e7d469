import fc from 'fast-check';
import { test, type RunnerTestFile, type TestContext } from 'vitest';
import { areaBeingDeclared } from './areas.ts';
import { roleOf, Schedule, type ScheduledCheck } from './schedule.ts';
import { newScope, runInScope, type CheckScope } from '../http/check-scope.ts';
import { CheckFailure, RobustnessFailure, TransportError } from '../core/errors.ts';
import type { Api } from '../http/api.ts';
import { checkTransport, type ApiClient } from '../http/client.ts';
import { toCurl } from '../http/curl.ts';
import type { Exchange } from '../http/exchange.ts';
import { KeptWriter } from '../safety/kept.ts';
import type { CheckInfo, CheckMeta, RecordedFailure } from './meta.ts';
import { prefetched } from './prefetch.ts';
import { missingCapabilities } from '../spec/profiles.ts';
import { session, verifyWhenWritesEnd, type Session } from './session.ts';
import { BudgetSpentError, budgetSpentIn, NOT_JUDGED_BUDGET, outsideBudget } from '../http/request-budget.ts';
import type { Discovery } from './discovery.ts';
import type { TargetContext } from './target.ts';

export interface CheckContext {
  api: Api;
  target: TargetContext;
  discover: Discovery;
  /** The only write path: journals, and restores every touched value after the check. */
  kept: KeptWriter;
  /** Ends the check as skipped: its precondition is absent from the target's data. */
  skip(reason: string): never;
  /** Returns the value, or skips the check with `reason` when it is missing (an absent precondition). */
  need<T>(value: T | undefined | null, reason: string): T;
  /** Runs a fast-check property with the run's seed; failures carry seed, path and counterexample. */
  property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options?: { runs?: number }): Promise<void>;
  /**
   * fc.commands for a model-based property, with the run's --fc-replay-path: fast-check replays a
   * model run's counterexample only with the replay path of the commands that ran, which the failure prints.
   */
  commands<Model extends object, Real>(
    commandArbs: fc.Arbitrary<fc.AsyncCommand<Model, Real>>[],
    constraints?: { maxCommands?: number },
  ): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real>>>;
  /**
   * Runs requests that put back what a request the server should have refused changed (the same wrong door
   * with the original values), and the reads that verify them: safety first, sent even once --budget is spent.
   */
  putBack<T>(body: () => Promise<T>): Promise<T>;
}

class SkipSignal extends Error {}

const BODY_LIMIT = 2_000;

/**
 * Declares one conformance check: a stable id, its level and spec section, and the test body.
 * Every check of a run starts at once and waits for its turn (schedule.ts): their requests overlap
 * within --concurrency and --rps, and no check reads a kept flag while another changes it.
 */
export function check(info: CheckInfo, body: (t: CheckContext) => Promise<void>): void {
  const meta: CheckMeta = { ...info, area: areaBeingDeclared() };
  test.concurrent(`${info.id} ${info.level} ${info.title}`, { meta: { conform: meta } }, async (ctx) => {
    const s = session();
    // Every run deals the own-items shares as a run of every check does: a check toggles and watches the same items in a
    // partial run (--only, the self-test's kills), in a lean one (as the budget table measured it) and in a full one, so
    // that a failure seen in a full run is seen again with --only.
    if (!s.schedule) s.discovery.declareOwnItemChecks(declaredOwnItemChecks(ctx.task.file));
    s.schedule ??= new Schedule(
      selectedChecks(ctx.task.file),
      (lane, checks) => s.discovery.laneAvailable(lane, checks),
      (ids) => s.discovery.dealShares(ids),
    );
    verifyWhenWritesEnd(s, s.schedule);
    const turn = s.schedule.turn(info.id);
    try {
      await judge(ctx, s, info, body, turn.start);
    } finally {
      turn.end();
    }
  });
}

/** The checks the run will start (those --only/--skip leave out vitest marks as skipped), in declaration order. */
function selectedChecks(file: RunnerTestFile): ScheduledCheck[] {
  const found: ScheduledCheck[] = [];
  const visit = (tasks: RunnerTestFile['tasks']): void => {
    for (const task of tasks) {
      if (task.type === 'suite') visit(task.tasks);
      else if (task.mode === 'run' && task.meta.conform) {
        const { id, lane } = task.meta.conform;
        found.push({ id, role: roleOf(task.meta.conform), ...(lane ? { lane } : {}) });
      }
    }
  };
  visit(file.tasks);
  return found;
}

/** Every check of the suites that declares the own-items lane, selected or not, in declaration order. */
function declaredOwnItemChecks(file: RunnerTestFile): string[] {
  const found: string[] = [];
  const visit = (tasks: RunnerTestFile['tasks']): void => {
    for (const task of tasks) {
      if (task.type === 'suite') visit(task.tasks);
      else if (task.meta.conform?.lane === 'own-items') found.push(task.meta.conform.id);
    }
  };
  visit(file.tasks);
  return found;
}

async function judge(ctx: TestContext, s: Session, info: CheckInfo, body: (t: CheckContext) => Promise<void>, myTurn: () => Promise<void>): Promise<void> {
  const recorded = ctx.task.meta.conform!;
  const missing = missingCapabilities(s.target.profile, info.requires ?? []);
  if (missing.length > 0) {
    recorded.outcome = 'not-applicable';
    ctx.skip(`not applicable to the ${s.target.profile} profile (needs ${missing.join(', ')})`);
  }
  if (info.appliesTo && !info.appliesTo.includes(s.target.profile)) {
    recorded.outcome = 'not-applicable';
    ctx.skip(`not applicable to the ${s.target.profile} profile (applies to ${info.appliesTo.join(', ')})`);
  }
  if (info.needsOtherKey && s.target.keys.other === undefined) {
    ctx.skip("precondition: needs a second user's key (--other-key or CONFORM_OTHER_API_KEY)");
  }
  const arrived = performance.now();
  await myTurn();
  recorded.waitedMs = Math.round(performance.now() - arrived);

  const scope = newScope(info.id, info.toggles === true, () => s.discovery.settled(), info.keptBlind === true);
  const kept = new KeptWriter(s.api, s.journal, scope);
  let skipReason: string | undefined;
  let thrown: unknown;
  let restoreFailed = false;
  const t: CheckContext = {
    api: s.api,
    target: seedWatched(s.target, recorded),
    discover: s.discovery,
    kept,
    skip(reason) {
      throw new SkipSignal(reason);
    },
    need(value, reason) {
      if (value === undefined || value === null) throw new SkipSignal(reason);
      return value;
    },
    property: (arbitrary, predicate, options) => {
      recorded.seeded = true;
      return runProperty(info, s.target, recorded, arbitrary, predicate, options);
    },
    putBack: (body) => outsideBudget(body),
    commands: (commandArbs, constraints = {}) =>
      fc.commands(commandArbs, { ...constraints, ...(s.target.fcReplayPath !== undefined ? { replayPath: s.target.fcReplayPath } : {}) }),
  };
  await runInScope(scope, async () => {
    try {
      await body(t);
    } catch (error) {
      if (error instanceof SkipSignal) skipReason = error.message;
      else thrown = error;
    }
    try {
      // Restores are sent even once --budget is spent: safety first.
      await outsideBudget(() => kept.restoreAll());
    } catch (error) {
      thrown ??= error;
      restoreFailed = true;
    }
    // Shared reads this check started in the background count among its requests: wait for them.
    await s.discovery.settled();
  });
  recorded.requests = scope.seqs.length;
  if (scope.sharedSeqs.length > 0) recorded.sharedRequests = scope.sharedSeqs.length;
  if (kept.itemsJournaled > 0) {
    recorded.itemsJournaled = kept.itemsJournaled;
    recorded.journaledItems = kept.journaledItems;
  }
  const sharedReads = s.discovery.sharedReadsOf(info.id);
  if (Object.keys(sharedReads).length > 0) recorded.sharedReads = sharedReads;
  recorded.runSentSoFar = s.client.counts().requests;
  const transport = checkTransport(scope.transport, s.client.counts().rps);
  if (transport) recorded.transport = transport;
  if (!restoreFailed && unjudgedForBudget(scope, thrown, s.client)) {
    ctx.skip(`${NOT_JUDGED_BUDGET}: a request was refused once the run's --budget was spent`);
  }
  if (thrown !== undefined) {
    recordFailure(recorded, thrown, s.client, scope);
    throw thrown;
  }
  if (skipReason !== undefined) ctx.skip(`precondition: ${skipReason}`);
}

/** The run's context as a check sees it: reading `seed` marks the check as one whose requests depend on it. */
function seedWatched(target: TargetContext, recorded: CheckMeta): TargetContext {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (property === 'seed') recorded.seeded = true;
      return Reflect.get(object, property, receiver);
    },
  });
}

/**
 * A check that had a request refused for the budget is left unjudged whatever it concluded, and so is
 * one that errs (not fails) once the budget refused anything: a shared read it awaited may have been refused.
 */
function unjudgedForBudget(scope: CheckScope, thrown: unknown, client: ApiClient): boolean {
  if (budgetSpentIn(scope) || thrown instanceof BudgetSpentError) return true;
  return thrown !== undefined && !isAssertion(thrown) && client.budgetRefusals > 0;
}

function isAssertion(error: unknown): boolean {
  return error instanceof CheckFailure || (error instanceof Error && error.name === 'AssertionError');
}

function recordFailure(meta: CheckMeta, error: unknown, client: ApiClient, scope: CheckScope): void {
  meta.outcome = isAssertion(error) ? 'failed' : 'error';
  // A robustness failure of a MUST or SHOULD check: reported (and gated) at the ROBUSTNESS level.
  if (error instanceof RobustnessFailure) meta.level = 'ROBUSTNESS';
  // The exchange the failure names, whoever sent it (a shared read), else the check's own last one.
  const referenced =
    error instanceof CheckFailure && error.exchangeId !== undefined
      ? client.exchangesSince(error.exchangeId - 1).find((e) => e.seq === error.exchangeId)
      : undefined;
  const own = new Set(scope.seqs);
  const last =
    scope.seqs.length > 0
      ? client
          .exchangesSince(scope.seqs[0]! - 1)
          .filter((e) => own.has(e.seq))
          .at(-1)
      : undefined;
  // A shared single read the check took after its own last request (sent for another check first) is what it judged last.
  const takenSeq = scope.taken.at(-1);
  const taken = takenSeq !== undefined && takenSeq > (last?.seq ?? 0) ? client.exchangesSince(takenSeq - 1).find((e) => e.seq === takenSeq) : undefined;
  const shown = referenced ?? (meta.outcome === 'failed' ? (taken ?? last) : undefined);
  const message = error instanceof Error ? error.message : String(error);
  const failure: RecordedFailure = {
    message: meta.outcome === 'error' && !(error instanceof TransportError) ? `harness error: ${message}` : message,
    ...(error instanceof CheckFailure && error.clause !== undefined ? { clause: error.clause } : {}),
    ...(shown ? { exchange: summarize(shown), reproduction: toCurl(shown.request) } : {}),
  };
  if (meta.failure?.reproduction && shown) failure.reproduction = `${meta.failure.reproduction}\n${toCurl(shown.request)}`;
  else if (meta.failure?.reproduction) failure.reproduction = meta.failure.reproduction;
  meta.failure = failure;
}

function summarize(exchange: Exchange): NonNullable<RecordedFailure['exchange']> {
  const { request, response } = exchange;
  const sent = `${request.method} ${request.url}${request.body !== undefined ? ` ${trim(request.body)}` : ''}`;
  return { request: sent, status: response.status, responseBody: trim(response.text) };
}

function trim(text: string): string {
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length} bytes)` : text;
}

async function runProperty<T>(
  info: CheckInfo,
  target: TargetContext,
  meta: CheckMeta,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: { runs?: number } = {},
): Promise<void> {
  const numRuns = options.runs ?? target.runs;
  // A read-only property's runs are independent; one that writes depends on the state each run leaves.
  const checked =
    !info.toggles && !target.fcPath
      ? await prefetched(arbitrary, predicate, { seed: target.seed, numRuns, width: Math.max(4, 2 * target.concurrency) })
      : predicate;
  const result = await fc.check(fc.asyncProperty(arbitrary, checked), {
    seed: target.seed,
    numRuns,
    // A replay shows the printed counterexample itself: shrinking it again could go elsewhere on a target whose state moved on.
    ...(target.fcPath ? { path: target.fcPath, endOnFailure: true } : {}),
    // A budgeted run does not shrink: each shrink step costs requests that would leave the failure unjudged.
    ...(target.lean && !target.fcPath ? { endOnFailure: true } : {}),
  });
  if (!result.failed) return;
  const cause = result.errorInstance;
  if (!isAssertion(cause)) throw cause;
  const targetArgs = target.label === 'embedded reference' ? '' : `--target ${target.label} --profile ${target.profile} `;
  const replayPath = modelReplayPath(result.counterexample);
  const replay =
    `conform ${targetArgs}--only ${info.id} --seed ${result.seed} --fc-path ${result.counterexamplePath ?? ''}` +
    (replayPath !== undefined ? ` --fc-replay-path ${replayPath}` : '');
  meta.failure = { message: '', reproduction: replay };
  const reason = cause instanceof Error ? cause.message : String(cause);
  const Failure = cause instanceof RobustnessFailure ? RobustnessFailure : CheckFailure;
  throw new Failure(
    `${reason}\ncounterexample (${target.lean && !target.fcPath ? 'not shrunk in a lean run: replay without --budget to shrink' : `after ${result.numShrinks} shrinks`}): ${fc.stringify(result.counterexample)}\n` +
      `fast-check seed ${result.seed}, path ${result.counterexamplePath}${replayPath !== undefined ? `, replay path ${replayPath}` : ''}; replay: ${replay}`,
    cause instanceof CheckFailure ? cause.exchangeId : undefined,
    cause instanceof CheckFailure ? cause.clause : undefined,
  );
}

/**
 * The replay path of a model run's commands (fast-check's fc.commands), from the counterexample: its
 * commands carry it in their printed form as replayPath="…". Undefined for a property without commands.
 */
function modelReplayPath(counterexample: unknown): string | undefined {
  const values: unknown[] = Array.isArray(counterexample) ? counterexample : [counterexample];
  for (const value of values) {
    const metadata = (value as { metadataForReplay?: unknown } | null)?.metadataForReplay;
    if (typeof metadata !== 'function') continue;
    const found = /replayPath="([^"]*)"/.exec(String((metadata as () => unknown).call(value)));
    if (found) return found[1];
  }
  return undefined;
}

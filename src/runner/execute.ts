import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter } from 'vitest/node';
import { readAhead, type OpenTarget, type Prefetch } from './open-target.ts';
import type { Exchange } from '../http/exchange.ts';
import type { RunPlan } from '../config/plan.ts';
import type { TargetContext } from '../harness/target.ts';
import { UsageError } from '../core/errors.ts';
import { PACKAGE_NAME } from '../core/package-name.ts';
import { checkIds, checkResults, type RunResult, type Selection } from './results.ts';
import { cutByDeadline, paceFor, runTransport, timeNeeded } from './pace.ts';
import { packageRoot, type SuiteRunner } from './vitest-host.ts';
import { settleAfterStop, settleJournal, type SafetyReport } from '../safety/restore.ts';
import { stopRun } from '../harness/stop.ts';
import { offerPrefetched, type PrefetchOffer } from '../harness/prefetch-channel.ts';
import { hearUnscopedTransport } from '../harness/run-transport-channel.ts';
import { isCheckRequest } from '../harness/discovery.ts';
import { selectionPattern } from '../config/selection.ts';
import { countStatuses, decideVerdict } from './verdict.ts';
import { todayUtc, waiversFor } from '../config/waivers.ts';
import { budgetLeftOut, budgetReport, checkClientSent, declaredChecks, estimatedRequests, isBudgetUnjudged, planBudget } from './budget.ts';
import { LEAN_RUNS } from '../config/options.ts';
import { preflightRequests } from '../http/request-budget.ts';
import { naturalOrder } from '../core/natural-order.ts';

/**
 * What a run takes from its plan (the self-test makes one per job). `lean`: the checks run as a budgeted
 * run runs them, without its limit (scripts/budget-estimates.ts measures them so); --budget implies it.
 */
export type ExecutePlan = Pick<RunPlan, 'settings' | 'deadlineSeconds' | 'only' | 'skip' | 'gate' | 'waivers' | 'budget'> & { lean?: boolean };

/** What only the caller of one run knows. */
export interface RunHooks {
  journalPath: string;
  /** The rate limit the catalog declares: the run starts a little below it and never goes above it. */
  declaredRateLimit?: { requests: number; seconds: number };
  reporters?: Reporter[];
  /** The signal that interrupted the run, if one did. */
  interrupted?: () => string | undefined;
  /**
   * Aborted when the run is interrupted (its reason names the signal): the checks stop sending at once,
   * their requests in flight are aborted, and the restore starts without waiting for them to wind down.
   */
  stop?: AbortSignal;
}

/** How long the CLI waits for the checks' worker to say it stopped before restoring anyway. */
const STOP_ANSWER_MS = 500;

export function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

let runCounter = 0;

/**
 * One conformance run against an open target: runs the selected checks, sweeps the safety journal,
 * and builds the results model with its verdict. Used by the CLI and by the mutation self-test.
 */
export async function execute(
  runner: SuiteRunner,
  target: OpenTarget,
  plan: ExecutePlan,
  hooks: RunHooks,
): Promise<{ result: RunResult; harnessErrors: string[] }> {
  const userPattern = selectionPattern(plan.only, plan.skip);
  // A run with no pre-flight (the self-test) sends here what the CLI's pre-flight hands to the checks.
  if (target.counts().requests === 0) await readAhead(target);
  // The pre-flight as the CLI sends it, even where none was sent (the self-test): a budget measured there holds for a real run.
  const preflight = Math.max(target.counts().requests, preflightRequests(target.keys.other !== undefined));
  const budget = plan.budget !== undefined ? planBudget(plan.budget, plan.only, plan.skip, preflight) : undefined;
  const pattern = budget ? budget.pattern : userPattern;
  const lean = budget !== undefined || plan.lean === true;
  const startedAt = Date.now();
  const deadline = startedAt + plan.deadlineSeconds * 1000;
  const context: TargetContext = {
    ...plan.settings,
    ...(lean ? { lean, runs: Math.min(plan.settings.runs, LEAN_RUNS) } : {}),
    ...paceFor(plan.settings.rps, hooks.declaredRateLimit),
    runId: `${process.pid}-${++runCounter}`,
    baseUrl: target.baseUrl,
    profile: target.profile,
    label: target.label,
    keys: target.keys,
    ...(target.network ? { network: target.network } : {}),
    deadline,
    journalPath: hooks.journalPath,
    ...(budget ? { checkBudget: budget.checkBudget } : {}),
    preflight: target.preflightAnswers,
    ...(target.prefetching ? { prefetchedLater: true } : {}),
  };
  const apiFor = (user: 'primary' | 'other') => target.api(user);
  let restoring: Promise<{ report: SafetyReport; workerStopped: boolean }> | undefined;
  let runEnded = false;
  const stop = () => {
    restoring ??= (async () => {
      const why = `the run was interrupted (${String(hooks.stop?.reason ?? 'stop')})`;
      // Said again until the worker answers: it may not have started its checks (and listened) yet.
      let workerStopped = false;
      for (const started = Date.now(); !workerStopped && !runEnded && Date.now() - started < STOP_ANSWER_MS; ) {
        workerStopped = await stopRun(context.runId, why, 50);
      }
      void runner.cancel();
      return { report: await settleAfterStop(hooks.journalPath, apiFor), workerStopped };
    })();
  };
  if (hooks.stop?.aborted) stop();
  else hooks.stop?.addEventListener('abort', stop, { once: true });
  const prefetching = target.prefetching;
  const stopOffering = prefetching ? offerPrefetched(context.runId, prefetchOffer(target.prefetched, prefetching)) : () => {};
  const unscoped = hearUnscopedTransport(context.runId);
  const { modules, unhandled } = await runner
    .run(context, {
      ...(pattern ? { testNamePattern: pattern } : {}),
      ...(hooks.reporters ? { reporters: hooks.reporters } : {}),
    })
    .finally(() => {
      runEnded = true;
      stopOffering();
      hooks.stop?.removeEventListener('abort', stop);
    });
  const early = await restoring;
  // A worker that did not answer the stop may have changed something after the early sweep read the journal.
  const late = early?.workerStopped ? undefined : await settleJournal(hooks.journalPath, apiFor, { trustVerified: early === undefined });
  const safety: SafetyReport = late ? { ...late, restoredAfterRun: late.restoredAfterRun + (early?.report.restoredAfterRun ?? 0) } : early!.report;
  const ids = checkIds(modules);
  const left = budget ? budgetLeftOut(modules, ids.deselected, plan) : [];
  const checks = [...checkResults(modules), ...left].sort((a, b) => naturalOrder(a.id, b.id));
  // A suite module that failed to load leaves no check either: that is no verdict, not a selection to fix.
  const loadError = checks.length === 0 ? modules.flatMap((m) => m.errors())[0] : undefined;
  if (loadError) throw new Error(`the checks could not be loaded: ${loadError.message}`);
  if (checks.length === 0 && unhandled.length === 0 && !hooks.interrupted?.()) {
    throw new UsageError(`the selection (--only ${plan.only.join(',') || '-'} --skip ${plan.skip.join(',') || '-'}) matches no check; see conform --list`);
  }
  const harnessErrors = unhandled.map((e) => (e instanceof Error ? e.message : String(e)));
  const userDeselected = budget ? ids.deselected.filter((id) => !left.some((c) => c.id === id)) : ids.deselected;
  // A selection that leaves nothing out (e.g. --only '*') is a full run.
  const selection: Selection | undefined =
    userPattern && userDeselected.length > 0
      ? { only: [...plan.only], skip: [...plan.skip], selected: ids.all.length - userDeselected.length, total: ids.all.length, deselected: userDeselected }
      : undefined;
  const gate = plan.gate;
  const interruptedBy = hooks.interrupted?.();
  const decision = decideVerdict(checks, gate, {
    ...(interruptedBy ? { interrupted: interruptedBy } : {}),
    deadlinePassed: Date.now() > deadline,
    rateLimitCut: cutByDeadline(checks) > 0,
    timeNeeded: timeNeeded(checks, Date.now() - startedAt, estimatedRequests),
    harnessErrors: harnessErrors.length,
    safetyProblems: safety.problems.length,
    ...(selection ? { selection } : {}),
    waivers: waiversFor(plan.waivers, target),
    today: todayUtc(),
    knownChecks: ids.all,
    ...(budget ? { budget: { limit: budget.limit, notJudged: checks.filter(isBudgetUnjudged).length, estimatedFull: budget.estimatedFull } } : {}),
  });
  const result: RunResult = {
    schemaVersion: 5,
    tool: { name: PACKAGE_NAME, version: version() },
    target: { label: target.label, url: target.baseUrl, profile: target.profile },
    seed: plan.settings.seed,
    verdict: decision.verdict,
    reason: decision.reason,
    exitCode: decision.exitCode,
    policy: gate,
    ...(selection ? { selection } : {}),
    waivers: decision.waivers,
    counts: countStatuses(decision.checks),
    requests: decision.checks.reduce((sum, c) => sum + (c.requests ?? 0), 0),
    transport: runTransport(checks, target.counts(), hooks.declaredRateLimit, unscoped.counts),
    checks: decision.checks,
    safety,
    ...(budget
      ? { budget: budgetReport(budget, decision.checks, target.counts().requests + checkClientSent(declaredChecks(modules).values()), context.runs) }
      : {}),
  };
  unscoped.stop();
  return { result, harnessErrors };
}

/** The prefetch's parts as the worker takes them: the shared answers, the hand-over, and the answers to the checks' own requests. */
function prefetchOffer(prefetched: Record<string, Exchange>, prefetching: Prefetch): PrefetchOffer {
  const part = (checkRequests: boolean) => () => Object.fromEntries(Object.entries(prefetched).filter(([key]) => isCheckRequest(key) === checkRequests));
  return { shared: prefetching.shared.then(part(false)), sent: prefetching.sent, requests: prefetching.answered.then(part(true)) };
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter } from 'vitest/node';
import type { OpenTarget } from './open-target.ts';
import type { RunPlan } from '../config/plan.ts';
import type { TargetContext } from '../harness/target.ts';
import { UsageError } from '../core/errors.ts';
import { PACKAGE_NAME } from '../core/package-name.ts';
import { checkIds, checkResults, type RunResult, type Selection } from './results.ts';
import { cutByDeadline, paceFor, runTransport, timeNeeded } from './pace.ts';
import { packageRoot, type SuiteRunner } from './vitest-host.ts';
import { settleJournal } from '../safety/restore.ts';
import { selectionPattern } from '../config/selection.ts';
import { countStatuses, decideVerdict } from './verdict.ts';
import { todayUtc, waiversFor } from '../config/waivers.ts';

/** What a run takes from its plan (the self-test makes one per job). */
export type ExecutePlan = Pick<RunPlan, 'settings' | 'deadlineSeconds' | 'only' | 'skip' | 'gate' | 'waivers'>;

/** What only the caller of one run knows. */
export interface RunHooks {
  journalPath: string;
  /** The rate limit the catalog declares: the run starts a little below it and never goes above it. */
  declaredRateLimit?: { requests: number; seconds: number };
  reporters?: Reporter[];
  /** The signal that interrupted the run, if one did. */
  interrupted?: () => string | undefined;
}

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
  const pattern = selectionPattern(plan.only, plan.skip);
  const startedAt = Date.now();
  const deadline = startedAt + plan.deadlineSeconds * 1000;
  const context: TargetContext = {
    ...plan.settings,
    ...paceFor(plan.settings.rps, hooks.declaredRateLimit),
    runId: `${process.pid}-${++runCounter}`,
    baseUrl: target.baseUrl,
    profile: target.profile,
    label: target.label,
    keys: target.keys,
    ...(target.network ? { network: target.network } : {}),
    deadline,
    journalPath: hooks.journalPath,
  };
  const { modules, unhandled } = await runner.run(context, {
    ...(pattern ? { testNamePattern: pattern } : {}),
    ...(hooks.reporters ? { reporters: hooks.reporters } : {}),
  });
  const safety = await settleJournal(hooks.journalPath, (user) => target.api(user));
  const checks = checkResults(modules);
  if (checks.length === 0 && unhandled.length === 0 && !hooks.interrupted?.()) {
    throw new UsageError(`the selection (--only ${plan.only.join(',') || '-'} --skip ${plan.skip.join(',') || '-'}) matches no check; see conform --list`);
  }
  const harnessErrors = unhandled.map((e) => (e instanceof Error ? e.message : String(e)));
  const ids = checkIds(modules);
  // A selection that leaves nothing out (e.g. --only '*') is a full run.
  const selection: Selection | undefined =
    pattern && ids.deselected.length > 0
      ? { only: [...plan.only], skip: [...plan.skip], selected: ids.all.length - ids.deselected.length, total: ids.all.length, deselected: ids.deselected }
      : undefined;
  const gate = plan.gate;
  const interruptedBy = hooks.interrupted?.();
  const decision = decideVerdict(checks, gate, {
    ...(interruptedBy ? { interrupted: interruptedBy } : {}),
    deadlinePassed: Date.now() > deadline,
    rateLimitCut: cutByDeadline(checks) > 0,
    timeNeeded: timeNeeded(checks, Date.now() - startedAt),
    harnessErrors: harnessErrors.length,
    safetyProblems: safety.problems.length,
    ...(selection ? { selection } : {}),
    waivers: waiversFor(plan.waivers, target),
    today: todayUtc(),
    knownChecks: ids.all,
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
    transport: runTransport(checks, target.counts(), hooks.declaredRateLimit),
    checks: decision.checks,
    safety,
  };
  return { result, harnessErrors };
}

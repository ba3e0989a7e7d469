import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter } from 'vitest/node';
import type { OpenTarget } from './open-target.ts';
import { DEFAULT_MAX_REQUESTS } from '../config/resolve.ts';
import { UsageError } from '../core/errors.ts';
import { checkIds, checkResults, type RunResult, type Selection } from './results.ts';
import { cutByDeadline, runTransport, timeNeeded } from './pace.ts';
import { packageRoot, type SuiteRunner } from './vitest-host.ts';
import { settleJournal } from '../safety/restore.ts';
import { selectionPattern } from '../config/selection.ts';
import { countStatuses, decideVerdict, defaultGate, type GateOptions } from './verdict.ts';
import { todayUtc, waiversFor, type Waiver } from '../config/waivers.ts';

export interface ExecuteOptions {
  seed: number;
  runs: number;
  timeoutMs: number;
  deadline: number;
  concurrency: number;
  rps: number;
  /** A lower pace to start at and the limit it comes from: the rate limit the catalog declares. */
  startRps?: number;
  declaredRateLimit?: { requests: number; seconds: number };
  /** Budget of requests for the checks (default DEFAULT_MAX_REQUESTS). */
  maxRequests?: number;
  fcPath?: string;
  only: readonly string[];
  skip: readonly string[];
  journalPath: string;
  /** Suite files to run (absolute paths), when the caller knows which hold the selected checks. */
  files?: readonly string[];
  reporters?: Reporter[];
  /** The signal that interrupted the run, if one did. */
  interrupted?: () => string | undefined;
  /** What gates (default: MUST checks only, incomplete runs fail). */
  gate?: GateOptions;
  /** Waivers from --waivers and the config file; those naming another target are left out here. */
  waivers?: readonly Waiver[];
}

export function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

let runCounter = 0;

/**
 * One conformance run against an open target: runs the selected checks, sweeps the safety journal,
 * and builds the results model with its verdict. Used by the CLI and by the mutation self-test.
 */
export async function execute(runner: SuiteRunner, target: OpenTarget, options: ExecuteOptions): Promise<{ result: RunResult; harnessErrors: string[] }> {
  const pattern = selectionPattern(options.only, options.skip);
  const startedAt = Date.now();
  const { modules, unhandled } = await runner.run(
    {
      runId: `${process.pid}-${++runCounter}`,
      baseUrl: target.baseUrl,
      profile: target.profile,
      label: target.label,
      keys: target.keys,
      timeoutMs: options.timeoutMs,
      deadline: options.deadline,
      concurrency: options.concurrency,
      rps: options.rps,
      ...(options.startRps !== undefined ? { startRps: options.startRps } : {}),
      ...(target.network ? { network: target.network } : {}),
      maxRequests: options.maxRequests ?? DEFAULT_MAX_REQUESTS,
      seed: options.seed,
      runs: options.runs,
      journalPath: options.journalPath,
      ...(options.fcPath ? { fcPath: options.fcPath } : {}),
    },
    { ...(pattern ? { testNamePattern: pattern } : {}), ...(options.reporters ? { reporters: options.reporters } : {}), ...(options.files ? { files: options.files } : {}) },
  );
  const safety = await settleJournal(options.journalPath, (user) => target.api(user));
  const checks = checkResults(modules);
  if (checks.length === 0 && unhandled.length === 0 && !options.interrupted?.()) {
    throw new UsageError(`the selection (--only ${options.only.join(',') || '-'} --skip ${options.skip.join(',') || '-'}) matches no check; see conform --list`);
  }
  const harnessErrors = unhandled.map((e) => (e instanceof Error ? e.message : String(e)));
  const ids = checkIds(modules);
  // A selection that leaves nothing out (e.g. --only '*') is a full run.
  const selection: Selection | undefined = pattern && ids.deselected.length > 0
    ? { only: [...options.only], skip: [...options.skip], selected: ids.all.length - ids.deselected.length, total: ids.all.length, deselected: ids.deselected }
    : undefined;
  const gate = options.gate ?? defaultGate;
  const interruptedBy = options.interrupted?.();
  const decision = decideVerdict(checks, gate, {
    ...(interruptedBy ? { interrupted: interruptedBy } : {}),
    deadlinePassed: Date.now() > options.deadline,
    rateLimitCut: cutByDeadline(checks) > 0,
    timeNeeded: timeNeeded(checks, Date.now() - startedAt),
    harnessErrors: harnessErrors.length,
    safetyProblems: safety.problems.length,
    ...(selection ? { selection } : {}),
    waivers: waiversFor(options.waivers ?? [], target),
    today: todayUtc(),
    knownChecks: ids.all,
  });
  const result: RunResult = {
    schemaVersion: 3,
    tool: { name: 'conform', version: version() },
    target: { label: target.label, url: target.baseUrl, profile: target.profile },
    seed: options.seed,
    verdict: decision.verdict,
    reason: decision.reason,
    exitCode: decision.exitCode,
    policy: gate,
    ...(selection ? { selection } : {}),
    waivers: decision.waivers,
    counts: countStatuses(decision.checks),
    requests: decision.checks.reduce((sum, c) => sum + (c.requests ?? 0), 0),
    transport: runTransport(checks, target.counts(), options.declaredRateLimit),
    checks: decision.checks,
    safety,
  };
  return { result, harnessErrors };
}

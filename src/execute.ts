import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter } from 'vitest/node';
import type { OpenTarget } from './cli/targets.ts';
import { DEFAULT_MAX_REQUESTS } from './config.ts';
import { UsageError } from './errors.ts';
import { checkResults, type RunResult } from './results.ts';
import { packageRoot, type SuiteRunner } from './run.ts';
import { settleJournal } from './safety.ts';
import { selectionPattern } from './selection.ts';
import { countStatuses, decideVerdict, exitCodes, type Verdict } from './verdict.ts';

export interface ExecuteOptions {
  seed: number;
  runs: number;
  timeoutMs: number;
  deadline: number;
  concurrency: number;
  rps: number;
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
  let { verdict, reason }: { verdict: Verdict; reason: string } = decideVerdict(checks);
  if (verdict === 'no verdict' && Date.now() > options.deadline) {
    const hung = checks.find((c) => c.status === 'error')?.message?.split('\n')[0];
    reason = `the run's deadline passed${hung ? `; first unanswered: ${hung}` : ''}`;
  }
  if (options.interrupted?.()) ({ verdict, reason } = { verdict: 'no verdict', reason: `interrupted (${options.interrupted()}); kept values restored: ${safety.problems.length === 0 ? 'yes' : 'NO'}` });
  if (verdict === 'conforms' && harnessErrors.length > 0) ({ verdict, reason } = { verdict: 'no verdict', reason: `${harnessErrors.length} harness error(s) outside checks` });
  if (verdict === 'conforms' && safety.problems.length > 0) ({ verdict, reason } = { verdict: 'no verdict', reason: 'kept values could not all be restored' });
  const result: RunResult = {
    schemaVersion: 1,
    tool: { name: 'conform', version: version() },
    target: { label: target.label, url: target.baseUrl, profile: target.profile },
    seed: options.seed,
    verdict,
    reason,
    exitCode: exitCodes[verdict],
    counts: countStatuses(checks),
    requests: checks.reduce((sum, c) => sum + (c.requests ?? 0), 0),
    checks,
    safety,
  };
  return { result, harnessErrors };
}

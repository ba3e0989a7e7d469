import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createVitest, type Reporter, type TestModule, type Vitest } from 'vitest/node';
import type { TargetContext } from '../harness/target.ts';
import { KeptThread } from './kept-thread.ts';
import { userCacheDir } from '../core/cache-dir.ts';

export const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface SuiteRun {
  modules: TestModule[];
  unhandled: unknown[];
}

/** Forwards vitest's reporter events to the reporters of the run in progress. */
class Relay implements Reporter {
  current: Reporter[] = [];
  onTestModuleCollected: Reporter['onTestModuleCollected'] = (module) => {
    for (const r of this.current) r.onTestModuleCollected?.(module);
  };
  onTestCaseResult: Reporter['onTestCaseResult'] = (testCase) => {
    for (const r of this.current) r.onTestCaseResult?.(testCase);
  };
  onUserConsoleLog: Reporter['onUserConsoleLog'] = (log) => {
    for (const r of this.current) r.onUserConsoleLog?.(log);
  };
  onTestRunEnd: Reporter['onTestRunEnd'] = (modules, errors, reason) => {
    for (const r of this.current) r.onTestRunEnd?.(modules, errors, reason);
  };
}

/**
 * The suites under vitest, started once and reusable: each run provides its own target. The CLI
 * makes one run; the mutation self-test makes one per mutant without paying vitest's start-up again.
 */
export class SuiteRunner {
  private constructor(
    private readonly vitest: Vitest,
    private readonly relay: Relay,
    private readonly keptThread: KeptThread | undefined,
  ) {}

  /** `keepThread`: one worker thread for every run of this runner (src/runner/kept-thread.ts). */
  static async create(options: { checkTimeoutMs: number; keepThread?: boolean }): Promise<SuiteRunner> {
    const relay = new Relay();
    const keptThread = options.keepThread ? new KeptThread() : undefined;
    // vitest's logger installs SIGINT/SIGTERM handlers that exit the process; the CLI handles signals
    // itself so that kept values are restored first. Removing them after start-up left a window in
    // which a signal ended the run with 143, so they are never installed.
    const vitest = await withoutSignalHandlers(() =>
      createVitest(
        'test',
        {
          root: packageRoot,
          config: false,
          watch: false,
          // One module declares every area's checks (suites/index.ts), so that they all start at once.
          include: ['suites/index.ts'],
          reporters: [relay],
          // One worker, so that every check shares one client (--concurrency and --rps bound the whole
          // run) and one discovery cache. Every check starts at once and waits for its turn
          // (src/harness/schedule.ts); the client's pool is what bounds the load.
          fileParallelism: false,
          maxWorkers: 1,
          maxConcurrency: 1_000,
          sequence: { concurrent: true },
          isolate: false,
          pool: keptThread ?? 'threads',
          testTimeout: options.checkTimeoutMs,
          hookTimeout: options.checkTimeoutMs,
          passWithNoTests: true,
          // Transformed modules kept on disk between runs (keyed by content): a run starts faster the second time.
          // One directory per install: vitest empties a cache made under another lockfile, which would pull
          // modules from under a run of another install sharing the directory.
          experimental: { fsModuleCache: true, fsModuleCachePath: userCacheDir(`conform-module-cache-${installId}`) },
        },
        { cacheDir: userCacheDir('conform-vite-cache'), logLevel: 'silent', clearScreen: false },
      ),
    );
    return new SuiteRunner(vitest, relay, keptThread);
  }

  async run(target: TargetContext, options: { testNamePattern?: RegExp; reporters?: Reporter[] } = {}): Promise<SuiteRun> {
    this.vitest.provide('conform', target);
    this.relay.current = options.reporters ?? [];
    // The pattern goes with the run's specification, not the global configuration, which a kept thread
    // received once, when it started.
    const pattern = options.testNamePattern;
    const specifications = (await this.vitest.getRelevantTestSpecifications()).map((spec) =>
      pattern ? spec.project.createSpecification(spec.moduleId, { testNamePattern: pattern }) : spec,
    );
    const result = await this.vitest.runTestSpecifications(specifications, true);
    return { modules: result.testModules, unhandled: result.unhandledErrors };
  }

  /** Stops scheduling checks; those in progress finish (and restore what they changed). */
  async cancel(): Promise<void> {
    await this.vitest.cancelCurrentRun('keyboard-input');
  }

  async collect(): Promise<TestModule[]> {
    return (await this.vitest.collect()).testModules;
  }

  async close(): Promise<void> {
    await this.vitest.close();
    await this.keptThread?.end();
  }
}

const installId = createHash('sha1').update(packageRoot).digest('hex').slice(0, 12);

async function withoutSignalHandlers<T>(start: () => Promise<T>): Promise<T> {
  const { on, once } = process;
  const skipSignals = (register: typeof process.on): typeof process.on =>
    function (this: NodeJS.Process, event: string | symbol, listener: (...args: unknown[]) => void) {
      return event === 'SIGINT' || event === 'SIGTERM' ? process : register.call(this, event, listener);
    } as typeof process.on;
  process.on = skipSignals(on);
  process.once = skipSignals(once);
  try {
    return await start();
  } finally {
    process.on = on;
    process.once = once;
  }
}

/**
 * A check's own time limit. A target's rate limit can hold one check (a model run of 150 requests)
 * for minutes, so it is no shorter than the run's deadline, past which nothing is sent anyway.
 */
export const checkTimeout = (requestTimeoutMs: number, deadlineSeconds = 0): number =>
  Math.max(120_000, requestTimeoutMs * 12, deadlineSeconds * 1000 + 30_000);

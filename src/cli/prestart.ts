import { timeLimitsOf } from '../config/options.ts';
import { checkTimeout, SuiteRunner } from '../runner/vitest-host.ts';
import { parseCommandLine } from './args.ts';

/**
 * vitest started for a run before the rest of the CLI loads (bin/conform.js): the worker's start-up (its
 * thread, its libraries, the checks) then overlaps the CLI's own and the pre-flight's round trips. The run
 * claims it when its checks' time limit is the one it was started with; otherwise it is closed.
 */
export class Prestarted {
  private claimed = false;

  constructor(
    private readonly checkTimeoutMs: number,
    private readonly runner: Promise<SuiteRunner>,
  ) {
    runner.catch(() => undefined);
  }

  /** The runner, for a run whose checks have this time limit; undefined (and the runner closed) for any other. */
  claim(checkTimeoutMs: number): Promise<SuiteRunner> | undefined {
    if (this.claimed) return undefined;
    this.claimed = true;
    if (checkTimeoutMs === this.checkTimeoutMs) return this.runner;
    void this.close();
    return undefined;
  }

  /** Once the command is over: closes the runner no run claimed (a usage error, say), so that the process can end. */
  async release(): Promise<void> {
    if (this.claimed) return;
    this.claimed = true;
    await this.close();
  }

  private close(): Promise<void> {
    return this.runner.then(
      (runner) => runner.close(),
      () => undefined,
    );
  }
}

/**
 * Starts vitest and loads the checks for the run the command line asks for, reading only the options that
 * decide the checks' time limit; anything but a run starts nothing, and what is wrong with a command line
 * is for the CLI to say.
 */
export function prestart(argv: readonly string[]): Prestarted | undefined {
  try {
    const { command, values } = parseCommandLine(argv);
    if (command !== 'run' || values.list || values.help || values.version) return undefined;
    const { timeoutMs, deadlineSeconds } = timeLimitsOf(values);
    const checkTimeoutMs = checkTimeout(timeoutMs, deadlineSeconds);
    return new Prestarted(
      checkTimeoutMs,
      SuiteRunner.create({ checkTimeoutMs, keepThread: true }).then(async (runner) => {
        await runner.collect();
        return runner;
      }),
    );
  } catch {
    return undefined;
  }
}

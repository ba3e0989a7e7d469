import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest, type Reporter, type TestModule } from 'vitest/node';
import type { TargetContext } from './target.ts';

export const packageRoot = fileURLToPath(new URL('..', import.meta.url));

export interface SuiteRunOptions {
  testNamePattern?: RegExp;
  reporters: Reporter[];
  /** Collect the checks without running them (for --list). */
  collectOnly?: boolean;
  /** Per-check timeout; generous, since each check makes many requests. */
  checkTimeoutMs: number;
}

/** Runs (or collects) the suites under vitest with the target provided to every check. */
export async function runSuites(target: TargetContext, options: SuiteRunOptions): Promise<{ modules: TestModule[]; unhandled: unknown[] }> {
  const vitest = await createVitest(
    'test',
    {
      root: packageRoot,
      config: false,
      watch: false,
      include: ['suites/**/*.test.ts'],
      reporters: options.reporters,
      provide: { conform: target },
      // One worker, files in sequence: checks that toggle kept values must never overlap reads
      // that use the collection as an oracle. Requests inside a check run concurrently instead.
      fileParallelism: false,
      maxWorkers: 1,
      isolate: false,
      pool: 'threads',
      testTimeout: options.checkTimeoutMs,
      hookTimeout: options.checkTimeoutMs,
      passWithNoTests: true,
      ...(options.testNamePattern ? { testNamePattern: options.testNamePattern } : {}),
    },
    { cacheDir: join(tmpdir(), 'conform-vite-cache'), logLevel: 'silent', clearScreen: false },
  );
  try {
    const result = options.collectOnly ? await vitest.collect() : await vitest.start();
    return { modules: result.testModules, unhandled: result.unhandledErrors };
  } finally {
    await vitest.close();
  }
}

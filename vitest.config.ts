import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The self-test (test/mutants.test.ts) is the longest file by far and runs in its own worker processes:
 * it starts first, and the other files run beside it instead of after it.
 */
class SelfTestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const place = (f: TestSpecification) => {
      if (f.moduleId.endsWith('/test/mutants.test.ts')) return -1;
      const long = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(`/test/${name}.test.ts`));
      return long < 0 ? LONGEST_FIRST.length : long;
    };
    return [...sorted].sort((a, b) => place(a) - place(b));
  }
}

/**
 * The files that take longest beside the self-test, longest first (measured on two cores, 2026-12-02): started early,
 * they run while the self-test does, and what is left when it ends is short files that the two workers share evenly.
 * A fresh clone has no durations of an earlier run to sort by (vitest then sorts by size), so the order is given here.
 */
const LONGEST_FIRST = [
  'harness-faults',
  'conform-run',
  'gate-cli',
  'package',
  'network',
  'diff',
  'action',
  'budget',
  'cli-details',
  'rate-limited-target',
  'pact-verify',
  'diagnoses',
  'replay',
  'cancel',
  'schedule',
  'restore-safety',
  'container',
];

// The project's own tests. The conformance suites under suites/ are run by the CLI (src/runner/vitest-host.ts)
// with their own inline configuration, never by this file.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // Most files wait on child processes and servers, not on the CPU: two at a time even on two cores
    // (vitest's default there is one, which ran the files one after another behind the self-test).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SelfTestFirst },
    // A worker imports the project's modules once for all its files, not once per file (their import was some 70 s of
    // a run's CPU). No test here mocks a module or leaves global state behind; each starts its own servers and processes.
    isolate: false,
  },
});

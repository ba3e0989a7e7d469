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
    const first = (f: TestSpecification) => (f.moduleId.endsWith('/test/mutants.test.ts') ? 0 : 1);
    return [...sorted].sort((a, b) => first(a) - first(b));
  }
}

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
  },
});

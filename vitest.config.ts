import { defineConfig } from 'vitest/config';

// The project's own tests. The conformance suites under suites/ are run by the CLI (src/runner/vitest-host.ts)
// with their own inline configuration, never by this file.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});

import { describe, expect, it } from 'vitest';
import { prestart } from '../src/cli/prestart.ts';
import { checkTimeout } from '../src/runner/vitest-host.ts';

describe('vitest started before the CLI loads', () => {
  it('starts nothing for a command that runs no checks, or one the CLI will refuse', () => {
    for (const argv of [['--list'], ['--help'], ['--version'], ['matrix'], ['serve'], ['restore', '--journal', 'j'], ['--bogus'], ['--timeout', 'soon']]) {
      expect(prestart(argv), argv.join(' ')).toBeUndefined();
    }
  });

  it("is claimed by a run with the checks' time limit it was started for, and by no other", async () => {
    const started = prestart(['--deadline', '120'])!;
    expect(started).toBeDefined();
    expect(started.claim(checkTimeout(10_000, 900))).toBeUndefined();
    // Claimed once only, closed by the first claim that did not fit.
    expect(started.claim(checkTimeout(10_000, 120))).toBeUndefined();
    await started.release();

    const fitting = prestart(['--deadline', '120'])!;
    const runner = await fitting.claim(checkTimeout(10_000, 120));
    expect(runner).toBeDefined();
    await runner!.close();
    await fitting.release();
  }, 60_000);
});

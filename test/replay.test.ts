import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { runCli, spawnCli } from './support/cli.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('replaying a property failure', () => {
  it('prints seed and path, and --seed with --fc-path replays the same counterexample', async () => {
    const mutant = (await loadMutants()).find((m) => m.id === 'filter-kept-inverted')!;
    const reference = await startReference({ ...(mutant.wrap ? { wrap: mutant.wrap } : {}) });
    try {
      const target = ['--target', reference.url, '--key', reference.keys.primary];
      const first = await runCli([...target, '--only', 'FILT-001', '--seed', '11']);
      expect(first.code, first.stdout + first.stderr).toBe(1);
      const failure = first.report().checks.find((c) => c.id === 'FILT-001')!;
      const replay = /--seed (-?\d+) --fc-path (\S+)/.exec(failure.reproduction ?? '');
      expect(replay, failure.reproduction).not.toBeNull();
      expect(failure.reproduction).toContain(`--target ${reference.url} --profile primary --only FILT-001`);
      const counterexample = /counterexample \(after \d+ shrinks\): (.*)/.exec(failure.message ?? '')?.[1];
      expect(counterexample).toBeDefined();

      const again = await runCli([...target, '--only', 'FILT-001', '--seed', replay![1]!, '--fc-path', replay![2]!]);
      expect(again.code).toBe(1);
      const replayed = again.report().checks.find((c) => c.id === 'FILT-001')!;
      expect(replayed.message).toContain(`counterexample (after 0 shrinks): ${counterexample}`);
    } finally {
      await reference.close();
    }
  });
});

describe('conform serve', () => {
  it.each(['primary', 'staging'])('runs the %s reference standalone, prints its URL and keys, and a run against it conforms', async (profile) => {
    const { child, done } = spawnCli(['serve', '--profile', profile], mkdtempSync(join(tmpdir(), 'conform-serve-')));
    try {
      let printed = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          if (/keys: .*other/.test(printed)) resolve();
        });
        child.on('close', () => reject(new Error(`serve ended early: ${printed}`)));
      });
      const url = /listening on (http:\/\/\S+)/.exec(printed)![1]!;
      const keys = /keys: primary (\S+)\s+other (\S+)/.exec(printed)!;
      const run = await runCli(['--target', url, '--profile', profile, '--key', keys[1]!, '--other-key', keys[2]!, '--only', 'AUTH-*,SCOPE-*,STAGE-*']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
    } finally {
      child.kill('SIGTERM');
    }
    expect((await done).code).toBe(0);
  });
});

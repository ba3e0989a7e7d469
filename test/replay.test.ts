import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { runCli, spawnCli, type CliRun } from './support/cli.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);
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

/** A printed command as the argument list conform takes, pointed at `url` with the keys a user would add. */
function argsOf(command: string, printedUrl: string, url: string, keys: { primary: string; other: string }): string[] {
  const words = command.trim().split(/\s+/);
  expect(words[0]).toBe('conform');
  return [...words.slice(1).map((w) => (w === printedUrl ? url : w)), '--key', keys.primary, '--other-key', keys.other];
}

type Kind = [kind: 'example' | 'property' | 'model', mutant: string, check: string, seed: number];

/** One kind of printed reproduction each: a curl line (example check), --seed with --fc-path (property), and with --fc-replay-path (model run). */
const kinds: Kind[] = [
  ['example', 'auth-missing-header-served', 'AUTH-001', 3],
  ['property', 'filter-kept-inverted', 'FILT-001', 5],
  ['model', 'kept-flips-always', 'KEPT-006', 2],
];

describe('every printed reproduction reproduces its failure on a fresh target with the same fault', () => {
  it.each(kinds)('%s (%s, %s)', async (kind, mutantId, checkId, seed) => {
    const mutant = (await loadMutants()).find((m) => m.id === mutantId)!;
    const fresh = () => startReference({ ...(mutant.wrap ? { wrap: mutant.wrap } : {}) });
    const first = await fresh();
    let failure: ReturnType<ReturnType<CliRun['report']>['checks']['find']>;
    try {
      const run = await runCli([
        '--target',
        first.url,
        '--key',
        first.keys.primary,
        '--other-key',
        first.keys.other,
        '--only',
        checkId,
        '--seed',
        String(seed),
      ]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      failure = run.report().checks.find((c) => c.id === checkId);
    } finally {
      await first.close();
    }
    expect(failure?.status).toBe('failed');
    const printed = failure!.reproduction ?? '';
    const again = await fresh();
    try {
      if (kind === 'example') {
        const curl = printed.split('\n').find((line) => line.startsWith('curl '))!;
        expect(curl, printed).toBeDefined();
        const { stdout } = await exec('sh', ['-c', curl.replace(first.url, again.url).replace('Bearer ***', `Bearer ${again.keys.primary}`)]);
        const [head, ...body] = stdout.split(/\r?\n\r?\n/);
        expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${failure!.exchange!.status} `));
        // A long body is shown cut off, with its length.
        const shown = failure!.exchange!.responseBody;
        const cut = /… \((\d+) bytes\)$/.exec(shown);
        const answered = body.join('\n\n');
        if (cut) {
          expect(answered.startsWith(shown.slice(0, cut.index))).toBe(true);
          expect(answered.length).toBe(Number(cut[1]));
        } else expect(answered).toBe(shown);
        return;
      }
      const command = printed.split('\n').find((line) => line.startsWith('conform '))!;
      expect(command, printed).toMatch(kind === 'model' ? /--fc-path \S+ --fc-replay-path \S+/ : /--fc-path \S+$/);
      const replayed = await runCli(argsOf(command, first.url, again.url, again.keys));
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(1);
      const result = replayed.report().checks.find((c) => c.id === checkId)!;
      expect(result.status, result.message).toBe('failed');
      // The same counterexample, and the same fault. The model run's commands toggle the target, and the
      // runs before the failing one left it in a state a fresh target does not share: which read of the
      // sequence shows the fault may differ, not what it shows.
      const counterexample = /counterexample \(after \d+ shrinks\): (.*)/.exec(failure!.message ?? '')![1]!;
      expect(result.message).toContain(`counterexample (after 0 shrinks): ${counterexample}`);
      const fault = (message: string) => message.split('\n')[0]!.replace(/\d+/g, 'N');
      expect(fault(result.message!)).toBe(fault(failure!.message!));
    } finally {
      await again.close();
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

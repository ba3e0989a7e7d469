import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { variants } from '../fixtures/variants.ts';
import { DEFAULT_SEEDS, failuresWithoutEvidence, junkMessages, type SelfTestRow } from '../scripts/mutation-score.ts';
import { repoRoot, runCli } from './support/cli.ts';

const mutants = await loadMutants();
let rows: SelfTestRow[] = [];

// scripts/mutation-score.ts runs every target under each of its seeds, in worker processes with one
// vitest instance each; the assertions below read its results, one test per mutant and per clean target.
beforeAll(() => {
  // The script exits 1 when a row is not ok; its JSON still holds every row, and each test below names its own.
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/mutation-score.ts', '--json'], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error || !run.stdout.trim())
    throw new Error(`the self-test printed no results (exit ${run.status}): ${run.error?.message ?? run.stderr.slice(-2000)}`);
  rows = JSON.parse(run.stdout) as SelfTestRow[];
  const killed = rows.filter((r) => r.kind === 'mutant' && r.ok).length;
  console.log(`mutation score: ${killed}/${mutants.length} mutants killed`);
}, 1_500_000);

const row = (id: string): SelfTestRow => {
  const found = rows.find((r) => r.id === id);
  if (!found) throw new Error(`no self-test result for ${id}`);
  return found;
};

describe('clean targets conform: the reference and every variant the spec allows', () => {
  for (const id of ['reference', 'reference-staging', ...variants.map((v) => v.id)]) {
    it(id, () => {
      const r = row(id);
      expect(r.runs.map((run) => run.seed)).toEqual([...DEFAULT_SEEDS]);
      // Zero failed checks of any level: a SHOULD failure on a correct implementation is a false alarm too.
      const bad = r.runs.flatMap((run) =>
        Object.entries(run.statuses)
          .filter(([, s]) => s === 'failed' || s === 'error')
          .map(([check, s]) => `seed ${run.seed}: ${check}=${s}`),
      );
      expect(bad, 'checks that failed a correct implementation').toEqual([]);
      expect(r.failedChecks ?? [], 'failed checks, MUST and SHOULD alike').toEqual([]);
      expect(r.harnessErrors).toEqual([]);
      expect(r.unjudged ?? [], 'checks the reference passes but this variant left skipped (a hidden false failure)').toEqual([]);
      expect(r.exitCode).toBe(0);
    });
  }
});

describe('every mutant of the reference is killed by the checks it names, under every seed', () => {
  for (const mutant of mutants.filter((m) => m.open === undefined)) {
    it(`${mutant.id}: ${mutant.description} → fails ${mutant.kills.join(', ')}`, () => {
      const r = row(mutant.id);
      expect(r.runs.map((run) => run.seed)).toEqual([...DEFAULT_SEEDS]);
      const alive = r.runs.flatMap((run) =>
        mutant.kills.filter((id) => run.statuses[id] !== 'failed').map((id) => `seed ${run.seed}: ${id}=${run.statuses[id] ?? run.crash ?? 'absent'}`),
      );
      const when = r.killedSeeds?.length ? `killed under seeds ${r.killedSeeds.join(', ')} only` : 'never killed';
      expect(alive, `${when}; checks that did not fail`).toEqual([]);
    });
  }
});

describe('seeds', () => {
  it('runs again under every later seed the checks that read the seed, and carries only the others', () => {
    const reference = row('reference');
    const [first, ...later] = reference.runs;
    expect(first!.seeded, 'the property and model checks read the seed').toEqual(expect.arrayContaining(['KEPT-006']));
    for (const run of later) {
      expect(run.carried, `seed ${run.seed}`).toBeDefined();
      expect(
        run.carried!.filter((id) => first!.seeded.includes(id)),
        `seed ${run.seed}: carried checks that read the seed`,
      ).toEqual([]);
      expect(run.ms, `seed ${run.seed}: the seeded checks were sent again`).toBeGreaterThan(0);
      expect(Object.keys(run.statuses).sort()).toEqual(Object.keys(first!.statuses).sort());
    }
  });
});

describe("failures teach: what the self-test's failures print", () => {
  it('has failures to read: every killed mutant printed a message for each check it names', () => {
    const killed = rows.filter((r) => r.kind === 'mutant' && r.ok);
    expect(killed.length).toBeGreaterThan(0);
    const silent = killed.filter((r) => !r.expected.every((id) => r.runs[0]?.failures?.[id]?.message));
    expect(
      silent.map((r) => r.id),
      'mutants whose first run has a failed check with no message',
    ).toEqual([]);
  });

  it('no failure message prints undefined, [object Object] or NaN (of any mutant or clean target)', () => {
    expect(junkMessages(rows), 'target seed check: the line that prints a JavaScript value instead of describing it').toEqual([]);
  });

  it('every failure of a MUST check on a mutant carries what was sent and what came back, or a command that replays it', () => {
    expect(failuresWithoutEvidence(rows), 'failures with neither an exchange nor a reproduction').toEqual([]);
  });
});

describe('mutant catalogue', () => {
  it('names every check as a kill of at least one mutant', async () => {
    const run = await runCli(['--list', '--format', 'json']);
    expect(run.code).toBe(0);
    const checks = JSON.parse(run.stdout) as { id: string; level: string }[];
    const covered = new Set(mutants.flatMap((m) => m.kills));
    expect(checks.filter((c) => !covered.has(c.id)).map((c) => c.id)).toEqual([]);
    expect(
      [...covered].filter((id) => !checks.some((c) => c.id === id)),
      'mutants name checks that do not exist',
    ).toEqual([]);
  });

  it('names at least one check each mutant must fail; only a mutant not written for a check (blind, or a generated grid member) may instead say why it is open', () => {
    expect(mutants.filter((m) => m.kills.length === 0 && !m.open).map((m) => m.id)).toEqual([]);
    expect(
      mutants.filter((m) => m.open !== undefined && !/^(blind|cross-|pair-)/.test(m.id)).map((m) => m.id),
      'open mutants that are neither blind nor grid members',
    ).toEqual([]);
    expect(
      mutants.filter((m) => m.open !== undefined && m.open.length < 20).map((m) => m.id),
      'open mutants without a reason',
    ).toEqual([]);
    expect(
      mutants.filter((m) => m.open !== undefined && m.kills.length > 0).map((m) => m.id),
      'open mutants that name kills',
    ).toEqual([]);
    const open = mutants.filter((m) => m.open !== undefined);
    console.log(`blind mutants still open (not killed when measured): ${open.length} of ${mutants.filter((m) => m.id.startsWith('blind')).length}`);
  });

  it('has unique mutant ids', () => {
    const ids = mutants.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

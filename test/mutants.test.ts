import { afterAll, describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { buildDataset } from '../fixtures/dataset.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { runCli } from './support/cli.ts';

const mutants = await loadMutants();
const killed: string[] = [];
const survived: string[] = [];

afterAll(() => {
  const total = killed.length + survived.length;
  console.log(`mutation score: ${killed.length}/${total} mutants killed${survived.length ? `; survivors: ${survived.join(', ')}` : ''}`);
});

describe.concurrent('every mutant of the reference is killed by the checks it names', () => {
  for (const mutant of mutants) {
    it(`${mutant.id}: ${mutant.description} → fails ${mutant.kills.join(', ')}`, async () => {
      const profile = mutant.profile ?? 'primary';
      const reference = await startReference({
        profile,
        ...(mutant.variant ? { variant: mutant.variant } : {}),
        ...(mutant.wrap ? { wrap: mutant.wrap } : {}),
        ...(mutant.dataset ? { dataset: buildDataset(mutant.dataset) } : {}),
      });
      try {
        const run = await runCli([
          '--target', reference.url, '--profile', profile,
          '--key', reference.keys.primary, '--other-key', reference.keys.other,
          '--only', mutant.kills.join(','), '--seed', '1',
        ]);
        expect(run.stderr).not.toMatch(/internal error|harness error/);
        const statuses = Object.fromEntries(run.report().checks.map((c) => [c.id, c.status]));
        const alive = mutant.kills.filter((id) => statuses[id] !== 'failed');
        (alive.length === 0 ? killed : survived).push(mutant.id);
        expect(alive, `checks that did not fail: ${alive.map((id) => `${id}=${statuses[id]}`).join(', ')}\n${run.stdout}`).toEqual([]);
      } finally {
        await reference.close();
      }
    });
  }
});

describe('mutant catalogue', () => {
  it('names every check as a kill of at least one mutant', async () => {
    const run = await runCli(['--list', '--format', 'json']);
    expect(run.code).toBe(0);
    const checks = JSON.parse(run.stdout) as { id: string; level: string }[];
    const covered = new Set(mutants.flatMap((m) => m.kills));
    const unkilled = checks.filter((c) => !covered.has(c.id)).map((c) => c.id);
    expect(unkilled).toEqual([]);
    const unknown = [...covered].filter((id) => !checks.some((c) => c.id === id));
    expect(unknown, 'mutants name checks that do not exist').toEqual([]);
  });

  it('has unique mutant ids', () => {
    const ids = mutants.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { replayWitness } from './support/witness.ts';

const mutants = (await loadMutants()).filter((m) => m.witness);

// A mutant written blind carries the exchange that shows its fault: the reference and the mutant must answer it differently.
describe('every witness exchange tells its mutant from the reference', () => {
  it('has witnesses to replay', () => {
    expect(mutants.length).toBeGreaterThan(0);
  });
  for (const mutant of mutants) {
    it(`${mutant.id}: ${mutant.witness!.shows}`, async () => {
      const reference = await replayWitness(mutant, 'reference');
      const broken = await replayWitness(mutant, 'mutant');
      expect(broken, 'the mutant answers every witness request exactly as the reference does').not.toEqual(reference);
    });
  }
});

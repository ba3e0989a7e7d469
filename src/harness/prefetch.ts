import fc from 'fast-check';

/**
 * Runs the predicate on every value fc.check will try, `width` at a time (fc.sample draws the same
 * values as fc.check with the same seed), and returns a predicate for fc.check that replays those
 * outcomes in order. A passing property costs one round of overlapping runs instead of a chain; a
 * failing one is still found at the same run, shrunk and reported exactly as if it had run alone:
 * from the first failure on, and for any value that differs from the one drawn, the predicate runs.
 */
export async function prefetched<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  { seed, numRuns, width }: { seed: number; numRuns: number; width: number },
): Promise<(value: T) => Promise<void>> {
  const values = fc.sample(arbitrary, { seed, numRuns });
  const outcomes: PromiseSettledResult<void>[] = new Array(values.length);
  let taken = 0;
  const lane = async (): Promise<void> => {
    for (let i = taken++; i < values.length; i = taken++) {
      [outcomes[i]] = await Promise.allSettled([predicate(values[i]!)]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, values.length) }, lane));
  const drawn = values.map((value) => fc.stringify(value));
  let next = 0;
  let replaying = true;
  return async (value) => {
    const i = next++;
    if (replaying && i < drawn.length && fc.stringify(value) === drawn[i]) {
      const outcome = outcomes[i]!;
      if (outcome.status === 'fulfilled') return;
      replaying = false;
      throw outcome.reason;
    }
    replaying = false;
    return predicate(value);
  };
}

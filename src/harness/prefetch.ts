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

/**
 * For a property whose runs change what the next run finds (a model of the kept toggle): run i goes
 * to lane i % lanes, each lane runs its values in order and one at a time, and the lanes overlap. The
 * caller gives each lane state of its own (its own items), so a lane sees exactly what its runs left,
 * as the runs of a sequential property do. Returns a predicate for fc.check that replays the outcomes
 * in order: the first failure is reported at the same run, with the commands it ran (fc.commands
 * shrinks only those), and from there on the predicate runs live, in the failing run's lane, while
 * fast-check shrinks. `lane` for a live run without a prefetch (a replay by --fc-path) is the caller's.
 */
export async function prefetchedInLanes<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T, lane: number) => Promise<void>,
  { seed, numRuns, lanes }: { seed: number; numRuns: number; lanes: number },
): Promise<(value: T) => Promise<void>> {
  const values = fc.sample(arbitrary, { seed, numRuns });
  const outcomes: PromiseSettledResult<void>[] = new Array(values.length);
  // Runs after the first failure are never replayed: a lane stops when an earlier run has failed.
  let firstFailure = Infinity;
  const lane = async (l: number): Promise<void> => {
    for (let i = l; i < values.length && i < firstFailure; i += lanes) {
      [outcomes[i]] = await Promise.allSettled([predicate(values[i]!, l)]);
      if (outcomes[i]!.status === 'rejected') firstFailure = Math.min(firstFailure, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, values.length) }, (_, l) => lane(l)));
  const drawn = values.map(fingerprint);
  let next = 0;
  let replaying = true;
  let liveLane = 0;
  return async (value) => {
    const i = next++;
    if (replaying && i < drawn.length && fingerprint(value) === drawn[i]) {
      const outcome = outcomes[i]!;
      if (outcome.status === 'fulfilled') return;
      replaying = false;
      liveLane = i % lanes;
      copyRunMarks(values[i], value);
      throw outcome.reason;
    }
    if (replaying) liveLane = i % lanes;
    replaying = false;
    return predicate(value, liveLane);
  };
}

/** fc.commands values print only the commands that ran; two draws are compared by all of theirs. */
function fingerprint(value: unknown): string {
  return isCommandList(value) ? [...value].map(String).join(',') : fc.stringify(value);
}

interface RanMark {
  hasRan: boolean;
}

function isCommandList(value: unknown): value is Iterable<RanMark> {
  if (typeof value !== 'object' || value === null || !(Symbol.iterator in value)) return false;
  return [...(value as Iterable<unknown>)].every((c) => typeof c === 'object' && c !== null && typeof (c as Partial<RanMark>).hasRan === 'boolean');
}

/**
 * fast-check shrinks a failed fc.commands value to the commands that ran (its wrappers' hasRan); a
 * replayed failure ran on the sampled copy, so the marks are copied onto the value fc.check holds.
 */
function copyRunMarks(from: unknown, to: unknown): void {
  if (!isCommandList(from) || !isCommandList(to)) return;
  const ran = [...from].map((c) => c.hasRan);
  [...to].forEach((c, k) => {
    c.hasRan = ran[k] === true;
  });
}

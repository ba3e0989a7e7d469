import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../src/runner/results.ts';
import { timeNeeded } from '../src/runner/pace.ts';
import { checks } from './support/synthetic-run.ts';

const cut = (id: string, requests: number): CheckResult => ({
  ...checks.passed,
  id,
  status: 'error',
  message: "not sent: waiting 1 s more for the target's rate limit would pass the run's deadline",
  requests,
});
const done = (id: string, requests: number): CheckResult => ({ ...checks.passed, id, requests });

describe('timeNeeded: how long a run cut short by its deadline would need', () => {
  it('says nothing when no check was cut short', () => {
    expect(timeNeeded([done('A', 3)], 5000, () => 3)).toBe('');
  });

  it('scales the time by the share of the selection estimated requests that went out, even when no check finished', () => {
    // 20 of about 100 requests in 6 s: about 30 s; the suggestion rounds 1.2 × that up to a minute.
    const note = timeNeeded([cut('A', 12), cut('B', 8)], 6000, (id) => (id === 'A' ? 60 : 40));
    expect(note).toBe("; 20 of the selection's about 100 requests went out in 6 s, so the whole run would need about 30 s: try --deadline 60");
  });

  it('counts finished checks beside the requests, and never estimates fewer requests than were sent', () => {
    const note = timeNeeded([done('A', 50), cut('B', 30)], 150_000, () => 10);
    expect(note).toBe(
      "; 1 of 2 checks finished and 80 of the selection's about 80 requests went out in 150 s, so the whole run would need about 3 min: try --deadline 180",
    );
  });

  it('falls back to the share of checks that finished when a check has no estimate', () => {
    const note = timeNeeded([done('A', 5), cut('B', 2)], 10_000, (id) => (id === 'A' ? 5 : undefined));
    expect(note).toBe('; 1 of 2 checks finished in 10 s, so the whole run would need about 20 s: try --deadline 60');
    expect(timeNeeded([cut('B', 2)], 10_000)).toBe('; no check finished in 10 s');
  });
});

import { describe, expect, it } from 'vitest';
import { failuresWithoutEvidence, junkMessages, type SeedRun, type SelfTestRow } from '../scripts/mutation-score.ts';

// The scans test/mutants.test.ts runs over the self-test's failures, on rows made by hand: they must see what they look for.
const run = (seed: number, failures: SeedRun['failures'], statuses: SeedRun['statuses'], levels: SeedRun['levels']): SeedRun => ({
  seed,
  statuses,
  levels,
  failures,
  seeded: [],
  exitCode: 1,
  harnessErrors: [],
  ms: 10,
});

const row = (kind: SelfTestRow['kind'], id: string, runs: SeedRun[]): SelfTestRow => ({
  kind,
  id,
  description: id,
  expected: [],
  runs,
  statuses: {},
  exitCode: 1,
  harnessErrors: [],
  ok: true,
});

const exchange = { request: 'POST http://127.0.0.1:1/artifacts.php {}', status: 200, responseBody: '{"items":[]}' };

describe('scans of what the self-test failures print', () => {
  const rows = [
    row('mutant', 'm-junk', [
      run(
        1,
        {
          'FILT-004': { message: 'list row of item 3: tags is undefined, not a list', exchange },
          'FILT-001': { message: 'filters {"kept":true}\ncounterexample: [{"tag":[object Object]}]', reproduction: 'conform --only FILT-001 --seed 1' },
          'PAGE-002': { message: 'page size NaN', exchange },
        },
        { 'FILT-004': 'failed', 'FILT-001': 'failed', 'PAGE-002': 'failed' },
        { 'FILT-004': 'MUST', 'FILT-001': 'MUST', 'PAGE-002': 'MUST' },
      ),
    ]),
    row('mutant', 'm-bare', [
      run(
        2,
        {
          'KEPT-004': { message: 'the list row shows is_kept=absent' },
          'ENUM-002': { message: 'advice: 403 expected' },
          'AUTH-009': { message: 'harness error: boom' },
        },
        { 'KEPT-004': 'failed', 'ENUM-002': 'failed', 'AUTH-009': 'error' },
        { 'KEPT-004': 'MUST', 'ENUM-002': 'SHOULD', 'AUTH-009': 'MUST' },
      ),
    ]),
    row('variant', 'v-clean', [run(1, { 'USES-001': { message: 'players is undefined' } }, { 'USES-001': 'failed' }, { 'USES-001': 'MUST' })]),
    // Words that merely contain the tokens are not JavaScript's spellings.
    row('mutant', 'm-words', [run(1, { 'TYPE-001': { message: 'an undefinedness and NaNo', exchange } }, { 'TYPE-001': 'failed' }, { 'TYPE-001': 'MUST' })]),
  ];

  it('lists each message that prints undefined, [object Object] or NaN, with its target, seed, check and line', () => {
    expect(junkMessages(rows)).toEqual([
      'm-junk seed 1 FILT-004: list row of item 3: tags is undefined, not a list',
      'm-junk seed 1 FILT-001: counterexample: [{"tag":[object Object]}]',
      'm-junk seed 1 PAGE-002: page size NaN',
      'v-clean seed 1 USES-001: players is undefined',
    ]);
  });

  it('lists MUST failures on mutants with neither an exchange nor a reproduction (not SHOULD failures, errors or clean targets)', () => {
    expect(failuresWithoutEvidence(rows)).toEqual(['m-bare seed 2 KEPT-004: the list row shows is_kept=absent']);
  });
});

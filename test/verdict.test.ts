import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/cli/args.ts';
import { resolveRunConfig } from '../src/config/resolve.ts';
import { UsageError } from '../src/core/errors.ts';
import type { CheckResult } from '../src/runner/results.ts';
import { decideVerdict, type GateOptions } from '../src/runner/verdict.ts';
import { loadWaiversFile, waiversFor, type Waiver } from '../src/config/waivers.ts';
import { checks } from './support/synthetic-run.ts';

const must: GateOptions = { failOn: 'must', allowIncomplete: false };
const today = '2025-06-15';
const waiver = (check: string, expires = '2025-12-31', extra: Partial<Waiver> = {}): Waiver => ({ check, reason: `accepted for ${check}`, expires, ...extra });
const decide = (list: CheckResult[], gate: Partial<GateOptions> = {}, waivers: Waiver[] = [], extra = {}) =>
  decideVerdict(list, { ...must, ...gate }, { waivers, today, ...extra });
const effects = (decision: ReturnType<typeof decide>) => Object.fromEntries(decision.checks.map((c) => [c.id, c.effect ?? '-']));

describe('decideVerdict: severity', () => {
  it('a SHOULD failure is advice and the run conforms; --fail-on should makes it fail the run', () => {
    const advice = decide([checks.passed, checks.shouldFailed]);
    expect(advice).toMatchObject({ verdict: 'conforms', exitCode: 0 });
    expect(advice.reason).toBe('every MUST check passed; 1 SHOULD check(s) failed (advice)');
    expect(effects(advice)).toEqual({ 'AUTH-001': '-', 'ENUM-002': 'advice' });
    const gating = decide([checks.passed, checks.shouldFailed], { failOn: 'should' });
    expect(gating).toMatchObject({ verdict: 'does not conform', exitCode: 1, reason: '1 SHOULD check(s) failed (--fail-on should)' });
    expect(effects(gating)['ENUM-002']).toBe('blocks');
  });

  it('a robustness failure (a 5xx for client input) is advice with its own words; --fail-on should makes it fail the run', () => {
    const robust: CheckResult = {
      ...checks.failed,
      id: 'PAGE-004',
      level: 'ROBUSTNESS',
      message: 'robustness advice (HTTP practice, not a sentence of the spec): …',
    };
    const advice = decide([checks.passed, robust, checks.shouldFailed]);
    expect(advice).toMatchObject({ verdict: 'conforms', exitCode: 0 });
    expect(advice.reason).toBe(
      'every MUST check passed; 1 SHOULD check(s) failed (advice); 1 check(s) failed on robustness (advice: HTTP practice, not the spec)',
    );
    expect(effects(advice)['PAGE-004']).toBe('advice');
    const gating = decide([checks.passed, robust], { failOn: 'should' });
    expect(gating).toMatchObject({ verdict: 'does not conform', exitCode: 1, reason: '1 check(s) failed on robustness (--fail-on should)' });
  });

  it('a MUST failure blocks whatever else happened', () => {
    const d = decide([checks.passed, checks.failed, checks.error, checks.skipped]);
    expect(d).toMatchObject({ verdict: 'does not conform', exitCode: 1, reason: '1 MUST check(s) failed' });
  });
});

describe('decideVerdict: incomplete is not conforming', () => {
  it('a MUST check skipped for an absent precondition makes the run incomplete (exit 3)', () => {
    const d = decide([checks.passed, checks.skipped]);
    expect(d).toMatchObject({ verdict: 'incomplete', exitCode: 3 });
    expect(d.reason).toMatch(/^1 MUST check\(s\) could not be judged .*--allow-incomplete/);
    expect(effects(d)['PLAY-001']).toBe('blocks');
  });

  it('--allow-incomplete lets it conform and says what was not judged', () => {
    const d = decide([checks.passed, checks.skipped], { allowIncomplete: true });
    expect(d).toMatchObject({ verdict: 'conforms', exitCode: 0, reason: 'every MUST check that could be judged passed; 1 not judged (--allow-incomplete)' });
  });

  it('a skipped SHOULD check and a not-applicable check do not make a run incomplete', () => {
    const shouldSkipped = { ...checks.skipped, id: 'UPCOMING-003', level: 'SHOULD' as const };
    expect(decide([checks.passed, shouldSkipped, checks.notApplicable]).verdict).toBe('conforms');
    expect(decide([checks.passed, shouldSkipped], { failOn: 'should' }).verdict).toBe('incomplete');
  });

  it('errors and a run where nothing passed stay no verdict', () => {
    expect(decide([checks.passed, checks.error, checks.skipped]).verdict).toBe('no verdict');
    expect(decide([checks.skipped, checks.notApplicable]).verdict).toBe('no verdict');
  });
});

describe('decideVerdict: the overrides of a run', () => {
  it('an interruption wins over everything, and says whether kept values were restored', () => {
    const d = decide([checks.failed], {}, [], { interrupted: 'SIGINT', safetyProblems: 1 });
    expect(d).toMatchObject({ verdict: 'no verdict', exitCode: 3, reason: 'interrupted (SIGINT); kept values restored: NO' });
  });

  it('a passed deadline names the first unanswered request', () => {
    const d = decide([checks.passed, checks.error], {}, [], { deadlinePassed: true });
    expect(d.reason).toBe("the run's deadline passed; first unanswered: harness error: GET /artifacts.php: no answer within 800 ms");
  });

  it('harness errors and unverified restores turn a pass (or an incomplete run) into no verdict', () => {
    expect(decide([checks.passed], {}, [], { harnessErrors: 2 })).toMatchObject({ verdict: 'no verdict', reason: '2 harness error(s) outside checks' });
    expect(decide([checks.passed, checks.skipped], {}, [], { safetyProblems: 1 })).toMatchObject({
      verdict: 'no verdict',
      reason: 'kept values could not all be restored',
    });
    expect(decide([checks.failed], {}, [], { harnessErrors: 2 }).verdict).toBe('does not conform');
  });

  it('names a partial selection in the reason of every verdict', () => {
    const selection = { only: ['AUTH-001'], skip: ['AUTH-002'], selected: 1, total: 67, deselected: [] };
    expect(decide([checks.passed], {}, [], { selection }).reason).toBe(
      'every MUST check passed; partial run: --only AUTH-001 --skip AUTH-002 (1 of 67 checks)',
    );
    expect(decide([checks.failed], {}, [], { selection }).reason).toMatch(/failed; partial run: --only AUTH-001/);
  });
});

describe('decideVerdict: waivers', () => {
  it('a run whose only judged check is a waived failure conforms; one with nothing judged has no verdict', () => {
    expect(decide([checks.failed, checks.notApplicable], {}, [waiver('KEPT-001')])).toMatchObject({
      verdict: 'conforms',
      reason: 'every MUST check passed except 1 waived',
    });
    expect(decide([checks.skipped, checks.notApplicable], {}, [waiver('PLAY-001')]).verdict).toBe('no verdict');
  });

  it('a waived failure, error or unjudged check does not gate, and is marked waived', () => {
    const d = decide([checks.passed, checks.failed, checks.error, checks.skipped], {}, [waiver('KEPT-001'), waiver('PAGE-003'), waiver('PLAY-001')]);
    expect(d).toMatchObject({ verdict: 'conforms', exitCode: 0, reason: 'every MUST check passed except 3 waived' });
    expect(effects(d)).toEqual({ 'AUTH-001': '-', 'KEPT-001': 'waived', 'PAGE-003': 'waived', 'PLAY-001': 'waived' });
    expect(d.checks.find((c) => c.id === 'KEPT-001')!.waiver).toEqual({ reason: 'accepted for KEPT-001', expires: '2025-12-31', state: 'applied' });
    expect(d.waivers.map((w) => w.state)).toEqual(['applied', 'applied', 'applied']);
  });

  it('applies through the last day of its date, and not after: an expired waiver says so', () => {
    expect(decide([checks.passed, checks.failed], {}, [waiver('KEPT-001', today)]).verdict).toBe('conforms');
    const expired = decide([checks.passed, checks.failed], {}, [waiver('KEPT-001', '2025-06-14')]);
    expect(expired).toMatchObject({ verdict: 'does not conform', exitCode: 1 });
    expect(expired.checks.find((c) => c.id === 'KEPT-001')).toMatchObject({ effect: 'blocks', waiver: { state: 'expired', expires: '2025-06-14' } });
    expect(expired.waivers[0]).toMatchObject({ state: 'expired', note: 'expired on 2025-06-14: no longer applies' });
  });

  it('prefers a waiver in force to an expired one for the same check', () => {
    const d = decide([checks.passed, checks.failed], {}, [waiver('KEPT-001', '2020-01-01'), waiver('KEPT-001', '2030-01-01')]);
    expect(d.verdict).toBe('conforms');
    expect(d.waivers.map((w) => w.state)).toEqual(['expired', 'applied']);
  });

  it('a waived check that passes is an unexpected pass (the run still conforms)', () => {
    const d = decide([checks.passed, checks.passed2], {}, [waiver('AUTH-001')]);
    expect(d).toMatchObject({ verdict: 'conforms', reason: 'every MUST check passed; 1 waived check(s) passed: remove their waivers' });
    expect(effects(d)['AUTH-001']).toBe('unexpected-pass');
    expect(d.waivers[0]).toMatchObject({ state: 'unexpected-pass', note: 'the check passed: remove the waiver' });
  });

  it('reports waivers that nothing used: a check not selected, not applicable, or an id no check has', () => {
    const d = decide([checks.passed, checks.notApplicable], {}, [waiver('KEPT-001'), waiver('STAGE-001'), waiver('NOPE-001')], {
      knownChecks: ['AUTH-001', 'KEPT-001', 'STAGE-001'],
    });
    expect(d.waivers.map((w) => [w.check, w.state, w.note])).toEqual([
      ['KEPT-001', 'unused', 'the check was not selected in this run'],
      ['STAGE-001', 'unused', 'the check is not applicable here'],
      ['NOPE-001', 'unused', 'no check has this id (see conform --list)'],
    ]);
  });

  it('keeps waivers for other targets out', () => {
    const all = [
      waiver('A-001'),
      waiver('B-001', '2030-01-01', { target: 'staging' }),
      waiver('C-001', '2030-01-01', { target: 'http://h.test/api/' }),
      waiver('D-001', '2030-01-01', { target: 'prod' }),
    ];
    expect(waiversFor(all, { label: 'staging', baseUrl: 'https://s.test' }).map((w) => w.check)).toEqual(['A-001', 'B-001']);
    expect(waiversFor(all, { label: 'http://h.test/api', baseUrl: 'http://h.test/api' }).map((w) => w.check)).toEqual(['A-001', 'C-001']);
  });
});

describe('waivers files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conform-waivers-'));
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it('loads valid entries', () => {
    const path = file('ok.json', {
      $schema: '../waivers.schema.json',
      waivers: [{ check: 'ENUM-002', reason: 'vendor answers 404', expires: '2026-01-31', target: 'staging' }],
    });
    expect(loadWaiversFile(path)).toEqual([{ check: 'ENUM-002', reason: 'vendor answers 404', expires: '2026-01-31', target: 'staging' }]);
  });

  it.each([
    ['a missing expiry', { waivers: [{ check: 'ENUM-002', reason: 'because' }] }, /\/waivers\/0: missing "expires"/],
    [
      'an impossible date',
      { waivers: [{ check: 'ENUM-002', reason: 'because', expires: '2026-02-30' }] },
      /\/waivers\/0\/expires must be a date YYYY-MM-DD \(got "2026-02-30"\)/,
    ],
    [
      'a check that is not an id',
      { waivers: [{ check: 'enum 2', reason: 'because', expires: '2026-01-01' }] },
      /\/waivers\/0\/check must be a check id such as ENUM-002 \(got "enum 2"\)/,
    ],
    ['an empty reason', { waivers: [{ check: 'ENUM-002', reason: '   ', expires: '2026-01-01' }] }, /\/waivers\/0\/reason/],
    ['an unknown field', { waivers: [{ check: 'ENUM-002', reason: 'because', expires: '2026-01-01', until: 'x' }] }, /\/waivers\/0: unknown field "until"/],
    ['a bare list', [{ check: 'ENUM-002', reason: 'because', expires: '2026-01-01' }], /the top level must be object/],
    ['broken JSON', '{ "waivers": [', /is not valid JSON/],
  ])('refuses %s with one readable line', (name, content, message) => {
    const path = file(`${name.replace(/\W/g, '-')}.json`, content);
    expect(() => loadWaiversFile(path)).toThrow(UsageError);
    expect(() => loadWaiversFile(path)).toThrow(message);
    try {
      loadWaiversFile(path);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).message).toContain(path);
    }
  });

  it('refuses a file that cannot be read', () => {
    expect(() => loadWaiversFile(join(dir, 'absent.json'))).toThrow(/cannot read waivers file .*absent\.json \(ENOENT\)/);
  });
});

describe('waivers in conform.config.json and the gate flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conform-config-'));
  writeFileSync(join(dir, 'team-waivers.json'), JSON.stringify({ waivers: [{ check: 'PAGE-001', reason: 'from the file', expires: '2030-01-01' }] }));
  writeFileSync(
    join(dir, 'conform.config.json'),
    JSON.stringify({
      waivers: [{ check: 'ENUM-002', reason: 'global', expires: '2030-01-01' }],
      targets: {
        prod: { url: 'https://prod.test', waivers: [{ check: 'KEPT-005', reason: 'prod only', expires: '2030-01-01' }] },
        staging: { url: 'https://staging.test', profile: 'staging', waivers: 'team-waivers.json' },
      },
    }),
  );
  const resolve = (argv: string[]) => resolveRunConfig(parseCommandLine(argv).values, { CONFORM_API_KEY: 'k' }, dir);

  it('reads global and per-target waivers (inline or a file next to the config); target entries default to their target', () => {
    expect(resolve(['--target', 'prod']).waivers).toEqual([
      { check: 'ENUM-002', reason: 'global', expires: '2030-01-01' },
      { check: 'KEPT-005', reason: 'prod only', expires: '2030-01-01', target: 'prod' },
    ]);
    expect(resolve(['--target', 'staging']).waivers.map((w) => [w.check, w.target])).toEqual([
      ['ENUM-002', undefined],
      ['PAGE-001', 'staging'],
    ]);
    expect(resolve(['--target', 'https://other.test']).waivers.map((w) => w.check)).toEqual(['ENUM-002']);
  });

  it('adds --waivers FILE to them and defaults the gate to MUST checks, incomplete runs failing', () => {
    const config = resolve(['--target', 'prod', '--waivers', 'team-waivers.json']);
    expect(config.waivers.map((w) => w.check)).toEqual(['ENUM-002', 'KEPT-005', 'PAGE-001']);
    expect(config.gate).toEqual({ failOn: 'must', allowIncomplete: false });
    expect(resolve(['--target', 'prod', '--fail-on', 'should', '--allow-incomplete']).gate).toEqual({ failOn: 'should', allowIncomplete: true });
  });

  it.each([
    [['--target', 'prod', '--fail-on', 'may'], /--fail-on must be must or should, got 'may'/],
    [['--target', 'prod', '--waivers', 'absent.json'], /cannot read waivers file/],
  ])('%j is a configuration error', (argv, message) => {
    expect(() => resolve(argv)).toThrow(UsageError);
    expect(() => resolve(argv)).toThrow(message);
  });

  it('refuses bad waivers in the config file, naming the target', () => {
    const bad = mkdtempSync(join(tmpdir(), 'conform-config-bad-'));
    writeFileSync(
      join(bad, 'conform.config.json'),
      JSON.stringify({ targets: { prod: { url: 'https://prod.test', waivers: [{ check: 'KEPT-005', reason: 'x y', expires: 'soon' }] } } }),
    );
    expect(() => resolveRunConfig(parseCommandLine(['--target', 'prod']).values, { CONFORM_API_KEY: 'k' }, bad)).toThrow(
      /target 'prod': "waivers" must be a waivers file name or a list of waivers: \/0\/expires must be a date YYYY-MM-DD \(got "soon"\)/,
    );
  });
});

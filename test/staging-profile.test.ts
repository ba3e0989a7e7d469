import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { profiles, type Capability } from '../src/spec/profiles.ts';
import type { CheckResult } from '../src/runner/results.ts';
import { runCli } from './support/cli.ts';

interface ListedCheck {
  id: string;
  requires: Capability[];
}

let listed: ListedCheck[] = [];
let staging: RunningReference;

beforeAll(async () => {
  const list = await runCli(['--list', '--format', 'json']);
  expect(list.code).toBe(0);
  listed = JSON.parse(list.stdout) as ListedCheck[];
  staging = await startReference({ profile: 'staging' });
});
afterAll(() => staging?.close());

const byId = (checks: readonly CheckResult[]) => new Map(checks.map((c) => [c.id, c]));
const needsMore = (c: ListedCheck) => c.requires.some((cap) => !profiles.staging.has(cap));

describe('--profile staging against the reference in staging mode', () => {
  it('conforms: the staging checks and every applicable check pass, primary-only checks are not applicable (not passed)', async () => {
    const run = await runCli(['--profile', 'staging', '--seed', '7']);
    expect(run.code, run.stdout).toBe(0);
    const results = byId(run.report().checks);
    const primaryOnly = listed.filter(needsMore);
    expect(primaryOnly.map((c) => c.id)).toEqual(expect.arrayContaining(['FIELD-001', 'FIELD-002', 'PLAY-001', 'USES-004', 'FILT-001', 'FILT-004']));
    for (const c of primaryOnly) {
      expect(results.get(c.id)?.status, c.id).toBe('not-applicable');
      expect(results.get(c.id)?.message, c.id).toMatch(/not applicable to the staging profile/);
    }
    for (const c of listed.filter((c) => !needsMore(c))) {
      const status = results.get(c.id)?.status;
      expect(status === 'passed' || (status === 'skipped' && /second user's key/.test(results.get(c.id)?.message ?? '')), `${c.id} is ${status}`).toBe(true);
    }
    // the shared checks that staging must pass unchanged, by area (ERR-001 judges the filters, which staging lacks)
    for (const id of ['AUTH-001', 'SCOPE-001', 'WRITE-001', 'KEPT-001', 'KEPT-006', 'PAGE-001', 'PAGE-002', 'ERR-003', 'FILT-003', 'STAGE-001', 'STAGE-006']) {
      expect(results.get(id)?.status, id).toBe('passed');
    }
  });

  it('a named target whose profile is staging is held to the staging profile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conform-staging-'));
    writeFileSync(join(dir, 'conform.config.json'), JSON.stringify({ targets: { stage: { url: staging.url, profile: 'staging', keyEnv: 'STAGE_KEY' } } }));
    const run = await runCli(['--target', 'stage', '--only', 'STAGE-*,FIELD-001,PLAY-001,PAGE-001'], { STAGE_KEY: staging.keys.primary }, dir);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('against the staging profile');
    const results = byId(run.report().checks);
    for (const id of ['STAGE-001', 'STAGE-002', 'STAGE-003', 'STAGE-004', 'STAGE-005', 'STAGE-006', 'PAGE-001'])
      expect(results.get(id)?.status, id).toBe('passed');
    for (const id of ['FIELD-001', 'PLAY-001']) expect(results.get(id)?.status, id).toBe('not-applicable');
    expect(run.stdout + run.stderr).not.toContain(staging.keys.primary);
  });
});

describe('--profile primary against the reference in staging mode', () => {
  it('does not conform, and the failures name the primary features staging lacks', async () => {
    const run = await runCli([
      '--target',
      staging.url,
      '--profile',
      'primary',
      '--key',
      staging.keys.primary,
      '--other-key',
      staging.keys.other,
      '--seed',
      '7',
      '--only',
      'FIELD-*,PLAY-*,USES-*,FILT-*,KEPT-006,STAGE-*,AUTH-001,PAGE-001',
    ]);
    expect(run.code, run.stdout).toBe(1);
    const results = byId(run.report().checks);
    const failed = (id: string) => {
      const c = results.get(id);
      expect(c?.status, `${id}: ${c?.message}`).toBe('failed');
      return c!.message ?? '';
    };
    expect(failed('FIELD-001')).toMatch(/fields "collection"/);
    expect(failed('FIELD-002')).toMatch(/uses_summary/);
    expect(failed('PLAY-001')).toMatch(/\/players\.php/);
    expect(failed('USES-004')).toMatch(/player_id/);
    expect(failed('FILT-004')).toMatch(/type|is_kept|flag/);
    expect(failed('KEPT-006')).toMatch(/kept=true|kept=false/);
    for (const id of ['STAGE-001', 'STAGE-005']) expect(results.get(id)?.status, id).toBe('not-applicable');
    // what staging does offer still passes under the primary profile
    for (const id of ['AUTH-001', 'PAGE-001', 'FILT-002', 'FILT-003']) expect(results.get(id)?.status, id).toBe('passed');
    expect(run.stdout + run.stderr).not.toContain(staging.keys.primary);
  });
});

describe('staging mutants', () => {
  it('break each staging omission once: every STAGE check is the kill of a staging-profile mutant', async () => {
    const mutants = (await loadMutants()).filter((m) => m.profile === 'staging');
    const stageChecks = listed.filter((c) => c.id.startsWith('STAGE-')).map((c) => c.id);
    expect(stageChecks.length).toBeGreaterThanOrEqual(6);
    for (const id of stageChecks)
      expect(
        mutants.filter((m) => m.kills.includes(id)).map((m) => m.id),
        id,
      ).not.toEqual([]);
    // shared checks proven to bite under the staging profile too (their runs are in test/mutants.test.ts)
    for (const id of ['FILT-003', 'PAGE-002'])
      expect(
        mutants.some((m) => m.kills.includes(id)),
        id,
      ).toBe(true);
  });
});

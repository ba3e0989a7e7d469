import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { readAction, runAction } from './support/action.ts';
import { ACTION_REF, workflowText } from '../src/cli/init.ts';
import { readReport, repoRoot } from './support/cli.ts';

const action = readAction();

describe('action.yml', () => {
  it('is a composite action on Node 20 with the inputs and outputs a workflow needs', () => {
    expect(action.runs.using).toBe('composite');
    const setup = action.runs.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['node-version']).toBe('20');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['target', 'profile', 'key', 'other-key', 'waivers', 'fail-on', 'reporters']));
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['verdict', 'report-dir', 'exit-code']));
    // Inputs reach scripts through env only: an expression inside `run:` would let an input inject shell.
    for (const step of action.runs.steps) expect(step.run ?? '').not.toMatch(/\$\{\{/);
  });
});

describe('workflows that use the action', () => {
  const conformStep = (workflow: string) => {
    const parsed = parse(workflow) as { jobs: Record<string, { steps?: { uses?: string; with?: Record<string, string> }[]; needs?: string }> };
    const steps = Object.values(parsed.jobs).flatMap((job) => job.steps ?? []);
    return { parsed, step: steps.find((s) => s.uses === ACTION_REF) };
  };

  it("the README's quick-start block is a complete gated workflow whose inputs the action has", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const block = /## Quick start[^]*?```yaml\n([^]*?)```/.exec(readme)![1]!;
    const { parsed, step } = conformStep(block);
    expect(step, `a step uses ${ACTION_REF}`).toBeDefined();
    for (const input of Object.keys(step!.with ?? {})) expect(action.inputs).toHaveProperty([input]);
    expect(step!.with?.target).toMatch(/^https:\/\//);
    expect(Object.values(parsed.jobs).some((job) => job.needs === 'conform')).toBe(true);
  });

  it('the workflow conform init writes uses only inputs the action has', () => {
    const { step } = conformStep(workflowText({ url: 'https://a.test', profile: 'staging', workflow: true }, 'conform.config.json'));
    expect(Object.keys(step!.with!).sort()).toEqual(['key', 'other-key', 'target']);
    for (const input of Object.keys(step!.with!)) expect(action.inputs).toHaveProperty([input]);
  });
});

describe('the action, run as GitHub runs a composite action', () => {
  let broken: RunningReference;
  beforeAll(async () => {
    const mutant = (await loadMutants()).find((m) => m.id === 'kept-ignores-value')!;
    broken = await startReference({ wrap: mutant.wrap! });
  });
  afterAll(() => broken?.close());

  it('against the embedded reference: exit 0, verdict conforms, the job summary and the report folder', { timeout: 120_000 }, async () => {
    const run = await runAction(action, { args: '--only AUTH-*,KEPT-001' });
    expect(run.code, run.log).toBe(0);
    expect(run.skipped).toEqual([expect.stringMatching(/^actions\/setup-node@/)]);
    expect(run.outputs.verdict).toBe('conforms');
    expect(run.outputs['exit-code']).toBe('0');
    expect(run.outputs['report-dir']).toBe(join(run.workspace, 'conform-report'));
    expect(readReport(run.outputs['report-dir']!).verdict).toBe('conforms');
    expect(existsSync(join(run.outputs['report-dir']!, 'junit.xml'))).toBe(true);
    expect(run.summary).toMatch(/^## ✅ conform: conforms/m);
    expect(run.log).not.toMatch(/::error/);
  });

  it('against a failing mutant: exit 1, verdict "does not conform", an annotation, and the key never shown', { timeout: 120_000 }, async () => {
    const run = await runAction(action, { target: broken.url, key: broken.keys.primary, args: '--only KEPT-001' });
    expect(run.code, run.log).toBe(1);
    expect(run.outputs.verdict).toBe('does not conform');
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.log).toMatch(/^::error title=KEPT-001 MUST/m);
    expect(run.summary).toMatch(/^## ❌ conform: does not conform/m);
    expect(run.summary).toContain('KEPT-001');
    expect(run.log + run.summary).not.toContain(broken.keys.primary);
    expect(readReport(run.outputs['report-dir']!).verdict).toBe('does not conform');
  });

  it('passes waivers, fail-on, profile and config through as flags, and a usage error gives verdict "usage error"', { timeout: 60_000 }, async () => {
    const run = await runAction(action, {
      target: 'nowhere',
      profile: 'staging',
      config: 'targets.json',
      waivers: 'waivers.json',
      'fail-on': 'should',
      reporters: 'json',
    });
    expect(run.log).toMatch(
      /^conform --target nowhere --profile staging --config targets\.json --waivers waivers\.json --fail-on should --reporter json --out \S+$/m,
    );
    expect(run.code).toBe(2);
    expect(run.outputs.verdict).toBe('usage error');
  });
});

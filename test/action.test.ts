import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { checkoutCopy, readAction, runAction } from './support/action.ts';
import { nodeBinaryDir } from './support/node-binary.ts';
import { actionReference, workflowText } from '../src/cli/init.ts';
import { readReport, repoRoot } from './support/cli.ts';

const action = readAction();

/**
 * Public actions that the workflows here may use, at the majors that exist. There is no network to
 * GitHub in the test, so these are listed rather than looked up; a new `uses:` must be added here on purpose.
 */
const publishedActions = new Set(['actions/checkout@v4', 'actions/upload-artifact@v4', 'actions/setup-node@v4', 'actions/cache@v4']);

/** Whether a `uses:` resolves for a workflow in the repository checked out at `checkout`. */
function resolves(uses: string, checkout: string): boolean {
  if (uses.startsWith('./')) return existsSync(join(checkout, uses, 'action.yml'));
  return publishedActions.has(uses);
}

type WorkflowStep = { uses?: string; with?: Record<string, string> };
const stepsOf = (workflow: string) => {
  const parsed = parse(workflow) as { jobs: Record<string, { steps?: WorkflowStep[]; needs?: string }> };
  return { parsed, steps: Object.values(parsed.jobs).flatMap((job) => job.steps ?? []) };
};

describe('action.yml', () => {
  it('is a composite action on Node 24 with the inputs and outputs a workflow needs', () => {
    expect(action.runs.using).toBe('composite');
    const setup = action.runs.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['node-version']).toBe('${{ inputs.node-version }}');
    expect(action.inputs['node-version']?.default).toBe('24');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['target', 'profile', 'key', 'other-key', 'waivers', 'fail-on', 'reporters']));
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['verdict', 'report-dir', 'exit-code', 'node-version']));
    // Inputs reach scripts through env only: an expression inside `run:` would let an input inject shell.
    for (const step of action.runs.steps) expect(step.run ?? '').not.toMatch(/\$\{\{/);
    for (const step of action.runs.steps) if (step.uses) expect(resolves(step.uses, repoRoot), step.uses).toBe(true);
  });

  it('installs production dependencies only, skipped when the lock-file keyed cache hits', () => {
    const cache = action.runs.steps.find((s) => s.uses?.startsWith('actions/cache@'))!;
    const install = action.runs.steps.find((s) => /npm ci/.test(s.run ?? ''))!;
    expect(install.run).toMatch(/npm ci --omit=dev/);
    expect(install.if).toBe(`steps.${cache.id}.outputs.cache-hit != 'true'`);
    const keyStep = action.runs.steps.find((s) => s.id === /steps\.([\w-]+)\.outputs\.key/.exec(cache.with!.key!)?.[1])!;
    expect(keyStep.run).toMatch(/createHash\("sha256"\)[^\n]*"\$GITHUB_ACTION_PATH\/package-lock\.json"/);
    expect(action.description).toMatch(/later steps/);
  });

  it('names no placeholder a user would have to find and replace', () => {
    for (const file of ['README.md', 'action.yml', 'Dockerfile', 'src/cli/init.ts'])
      expect(readFileSync(join(repoRoot, file), 'utf8'), file).not.toMatch(/your-org|<owner>\/conform/);
  });
});

describe('workflows that use the action', () => {
  it("the README's quick-start block is a complete gated workflow whose every uses: resolves in a fork", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const block = /## Quick start[^]*?```yaml\n([^]*?)```/.exec(readme)![1]!;
    const { parsed, steps } = stepsOf(block);
    for (const step of steps) if (step.uses) expect(resolves(step.uses, repoRoot), step.uses).toBe(true);
    const index = steps.findIndex((s) => s.uses === './');
    expect(index, 'a step uses ./').toBeGreaterThan(0);
    expect(
      steps.slice(0, index).some((s) => s.uses?.startsWith('actions/checkout@')),
      'checkout comes first',
    ).toBe(true);
    const step = steps[index]!;
    for (const input of Object.keys(step.with ?? {})) expect(action.inputs).toHaveProperty([input]);
    expect(step.with?.target).toMatch(/^https:\/\//);
    expect(Object.values(parsed.jobs).some((job) => job.needs === 'conform')).toBe(true);
    // The README says which line to change once the Action is published.
    expect(readme).toMatch(/once the Action is published[^]*uses: ./i);
  });

  it('the workflow conform init writes in a fork parses, uses only inputs the action has, and every uses: resolves', async () => {
    const fork = checkoutCopy();
    const ref = await actionReference(undefined, undefined, fork);
    expect(ref).toBe('./');
    const text = workflowText({ url: 'https://a.test', profile: 'staging', workflow: true, action: ref }, 'conform.config.json');
    const { steps } = stepsOf(text);
    for (const step of steps) if (step.uses) expect(resolves(step.uses, fork), step.uses).toBe(true);
    expect(steps[0]!.uses).toMatch(/^actions\/checkout@/);
    const step = steps.find((s) => s.uses === './')!;
    expect(Object.keys(step.with!).sort()).toEqual(['key', 'other-key', 'target']);
    for (const input of Object.keys(step.with!)) expect(action.inputs).toHaveProperty([input]);
  });

  it('init finds a vendored copy, and refuses a workflow it cannot resolve', async () => {
    const vendor = mkdtempSync(join(tmpdir(), 'conform-vendor-repo-'));
    await expect(actionReference(undefined, undefined, vendor)).rejects.toThrow(/init --workflow needs --action <ref>/);
    await expect(actionReference('./tools/conform', undefined, vendor)).rejects.toThrow(/no action\.yml/);
    await expect(actionReference('your-org', undefined, vendor)).rejects.toThrow(/--action must be/);
    expect(await actionReference('someone/agent-api-conform@v1', undefined, vendor)).toBe('someone/agent-api-conform@v1');
    cpSync(checkoutCopy(), join(vendor, 'tools/conform'), { recursive: true });
    expect(await actionReference('./tools/conform/', undefined, vendor)).toBe('./tools/conform');
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
    expect(run.skipped).toEqual([]);
    expect(run.outputs['node-version']).toMatch(/^v24\./);
    expect(run.log).toMatch(/^conform --reporter/m);
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

  // A fresh checkout each time, as on a runner: the first job installs and saves the cache, the second restores it.
  it('installs production dependencies cold, restores them warm, and runs conform both times', { timeout: 600_000 }, async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'conform-actions-cache-'));
    const installTimes: Record<string, number> = {};
    const abi = execFileSync(join(nodeBinaryDir(24), 'node'), ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
    for (const job of ['cold', 'warm'] as const) {
      const actionPath = checkoutCopy();
      const run = await runAction(action, { args: '--only AUTH-001', reporters: 'json' }, { actionPath, cacheDir });
      expect(run.code, run.log).toBe(0);
      expect(run.outputs.verdict).toBe('conforms');
      expect(run.log).toMatch(job === 'cold' ? /cache missed: agent-api-conform-prod-Linux-/ : /cache restored: agent-api-conform-prod-Linux-/);
      expect(run.log, 'installed for the Node the action set up').toMatch(new RegExp(`node-abi${abi}-[0-9a-f]{64}`));
      expect(run.notRun).toEqual(job === 'cold' ? [] : ["Install conform's dependencies"]);
      // Production only: the dev tools are not there, the runtime is.
      expect(existsSync(join(actionPath, 'node_modules/@biomejs/biome'))).toBe(false);
      expect(existsSync(join(actionPath, 'node_modules/typescript'))).toBe(false);
      expect(existsSync(join(actionPath, 'node_modules/vitest'))).toBe(true);
      installTimes[job] = (run.timings["Restore conform's dependencies"] ?? 0) + (run.timings["Install conform's dependencies"] ?? 0);
      rmSync(actionPath, { recursive: true, force: true });
    }
    console.log(
      `action install: cold ${(installTimes.cold! / 1000).toFixed(1)} s (npm ci --omit=dev), warm ${(installTimes.warm! / 1000).toFixed(1)} s (cache restore)`,
    );
  });
});

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { parseCommandLine } from '../src/cli/args.ts';
import { explain, renderExplanation, type Explanation } from '../src/cli/explain.ts';
import { runInit, WORKFLOW_FILE, type Ask } from '../src/cli/init.ts';
import type { ListedCheck } from '../src/cli/list.ts';
import type { CommandIo } from '../src/cli/main.ts';
import { loadTargets, resolveRunConfig } from '../src/config/resolve.ts';
import { UsageError } from '../src/core/errors.ts';
import { runCli } from './support/cli.ts';

function io(cwd: string): CommandIo & { printed: () => string } {
  let printed = '';
  const write = (text: string) => void (printed += text);
  return {
    io: { stdout: { write }, stderr: { write }, env: {}, cwd },
    out: write,
    err: write,
    mask: () => {},
    redact: (text) => text,
    printed: () => printed,
  };
}

const init = (argv: string[], cwd: string, ask?: Ask) => {
  const ctx = io(cwd);
  return runInit(parseCommandLine(['init', ...argv]).values, ctx, ask).then((code) => ({ code, printed: ctx.printed() }));
};

describe('conform init', () => {
  it('writes a commented targets file that the loader accepts and a run resolves', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-init-'));
    const { code, printed } = await init(['--target', 'https://staging.example.com/api/', '--profile', 'staging'], cwd);
    expect(code).toBe(0);
    expect(printed).toMatch(/wrote conform\.config\.json/);
    expect(printed).toMatch(/npx agent-api-conform --target staging/);
    const written = JSON.parse(readFileSync(join(cwd, 'conform.config.json'), 'utf8')) as Record<string, unknown>;
    expect(written.$schema).toBe('./node_modules/agent-api-conform/conform.config.schema.json');
    expect(written.$comment).toEqual(expect.arrayContaining([expect.stringMatching(/Keys are never stored here/)]));
    expect(loadTargets(undefined, cwd)).toEqual({
      staging: expect.objectContaining({ url: 'https://staging.example.com/api', profile: 'staging', keyEnv: 'CONFORM_STAGING_API_KEY' }),
    });
    const config = resolveRunConfig(parseCommandLine(['--target', 'staging']).values, { CONFORM_STAGING_API_KEY: 'k' }, cwd);
    expect(config.target).toMatchObject({
      kind: 'remote',
      baseUrl: 'https://staging.example.com/api',
      profile: 'staging',
      keySource: 'CONFORM_STAGING_API_KEY',
    });
    expect(existsSync(join(cwd, WORKFLOW_FILE))).toBe(false);
  });

  it('asks on a terminal for what the flags leave out, and writes the workflow when told yes', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-init-'));
    const questions: string[] = [];
    const answers = ['https://agent.example.com', '', 'y', 'someone/agent-api-conform@v1'];
    const ask: Ask = async (question) => (questions.push(question), answers.shift()!);
    const { code } = await init([], cwd, ask);
    expect(code).toBe(0);
    expect(questions).toEqual([
      expect.stringMatching(/Base URL/),
      expect.stringMatching(/Profile.*\[primary\]/),
      expect.stringMatching(/workflow.*\[y\/N\]/),
      expect.stringMatching(/conform Action's uses: reference/),
    ]);
    expect(loadTargets(undefined, cwd).primary).toMatchObject({ url: 'https://agent.example.com', profile: 'primary', keyEnv: 'CONFORM_API_KEY' });
    const workflow = parse(readFileSync(join(cwd, WORKFLOW_FILE), 'utf8')) as {
      jobs: { conform: { steps: { uses?: string; with?: Record<string, string> }[] } };
    };
    const step = workflow.jobs.conform.steps.find((s) => s.with?.target !== undefined)!;
    expect(step.with).toEqual({ target: 'primary', key: '${{ secrets.CONFORM_API_KEY }}', 'other-key': '${{ secrets.CONFORM_OTHER_API_KEY }}' });
    expect(workflow.jobs.conform.steps[0]!.uses).toMatch(/^actions\/checkout@/);
    expect(workflow.jobs.conform.steps[1]!.uses).toBe('someone/agent-api-conform@v1');
  });

  it('writes no workflow whose Action it cannot name: --workflow needs --action off a fork (exit 2, nothing written)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-init-'));
    await expect(init(['--target', 'https://a.test', '--workflow'], cwd)).rejects.toThrow(/init --workflow needs --action <ref>/);
    expect(existsSync(join(cwd, 'conform.config.json'))).toBe(false);
    await expect(init(['--target', 'https://a.test', '--action', './'], cwd)).rejects.toThrow(/--action goes with --workflow/);
  });

  it.each([
    [[], /init needs --target <base URL>/],
    [['--target', 'not a url'], /init --target: 'not a url' is not a valid URL/],
    [['--target', 'https://a.test', '--profile', 'prod'], /--profile must be primary or staging/],
  ])('%j off a terminal is a usage error', async (argv, message) => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-init-'));
    await expect(init(argv, cwd)).rejects.toThrow(UsageError);
    await expect(init(argv, cwd)).rejects.toThrow(message);
  });

  it('never overwrites a file without --force', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-init-'));
    await init(['--target', 'https://a.test'], cwd);
    await expect(init(['--target', 'https://b.test'], cwd)).rejects.toThrow(/already exist.*--force overwrites/);
    expect(loadTargets(undefined, cwd).primary!.url).toBe('https://a.test');
    await init(['--target', 'https://b.test', '--force'], cwd);
    expect(loadTargets(undefined, cwd).primary!.url).toBe('https://b.test');
  });

  it('runs from the CLI (exit 0) and refuses to overwrite (exit 2)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-init-'));
    const first = await runCli(['init', '--target', 'https://a.test', '--workflow', '--action', 'someone/agent-api-conform@v1'], {}, cwd);
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(join(cwd, WORKFLOW_FILE))).toBe(true);
    const again = await runCli(['init', '--target', 'https://a.test'], {}, cwd);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exist/);
  });
});

describe('conform explain', () => {
  it('prints the clauses, level, mutants and replay command of a check (exit 0)', async () => {
    const run = await runCli(['explain', 'kept-001']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^KEPT-001 MUST · §3, §4 · kept-toggle/);
    expect(run.stdout).toMatch(/C3\.1 \(§3\) The kept toggle sets is_kept to exactly the value sent/);
    expect(run.stdout).toMatch(/Proven by the mutant\(s\) it fails[^]*kept-ignores-value: /);
    expect(run.stdout).toContain('conform --target <name|url> --profile <primary|staging> --only KEPT-001 --seed <seed of the failed run> [--fc-path <path>]');
  });

  it('names, in JSON, exactly the mutants that list the check in their kills', async () => {
    const run = await runCli(['explain', 'PAGE-002', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const explanation = JSON.parse(run.stdout) as Explanation;
    const expected = (await loadMutants()).filter((m) => m.kills.includes('PAGE-002')).map((m) => m.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(explanation.mutants.map((m) => m.id)).toEqual(expected);
    expect(explanation.level).toMatch(/^(MUST|SHOULD)$/);
  });

  it('lists the ids of the area for an unknown check (exit 2)', async () => {
    const run = await runCli(['explain', 'KEPT-999']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no check 'KEPT-999' \(KEPT-\*: KEPT-001, /);
  });

  it('prints what a check accepts where the spec leaves a choice, from its metadata', async () => {
    const check: ListedCheck = {
      id: 'KEPT-001',
      level: 'MUST',
      sections: ['§3'],
      title: 't',
      area: 'kept-toggle',
      accepts: ['flags as 0/1 or booleans', 'any 2xx for the toggle'],
    };
    const text = renderExplanation(await explain(check));
    expect(text).toMatch(/Where the spec leaves a choice, it accepts:\n {2}- flags as 0\/1 or booleans\n {2}- any 2xx for the toggle\n/);
    const without = renderExplanation(await explain({ ...check, accepts: undefined }));
    expect(without).toMatch(/it accepts:\n {2}\(nothing listed in its metadata\)/);
  });
});

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { parseCommandLine } from '../src/cli/args.ts';
import { loadTargets, resolveRunConfig } from '../src/config/resolve.ts';
import { UsageError } from '../src/core/errors.ts';
import { validateReport } from '../reporters/schema.ts';
import { repoRoot, runCli } from './support/cli.ts';

const resolve = (argv: string[], env: Record<string, string> = {}, cwd = repoRoot) => resolveRunConfig(parseCommandLine(argv).values, env, cwd);

describe('CLI details: parsing and resolution', () => {
  it.each([
    [['--seed', '-5'], { settings: { seed: -5 } }],
    [['--seed=-5'], { settings: { seed: -5 } }],
    [['--seed', '-5', '--only', 'FILT-001', '--fc-path', '4:1:0'], { settings: { seed: -5, fcPath: '4:1:0' } }],
    [['--out', '-'], { output: { reportToStdout: true, reporters: ['json'] } }],
    [['--out', '-', '--reporter', 'terminal'], { output: { reportToStdout: true, reporters: ['json', 'terminal'] } }],
  ])('%j resolves', (argv, expected) => {
    expect(resolve(argv)).toMatchObject(expected);
  });

  it.each([
    [['explain', 'KEPT-001'], { command: 'explain', argument: 'KEPT-001' }],
    [['init', '--target', 'https://a.test', '--workflow', '--force'], { command: 'init', values: { target: 'https://a.test', workflow: true, force: true } }],
    [['diff', '--against-profile', 'primary'], { command: 'diff', values: { 'against-profile': 'primary' } }],
    [['--timeout', '-1'], { command: 'run', values: { timeout: '-1' } }],
  ])('%j parses', (argv, expected) => {
    expect(parseCommandLine(argv)).toMatchObject(expected);
  });

  it.each([
    [['--fc-path', 'zz', '--seed', '1'], {}, /--fc-path must be a fast-check path such as 4:1:0/],
    [['--fc-path', '4:1'], {}, /--fc-path needs the --seed/],
    [['--timeout', '-1'], {}, /--timeout must be between 100/],
    [['--out', '-', '--reporter', 'html'], {}, /--out - prints the JSON report on stdout; html need a folder/],
    [['--target', 'nowhere'], { CONFORM_API_KEY: 'k' }, /unknown target 'nowhere'.*\(known: primary, staging\)/],
    [['explain'], {}, /explain needs an argument: conform explain <ID>/],
    [['explain', 'A', 'B'], {}, /unexpected argument 'B'/],
  ])('%j is a usage error', (argv, env, message) => {
    expect(() => resolve(argv, env)).toThrow(UsageError);
    expect(() => resolve(argv, env)).toThrow(message);
  });

  it("records where the key came from: --key, the target's keyEnv, or CONFORM_API_KEY", () => {
    expect(resolve(['--target', 'staging'], { CONFORM_STAGING_API_KEY: 's' }).target).toMatchObject({ keySource: 'CONFORM_STAGING_API_KEY' });
    expect(resolve(['--target', 'staging'], { CONFORM_API_KEY: 'c' }).target).toMatchObject({ keySource: 'CONFORM_API_KEY' });
    expect(resolve(['--target', 'staging', '--key', 'k'], { CONFORM_STAGING_API_KEY: 's' }).target).toMatchObject({ keySource: '--key' });
  });
});

describe('the targets file is validated against conform.config.schema.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conform-schema-'));
  const load = (config: unknown) => {
    writeFileSync(join(dir, 'c.json'), JSON.stringify(config));
    return loadTargets('c.json', dir);
  };
  const target = { url: 'https://a.test', keyEnv: 'A_KEY' };

  it('accepts $schema, $comment on every object, a waivers path and per-target headers, and leaves the comments out', () => {
    const targets = load({
      $schema: './conform.config.schema.json',
      $comment: ['one', 'two'],
      waivers: 'waivers.json',
      targets: { $comment: 'the targets', a: { $comment: 'a', ...target, headers: { 'X-Gateway-Token': 'GATEWAY_TOKEN' } } },
    });
    expect(Object.keys(targets)).toEqual(['a']);
    expect(targets.a).toMatchObject({ url: 'https://a.test', headers: { 'X-Gateway-Token': 'GATEWAY_TOKEN' } });
  });

  it("accepts the repository's own example", () => {
    expect(Object.keys(loadTargets('conform.config.json', repoRoot))).toEqual(['primary', 'staging']);
  });

  it.each([
    [{ targets: { a: { ...target, apiKey: 'secret' } } }, /target 'a': keys must not be stored in the file/],
    [{ targets: { a: { ...target, urll: 'x' } } }, /target 'a': unknown field 'urll'/],
    [{ targets: { a: { keyEnv: 'A' } } }, /target 'a': missing "url"/],
    [{ targets: { a: { ...target, profile: 'prod' } } }, /target 'a': "profile" must be primary or staging/],
    [{ targets: { a: { ...target, keyEnv: 'not a name' } } }, /target 'a': "keyEnv" must be the name of an environment variable/],
    [{ targets: { a: { ...target, url: 'ftp://a.test' } } }, /target 'a': "url" must be the deployment's base URL/],
    [{ targets: { a: { ...target, headers: { 'X-Token': 'not a name' } } } }, /"headers.X-Token" must be the name of an environment variable/],
    [{ targets: {}, waivers: 3 }, /"waivers" must be a waivers file's path \(relative to this file\) or a list of waiver entries/],
    [{ targets: { a: { url: 'https://a.example', waivers: false } } }, /target 'a': "waivers" must be a waivers file's path/],
    [{ targets: {}, extra: true }, /unknown field 'extra'/],
    [{ target: {} }, /expected an object with a "targets" object/],
  ])('%j is refused with a message that names the field', (config, message) => {
    expect(() => load(config)).toThrow(UsageError);
    expect(() => load(config)).toThrow(message);
  });
});

describe('CLI details: as a user runs them', () => {
  let reference: RunningReference;
  let busy: Server;
  let busyPort: number;
  const configDir = mkdtempSync(join(tmpdir(), 'conform-keyenv-'));

  beforeAll(async () => {
    reference = await startReference();
    writeFileSync(join(configDir, 'conform.config.json'), JSON.stringify({ targets: { live: { url: reference.url, keyEnv: 'LIVE_AGENT_KEY' } } }));
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(async () => {
    await reference?.close();
    await new Promise((resolve) => busy?.close(resolve));
  });

  // [what, argv, env, cwd, exit code, stderr pattern]
  const rows: [string, () => string[], () => Record<string, string>, () => string, number, RegExp][] = [
    ['--fc-path zz', () => ['--only', 'FILT-001', '--seed', '1', '--fc-path', 'zz'], () => ({}), () => repoRoot, 2, /--fc-path must be a fast-check path/],
    [
      'serve on a busy port',
      () => ['serve', '--port', String(busyPort)],
      () => ({}),
      () => repoRoot,
      2,
      /port \d+ is already in use; pick another with --port/,
    ],
    [
      "a refused key from the target's keyEnv",
      () => ['--target', 'live'],
      () => ({ LIVE_AGENT_KEY: 'wrong-key-4242' }),
      () => configDir,
      2,
      /refused the key .*check the key in \$LIVE_AGENT_KEY/,
    ],
    [
      'a refused key from --key',
      () => ['--target', reference.url, '--key', 'wrong-key-4242'],
      () => ({}),
      () => repoRoot,
      2,
      /refused the key .*check the key given with --key/,
    ],
    ['an unknown target name', () => ['--target', 'prod'], () => ({ CONFORM_API_KEY: 'k' }), () => configDir, 2, /unknown target 'prod': .*\(known: live\)/],
  ];

  it.each(rows)('%s', async (_what, argv, env, cwd, code, message) => {
    const run = await runCli(argv(), env(), cwd());
    expect(run.code, run.stdout + run.stderr).toBe(code);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/internal error|wrong-key-4242|CONFORM_API_KEY.*LIVE/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--seed -5 runs and replays with that seed', async () => {
    const run = await runCli(['--only', 'PAGE-001', '--seed', '-5']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.report().seed).toBe(-5);
  });

  it('--out - prints the JSON report on stdout and makes no folder named -', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-stdout-'));
    const run = await runCli(['--only', 'AUTH-001', '--out', '-'], {}, cwd);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { verdict: string };
    expect(validateReport(report)).toEqual([]);
    expect(report.verdict).toBe('conforms');
    expect(run.stderr).toMatch(/verdict: conforms/);
    expect(existsSync(join(cwd, '-'))).toBe(false);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('--out - against a remote target says, before any change, where the journal is and how to restore from it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-stdout-journal-'));
    const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'KEPT-001', '--out', '-'], {}, cwd);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { verdict: string }).verdict).toBe('conforms');
    const lines = run.stderr.split('\n').filter((l) => l.includes('journal'));
    expect(lines, run.stderr).toHaveLength(1);
    const path = /journal is (\S+journal\.jsonl),/.exec(lines[0]!)?.[1];
    expect(path, lines[0]).toBeDefined();
    expect(path!.startsWith(cwd), 'the journal is outside the working folder').toBe(false);
    expect(lines[0]).toContain(`conform restore --journal ${path} --target ${reference.url} --profile primary`);
    // Printed when the run starts, not with the verdict: a killed run leaves only the log.
    expect(run.stderr.indexOf(lines[0]!)).toBeLessThan(run.stderr.indexOf('verdict:'));
    expect(run.stderr).not.toContain(reference.keys.primary);
  });

  it('a run with a report folder keeps its journal there and prints no journal line', async () => {
    const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'KEPT-001']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(/journal/);
    expect(existsSync(join(run.outDir, 'journal.jsonl'))).toBe(true);
  });

  // `| true` closes the pipe before conform writes anything, so every write meets EPIPE; `| head -1` after the first line.
  it.each([
    ['head -1', 1],
    ['true', 0],
  ])(
    'conform --list | %s ends quietly: no EPIPE, exit 0',
    async (reader, lines) => {
      const bin = join(repoRoot, 'bin', 'conform.js');
      const shell = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" "${bin}" --list | ${reader}`], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      });
      let stdout = '';
      let stderr = '';
      shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => shell.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout.split('\n').filter(Boolean)).toHaveLength(lines);
      if (lines > 0) expect(stdout).toMatch(/^[A-Z]+-\d+ /);
    },
    60_000,
  );
});

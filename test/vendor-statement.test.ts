import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { sha256Hex } from '../src/vendor/digest.ts';
import type { Statement } from '../src/vendor/statement.ts';
import { main } from '../src/cli/main.ts';
import { repoRoot, runCli, type CliRun } from './support/cli.ts';
import { keyArgs } from './support/reference.ts';

/** What no written file may show: an extra header's value and a proxy password (the keys are added per reference). */
const HEADER_VALUE = 'gw-token-7f3e9a1c5b';
const PROXY_PASSWORD = 'proxy-pw-4d2b8e6f';
const env = { HTTP_PROXY: `http://conform:${PROXY_PASSWORD}@127.0.0.1:9`, NO_PROXY: '127.0.0.1,localhost' };
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };

const mutants = await loadMutants();
const wrapOf = (id: string) => {
  const found = mutants.find((m) => m.id === id);
  if (!found?.wrap) throw new Error(`no wrapping mutant ${id} in fixtures/mutants`);
  return found.wrap;
};

/** The three implementations: the reference, a full run of one mutant, a partial run of another (checks left out). */
const subjects = [
  { name: 'reference', mutant: undefined, only: [] as string[], kills: [] as string[] },
  { name: 'missing-header', mutant: 'auth-missing-header-served', only: ['--only', 'AUTH-*,CAT-*,KEPT-*'], kills: ['AUTH-001'] },
  { name: 'unknown-key', mutant: 'auth-unknown-key-served', only: ['--only', 'AUTH-*,ENUM-*,WRITE-*'], kills: ['AUTH-003'] },
] as const;

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI's main in this process: statement and compare read the installed suite's checks once a process,
 * where a child process per command would collect them again each time (the runs themselves are child processes).
 */
async function cli(argv: readonly string[], extraEnv: Record<string, string> = {}): Promise<Output> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...env, ...extraEnv },
    cwd: repoRoot,
  });
  outputs.push(stdout, stderr);
  return { code, stdout, stderr };
}

interface Made {
  name: string;
  kills: readonly string[];
  run: CliRun;
  statement: Output;
  file: string;
  json: Statement;
}

const made: Made[] = [];
const secrets: string[] = [HEADER_VALUE, PROXY_PASSWORD];
const folders: string[] = [];
const outputs: string[] = [];
const references: RunningReference[] = [];

beforeAll(async () => {
  for (const subject of subjects) references.push(await startReference(subject.mutant ? { wrap: wrapOf(subject.mutant) } : {}));
  // The runs wait on the network more than on the CPU: side by side they take the time of the longest.
  const runs = await Promise.all(
    subjects.map((subject, i) =>
      runCli([...keyArgs(references[i]!), '--header', `X-Gateway-Token: ${HEADER_VALUE}`, '--reporter', 'json,html', '-q', ...subject.only], env),
    ),
  );
  for (const [i, subject] of subjects.entries()) {
    const reference = references[i]!;
    const run = runs[i]!;
    secrets.push(reference.keys.primary, reference.keys.other, reference.keys.empty);
    expect(run.code, run.stdout + run.stderr).toBe(subject.kills.length > 0 ? 1 : 0);
    // The key is given to the statement command too, as CI would leave it in the environment.
    const statement = await cli(['statement', run.outDir, '--out', run.outDir], { CONFORM_API_KEY: reference.keys.primary });
    const file = join(run.outDir, 'conformance-statement.json');
    made.push({ name: subject.name, kills: subject.kills, run, statement, file, json: JSON.parse(readFileSync(file, 'utf8')) as Statement });
    folders.push(run.outDir);
    outputs.push(run.stdout, run.stderr);
  }
}, 150_000);

afterAll(async () => {
  for (const reference of references) await reference.close();
});

describe('conform statement', () => {
  it('writes the statement, its detached digest and the badge for the reference and two mutants', () => {
    for (const { name, statement, run, file, json, kills } of made) {
      expect(statement.code, `${name}: ${statement.stdout}${statement.stderr}`).toBe(0);
      expect(statement.stdout).toContain(`statement: ${file}`);
      const report = run.report();
      expect(json.suite).toEqual({ name: pkg.name, version: pkg.version });
      expect(json.spec.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(json.run).toMatchObject({ profile: 'primary', seed: report.seed, target: { baseUrl: report.target.url } });
      expect(json.run.reportDigest).toBe(`sha256:${sha256Hex(readFileSync(join(run.outDir, 'report.json'), 'utf8'))}`);
      expect(json.verdict).toMatchObject({ verdict: report.verdict, exitCode: report.exitCode });
      for (const check of report.checks) expect(json.checks.find((c) => c.id === check.id)?.status, `${name} ${check.id}`).toBe(check.status);
      for (const id of kills) expect(json.checks.find((c) => c.id === id)?.status, `${name} ${id}`).toBe('failed');
      const text = readFileSync(file, 'utf8');
      expect(readFileSync(`${file}.sha256`, 'utf8')).toBe(`${sha256Hex(text)}  conformance-statement.json\n`);
      const badge = readFileSync(join(run.outDir, 'badge.svg'), 'utf8');
      expect(badge).toContain(
        kills.length > 0 ? `${json.verdict.mustFailed} MUST failed · ${pkg.name} ${pkg.version}` : `conforms · ${pkg.name} ${pkg.version}`,
      );
      expect(badge).toContain('Agent API · primary');
    }
    expect(made.map((m) => m.json.verdict.verdict)).toEqual(['conforms', 'does not conform', 'does not conform']);
    const partial = made[2]!.json;
    expect(partial.run.selection).toEqual({ only: ['AUTH-*', 'ENUM-*', 'WRITE-*'], skip: [] });
    expect(partial.verdict.counts['not-run']).toBeGreaterThan(0);
    expect(partial.checks.filter((c) => c.status === 'not-run').every((c) => !/^(AUTH|ENUM|WRITE)-/.test(c.id))).toBe(true);
    // One check set, one spec: the three statements were made by the same suite.
    expect(new Set(made.map((m) => m.json.checkSet.digest)).size).toBe(1);
  });

  it('verifies each statement against the installed suite', async () => {
    for (const { name, file } of made) {
      const verified = await cli(['statement', '--verify', file]);
      expect(verified.code, `${name}: ${verified.stdout}${verified.stderr}`).toBe(0);
      expect(verified.stdout).toContain(`verified: ${file}`);
      expect(verified.stdout).toContain(`same check set and spec as ${pkg.name} ${pkg.version}`);
    }
  }, 60_000);

  it('fails an edited statement, with or without its detached digest beside it', async () => {
    const failing = made[1]!;
    const dir = mkdtempSync(join(tmpdir(), 'conform-edited-'));
    folders.push(dir);
    const edited = join(dir, 'conformance-statement.json');
    const original = readFileSync(failing.file, 'utf8');
    const changed = original.replace(/("id": "AUTH-001",\n\s*"level": "MUST",\n\s*"status": )"failed"/, '$1"passed"');
    expect(changed).not.toBe(original);
    writeFileSync(edited, changed);
    copyFileSync(`${failing.file}.sha256`, `${edited}.sha256`);
    const withDigest = await cli(['statement', '--verify', edited]);
    expect(withDigest.code, withDigest.stdout + withDigest.stderr).toBe(1);
    expect(withDigest.stdout).toContain("problem: the file's sha256 is not the one in its detached digest");
    expect(withDigest.stdout).toContain('problem: the embedded digest does not match the content: the statement was edited');
    expect(withDigest.stdout).toContain(`not verified: ${edited}`);
    rmSync(`${edited}.sha256`);
    const alone = await cli(['statement', '--verify', edited]);
    expect(alone.code).toBe(1);
    expect(alone.stdout).toContain('note: no detached digest file beside the statement');
    expect(alone.stdout).toContain('problem: the embedded digest does not match the content');
  }, 60_000);

  it('has its own --help', async () => {
    const help = await cli(['statement', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: conform statement <REPORT_DIR> \[--out DIR\]\n {7}conform statement --verify <FILE>/);
    const compareHelp = await cli(['compare', '--help']);
    expect(compareHelp.stdout).toMatch(/^Usage: conform compare /);
    expect(compareHelp.stdout).toContain('--label NAME');
  });
});

describe('conform compare', () => {
  let outDir: string;
  let compare: Output;
  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'conform-compare-'));
    folders.push(outDir);
    const [reference, missing, unknown] = made;
    compare = await cli([
      'compare',
      reference!.run.outDir,
      join(missing!.run.outDir, 'report.json'),
      unknown!.file,
      '--label',
      'reference',
      '--label',
      'missing header',
      '--out',
      outDir,
    ]);
  }, 60_000);

  it('writes the matrix as HTML, Markdown and JSON; the killed checks are the rows that differ', () => {
    expect(compare.code, compare.stdout + compare.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(outDir, 'compare.json'), 'utf8')) as {
      columns: { label: string }[];
      groups: { section: string; rows: { id: string; disagree: boolean; cells: { status: string; anchor?: string; href?: string }[] }[] }[];
      warnings: string[];
    };
    expect(json.columns.map((c) => c.label)).toEqual(['reference', 'missing header', made[2]!.json.run.target.label]);
    const rows = json.groups.flatMap((g) => g.rows);
    const differ = rows.filter((r) => r.disagree).map((r) => r.id);
    expect(differ).toEqual(expect.arrayContaining(['AUTH-001', 'AUTH-003']));
    // The partial run's left-out checks are not-run, which is not a disagreement about the target.
    expect(rows.find((r) => r.id === 'AUTH-001')!.cells.map((c) => c.status)).toEqual(['passed', 'failed', 'passed']);
    const cell = rows.find((r) => r.id === 'AUTH-001')!.cells[1]!;
    expect(cell.anchor).toBe('c2-AUTH-001');
    expect(cell.href).toMatch(/report\.html#check-AUTH-001$/);
    expect(existsSync(join(outDir, cell.href!.split('#')[0]!))).toBe(true);
    expect(json.groups.map((g) => g.section)).toEqual([...json.groups.map((g) => g.section)].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))));
    const md = readFileSync(join(outDir, 'compare.md'), 'utf8');
    expect(md).toMatch(/\| §5 \| \*\*AUTH-001\*\* \(differs\) \| MUST \| passed \| \*\*\[failed\]\(compare\.html#c2-AUTH-001\)\*\* \| passed \|/);
    const html = readFileSync(join(outDir, 'compare.html'), 'utf8');
    expect(html).toContain('<tr id="row-AUTH-001" class="disagree">');
    expect(html).toContain('id="c2-AUTH-001"');
  });

  it("warns about the partial run's missing checks, on the page and on stderr, and not about versions or profiles", () => {
    const html = readFileSync(join(outDir, 'compare.html'), 'utf8');
    expect(html).toMatch(/<div class="warning" role="alert"><strong>Warning:<\/strong> some checks are absent from some runs: .*PAGE-001/);
    expect(compare.stderr).toContain('conform compare: warning: some checks are absent from some runs');
    expect(compare.stderr).not.toMatch(/suite versions|profiles/);
    expect(html).not.toMatch(/different (suite versions|profiles)/);
    expect(readFileSync(join(outDir, 'compare.md'), 'utf8')).toContain('| not-run |');
  });

  const chromium = '/usr/bin/chromium';
  const hasChromium = existsSync(chromium);
  if (!hasChromium) console.warn(`vendor-statement: ${chromium} not found; skipping the headless browser rendering of compare.html (CI installs chromium)`);

  it.skipIf(!hasChromium)('renders compare.html in headless Chromium', { timeout: 90_000 }, async () => {
    const profile = mkdtempSync(join(tmpdir(), 'conform-chromium-profile-'));
    try {
      const { stdout: dom } = await promisify(execFile)(
        chromium,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--disable-dev-shm-usage',
          `--user-data-dir=${profile}`,
          '--dump-dom',
          pathToFileURL(join(outDir, 'compare.html')).href,
        ],
        { timeout: 80_000, maxBuffer: 32 * 1024 * 1024 },
      );
      expect(dom).toContain('Agent API implementations');
      expect(dom).toContain('<tr id="row-AUTH-001" class="disagree">');
      expect(dom).toContain('missing header');
      expect(dom).toMatch(/<div class="detail" id="c2-AUTH-001">/);
      for (const secret of secrets) expect(dom).not.toContain(secret);
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

describe('secrets', () => {
  it('no key, header value or proxy password in any file written or any line printed', () => {
    const files = folders.flatMap((dir) => readdirSync(dir).map((name) => join(dir, name)));
    expect(files.map((f) => f.split('/').pop())).toEqual(
      expect.arrayContaining(['conformance-statement.json', 'conformance-statement.json.sha256', 'badge.svg', 'compare.html', 'compare.md', 'compare.json']),
    );
    expect(secrets.every((s) => s.length >= 8)).toBe(true);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of secrets) expect(text.includes(secret), `${file} shows a secret`).toBe(false);
    }
    for (const text of outputs) for (const secret of secrets) expect(text.includes(secret)).toBe(false);
  });
});

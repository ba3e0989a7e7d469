import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { repoRoot, runCli } from './support/cli.ts';

const reportFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f !== 'journal.jsonl')
    .sort();

describe('choosing reporters on the command line', () => {
  it('writes only the selected reports; without the terminal reporter only the verdict is printed', async () => {
    const run = await runCli(['--only', 'AUTH-001', '--reporter', 'junit', '--reporter', 'json', '--quiet']);
    expect(run.code).toBe(0);
    expect(reportFiles(run.outDir)).toEqual(['junit.xml', 'report.json']);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stdout.trim()).toMatch(/^verdict: conforms \(.*; partial run: --only AUTH-001 \(1 of \d+ checks\)\); exit 0$/);
  });

  it('under GitHub Actions adds a job summary by default; failures become ::error annotations', async () => {
    const mutant = (await loadMutants()).find((m) => m.id === 'auth-unknown-key-served')!;
    const reference = await startReference({ wrap: mutant.wrap! });
    try {
      const summary = join(mkdtempSync(join(tmpdir(), 'conform-gh-')), 'summary.md');
      const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'AUTH-*'], {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summary,
      });
      expect(run.code).toBe(1);
      expect(reportFiles(run.outDir)).toEqual(['junit.xml', 'report.html', 'report.json']);
      expect(run.stdout).toMatch(/^::error title=AUTH-003[^\n]*::/m);
      const markdown = readFileSync(summary, 'utf8');
      expect(markdown).toMatch(/does not conform/);
      expect(markdown).toContain('AUTH-003');
      expect(markdown + run.stdout).not.toContain(reference.keys.primary);
    } finally {
      await reference.close();
    }
  });

  it('the terminal names the clause a failing check broke, by id beside its sections and in words', async () => {
    const mutant = (await loadMutants()).find((m) => m.id === 'auth-unknown-key-served')!;
    const reference = await startReference({ wrap: mutant.wrap! });
    try {
      const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'AUTH-*', '--reporter', 'terminal,json']);
      expect(run.code).toBe(1);
      const failed = run.report().checks.filter((c) => c.status === 'failed');
      expect(failed.map((c) => c.id)).toContain('AUTH-003');
      for (const check of failed) {
        expect(check.clause, check.id).toBeDefined();
        expect(run.stdout).toContain(`${check.id} ${check.level} ${check.title} [${check.sections.join(', ')}; clause ${check.clause!.id}]`);
        expect(run.stdout).toContain(`clause ${check.clause!.id} (${check.clause!.section}): ${check.clause!.text}`);
      }
    } finally {
      await reference.close();
    }
  });

  it('refuses an unknown reporter with one line', async () => {
    const run = await runCli(['--reporter', 'terminal,xml']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("conform: unknown reporter 'xml' (reporters: terminal, json, junit, html, github)");
  });
});

// `script` (util-linux) gives the CLI a pseudo-terminal, as a person at a terminal has.
const hasScript = existsSync('/usr/bin/script');

describe.skipIf(!hasScript)('progress on a terminal', () => {
  const onTty = (env: Record<string, string>) => {
    const out = mkdtempSync(join(tmpdir(), 'conform-tty-'));
    const command = `node bin/conform.js --only 'AUTH-*,KEPT-001' --out ${out}`;
    return spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', ...env },
    });
  };

  it('keeps a live "done/total" line on a TTY, in colour', () => {
    const { stdout } = onTty({});
    expect(stdout).toContain('5/5 checks done');
    expect(stdout).toMatch(/\r\x1b\[K/);
    expect(stdout).toMatch(/\x1b\[32m/);
  });

  it('honours NO_COLOR', () => {
    const { stdout } = onTty({ NO_COLOR: '1' });
    expect(stdout).toContain('checks done');
    expect(stdout).not.toMatch(/\x1b\[3\dm/);
  });

  it('prints plain lines, no status line, when stdout is not a terminal', async () => {
    const run = await runCli(['--only', 'AUTH-*,KEPT-001']);
    expect(run.stdout).toMatch(/^✓ AUTH-001 /m);
    expect(run.stdout).not.toContain('checks done');
    expect(run.stdout).not.toContain('\x1b');
  });
});

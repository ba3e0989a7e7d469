import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { runCli } from './support/cli.ts';

const reportFiles = (dir: string) => readdirSync(dir).filter((f) => f !== 'journal.jsonl').sort();

describe('choosing reporters on the command line', () => {
  it('writes only the selected reports; without the terminal reporter only the verdict is printed', async () => {
    const run = await runCli(['--only', 'AUTH-001', '--reporter', 'junit', '--reporter', 'json', '--quiet']);
    expect(run.code).toBe(0);
    expect(reportFiles(run.outDir)).toEqual(['junit.xml', 'report.json']);
    expect(run.stdout).not.toMatch(/AUTH-001/);
    expect(run.stdout.trim()).toMatch(/^verdict: conforms/);
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

  it('refuses an unknown reporter with one line', async () => {
    const run = await runCli(['--reporter', 'terminal,xml']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("conform: unknown reporter 'xml' (reporters: terminal, json, junit, html, github)");
  });
});

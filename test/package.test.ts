import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, repoRoot } from './support/cli.ts';

// What a vendor does: npm pack, install the tarball into an empty folder elsewhere, run npx conform.
describe('the packed package', () => {
  it('installs into an empty folder and runs conform against its embedded reference', { timeout: 240_000 }, () => {
    const folder = mkdtempSync(join(tmpdir(), 'conform-vendor-'));
    const npm = (args: string[], cwd: string) =>
      execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', folder], repoRoot)) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toContain('bin/conform.js');
    expect(files.some((f) => f.startsWith('test/'))).toBe(false);

    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'vendor-pipeline', private: true }));
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', join(folder, packed[0]!.filename)], folder);

    const out = join(folder, 'report');
    const stdout = execFileSync('npx', ['conform', '--only', 'AUTH-*,KEPT-001,PAGE-001', '--out', out], {
      cwd: folder,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    });
    expect(stdout).toMatch(/verdict: conforms/);
    expect(readdirSync(out)).toEqual(expect.arrayContaining(['report.json', 'junit.xml']));
    const report = readReport(out);
    expect(report.verdict).toBe('conforms');
    expect(report.checks.filter((c) => c.status === 'passed').length).toBeGreaterThanOrEqual(6);
  });
});

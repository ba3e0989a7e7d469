import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME } from '../src/core/package-name.ts';
import { readReport, repoRoot } from './support/cli.ts';
import { nodeBinaryDir } from './support/node-binary.ts';

// What a vendor does: npm pack, install the tarball into an empty folder elsewhere, run npx agent-api-conform.
describe('the packed package', () => {
  it('is named agent-api-conform, with the command conform', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
    expect(pkg.name).toBe(PACKAGE_NAME);
    expect(Object.keys(pkg.bin)).toEqual(['conform']);
  });

  it('installs into an empty folder and runs every check against its embedded reference, on Node 20, Node 22 and Node 24', { timeout: 480_000 }, () => {
    const folder = mkdtempSync(join(tmpdir(), 'conform-vendor-'));
    const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' } });
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', folder], repoRoot)) as {
      filename: string;
      size: number;
      files: { path: string }[];
    }[];
    expect(packed[0]!.filename).toMatch(new RegExp(`^${PACKAGE_NAME}-\\d`));
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toContain('bin/conform.js');
    expect(files).toContain('conform.config.schema.json');
    // What a user runs, and the mutants `conform explain` names; not the project's own tests and tools.
    expect(files.filter((f) => /^(test|scripts|\.ci)\/|^fixtures\/variants\.ts$|^tsconfig\.json$|^Dockerfile$|^action\.yml$|\.png$/.test(f))).toEqual([]);
    expect(files.some((f) => f.startsWith('fixtures/mutants/'))).toBe(true);
    const stated = /npm package is about (\d+) kB packed \((\d+) kB unpacked, (\d+) files\)/.exec(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
    expect(stated, 'the README states the package size').not.toBeNull();
    const packedKb = packed[0]!.size / 1000;
    expect(Math.abs(packedKb - Number(stated![1])) / packedKb, `packed ${packedKb.toFixed(0)} kB, README says ${stated![1]}`).toBeLessThan(0.15);

    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'vendor-pipeline', private: true }));
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', join(folder, packed[0]!.filename)], folder);

    // Every check, on the host's Node 20 and on Node 22 and 24 from the npm registry (first on PATH).
    const listed = JSON.parse(
      execFileSync(process.execPath, [join(repoRoot, 'bin/conform.js'), '--list', '--format', 'json'], { encoding: 'utf8' }),
    ) as unknown[];
    for (const [expected, nodeBin] of [
      ['20', undefined],
      ['22', nodeBinaryDir(22)],
      ['24', nodeBinaryDir(24)],
    ] as const) {
      const PATH = nodeBin ? `${nodeBin}:${process.env.PATH}` : process.env.PATH;
      const major = execFileSync('node', ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8', env: { PATH } }).trim();
      expect(major).toBe(expected);
      const out = join(folder, `report-node${major}`);
      const stdout = execFileSync('npx', [PACKAGE_NAME, '--out', out], { cwd: folder, encoding: 'utf8', env: { PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
      expect(stdout, `Node ${major}`).toMatch(/verdict: conforms/);
      expect(readdirSync(out)).toEqual(expect.arrayContaining(['report.json', 'junit.xml']));
      const report = readReport(out);
      expect(report.verdict).toBe('conforms');
      expect(report.tool.name).toBe(PACKAGE_NAME);
      expect(report.checks.length, `Node ${major}: every check ran`).toBe(listed.length);
    }

    const run = (args: string[]) =>
      execFileSync('npx', [PACKAGE_NAME, ...args], {
        cwd: folder,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      });
    expect(run(['explain', 'KEPT-001'])).toMatch(/Proven by the mutant\(s\) it fails[^]*kept-ignores-value/);
    run(['init', '--target', 'https://agent.example.com']);
    const config = JSON.parse(readFileSync(join(folder, 'conform.config.json'), 'utf8')) as { $schema: string };
    expect(config.$schema).toBe(`./node_modules/${PACKAGE_NAME}/conform.config.schema.json`);
    expect(existsSync(join(folder, config.$schema))).toBe(true);
    // The written file loads and validates: only the key is missing.
    expect(() => run(['--target', 'primary'])).toThrow(/no key for primary: pass --key or set CONFORM_API_KEY/);
  });
});

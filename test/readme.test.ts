import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockPattern, type ReadmeFacts } from '../scripts/readme-facts.ts';
import { repoRoot } from './support/cli.ts';

const stale = 'the README is stale: run `npm run readme` and commit README.md';

describe("the README's facts", () => {
  it('state the current checks, MUST/SHOULD split, report schema version, name, version, Node range and size', { timeout: 180_000 }, () => {
    const facts = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/readme-facts.ts', '--json'], { cwd: repoRoot, encoding: 'utf8' }),
    ) as ReadmeFacts;
    expect(facts.checks).toBe(facts.must + facts.should);
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const block = (name: string) => blockPattern(name).exec(readme)?.[2] ?? '';

    const line =
      /^\*\*(\S+) (\S+)\*\* · \*\*(\d+) checks\*\* \((\d+) MUST, (\d+) SHOULD\) · report schema version (\d+) · Node `([^`]+)` · npm package about (\d+) kB packed$/.exec(
        block('facts'),
      );
    expect(line, `the facts block: ${stale}`).not.toBeNull();
    const [, name, version, checks, must, should, schema, node, packed] = line!;
    expect({ name, version, checks: Number(checks), must: Number(must), should: Number(should), schema: Number(schema), node }, stale).toEqual({
      name: facts.name,
      version: facts.version,
      checks: facts.checks,
      must: facts.must,
      should: facts.should,
      schema: facts.reportSchemaVersion,
      node: facts.node,
    });

    const size = /^The npm package is about (\d+) kB packed \((\d+) kB unpacked, (\d+) files\)\.$/.exec(block('package-size'));
    expect(size, `the package-size block: ${stale}`).not.toBeNull();
    // Sizes move with every edit; within a tenth they still say what a user downloads.
    const near = (stated: string | undefined, actual: number) => Math.abs(Number(stated) - actual) <= actual * 0.1;
    expect([near(packed, facts.packedKb), near(size![1], facts.packedKb), near(size![2], facts.unpackedKb), near(size![3], facts.files)], stale).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('names only Node lines that engines claims and CI tests', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
    const tested = pkg.engines.node.split('||').map((range) => /\^(\d+)\./.exec(range)![1]);
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const named = [...readme.matchAll(/\bNode (\d+)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((major) => !tested.includes(major))).toEqual([]);
  });

  it('come from the package itself: the report schema version and the name the code uses', async () => {
    const { reportSchemaVersion } = await import('../reporters/schema.ts');
    const { PACKAGE_NAME } = await import('../src/core/package-name.ts');
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string };
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { name: string; packages: Record<string, { name?: string }> };
    expect([pkg.name, lock.name, lock.packages['']!.name]).toEqual([PACKAGE_NAME, PACKAGE_NAME, PACKAGE_NAME]);
    const schema = JSON.parse(readFileSync(join(repoRoot, 'reporters/report.schema.json'), 'utf8')) as {
      properties: { tool: { properties: { name: { const: string } } } };
    };
    expect(schema.properties.tool.properties.name.const).toBe(PACKAGE_NAME);
    expect(reportSchemaVersion).toBeGreaterThan(0);
  });
});

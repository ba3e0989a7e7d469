/**
 * The numbers the README states: how many checks (MUST/SHOULD), the report schema version, the package's
 * name, version, Node range and packed size. `npm run readme` rewrites the README's generated blocks from
 * them; `--json` prints them for test/readme.test.ts, which fails when the README is stale.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportSchemaVersion } from '../reporters/schema.ts';
import { collectChecks } from '../src/cli/list.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface ReadmeFacts {
  name: string;
  version: string;
  node: string;
  checks: number;
  must: number;
  should: number;
  reportSchemaVersion: number;
  packedKb: number;
  unpackedKb: number;
  files: number;
}

export async function readmeFacts(): Promise<ReadmeFacts> {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; engines: { node: string } };
  const checks = await collectChecks();
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, npm_config_loglevel: 'error' },
    }),
  ) as { size: number; unpackedSize: number; entryCount: number }[];
  return {
    name: pkg.name,
    version: pkg.version,
    node: pkg.engines.node,
    checks: checks.length,
    must: checks.filter((c) => c.level === 'MUST').length,
    should: checks.filter((c) => c.level === 'SHOULD').length,
    reportSchemaVersion,
    packedKb: Math.round(packed[0]!.size / 1000),
    unpackedKb: Math.round(packed[0]!.unpackedSize / 1000),
    files: packed[0]!.entryCount,
  };
}

/** The generated blocks, by marker name: `<!-- name -->` … `<!-- /name -->` in the README. */
export function renderBlocks(f: ReadmeFacts): Record<string, string> {
  return {
    facts:
      `**${f.name} ${f.version}** · **${f.checks} checks** (${f.must} MUST, ${f.should} SHOULD) · report schema version ${f.reportSchemaVersion} · ` +
      `Node \`${f.node}\` · npm package about ${f.packedKb} kB packed`,
    'package-size': `The npm package is about ${f.packedKb} kB packed (${f.unpackedKb} kB unpacked, ${f.files} files).`,
  };
}

export function blockPattern(name: string): RegExp {
  return new RegExp(`(<!-- ${name} -->\\n)([^]*?)(\\n<!-- /${name} -->)`);
}

export function rewrite(readme: string, blocks: Record<string, string>): string {
  let text = readme;
  for (const [name, body] of Object.entries(blocks)) {
    if (!blockPattern(name).test(text)) throw new Error(`README.md has no <!-- ${name} --> … <!-- /${name} --> block`);
    text = text.replace(blockPattern(name), (_, open: string, __: string, close: string) => `${open}${body}${close}`);
  }
  return text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const facts = await readmeFacts();
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(facts)}\n`);
  else {
    const path = join(repoRoot, 'README.md');
    const before = readFileSync(path, 'utf8');
    const after = rewrite(before, renderBlocks(facts));
    writeFileSync(path, after);
    process.stdout.write(before === after ? 'README.md: facts already current\n' : 'README.md: facts rewritten\n');
  }
}

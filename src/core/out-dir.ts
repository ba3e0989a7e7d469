import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from './errors.ts';

/**
 * Creates the report folder and checks it is writable. Parents are created one level at a time:
 * Node's recursive mkdir never returns under some pseudo file systems (e.g. /proc).
 */
export function prepareOutDir(dir: string): void {
  try {
    makeDirs(dir);
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new UsageError(`cannot write to the report folder ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function makeDirs(dir: string): void {
  const missing: string[] = [];
  let current = dir;
  while (!exists(current)) {
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing) mkdirSync(path);
  if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

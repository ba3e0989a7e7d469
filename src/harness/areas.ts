import { describe as vitestDescribe } from 'vitest';
import { HarnessError } from '../core/errors.ts';

let declaring: string | undefined;
let round = 0;

/**
 * Declares the checks of one suite file under its area name (the file's name without .check.ts). The
 * suites' entry (suites/index.ts) loads every area file this way, inside the one module vitest runs,
 * so that the checks of all areas can run together. The file is loaded afresh each time (vitest keeps
 * modules between the runs of one worker, and a cached module would declare nothing).
 */
export async function declareArea(area: string, entryUrl: string): Promise<void> {
  declaring = area;
  try {
    await import(/* @vite-ignore */ `${new URL(`./${area}.check.ts`, entryUrl).pathname}?declare=${++round}`);
  } finally {
    declaring = undefined;
  }
}

/** A group of checks in an area file (vitest's describe, which runs its body later: the area goes along). */
export function describe(title: string, body: () => void): void {
  const area = areaBeingDeclared();
  vitestDescribe(title, () => {
    const outer = declaring;
    declaring = area;
    try {
      body();
    } finally {
      declaring = outer;
    }
  });
}

/** The area whose file is being loaded; a check declared anywhere else is a harness error. */
export function areaBeingDeclared(): string {
  if (declaring === undefined) throw new HarnessError('a check was declared outside an area file loaded by suites/index.ts');
  return declaring;
}

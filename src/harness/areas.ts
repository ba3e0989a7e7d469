import { describe as vitestDescribe } from 'vitest';
import { HarnessError } from '../core/errors.ts';

let declaring: string | undefined;
/** Open describe bodies: a describe called inside one is nested, not one of the file's own. */
let bodyDepth = 0;
/** Per area, the describes its file made at its top level when it was first loaded. */
const declared = new Map<string, { title: string; body: () => void }[]>();
let recording: { title: string; body: () => void }[] | undefined;

/**
 * Declares the checks of one suite file under its area name (the file's name without .check.ts). The
 * suites' entry (suites/index.ts) loads every area file this way, inside the one module vitest runs,
 * so that the checks of all areas can run together. A later run in the same worker (the self-test's kept
 * thread) finds the file's module cached, which would declare nothing: it declares again the describes
 * the file made when it was loaded, instead of loading it afresh (a new copy was a new transform, each run).
 */
export async function declareArea(area: string, entryUrl: string): Promise<void> {
  declaring = area;
  try {
    const known = declared.get(area);
    if (known) {
      for (const { title, body } of known) describe(title, body);
      return;
    }
    recording = [];
    await import(/* @vite-ignore */ new URL(`./${area}.check.ts`, entryUrl).pathname);
    declared.set(area, recording);
  } finally {
    declaring = undefined;
    recording = undefined;
  }
}

/** A group of checks in an area file (vitest's describe, which runs its body later: the area goes along). */
export function describe(title: string, body: () => void): void {
  const area = areaBeingDeclared();
  if (bodyDepth === 0) recording?.push({ title, body });
  vitestDescribe(title, () => {
    const outer = declaring;
    declaring = area;
    bodyDepth++;
    try {
      body();
    } finally {
      bodyDepth--;
      declaring = outer;
    }
  });
}

/** The area whose file is being loaded; a check declared anywhere else is a harness error. */
export function areaBeingDeclared(): string {
  if (declaring === undefined) throw new HarnessError('a check was declared outside an area file loaded by suites/index.ts');
  return declaring;
}

import { readFileSync } from 'node:fs';
import { UsageError } from './errors.ts';

/** Reads and parses a JSON file the user named; `what` names it in the one-line error (exit 2). */
export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${what} ${path}${code ? ` (${code})` : ''}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

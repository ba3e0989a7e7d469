import { readFileSync } from 'node:fs';
import { UsageError } from './errors.ts';

/** Reads and parses a JSON file the user named; `what` names it in the one-line error (exit 2). */
export function readJsonFile(path: string, what: string): unknown {
  return readJsonSource(path, what).json;
}

/** A parsed JSON file and its text, so that a schema error can say on which line and column it sits. */
export function readJsonSource(path: string, what: string): { json: unknown; text: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${what} ${path}${code ? ` (${code})` : ''}`);
  }
  try {
    return { json: JSON.parse(text) as unknown, text };
  } catch (error) {
    throw new UsageError(`${what} ${path} is not valid JSON: ${syntaxProblem((error as Error).message, text)}`);
  }
}

/** JSON.parse's message with the offset it names ("at position 66") turned into a line and column. */
function syntaxProblem(message: string, text: string): string {
  const position = /at position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : /end of (JSON|data) input/i.test(message) ? text.length : undefined;
  const cleaned = message.replace(/\s*(in JSON )?at position \d+(\s*\(line \d+ column \d+\))?/, '');
  return offset === undefined ? message : `${lineColumn(text, offset)}: ${cleaned}`;
}

/** `line L, column C` (both from 1) of an offset in a text. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/**
 * Where a JSON pointer (as in ajv's instancePath, `/targets/prod/url`) sits in the text: the start of
 * the member's name for an object member, of the value otherwise. Undefined when the text does not hold it.
 */
export function locatePointer(text: string, pointer: string): string | undefined {
  const offset = pointerOffsets(text).get(pointer);
  return offset === undefined ? undefined : lineColumn(text, offset);
}

/** Offsets of every value of a valid JSON text, by pointer. */
function pointerOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  const value = (pointer: string, at?: number): void => {
    skip();
    if (!offsets.has(pointer)) offsets.set(pointer, at ?? i);
    const c = text[i];
    if (c === '{') {
      i++;
      skip();
      while (text[i] === '"') {
        const keyAt = i;
        const key = string();
        skip();
        i++; // the colon
        value(`${pointer}/${escapeKey(key)}`, keyAt);
        skip();
        if (text[i] === ',') i++;
        skip();
      }
      i++;
    } else if (c === '[') {
      i++;
      skip();
      for (let index = 0; text[i] !== ']' && i < text.length; index++) {
        value(`${pointer}/${index}`);
        skip();
        if (text[i] === ',') i++;
        skip();
      }
      i++;
    } else if (c === '"') string();
    else while (i < text.length && /[^\s,\]}]/.test(text[i]!)) i++;
  };
  try {
    value('');
  } catch {
    // Only valid JSON reaches here; a scan that still fails leaves the places it did not reach unknown.
  }
  return offsets;
}

/**
 * --only / --skip take comma-separated check ids or globs (`AUTH-*`, `KEPT-00?`), matched against
 * the id that starts every check name. The result is one vitest test-name pattern.
 */
export function selectionPattern(only: readonly string[], skip: readonly string[]): RegExp | undefined {
  if (only.length === 0 && skip.length === 0) return undefined;
  const alternatives = (globs: readonly string[]) => `(?:${globs.map(globToRegex).join('|')})`;
  const idAt = (globs: readonly string[]) => `(?:^|\\s)${alternatives(globs)}\\s`;
  const exclude = skip.length > 0 ? `(?!.*${idAt(skip)})` : '';
  const include = only.length > 0 ? `(?=.*${idAt(only)})` : '';
  return new RegExp(`^${exclude}${include}`, 'i');
}

export function matchesSelection(id: string, only: readonly string[], skip: readonly string[]): boolean {
  const pattern = selectionPattern(only, skip);
  return pattern === undefined || pattern.test(`${id} `);
}

function globToRegex(glob: string): string {
  return glob
    .split('')
    .map((ch) => (ch === '*' ? '[^\\s]*' : ch === '?' ? '[^\\s]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
}

export function splitList(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

import type { RunResult } from '../src/runner/results.ts';

/** report.json: stable key order, no timestamps, so that two runs diff cleanly. */
export function renderJson(run: RunResult): string {
  return `${JSON.stringify(sortKeys(run), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

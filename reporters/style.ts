import type { Status } from '../src/runner/results.ts';

export interface Style {
  paint(status: Status | 'bold' | 'dim', text: string): string;
}

const codes: Record<Status | 'bold' | 'dim', [number, number]> = {
  passed: [32, 39],
  failed: [31, 39],
  error: [35, 39],
  skipped: [33, 39],
  'not-applicable': [2, 22],
  bold: [1, 22],
  dim: [2, 22],
};

export function terminalStyle(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): Style {
  const color = Boolean(stream.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  return { paint: (kind, text) => (color ? `\u001b[${codes[kind][0]}m${text}\u001b[${codes[kind][1]}m` : text) };
}

export const symbols: Record<Status, string> = {
  passed: '✓',
  failed: '✗',
  error: '!',
  skipped: '-',
  'not-applicable': '·',
};

import type { RecordedRequest } from './exchange.ts';

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A copy-paste reproduction; credentials are already masked in the recorded request. */
export function toCurl(request: RecordedRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body));
  return parts.join(' ');
}

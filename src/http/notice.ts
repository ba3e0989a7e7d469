import type { RateLimitNotice } from './client.ts';

/**
 * Rate-limit notices travel from the checks' worker to the CLI's progress display as console lines
 * (vitest forwards a worker's console to the reporters); this prefix tells them from anything else.
 */
const PREFIX = 'conform:rate-limit ';

export function encodeNotice(notice: RateLimitNotice): string {
  return `${PREFIX}${JSON.stringify(notice)}`;
}

export function decodeNotice(line: string): RateLimitNotice | undefined {
  if (!line.startsWith(PREFIX)) return undefined;
  try {
    return JSON.parse(line.slice(PREFIX.length)) as RateLimitNotice;
  } catch {
    return undefined;
  }
}

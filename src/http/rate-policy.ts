import { isObject } from '../spec/lenient.ts';
import type { Exchange } from './exchange.ts';

/** A rate limit the catalog declares: `requests` per `seconds`. */
export interface DeclaredRateLimit {
  requests: number;
  seconds: number;
  /** Where in the catalog it was read, for the progress line. */
  where: string;
}

/** The pace to start at, a little below a declared limit, so that the run does not provoke 429s to learn it. */
export const START_SHARE = 0.9;

const UNIT_SECONDS: Record<string, number> = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hr: 3600, hour: 3600, d: 86_400, day: 86_400 };
const UNIT = '(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)';
/** "60 requests per minute", "1000 calls / 1 hour", "60 req every 60 seconds", "rate limit: 60/min". */
const TEXT_PATTERNS = [
  new RegExp(String.raw`(\d[\d,]*)\s*(?:requests?|reqs?|calls?|hits?)\s*(?:per|/|every|each|in|a|an)\s*(?:(\d+)\s*)?${UNIT}\b`, 'i'),
  new RegExp(String.raw`rate[\s-]*limit(?:ed|s)?\b[^.\d]{0,20}?(\d[\d,]*)\s*/\s*(?:(\d+)\s*)?${UNIT}\b`, 'i'),
];
const EXTENSION = /^x-(?:rate-?limit|throttl)/i;
const MAX_DEPTH = 8;

/**
 * The most restrictive rate limit the catalog declares in a form we can read: an `x-ratelimit…` /
 * `x-rate-limit…` / `x-throttl…` extension (a number with a window, an object such as
 * `{ limit: 60, window: "1m" }`, or a sentence), or a description sentence such as
 * "60 requests per 60 seconds". The spec does not show rate limits (§8), so nothing here is judged.
 */
export function declaredRateLimit(catalog: unknown): DeclaredRateLimit | undefined {
  const found: DeclaredRateLimit[] = [];
  const visit = (node: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH || !isObject(node)) {
      if (Array.isArray(node) && depth <= MAX_DEPTH) for (const [i, child] of node.entries()) visit(child, `${path}/${i}`, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      const where = `${path}/${key}`;
      if (EXTENSION.test(key)) {
        const limit = fromExtension(key, value, node);
        if (limit) found.push({ ...limit, where });
      } else if ((key === 'description' || key === 'summary') && typeof value === 'string') {
        const limit = fromText(value);
        if (limit) found.push({ ...limit, where });
      }
      if (typeof value === 'object' && value !== null) visit(value, where, depth + 1);
    }
  };
  visit(catalog, '#', 0);
  return found.sort((a, b) => a.requests / a.seconds - b.requests / b.seconds)[0];
}

/** The limit the catalog's answer declares; any problem (no answer, absent, not JSON) means none is declared. */
export function declaredRateLimitOf(catalog: Exchange | undefined): DeclaredRateLimit | undefined {
  return catalog?.response.status === 200 ? declaredRateLimit(catalog.response.json) : undefined;
}

export function fromText(text: string): Omit<DeclaredRateLimit, 'where'> | undefined {
  for (const pattern of TEXT_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const requests = Number(match[1]!.replace(/,/g, ''));
    const seconds = (match[2] ? Number(match[2]) : 1) * unitSeconds(match[3]!);
    if (requests > 0 && seconds > 0) return { requests, seconds };
  }
  return undefined;
}

function fromExtension(key: string, value: unknown, siblings: Record<string, unknown>): Omit<DeclaredRateLimit, 'where'> | undefined {
  if (typeof value === 'string') return fromText(value) ?? fromText(`${value} requests`);
  if (typeof value === 'number') {
    // `x-ratelimit-limit: 60` next to `x-ratelimit-window: 60` (or -period, -interval, -reset).
    if (/window|period|interval|reset|duration/i.test(key)) return undefined;
    const window = Object.entries(siblings).find(([name]) => EXTENSION.test(name) && /window|period|interval|duration/i.test(name))?.[1];
    const seconds = duration(window);
    return value > 0 && seconds ? { requests: value, seconds } : undefined;
  }
  if (!isObject(value)) return undefined;
  const requests = firstNumber(value, ['limit', 'requests', 'max', 'maxRequests', 'count', 'quota', 'rate']);
  const seconds = duration(firstOf(value, ['window', 'period', 'interval', 'per', 'duration', 'windowSeconds', 'seconds', 'timeWindow', 'unit']));
  if (requests !== undefined && requests > 0 && seconds) return { requests, seconds };
  const text = firstOf(value, ['rate', 'limit', 'description']);
  return typeof text === 'string' ? fromText(text) : undefined;
}

/** 60, "60", "60s", "1m", "1 minute", "minute", "PT1M". */
function duration(value: unknown): number | undefined {
  if (typeof value === 'number') return value > 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  const iso = /^pt(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (iso && (iso[1] || iso[2] || iso[3])) return Number(iso[1] ?? 0) * 3600 + Number(iso[2] ?? 0) * 60 + Number(iso[3] ?? 0);
  const match = new RegExp(String.raw`^(\d+(?:\.\d+)?)?\s*${UNIT}?$`).exec(text);
  if (!match || (!match[1] && !match[2])) return undefined;
  const seconds = Number(match[1] ?? 1) * (match[2] ? unitSeconds(match[2]) : 1);
  return seconds > 0 ? seconds : undefined;
}

function unitSeconds(unit: string): number {
  const word = unit.toLowerCase();
  return UNIT_SECONDS[word] ?? UNIT_SECONDS[word.replace(/s$/, '')] ?? 1;
}

function firstOf(object: Record<string, unknown>, names: readonly string[]): unknown {
  const lower = new Map(Object.entries(object).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of names) if (lower.has(name.toLowerCase())) return lower.get(name.toLowerCase());
  return undefined;
}

function firstNumber(object: Record<string, unknown>, names: readonly string[]): number | undefined {
  const value = firstOf(object, names);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

import type { TransportCounts, TransportTally } from '../http/client.ts';
import { START_SHARE } from '../http/rate-policy.ts';
import type { CheckResult, RunTransport } from './results.ts';

/** The pace of a run: a rate limit the catalog declares is a ceiling it never goes above, and it starts a little below it. */
export function paceFor(rps: number, declared?: { requests: number; seconds: number }): { rps: number; startRps?: number } {
  if (!declared) return { rps };
  const declaredRps = declared.requests / declared.seconds;
  return { rps: rps > 0 ? Math.min(rps, declaredRps) : declaredRps, startRps: START_SHARE * declaredRps };
}

/**
 * The run's retries, 429s and rate-limit waits: the checks' shares, the CLI's own requests and the worker's requests
 * outside any check (the journal's verification).
 */
export function runTransport(
  checks: readonly CheckResult[],
  cli: TransportCounts,
  declared?: { requests: number; seconds: number },
  worker: TransportTally = { retries: 0, rateLimited: 0, rateLimitWaitMs: 0 },
): RunTransport {
  const paces = [...checks.map((c) => c.transport?.rps), cli.rateLimited > 0 ? cli.rps : undefined].filter((r): r is number => r !== undefined);
  return {
    retries: cli.retries + worker.retries + sum(checks, (c) => c.transport?.retries),
    rateLimited: cli.rateLimited + worker.rateLimited + sum(checks, (c) => c.transport?.rateLimited),
    rateLimitWaitMs: cli.rateLimitWaitMs + worker.rateLimitWaitMs + sum(checks, (c) => c.transport?.rateLimitWaitMs),
    ...(paces.length > 0 ? { rps: Math.min(...paces) } : {}),
    ...(declared ? { declared: { requests: declared.requests, seconds: declared.seconds } } : {}),
  };
}

/**
 * For a run cut short by its deadline: how long the whole selection would need at the pace it had. From
 * requests when every check has an estimate (`estimatedRequests`, a seed-1 run of each against the reference):
 * the share of the selection's requests sent in the time; otherwise from the share of checks that finished.
 * A rough figure either way: data and seeds change what a check sends.
 */
export function timeNeeded(checks: readonly CheckResult[], elapsedMs: number, estimatedRequests?: (id: string) => number | undefined): string {
  const cutShort = cutByDeadline(checks);
  if (cutShort === 0) return '';
  const seconds = Math.round(elapsedMs / 1000);
  const finished = checks.length - cutShort;
  const byRequests = requestShare(checks, estimatedRequests);
  if (byRequests) {
    const needed = Math.ceil((elapsedMs / 1000) * (byRequests.estimated / byRequests.sent));
    const progress = finished > 0 ? `${finished} of ${checks.length} checks finished and ` : '';
    return `; ${progress}${byRequests.sent} of the selection's about ${byRequests.estimated} requests went out in ${seconds} s, so the whole run would need about ${formatDuration(needed)}: try --deadline ${suggestedDeadline(needed)}`;
  }
  if (finished === 0) return `; no check finished in ${seconds} s`;
  const needed = Math.ceil((elapsedMs / 1000) * (checks.length / finished));
  return `; ${finished} of ${checks.length} checks finished in ${seconds} s, so the whole run would need about ${formatDuration(needed)}: try --deadline ${suggestedDeadline(needed)}`;
}

function requestShare(checks: readonly CheckResult[], estimatedRequests?: (id: string) => number | undefined): { sent: number; estimated: number } | undefined {
  if (!estimatedRequests) return undefined;
  const estimates = checks.map((c) => estimatedRequests(c.id));
  if (estimates.some((e) => e === undefined)) return undefined;
  const sent = sum(checks, (c) => c.requests);
  const estimated = Math.max(
    sent,
    estimates.reduce((total: number, e) => total + (e ?? 0), 0),
  );
  return sent > 0 ? { sent, estimated } : undefined;
}

function suggestedDeadline(neededSeconds: number): number {
  return Math.ceil((neededSeconds * 1.2) / 60) * 60;
}

/** Checks that ended in error because the run's deadline passed (or would have, waiting for a rate limit). */
export function cutByDeadline(checks: readonly CheckResult[]): number {
  return checks.filter((c) => c.status === 'error' && /deadline/.test(c.message ?? '')).length;
}

function formatDuration(seconds: number): string {
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

function sum(checks: readonly CheckResult[], pick: (c: CheckResult) => number | undefined): number {
  return checks.reduce((total, c) => total + (pick(c) ?? 0), 0);
}

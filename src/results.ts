import { basename } from 'node:path';
import type { TestCase, TestModule } from 'vitest/node';
import type { CheckTransport } from './http/client.ts';
import type { CheckMeta, Level, RecordedFailure } from './meta.ts';

export type Status = 'passed' | 'failed' | 'skipped' | 'not-applicable' | 'error';

export interface CheckResult {
  id: string;
  level: Level;
  section: string;
  title: string;
  /** The suite file the check lives in: auth, scoping, kept-toggle … */
  area: string;
  status: Status;
  /** Why it failed, errored or was skipped. */
  message?: string;
  exchange?: RecordedFailure['exchange'];
  reproduction?: string;
  durationMs: number;
  /** Requests sent while the check ran; the run's shared reads (walks, uses) count where they were sent. */
  requests?: number;
  /** Retries, 429s and rate-limit waits while the check ran; absent when there were none. */
  transport?: CheckTransport;
}

export function areaOf(moduleId: string): string {
  return basename(moduleId).replace(/\.test\.ts$/, '');
}

/** Checks that vitest collected and ran (those deselected by --only/--skip are left out). */
export function checkResults(modules: readonly TestModule[]): CheckResult[] {
  const results: CheckResult[] = [];
  for (const module of modules) {
    for (const testCase of module.children.allTests()) {
      const result = checkResultOf(testCase);
      if (result) results.push(result);
    }
  }
  return results.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
}

/** One check's result; undefined for tests that are not checks or were deselected. */
export function checkResultOf(testCase: TestCase): CheckResult | undefined {
  const area = areaOf(testCase.module.moduleId);
  const meta = testCase.meta().conform as CheckMeta | undefined;
  if (!meta) return undefined;
  const result = testCase.result();
  const diagnostic = testCase.diagnostic();
  if (result.state === 'pending' || (result.state === 'skipped' && result.note === undefined && meta.outcome === undefined)) {
    return undefined;
  }
  const base = {
    id: meta.id,
    level: meta.level,
    section: meta.section,
    title: meta.title,
    area,
    durationMs: Math.round(diagnostic?.duration ?? 0),
    ...(meta.requests !== undefined ? { requests: meta.requests } : {}),
    ...(meta.transport !== undefined ? { transport: meta.transport } : {}),
  };
  if (result.state === 'passed') return { ...base, status: 'passed' };
  if (result.state === 'skipped') {
    return { ...base, status: meta.outcome === 'not-applicable' ? 'not-applicable' : 'skipped', message: result.note ?? 'skipped' };
  }
  const failure = meta.failure;
  const fallback = result.errors?.map((e) => e.message).join('\n') ?? 'failed';
  return {
    ...base,
    status: meta.outcome === 'failed' ? 'failed' : 'error',
    message: failure?.message || fallback,
    ...(failure?.exchange ? { exchange: failure.exchange } : {}),
    ...(failure?.reproduction ? { reproduction: failure.reproduction } : {}),
  };
}

export interface RunResult {
  schemaVersion: 1;
  tool: { name: 'conform'; version: string };
  target: { label: string; url: string; profile: string };
  seed: number;
  verdict: import('./verdict.ts').Verdict;
  reason: string;
  exitCode: number;
  counts: import('./verdict.ts').Counts;
  checks: CheckResult[];
  /** Requests the checks sent in all (bounded by --max-requests). */
  requests?: number;
  /** Retries and 429s over the whole run (checks, pre-flight and end-of-run restores), and the pace the rate limit left. */
  transport?: RunTransport;
  /** What the run changed on the target and whether every change was put back. */
  safety: { changedItems: number; restoredAfterRun: number; problems: string[] };
}

export interface RunTransport {
  retries: number;
  /** Answers with status 429; none of them was judged. */
  rateLimited: number;
  /** Time spent paused for the target's rate limit. */
  rateLimitWaitMs: number;
  /** The slowest pace the run had to keep (requests per second), when a rate limit or --rps set one. */
  rps?: number;
  /** The rate limit the catalog declares, when it declares one in a form conform reads. */
  declared?: { requests: number; seconds: number };
}

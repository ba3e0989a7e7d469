import { describe, expect, it } from 'vitest';
import { rateLimited } from '../fixtures/rate-limit.ts';
import type { Handler } from '../fixtures/reference/types.ts';
import type { Store } from '../fixtures/reference/store.ts';
import { CheckFailure, TransportError } from '../src/core/errors.ts';
import { Api } from '../src/http/api.ts';
import { ApiClient } from '../src/http/client.ts';
import { Journal } from '../src/safety/journal.ts';
import { KeptWriter } from '../src/safety/kept.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.ts';
import { keyArgs, withReference } from './support/reference.ts';
import { stateOf } from './support/state.ts';

/** About 40 requests, sent in bursts: reads, auth probes and the kept toggle with its restore. */
const SELECTION = 'AUTH-001,AUTH-004,KEPT-001,SCOPE-001';

describe('a target with a rate limit', () => {
  it.each([
    ['with', true],
    ['without', false],
  ])('10 requests per second, 429 %s Retry-After: a verdict, exit 0, data intact, every 429 counted and none judged', async (_label, retryAfter) => {
    let served429 = 0;
    const wrap = rateLimited({ limit: 10, windowMs: 1000, retryAfter, onAnswer: (_req, status) => void (status === 429 && served429++) });
    await withReference({ wrap }, async (reference) => {
      const before = stateOf(reference);
      const run = await runCli([...keyArgs(reference), '--only', SELECTION, '--seed', '5']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const report = run.report();
      expect(report.counts.failed + report.counts.error).toBe(0);
      expect(served429).toBeGreaterThan(0);
      expect(report.transport).toMatchObject({ rateLimited: served429 });
      expect(report.transport!.retries).toBeGreaterThan(0);
      expect(report.checks.some((c) => (c.transport?.rateLimited ?? 0) > 0)).toBe(true);
      expect(run.stdout).toMatch(/⏸ rate limit: (GET|POST) \S+ answered 429/);
      expect(run.stdout).toMatch(/▶ rate limit: the target answers again/);
      expect(run.stdout).toMatch(/answer\(s\) 429 \(none judged\)/);
      expect(stateOf(reference)).toBe(before);
    });
  });

  it('a limit the catalog declares is read, and the run starts below it', async () => {
    let served429 = 0;
    const wrap = rateLimited({
      limit: 10,
      windowMs: 1000,
      retryAfter: false,
      declare: 'description',
      onAnswer: (_req, status) => void (status === 429 && served429++),
    });
    await withReference({ wrap }, async (reference) => {
      const run = await runCli([...keyArgs(reference), '--only', SELECTION, '--seed', '5']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/the catalog declares a rate limit of 10 requests per 1 s \(#\/info\/description\): pacing at 9\.0 requests\/s/);
      expect(run.report().transport).toMatchObject({ declared: { requests: 10, seconds: 1 } });
      // The CLI's own reads (pre-flight, catalog) and the checks' client share one window at most once.
      expect(served429).toBeLessThanOrEqual(1);
    });
  });

  it('a run the rate limit cannot finish before the deadline ends with exit 3 and says how long it would need', async () => {
    await withReference({ wrap: rateLimited({ limit: 4, windowMs: 1000, retryAfter: false }) }, async (reference) => {
      const run = await runCli([...keyArgs(reference), '--only', 'AUTH-*,SCOPE-*', '--deadline', '6', '--seed', '5']);
      expect(run.code, run.stdout + run.stderr).toBe(3);
      const report = run.report();
      expect(report.counts.failed).toBe(0);
      expect(report.reason).toMatch(
        /deadline (passed|would pass while waiting for the target.s rate limit).*\d+ of the selection's about \d+ requests went out in \d+ s, so the whole run would need about \d+ (s|min): try --deadline \d+/,
      );
      expect(run.stdout).toMatch(/would need about/);
    });
  });
});

/**
 * Answers 429 (no Retry-After) to the toggles that put an item back, `times` times per item, or to
 * all of them until `until` (epoch ms): the restore meets the rate limit, the change before it does not.
 */
function restoresRateLimited(options: { times?: number; until?: () => number }, blocked: { count: number }) {
  return (inner: Handler, { store }: { store: Store }): Handler => {
    const original = new Map<string, number>();
    const refusals = new Map<string, number>();
    return async (req) => {
      if (req.method === 'POST' && req.path === '/artifact-kept.php') {
        const user = store.userByKey(req.headers.authorization?.replace(/^Bearer /i, '') ?? '');
        let body: { id?: unknown; is_kept?: unknown } = {};
        try {
          body = JSON.parse(req.bodyText) as typeof body;
        } catch {
          // not a toggle this wrapper cares about
        }
        const item = user ? store.item(user.id, Number(body.id)) : undefined;
        if (user && item && (body.is_kept === 0 || body.is_kept === 1)) {
          const key = `${user.id}:${item.id}`;
          if (!original.has(key)) original.set(key, item.is_kept);
          const restoring = body.is_kept === original.get(key) && item.is_kept !== body.is_kept;
          const refused = refusals.get(key) ?? 0;
          const refuse = options.until ? Date.now() < options.until() : refused < (options.times ?? 0);
          if (restoring && refuse) {
            refusals.set(key, refused + 1);
            blocked.count++;
            return { status: 429, body: { errors: ['slow down'] } };
          }
        }
      }
      return inner(req);
    };
  };
}

describe('a 429 during a restore', () => {
  it('is waited out: the check passes and the value is put back (three quick attempts used to make it a failure)', async () => {
    const blocked = { count: 0 };
    await withReference({ wrap: restoresRateLimited({ times: 4 }, blocked) }, async (reference) => {
      const before = stateOf(reference);
      const run = await runCli([...keyArgs(reference), '--only', 'KEPT-001', '--seed', '5']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(blocked.count).toBeGreaterThanOrEqual(4);
      expect(run.report().checks.find((c) => c.id === 'KEPT-001')?.status).toBe('passed');
      expect(stateOf(reference)).toBe(before);
    });
  });

  it('that lasts past the deadline makes the restore an error (no verdict), never a failure', async () => {
    const blocked = { count: 0 };
    await withReference({ wrap: restoresRateLimited({ until: () => Infinity }, blocked) }, async (reference) => {
      const client = new ApiClient({ baseUrl: reference.url, keys: { primary: reference.keys.primary }, timeoutMs: 2000, deadline: Date.now() + 2500 });
      const api = new Api(client);
      const journal = new Journal(join(mkdtempSync(join(tmpdir(), 'conform-restore-429-')), 'journal.jsonl'));
      try {
        const rows = (await api.list({ per_page: 1 })).response.json as { items?: { id: number; is_kept: number }[] };
        const item = Object.values(rows).find(Array.isArray)![0] as { id: number; is_kept: number };
        const writer = new KeptWriter(api, journal);
        expect((await writer.set(String(item.id), item.is_kept ? 0 : 1)).response.status).toBe(200);
        const error = await writer.restoreAll().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(TransportError);
        expect(error).not.toBeInstanceOf(CheckFailure);
        expect(String((error as Error).message)).toMatch(/deadline/);
        expect(blocked.count).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
    });
  });
});

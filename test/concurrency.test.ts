import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startReference } from '../fixtures/reference/server.ts';
import { criticalPath } from '../scripts/bench-network.ts';
import { newScope, runInScope } from '../src/http/check-scope.ts';
import { HarnessError } from '../src/core/errors.ts';
import { okRows } from '../src/harness/expect.ts';
import { Api } from '../src/http/api.ts';
import { ApiClient } from '../src/http/client.ts';
import { Journal } from '../src/safety/journal.ts';
import { KeptWriter, readKept } from '../src/safety/kept.ts';
import { prefetched } from '../src/harness/prefetch.ts';
import { together } from '../src/harness/together.ts';
import { stateOf } from './support/state.ts';

const quiet = async () => {};

describe('read-only properties run their values together', () => {
  const arbitrary = fc.record({ n: fc.integer({ min: 0, max: 1000 }), s: fc.string({ maxLength: 6 }) });
  const failsAbove =
    (limit: number) =>
    async ({ n }: { n: number }) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (n > limit) throw new Error(`${n} is above ${limit}`);
    };

  it.each([1, 7, 42, 2024])('a failure is found, shrunk and reported as by fast-check alone (seed %i)', async (seed) => {
    const options = { seed, numRuns: 40 };
    const alone = await fc.check(fc.asyncProperty(arbitrary, failsAbove(600)), options);
    const replayed = await fc.check(fc.asyncProperty(arbitrary, await prefetched(arbitrary, failsAbove(600), { ...options, width: 8 })), options);
    expect(alone.failed).toBe(true);
    expect(replayed.failed).toBe(true);
    expect(fc.stringify(replayed.counterexample)).toBe(fc.stringify(alone.counterexample));
    expect([replayed.counterexamplePath, replayed.numRuns, replayed.numShrinks]).toEqual([alone.counterexamplePath, alone.numRuns, alone.numShrinks]);
    expect(String(replayed.errorInstance)).toBe(String(alone.errorInstance));
  });

  it('a passing property runs each value once, several at a time', async () => {
    let running = 0;
    let most = 0;
    let calls = 0;
    const predicate = async () => {
      calls++;
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
    };
    const result = await fc.check(fc.asyncProperty(arbitrary, await prefetched(arbitrary, predicate, { seed: 3, numRuns: 30, width: 6 })), {
      seed: 3,
      numRuns: 30,
    });
    expect(result.failed).toBe(false);
    expect(calls).toBe(30);
    expect(most).toBe(6);
  });
});

describe('together', () => {
  it('hands back answers in order, each failure where it was awaited', async () => {
    const slowFailure = new Promise<number>((_, reject) => setTimeout(() => reject(new Error('first')), 20));
    const fastFailure = Promise.reject(new Error('second'));
    const [a, b, c] = await together([slowFailure, fastFailure, Promise.resolve(3)]);
    expect(a).toThrow('first');
    expect(b).toThrow('second');
    expect(c!()).toBe(3);
  });
});

describe('only a check declared to toggle may write', () => {
  it('refuses a write from a read-only check, and lets a toggling one write and restore', async () => {
    const reference = await startReference();
    const client = new ApiClient({ baseUrl: reference.url, keys: { primary: reference.keys.primary }, timeoutMs: 5_000 });
    const api = new Api(client);
    const journal = new Journal(join(mkdtempSync(join(tmpdir(), 'conform-toggle-')), 'journal.jsonl'));
    try {
      const before = stateOf(reference);
      const id = String(okRows(await api.list({ per_page: 1 }), 'POST /artifacts.php')[0]!.id);
      const reader = newScope('READ-001', false, quiet);
      await expect(runInScope(reader, () => new KeptWriter(api, journal, reader).set(id, 1))).rejects.toThrow(HarnessError);
      await expect(runInScope(reader, () => api.setKept({ id, is_kept: 1 }))).rejects.toThrow(
        /READ-001 writes the kept toggle but is not declared `toggles: true`/,
      );
      expect(client.lastSeq).toBe(1);

      const writer = newScope('KEPT-999', true, quiet);
      await runInScope(writer, async () => {
        const kept = new KeptWriter(api, journal, writer);
        const start = (await readKept(api, id)).value;
        await kept.set(id, start === 1 ? 0 : 1);
        await kept.restoreAll();
      });
      expect(stateOf(reference)).toBe(before);
      // The journal's original value came from the check's own read: no second read before the write. The
      // restore knows the last toggle set the other value: it writes the original back at once, then verifies it.
      expect(client.exchangesSince(1).map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`)).toEqual([
        'GET /artifact.php',
        'POST /artifact-kept.php',
        'POST /artifact-kept.php',
        'GET /artifact.php',
      ]);
      expect(readFileSync(journal.path, 'utf8')).toMatch(/"op":"restored"/);
    } finally {
      await client.close();
      await reference.close();
    }
  });
});

describe('critical path', () => {
  it('counts the longest chain of requests each sent after the previous answer', () => {
    const chain = [
      { startMs: 0, endMs: 40 },
      { startMs: 41, endMs: 80 },
      { startMs: 81, endMs: 120 },
    ];
    const alongside = [
      { startMs: 1, endMs: 60 },
      { startMs: 2, endMs: 70 },
      { startMs: 75, endMs: 110 },
    ];
    expect(criticalPath(chain)).toBe(3);
    expect(criticalPath([...alongside, ...chain])).toBe(3);
    expect(criticalPath(alongside)).toBe(2);
    expect(criticalPath([])).toBe(0);
  });
});

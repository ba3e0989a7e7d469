import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { defaultGate } from '../src/config/plan.ts';
import { DEFAULT_MAX_REQUESTS } from '../src/config/resolve.ts';
import { execute } from '../src/runner/execute.ts';
import { openTarget } from '../src/runner/open-target.ts';
import { SuiteRunner } from '../src/runner/vitest-host.ts';

// The self-test makes hundreds of runs on one SuiteRunner whose worker thread is kept between runs
// (src/runner/kept-thread.ts): each run must still run exactly what it selected, against its own target.
describe('a runner that keeps its worker thread between runs', () => {
  let runner: SuiteRunner;
  beforeAll(async () => {
    runner = await SuiteRunner.create({ checkTimeoutMs: 60_000, keepThread: true });
  }, 60_000);
  afterAll(async () => {
    await runner.close();
  });

  async function runOnly(only: string[], mutantId?: string) {
    const mutant = mutantId ? (await loadMutants()).find((m) => m.id === mutantId) : undefined;
    const server = await startReference(mutant?.wrap ? { wrap: mutant.wrap } : {});
    const target = await openTarget({ kind: 'remote', baseUrl: server.url, profile: 'primary', label: 'kept-thread', keys: server.keys });
    try {
      const { result } = await execute(
        runner,
        target,
        {
          settings: { seed: 1, runs: 2, timeoutMs: 10_000, concurrency: 4, rps: 0, maxRequests: DEFAULT_MAX_REQUESTS },
          deadlineSeconds: 120,
          only,
          skip: [],
          gate: defaultGate,
          waivers: [],
        },
        { journalPath: join(mkdtempSync(join(tmpdir(), 'conform-kept-')), 'journal.jsonl') },
      );
      return Object.fromEntries(result.checks.filter((c) => c.status !== 'skipped' || only.includes(c.id)).map((c) => [c.id, c.status]));
    } finally {
      await target.close();
      await server.close();
    }
  }

  it('runs the checks each run selects, not those of the run before', async () => {
    expect(await runOnly(['PAGE-001'])).toEqual({ 'PAGE-001': 'passed' });
    expect(await runOnly(['AUTH-001', 'TYPE-001'])).toEqual({ 'AUTH-001': 'passed', 'TYPE-001': 'passed' });
  }, 120_000);

  it('judges each run against its own target: a fault of one run does not carry to the next', async () => {
    const [mutant] = (await loadMutants()).filter((m) => m.wrap && !m.profile && !m.variant && !m.dataset && m.kills.length === 1 && m.kills[0] === 'PAGE-001');
    expect(mutant, 'a mutant that only PAGE-001 names').toBeDefined();
    expect(await runOnly(['PAGE-001'], mutant!.id)).toEqual({ 'PAGE-001': 'failed' });
    expect(await runOnly(['PAGE-001'])).toEqual({ 'PAGE-001': 'passed' });
  }, 120_000);
});

/**
 * Regenerates src/runner/budget-estimates.json, the table --budget plans with: each check's requests in a
 * seed-1 run against the embedded reference (what a full run costs), its requests in a lean seed-1 run
 * (as a budgeted run runs it: what a budget pays), and its value (how many self-test mutants name it in
 * `kills`). With --detections, every check also runs lean against each self-test mutant (seed 1; long: use
 * --workers 1 on a shared machine) and the table records, per check, the mutants it failed at MUST level:
 * --budget then buys coverage.
 *   npx conform --seed 1 --out /tmp/conform-seed1 --reporter json -q
 *   node --import tsx scripts/budget-estimates.ts /tmp/conform-seed1/report.json [--detections | --detections-of ID,…] [--workers N]
 * --detections-of measures those checks only (after a change to them), the others keep their last detections.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allMutants } from '../fixtures/mutants/index.ts';
import { startReference } from '../fixtures/reference/server.ts';
import type { RunResult } from '../src/runner/results.ts';
import { budgetTable, type BudgetTable } from '../src/runner/budget.ts';
import { DEFAULT_RUNS } from '../src/config/options.ts';
import { defaultGate } from '../src/config/plan.ts';
import { DEFAULT_MAX_REQUESTS } from '../src/config/resolve.ts';
import { execute } from '../src/runner/execute.ts';
import { openTarget, readAhead } from '../src/runner/open-target.ts';
import { SuiteRunner } from '../src/runner/vitest-host.ts';
import { defaultWorkers, selfTest } from './mutation-score.ts';

const REGENERATE =
  'npx conform --seed 1 --out /tmp/conform-seed1 --reporter json -q && node --import tsx scripts/budget-estimates.ts /tmp/conform-seed1/report.json --detections --workers 1';

/**
 * Per check, its requests in a lean seed-1 run of every check against the embedded reference (as the CLI
 * starts it), less the run's shared reads it sent; and those shared reads in all.
 */
async function leanRequests(): Promise<{
  own: Map<string, number>;
  shares: Map<string, string[]>;
  readCosts: Record<string, number>;
  sweep: Map<string, number>;
  sweepItems: Map<string, string[]>;
  harness: number;
}> {
  const runner = await SuiteRunner.create({ checkTimeoutMs: 120_000 });
  let served = 0;
  const server = await startReference({
    wrap: (inner) => (req) => {
      served++;
      return inner(req);
    },
  });
  const target = await openTarget({
    kind: 'remote',
    baseUrl: server.url,
    profile: 'primary',
    label: 'lean',
    keys: { primary: server.keys.primary, other: server.keys.other },
  });
  // The reads the CLI's pre-flight hands to the checks: sent before the count starts, as a run of the CLI sends them.
  await readAhead(target);
  const preflight = served;
  try {
    const { result } = await execute(
      runner,
      target,
      {
        settings: { seed: 1, runs: DEFAULT_RUNS, timeoutMs: 10_000, concurrency: 8, rps: 0, maxRequests: DEFAULT_MAX_REQUESTS },
        deadlineSeconds: 300,
        only: [],
        skip: [],
        gate: defaultGate,
        waivers: [],
        lean: true,
      },
      { journalPath: join(mkdtempSync(join(tmpdir(), 'conform-lean-')), 'journal.jsonl') },
    );
    if (result.verdict !== 'conforms') throw new Error(`the lean run against the reference: ${result.verdict} (${result.reason})`);
    // Reads no check is charged for (the harness's own, outside any check) are paid once like the shared ones.
    const charged = result.checks.reduce((sum, c) => sum + (c.requests ?? 0), 0);
    const uncharged = served - preflight - charged;
    console.log(`lean run: ${served - preflight} requests after the pre-flight, ${charged} charged to checks`);
    // Each shared read at the most requests any check saw it take (a walk after a kept write is read again).
    const readCosts: Record<string, number> = {};
    for (const c of result.checks) for (const [key, n] of Object.entries(c.sharedReads ?? {})) readCosts[key] = Math.max(readCosts[key] ?? 0, n);
    return {
      own: new Map(result.checks.map((c) => [c.id, (c.requests ?? 0) - (c.sharedRequests ?? 0)])),
      shares: new Map(result.checks.map((c) => [c.id, Object.keys(c.sharedReads ?? {})])),
      sweep: new Map(result.checks.map((c) => [c.id, c.itemsJournaled ?? 0])),
      sweepItems: new Map(result.checks.map((c) => [c.id, c.journaledItems ?? []])),
      readCosts: Object.fromEntries(Object.entries(readCosts).sort(([a], [b]) => a.localeCompare(b))),
      harness: Math.max(0, uncharged),
    };
  } finally {
    await target.close();
    await server.close();
    await runner.close();
  }
}

function lastDetections(): Map<string, string[]> | undefined {
  const last = budgetTable().checks.filter((c) => c.detects !== undefined);
  return last.length === 0 ? undefined : new Map(last.map((c) => [c.id, c.detects!]));
}

/** Per check, the self-test mutants it fails at MUST level when every check runs against each of them. */
async function detections(workers: number, checks?: readonly string[]): Promise<Map<string, string[]>> {
  const judged = new Set(allMutants.filter((m) => m.open === undefined && m.kills.length > 0).map((m) => m.id));
  const rows = await selfTest((id) => judged.has(id), { seeds: [1], workers, ignoreKills: true, lean: true, ...(checks ? { checks } : {}) });
  const found = new Map<string, string[]>();
  for (const row of rows.filter((r) => r.kind === 'mutant')) {
    const run = row.runs[0];
    if (!run) throw new Error(`${row.id}: no run`);
    // A job that could not finish (a mutant with a collection of its own too large for every check within the
    // job's limit) counts as found by no check: the table then undervalues, never overvalues, what it buys.
    if (run.crash) {
      console.error(`budget-estimates: ${row.id} counted as found by no check: ${run.crash}`);
      continue;
    }
    for (const [id, status] of Object.entries(run.statuses)) {
      if (status === 'failed' && run.levels[id] === 'MUST') found.set(id, [...(found.get(id) ?? []), row.id]);
    }
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const reportPath = process.argv[2];
  if (!reportPath) throw new Error('usage: node --import tsx scripts/budget-estimates.ts <report.json of a seed-1 run>');
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as RunResult;
  if (report.seed !== 1 || report.selection) throw new Error('the report must be of a full run with --seed 1');
  const kills = new Map<string, number>();
  for (const mutant of allMutants) {
    if (mutant.open !== undefined) continue;
    for (const id of mutant.kills) kills.set(id, (kills.get(id) ?? 0) + 1);
  }
  const workersAt = process.argv.indexOf('--workers');
  const workers = workersAt === -1 ? defaultWorkers() : Number(process.argv[workersAt + 1]);
  const lean = await leanRequests();
  // Without --detections, the last measured detections stay (they name mutants, not requests); with
  // --detections-of ID,…, only those checks run against every mutant, and the others keep theirs.
  const ofAt = process.argv.indexOf('--detections-of');
  const only = ofAt === -1 ? undefined : process.argv[ofAt + 1]!.split(',');
  const detected = process.argv.includes('--detections') ? await detections(workers) : lastDetections();
  if (only && detected) {
    const measured = await detections(workers, only);
    for (const id of only) detected.set(id, measured.get(id) ?? []);
  }
  const table: BudgetTable = {
    $comment: `generated by: ${REGENERATE}`,
    // The reads outside any check are the end-of-run sweep's: each check's sweepReads (the items it journaled) price them.
    sharedReads: 0,
    sharedReadCosts: lean.readCosts,
    checks: report.checks.map((c) => ({
      id: c.id,
      level: c.level,
      area: c.area,
      sections: [...c.sections],
      requests: c.requests ?? 0,
      leanRequests: lean.own.get(c.id) ?? c.requests ?? 0,
      ...((lean.shares.get(c.id) ?? []).length > 0 ? { shares: lean.shares.get(c.id)! } : {}),
      sweepReads: lean.sweep.get(c.id) ?? 0,
      ...((lean.sweepItems.get(c.id) ?? []).length > 0 ? { sweepItems: lean.sweepItems.get(c.id)! } : {}),
      kills: kills.get(c.id) ?? 0,
      ...(detected ? { detects: (detected.get(c.id) ?? []).sort() } : {}),
    })),
  };
  writeFileSync(new URL('../src/runner/budget-estimates.json', import.meta.url), `${JSON.stringify(table, null, 2)}\n`);
  const mutantsFound = new Set(table.checks.flatMap((c) => c.detects ?? [])).size;
  console.log(
    `${table.checks.length} checks, ${table.checks.reduce((s, c) => s + c.requests, 0)} requests (lean: ${table.checks.reduce((s, c) => s + (c.leanRequests ?? 0), 0)}, ${Object.values(lean.readCosts).reduce((s, n) => s + n, 0)} in shared reads, ${lean.harness} outside the checks)${detected ? `; ${mutantsFound} mutants found at MUST level` : ''}`,
  );
}

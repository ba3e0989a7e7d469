import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { referenceTargetArgs, startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Api } from '../src/http/api.ts';
import { ApiClient } from '../src/http/client.ts';
import { BudgetSpentError, outsideBudget, PREFLIGHT_REQUESTS, preflightRequests } from '../src/http/request-budget.ts';
import { AWAY_ROUND, Journal } from '../src/safety/journal.ts';
import { budgetTable, chooseWithin, leanCost, planBudget, RESTORE_RESERVE, type BudgetEstimate } from '../src/runner/budget.ts';
import { LEAN_RUNS } from '../src/config/options.ts';
import { helpText } from '../src/cli/args.ts';
import { runCli } from './support/cli.ts';

const verdictLine = (stdout: string) => stdout.trim().split('\n').at(-1) ?? '';

/** The CLI arguments of a --budget 120 run (seed 1, both keys) against a reference started here. */
const budget120Against = (reference: Pick<RunningReference, 'url' | 'keys'>): string[] => [
  ...referenceTargetArgs(reference),
  '--budget',
  '120',
  '--seed',
  '1',
  '-q',
];

describe('--budget N: the checks worth most per request, within N requests', () => {
  it('--budget 120 sends at most 120 requests, lists what it left unjudged, and is incomplete (exit 3)', async () => {
    const run = await runCli(['--budget', '120', '--seed', '1', '-q']);
    expect(run.code, run.stdout).toBe(3);
    const report = run.report();
    expect(report.verdict).toBe('incomplete');
    const budget = report.budget!;
    expect(budget.limit).toBe(120);
    expect(budget.spent).toBeGreaterThan(PREFLIGHT_REQUESTS);
    expect(budget.spent).toBeLessThanOrEqual(120);
    expect(budget.estimatedFull).toBeGreaterThan(120);
    expect(budget.notJudged.length).toBeGreaterThan(0);
    for (const id of budget.notJudged) {
      const check = report.checks.find((c) => c.id === id)!;
      expect(check.status).toBe('skipped');
      expect(check.message).toMatch(/^not judged \(budget\)/);
    }
    expect(report.counts.passed).toBeGreaterThan(10);
    expect(report.checks.filter((c) => c.status === 'failed' || c.status === 'error')).toEqual([]);
    // The table prices the checks as they run here (lean, shared reads once): none it chose is cut short.
    expect(report.checks.filter((c) => /a request was refused/.test(c.message ?? '')).map((c) => c.id)).toEqual([]);
    expect(run.stdout).toContain(`Budget: ${budget.spent} of 120 requests spent`);
    expect(run.stdout).toContain(`not judged (budget), the run is incomplete without them: ${budget.notJudged.join(', ')}`);
    expect(verdictLine(run.stdout)).toMatch(/^verdict: incomplete \(the --budget 120 left checks unjudged.*; exit 3$/);
  });

  it('a budgeted run runs its checks lean, as the table measured them: fewer property cases, smaller samples, fewer requests', async () => {
    const run = await runCli(['--budget', '10000', '--seed', '1', '-q']);
    expect(run.code, run.stdout).toBe(0);
    const report = run.report();
    expect(report.budget!.propertyRuns).toBe(LEAN_RUNS);
    expect(report.budget!.notJudged).toEqual([]);
    expect(run.stdout).toContain(`the chosen checks ran lean: ${LEAN_RUNS} case(s) per property`);
    const table = new Map(budgetTable().checks.map((c) => [c.id, c]));
    // A model-based property, a sampled read, a toggling check with fewer witnesses, a probe list cut to one value of a kind.
    for (const id of ['KEPT-006', 'READ-001', 'KEPT-002', 'KEPT-003']) {
      const sent = report.checks.find((c) => c.id === id)!.requests!;
      const row = table.get(id)!;
      expect(row.leanRequests, id).toBeLessThan(row.requests);
      expect(sent, id).toBeLessThan(row.requests);
    }
    const total = report.checks.reduce((sum, c) => sum + (c.requests ?? 0), 0);
    const leanTotal = budgetTable().checks.reduce((sum, c) => sum + (c.leanRequests ?? c.requests), 0);
    const fullTotal = budgetTable().checks.reduce((sum, c) => sum + c.requests, 0);
    expect(leanTotal).toBeLessThan(fullTotal);
    expect(total).toBeLessThan(fullTotal);
    // The pre-flight as sent: with the second user's key, its reads too.
    expect(report.budget!.estimatedFull).toBe(preflightRequests(true) + fullTotal);
    // The run's shared reads are told apart where they were sent; the table prices each once.
    const shared = report.checks.reduce((sum, c) => sum + (c.sharedRequests ?? 0), 0);
    expect(shared).toBeGreaterThan(0);
    const priced = Object.values(budgetTable().sharedReadCosts ?? {}).reduce((sum, n) => sum + n, 0);
    expect(shared).toBeLessThanOrEqual(priced);
    // Each check names the shared reads it used, whoever sent them, and the table knows their price.
    for (const c of report.checks)
      for (const key of Object.keys(c.sharedReads ?? {})) expect(budgetTable().sharedReadCosts, `${c.id}: ${key}`).toHaveProperty([key]);
  });

  it('with --allow-incomplete the same budget conforms (exit 0), and the verdict says the run is partial', async () => {
    const run = await runCli(['--budget', '120', '--seed', '1', '--allow-incomplete', '-q']);
    expect(run.code, run.stdout).toBe(0);
    const report = run.report();
    expect(report.verdict).toBe('conforms');
    expect(report.reason).toMatch(/partial run: \d+ check\(s\) not judged within --budget 120 \(a full run: about \d+ requests\)/);
    expect(report.budget!.notJudged.length).toBeGreaterThan(0);
    expect(report.budget!.spent).toBeLessThanOrEqual(120);
  });

  it('a mutant killed by a check the budget pays for still fails the run (exit 1)', async () => {
    const chosen = new Set(planBudget(120, [], [], PREFLIGHT_REQUESTS).chosen);
    // A row field off by one: TYPE-001 kills it, a cheap check the budget pays for.
    const mutant = (await loadMutants()).find((m) => m.id === 'rows-type-id-off-by-one')!;
    expect(mutant.kills.length).toBeGreaterThan(0);
    for (const id of mutant.kills) expect(chosen.has(id), id).toBe(true);
    expect(mutant).toBeDefined();
    const broken = await startReference({ wrap: mutant.wrap! });
    try {
      const run = await runCli(budget120Against(broken));
      expect(run.code, `${mutant.id}\n${run.stdout}`).toBe(1);
      const report = run.report();
      expect(report.verdict).toBe('does not conform');
      const failed = report.checks.filter((c) => c.status === 'failed').map((c) => c.id);
      expect(failed.some((id) => mutant.kills.includes(id))).toBe(true);
      expect(report.budget!.spent).toBeLessThanOrEqual(120);
    } finally {
      await broken.close();
    }
  });

  it('a check that toggles its own items toggles in a budgeted run the items it toggled when the table was measured', async () => {
    // The table's lean run of every check dealt FRAME-001 its share of the collection among the lane's eight checks;
    // dealt the whole collection (the only check of its lane the budget chose), it toggled an item without tags.
    const chosen = new Set(planBudget(120, [], [], PREFLIGHT_REQUESTS).chosen);
    expect(chosen.has('FRAME-001')).toBe(true);
    expect(budgetTable().checks.find((c) => c.id === 'FRAME-001')!.detects).toContain('kept-drops-tags');
    const mutant = (await loadMutants()).find((m) => m.id === 'kept-drops-tags')!;
    const broken = await startReference({ wrap: mutant.wrap! });
    try {
      const run = await runCli(budget120Against(broken));
      expect(run.code, run.stdout).toBe(1);
      expect(run.report().checks.find((c) => c.id === 'FRAME-001')!.status).toBe('failed');
    } finally {
      await broken.close();
    }
  });

  it('past the budget the client refuses a check its requests: that check is unjudged, never failed, and restores still go out', async () => {
    // A larger collection makes these walks dearer than the table estimates them (at 120 items), so a budget
    // that just pays for their estimates runs both, and the hard cap is what stops them.
    const only = ['PAGE-010', 'FILT-006'];
    const estimate = budgetTable()
      .checks.filter((c) => only.includes(c.id))
      .reduce((sum, c) => sum + leanCost(c), PREFLIGHT_REQUESTS + RESTORE_RESERVE + (budgetTable().sharedReads ?? 0));
    // Their shared reads (the walk), priced once.
    const sharedKeys = new Set(
      budgetTable()
        .checks.filter((c) => only.includes(c.id))
        .flatMap((c) => c.shares ?? []),
    );
    const sharedCost = [...sharedKeys].reduce((sum, k) => sum + (budgetTable().sharedReadCosts?.[k] ?? 1), 0);
    expect(planBudget(estimate + sharedCost, only, [], PREFLIGHT_REQUESTS).chosen).toEqual(['FILT-006', 'PAGE-010']);
    const limit = estimate + sharedCost + preflightRequests(true) - PREFLIGHT_REQUESTS;
    const run = await runCli(['--only', only.join(','), '--budget', String(limit), '--seed', '1', '-q'], { CONFORM_REFERENCE_ITEMS: '2000' });
    expect(run.code, run.stdout).toBe(3);
    const report = run.report();
    const refused = report.checks.filter((c) => /^not judged \(budget\): a request was refused/.test(c.message ?? ''));
    expect(refused.length).toBeGreaterThan(0);
    for (const c of refused) expect(c.status).toBe('skipped');
    expect(report.checks.filter((c) => c.status === 'failed' || c.status === 'error')).toEqual([]);
    expect(report.safety.problems).toEqual([]);
    expect(report.budget!.notJudged).toEqual(expect.arrayContaining(refused.map((c) => c.id)));
    expect(report.budget!.spent).toBeLessThanOrEqual(limit);
  });

  it("keeps back, as the run goes, what the journal's items still call for: a restore and verify for an item changed, a sweep read for each", async () => {
    const reference = await startReference();
    const journal = new Journal(join(mkdtempSync(join(tmpdir(), 'conform-budget-')), 'journal.jsonl'));
    const client = new ApiClient({
      baseUrl: reference.url,
      keys: { primary: reference.keys.primary },
      timeoutMs: 5_000,
      budget: 7,
      budgetKeptBack: () => journal.requestsToSettle,
    });
    const api = new Api(client);
    /** Reads until the client refuses one for the budget; how many it sent. */
    const readsUntilRefused = async () => {
      for (let sent = 0; ; sent++) {
        try {
          await api.types();
        } catch (error) {
          expect(error).toBeInstanceOf(BudgetSpentError);
          return sent;
        }
      }
    };
    try {
      // Sent something a conforming server leaves as it was (an invalid value): only the sweep's read is kept back.
      await journal.recordChange('primary', '1002', 0, 'yes');
      // Sent the other value: 4 kept back for item 1001 (a read, its write back, the read that verifies it, the sweep's read).
      await journal.recordChange('primary', '1001', 0, 1);
      expect(await readsUntilRefused()).toBe(2);
      // Restored: only the sweep's reads are kept back now, and a restore is sent past the budget whatever it holds.
      journal.recordRestored('primary', '1001', 0);
      expect(await readsUntilRefused()).toBe(3);
      await expect(outsideBudget(() => api.types())).resolves.toMatchObject({ response: { status: 200 } });
      expect(client.budgetRefusals).toBe(2);
    } finally {
      await client.close();
      await reference.close();
    }
  });

  it('a budget that does not pay for the pre-flight is a usage error (exit 2)', async () => {
    const run = await runCli(['--budget', String(PREFLIGHT_REQUESTS - 1)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--budget 2 does not pay for the pre-flight/);
    const notANumber = await runCli(['--budget', 'lots']);
    expect(notANumber.code).toBe(2);
  });

  it('conform --help documents --budget, that restores are always sent, and --allow-incomplete', () => {
    const help = helpText();
    expect(help).toMatch(/--budget <n> +send at most N requests/);
    expect(help).toMatch(/Restores of kept values are always sent, even past N/);
    expect(help).toMatch(/--allow-incomplete +.*spent --budget/);
  });
});

describe('choosing within a budget', () => {
  const row = (id: string, area: string, requests: number, kills: number, level: 'MUST' | 'SHOULD' = 'MUST'): BudgetEstimate => ({
    id,
    level,
    area,
    sections: [`§${area}`],
    requests,
    kills,
  });
  const table = [row('A-1', 'a', 10, 5), row('A-2', 'a', 10, 4), row('B-1', 'b', 40, 1), row('C-1', 'c', 5, 9, 'SHOULD')];
  const ids = table.map((r) => r.id);

  it('judges every MUST section once before any twice, then adds by value per request', () => {
    const overhead = 3 + 6;
    // A-2 is worth more per request than B-1, but area b comes first.
    expect(chooseWithin(overhead + 50, ids, table).chosen).toEqual(['A-1', 'B-1']);
    expect(chooseWithin(overhead + 55, ids, table).chosen).toEqual(['A-1', 'B-1', 'C-1']);
    expect(chooseWithin(overhead + 65, ids, table).chosen).toEqual(['A-1', 'A-2', 'B-1', 'C-1']);
  });

  it('with detections, buys the most mutants not yet found per request (a check that finds only what is found comes last)', () => {
    const overhead = 3 + 6;
    const detecting = [
      { ...row('X-1', 'x', 10, 3), detects: ['m1', 'm2'] },
      { ...row('X-2', 'x', 5, 9), detects: ['m1', 'm2'] },
      { ...row('X-3', 'x', 10, 1), detects: ['m3'] },
    ];
    const all = detecting.map((r) => r.id);
    // X-2 finds m1 and m2 cheapest; X-1 then adds nothing, X-3 adds m3.
    expect(chooseWithin(overhead + 15, all, detecting).chosen).toEqual(['X-2', 'X-3']);
    expect(chooseWithin(overhead + 25, all, detecting).chosen).toEqual(['X-1', 'X-2', 'X-3']);
  });

  it('leaves out a check the greedy pass chose when the plan without it finds more mutants', () => {
    const overhead = 3 + 6;
    const detecting = [
      { ...row('Y-1', 'y', 4, 1), detects: ['m1', 'm2', 'm3', 'm4', 'm5'] },
      { ...row('Y-2', 'y', 3, 1), detects: ['m1', 'm2', 'm3'] },
      { ...row('Y-3', 'y', 3, 1), detects: ['m4', 'm5', 'm6'] },
    ];
    const all = detecting.map((r) => r.id);
    // Greedy takes Y-1 first (5 finds for 4 requests) and then nothing fits the 2 left; Y-2 and Y-3 find all 6.
    expect(chooseWithin(overhead + 6, all, detecting).chosen).toEqual(['Y-2', 'Y-3']);
    expect(chooseWithin(overhead + 4, all, detecting).chosen).toEqual(['Y-1']);
  });

  it('pays for a check what it costs lean (leanRequests), and still estimates the full run at full cost', () => {
    const overhead = 3 + 6;
    const lean = [{ ...row('P-1', 'p', 40, 5), leanRequests: 8 }, row('Q-1', 'q', 10, 1)];
    const choice = chooseWithin(overhead + 18, ['P-1', 'Q-1'], lean);
    expect(choice.chosen).toEqual(['P-1', 'Q-1']);
    expect(choice.estimatedChosen).toBe(3 + 18);
    expect(choice.estimatedFull).toBe(3 + 50);
    expect(chooseWithin(overhead + 17, ['P-1', 'Q-1'], lean).chosen).toEqual(['P-1']);
    // Reads outside the checks are paid once, before any check.
    expect(chooseWithin(overhead + 18, ['P-1', 'Q-1'], lean, { sharedReads: 5 }).chosen).toEqual(['P-1']);
    expect(chooseWithin(overhead + 23, ['P-1', 'Q-1'], lean, { sharedReads: 5 })).toMatchObject({ chosen: ['P-1', 'Q-1'], estimatedChosen: 3 + 5 + 18 });
  });

  it('prices a shared read once, with the first chosen check that uses it, and the pre-flight as sent', () => {
    const overhead = 3 + 6;
    const sharing = [
      { ...row('S-1', 's', 4, 5), shares: ['walk'] },
      { ...row('S-2', 's', 4, 4), shares: ['walk'] },
    ];
    const readCosts = { walk: 3 };
    // Both pay their own 4; the walk's 3 once: 11.
    expect(chooseWithin(overhead + 11, ['S-1', 'S-2'], sharing, { sharedReadCosts: readCosts })).toMatchObject({
      chosen: ['S-1', 'S-2'],
      estimatedChosen: 3 + 11,
    });
    expect(chooseWithin(overhead + 10, ['S-1', 'S-2'], sharing, { sharedReadCosts: readCosts }).chosen).toEqual(['S-1']);
    // With each check's sweep measured: nothing kept back while no chosen check writes…
    const readOnly = sharing.map((r) => ({ ...r, sweepReads: 0 }));
    expect(chooseWithin(3 + 11, ['S-1', 'S-2'], readOnly, { sharedReadCosts: readCosts })).toMatchObject({ chosen: ['S-1', 'S-2'], sweepReserve: 0 });
    // …and once one writes, the sweep of its items (the client keeps back what a restore of a check cut short takes), and
    // once for the run a restore's round (while a writer's item is at the other value the client keeps that back too).
    const swept = [{ ...readOnly[0]!, sweepReads: 2 }, readOnly[1]!];
    expect(chooseWithin(3 + 11 + 2 + AWAY_ROUND, ['S-1', 'S-2'], swept, { sharedReadCosts: readCosts })).toMatchObject({
      chosen: ['S-1', 'S-2'],
      estimatedChosen: 3 + 11,
      sweepReserve: 2 + AWAY_ROUND,
    });
    expect(chooseWithin(3 + 11 + 2 + AWAY_ROUND - 1, ['S-1', 'S-2'], swept, { sharedReadCosts: readCosts }).chosen).toEqual(['S-2']);
    // Two checks that journal the same item call for one sweep read of it, not one each, and the round is kept back once.
    const sameItem = [
      { ...readOnly[0]!, sweepReads: 2, sweepItems: ['primary:7', 'other:9'] },
      { ...readOnly[1]!, sweepReads: 1, sweepItems: ['primary:7'] },
    ];
    expect(chooseWithin(3 + 11 + 2 + AWAY_ROUND, ['S-1', 'S-2'], sameItem, { sharedReadCosts: readCosts })).toMatchObject({
      chosen: ['S-1', 'S-2'],
      sweepReserve: 2 + AWAY_ROUND,
    });
    const otherItem = [sameItem[0]!, { ...sameItem[1]!, sweepItems: ['primary:8'] }];
    expect(chooseWithin(3 + 11 + 2 + AWAY_ROUND, ['S-1', 'S-2'], otherItem, { sharedReadCosts: readCosts }).chosen).toHaveLength(1);
    // A pre-flight of five requests (a second user's key) leaves two fewer for the checks.
    expect(chooseWithin(overhead + 11, ['S-1', 'S-2'], sharing, { sharedReadCosts: readCosts, preflight: 5 }).chosen).toEqual(['S-1']);
  });

  it('leaves out what does not fit, and estimates the full run with the pre-flight', () => {
    const choice = chooseWithin(3 + 6 + 10, ids, table);
    expect(choice.chosen).toEqual(['A-1']);
    expect(choice.left).toEqual(['A-2', 'B-1', 'C-1']);
    expect(choice.estimatedFull).toBe(3 + 65);
    expect(choice.estimatedChosen).toBe(3 + 10);
  });

  it('the table of estimates names every check of the suite (regenerate it with scripts/budget-estimates.ts)', () => {
    const snapshot = JSON.parse(readFileSync(new URL('./check-ids.snapshot.json', import.meta.url), 'utf8')) as { id: string }[];
    expect(
      budgetTable()
        .checks.map((c) => c.id)
        .sort(),
    ).toEqual(snapshot.map((c) => c.id).sort());
    for (const c of budgetTable().checks) expect(c.kills, c.id).toBeGreaterThan(0);
  });
});

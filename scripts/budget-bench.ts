/**
 * The bench rows of --budget (issue 26): the requests a full run sends at seed 1 (as the reference counts
 * them: pre-flight, checks, restores), and a --budget 120 run against the reference behind the rate limit
 * from the field (60 requests per 60 s, 429 without Retry-After): wall time, verdict, requests, data intact.
 * `--full` adds the full run behind that limit (about 15 minutes).
 * `--kill-share 60,120,240` adds, per budget, the share of the self-test's mutants (those that name kills)
 * that a run with that budget finds (some MUST check fails), at the first seed; `--sample N` measures every
 * k-th mutant only, about N of them (the row says so).
 *
 *   node --import tsx scripts/budget-bench.ts [--budget 120] [--full] [--seed 1] [--kill-share 60,120,240 [--sample N]]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rateLimited } from '../fixtures/rate-limit.ts';
import type { Handler } from '../fixtures/reference/types.ts';
import { referenceTargetArgs, startReference } from '../fixtures/reference/server.ts';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { defaultWorkers, selfTest } from './mutation-score.ts';
import type { RunResult } from '../src/runner/results.ts';
import { packageRoot } from '../src/runner/vitest-host.ts';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
};
const budget = option('budget') ?? '120';
const seed = option('seed') ?? '1';

interface Row {
  row: string;
  exitCode: number | null;
  verdict: string;
  wallS: number;
  served: number;
  answered429: number;
  dataIntact: boolean;
  budget?: RunResult['budget'];
}

async function measure(row: string, limit: { requests: number; seconds: number } | undefined, flags: readonly string[]): Promise<Row> {
  let served = 0;
  let tooMany = 0;
  const count = (status: number) => (status === 429 ? tooMany++ : served++);
  const counting =
    (inner: Handler): Handler =>
    async (req) => {
      const answer = await inner(req);
      count(answer.status);
      return answer;
    };
  const wrap = limit
    ? rateLimited({ limit: limit.requests, windowMs: limit.seconds * 1000, retryAfter: false, onAnswer: (_req, status) => count(status) })
    : counting;
  const reference = await startReference({ wrap });
  const snapshot = () => JSON.stringify(reference.store.snapshot()).replace(/"updated_at":"[^"]*"/g, '');
  const before = snapshot();
  const outDir = mkdtempSync(join(tmpdir(), 'conform-budget-bench-'));
  const args = [...referenceTargetArgs(reference), '--seed', seed, '--out', outDir, '-q', ...flags];
  const started = performance.now();
  const exitCode = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [join(packageRoot, 'bin', 'conform.js'), ...args], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    child.on('close', resolve);
  });
  const wallS = Math.round((performance.now() - started) / 100) / 10;
  const dataIntact = snapshot() === before;
  await reference.close();
  const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as RunResult;
  return { row, exitCode, verdict: report.verdict, wallS, served, answered429: tooMany, dataIntact, ...(report.budget ? { budget: report.budget } : {}) };
}

/** Per budget, the mutants that a run with that budget finds (some MUST check fails under the seed) and those it kills as the self-test counts. */
async function killShare(budgets: readonly number[], sample: number | undefined): Promise<string[]> {
  const judged = (await loadMutants()).filter((m) => m.kills.length > 0);
  const step = sample === undefined ? 1 : Math.max(1, Math.floor(judged.length / sample));
  const chosen = new Set(judged.filter((_, i) => i % step === 0).map((m) => m.id));
  const lines: string[] = [];
  for (const budget of budgets) {
    const rows = (await selfTest((id) => chosen.has(id), { seeds: [Number(seed)], workers: defaultWorkers(), budget })).filter((r) => r.kind === 'mutant');
    const found = rows.filter((r) => r.runs.some((run) => Object.entries(run.statuses).some(([id, s]) => s === 'failed' && run.levels[id] === 'MUST')));
    // The self-test's own kill: every check the mutant names failed, at any level (a SHOULD check's advice included).
    const killed = rows.filter((r) => found.includes(r) || r.runs.some((run) => r.expected.every((id) => run.statuses[id] === 'failed')));
    const percent = (n: number) => Math.round((1000 * n) / Math.max(1, rows.length)) / 10;
    lines.push(
      `--budget ${budget}: finds ${found.length} of ${rows.length} mutants (${percent(found.length)}%) by a failed MUST check; kills ${killed.length} (${percent(killed.length)}%) as the self-test counts a kill (those, and the mutants whose named checks all failed, advice included)${step > 1 ? `, every ${step}th of the ${judged.length} the self-test judges` : ''}, seed ${seed}`,
    );
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const field = { requests: 60, seconds: 60 };
  const rows = [
    await measure(`requests per run, seed ${seed} (no rate limit)`, undefined, []),
    await measure(`60 a minute, --budget ${budget}`, field, ['--budget', budget]),
    ...(argv.includes('--full') ? [await measure('60 a minute, full run', field, [])] : []),
  ];
  for (const r of rows) {
    const spent = r.budget
      ? `, budget ${r.budget.spent}/${r.budget.limit} spent, ${r.budget.notJudged.length} not judged, full run about ${r.budget.estimatedFull}`
      : '';
    console.log(
      `${r.row}: ${r.served} requests answered (${r.answered429} × 429), ${r.wallS} s, ${r.verdict} (exit ${r.exitCode}), data intact: ${r.dataIntact}${spent}`,
    );
  }
  if (argv.includes('--json')) console.log(JSON.stringify(rows, null, 1));
  const shares = option('kill-share');
  if (shares !== undefined) {
    const sample = option('sample');
    for (const line of await killShare(shares.split(',').map(Number), sample === undefined ? undefined : Number(sample))) console.log(line);
  }
}

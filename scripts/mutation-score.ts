/**
 * The self-test of the suite: the reference and each of its variants must conform, and each mutant
 * must fail every check it names, under every seed. Jobs (one target under one fast-check seed) run
 * in worker processes, each with its own SuiteRunner (scripts/self-test-worker.ts). Prints a table,
 * the clause-element table with its checks and mutants, and a summary; or JSON with --json.
 *   node --import tsx scripts/mutation-score.ts [--json] [--only id,…] [--items N] [--seeds 1,2,3,4,5] [--workers N] [--lean]
 * --items N gives every user N items (default 120): the checks must bite at scale too.
 * --lean runs the checks as a budgeted run does (src/runner/budget.ts): the clean targets must conform lean too.
 */
import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadMutants, type Mutant } from '../fixtures/mutants/index.ts';
import { variants } from '../fixtures/variants.ts';
import { clauseElements, elementCount, pendingElements } from '../src/spec/clause-elements.ts';
import type { Status } from '../src/runner/results.ts';
import type { FailureEvidence, FromWorker, Job, JobResult, TargetKind, ToWorker } from './self-test-worker.ts';

/** Fast-check seeds every target runs under: a mutant killed under some of them only is a failure. */
export const DEFAULT_SEEDS: readonly number[] = [1, 2, 3, 4, 5];

/**
 * One target's run under one seed: a worker's result without the job that asked for it. Under every seed
 * after the first, only the checks that read the seed under the first are run again; the others send the
 * same requests under any seed, and their statuses are carried from the first seed's run (named in `carried`).
 * `failures` holds what each failed or erred check printed in the run itself, never for carried statuses.
 */
export type SeedRun = Omit<JobResult, 'job'> & { seed: number; carried?: string[] };

export interface SelfTestRow {
  kind: TargetKind;
  id: string;
  description: string;
  /** For mutants: the checks named as kills. */
  expected: string[];
  /** One run per seed. */
  runs: SeedRun[];
  /** Per check, its status when every seed agrees; otherwise the status that counts against the target (a survivor's, a failure's). */
  statuses: Record<string, Status | 'absent'>;
  /** The worst exit code over the seeds. */
  exitCode: number;
  harnessErrors: string[];
  /** For mutants: seeds under which every named check failed, and seeds under which one did not. */
  killedSeeds?: number[];
  survivedSeeds?: number[];
  /** For variants: checks the reference of the same profile passes under a seed but this variant left unjudged (and may not). */
  unjudged?: string[];
  /** For clean targets: the checks that failed under some seed, with their level (a SHOULD failure counts as much as a MUST one). */
  failedChecks?: string[];
  ok: boolean;
}

interface Target {
  kind: TargetKind;
  id: string;
  description: string;
  expected: string[];
  profile: 'primary' | 'staging';
  /** For variants: checks whose precondition the variant's choice removes (they may skip), with the reason. */
  mayLeaveUnjudged?: Record<string, string>;
  /** A mutant judged in a run of every check (Mutant.judgedIn), its kills among them. */
  fullRun?: boolean;
}

function cleanTargets(): Target[] {
  return [
    { kind: 'reference', id: 'reference', description: 'the reference, primary profile', expected: [], profile: 'primary' },
    { kind: 'reference', id: 'reference-staging', description: 'the reference, staging profile', expected: [], profile: 'staging' },
    ...variants.map((v) => ({
      kind: 'variant' as const,
      id: v.id,
      description: v.description,
      expected: [],
      profile: v.profile ?? 'primary',
      mayLeaveUnjudged: v.mayLeaveUnjudged ?? {},
    })),
  ];
}

/** Longest one job (one target under one seed) may take before its worker is stopped. */
const jobTimeoutMs = Number(process.env.CONFORM_SELFTEST_JOB_TIMEOUT_MS ?? 180_000);

/** Runs every job in `workers` processes, longest jobs first; a worker that dies fails its job. */
async function runJobs(jobs: readonly Job[], workers: number, itemsPerUser: number | undefined): Promise<JobResult[]> {
  const queue = [...jobs];
  const results: JobResult[] = [];
  const script = fileURLToPath(new URL('./self-test-worker.ts', import.meta.url));
  const one = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const child = fork(script, itemsPerUser === undefined ? [] : ['--items', String(itemsPerUser)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
      child.stdout?.pipe(process.stderr);
      let current: Job | undefined;
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const next = () => {
        clearTimeout(timer);
        current = queue.shift();
        child.send(current ? ({ type: 'job', job: current } satisfies ToWorker) : ({ type: 'stop' } satisfies ToWorker));
        // A target that makes a run hang (a paging loop that never ends, say) must not hang the self-test.
        if (current)
          timer = setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, jobTimeoutMs);
      };
      child.on('message', (message: FromWorker) => {
        if (message.type === 'result') results.push(message.result);
        next();
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (current)
          results.push({
            job: current,
            statuses: {},
            levels: {},
            seeded: [],
            exitCode: -1,
            harnessErrors: [],
            ms: 0,
            crash: timedOut ? `the job took longer than ${jobTimeoutMs / 1000} s and was stopped` : `the worker exited (${code ?? 'signal'}) during the job`,
          });
        const lost = current;
        current = undefined;
        // The worker's remaining share of the queue goes to a fresh worker.
        if (timedOut && lost && queue.length > 0) void one().then(resolve);
        else resolve();
      });
    });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, jobs.length)) }, one));
  return results;
}

const bad = (s: Status | 'absent' | undefined) => s === 'failed' || s === 'error';

/** A check that did not run under a seed (a crashed job) is `absent` there. */
function merge(runs: readonly SeedRun[], pick: (statuses: (Status | 'absent')[]) => Status | 'absent'): Record<string, Status | 'absent'> {
  const ids = new Set(runs.flatMap((r) => Object.keys(r.statuses)));
  return Object.fromEntries([...ids].map((id) => [id, pick(runs.map((r) => r.statuses[id] ?? 'absent'))]));
}

function rowOf(target: Target, runs: SeedRun[], baseline: (profile: string, seed: number) => Record<string, Status>): SelfTestRow {
  const exitCode = runs.reduce((worst, r) => (Math.abs(r.exitCode) > Math.abs(worst) ? r.exitCode : worst), 0);
  const harnessErrors = runs.flatMap((r) => [...r.harnessErrors, ...(r.crash ? [r.crash] : [])].map((e) => `seed ${r.seed}: ${e}`));
  if (target.kind === 'mutant') {
    const killed = (r: SeedRun) => !r.crash && target.expected.every((id) => r.statuses[id] === 'failed');
    const killedSeeds = runs.filter(killed).map((r) => r.seed);
    const survivedSeeds = runs.filter((r) => !killed(r)).map((r) => r.seed);
    const statuses = merge(runs, (all) => all.find((s) => s !== 'failed') ?? 'failed');
    return { ...target, runs, statuses, exitCode, harnessErrors, killedSeeds, survivedSeeds, ok: runs.length > 0 && survivedSeeds.length === 0 };
  }
  const statuses = merge(runs, (all) => all.find(bad) ?? all.find((s) => s !== 'passed') ?? all[0]!);
  // A variant that makes a check skip hides a false failure as surely as one that makes it fail,
  // unless the variant names the check and why its choice removes the check's precondition.
  const allowed = target.mayLeaveUnjudged ?? {};
  const unjudged =
    target.kind === 'variant'
      ? [
          ...new Set(
            runs.flatMap((r) => {
              const base = baseline(target.profile, r.seed);
              return Object.keys(base).filter((id) => base[id] === 'passed' && r.statuses[id] !== 'passed' && !(id in allowed && r.statuses[id] === 'skipped'));
            }),
          ),
        ]
      : [];
  // A clean target fails no check at all: a SHOULD failure on a correct implementation is a false alarm too.
  const failedChecks = [
    ...new Set(
      runs.flatMap((r) =>
        Object.entries(r.statuses)
          .filter(([, s]) => bad(s))
          .map(([id, s]) => `${id} (${r.levels[id] ?? '?'}, ${s})`),
      ),
    ),
  ];
  const conforms = (r: SeedRun) => !r.crash && r.exitCode === 0 && !Object.values(r.statuses).some(bad);
  const { mayLeaveUnjudged: _allowed, ...described } = target;
  return {
    ...described,
    runs,
    statuses,
    exitCode,
    harnessErrors,
    unjudged,
    failedChecks,
    ok: runs.length > 0 && runs.every(conforms) && failedChecks.length === 0 && unjudged.length === 0,
  };
}

export interface SelfTestOptions {
  itemsPerUser?: number;
  seeds?: readonly number[];
  workers?: number;
  /** Run every check against each mutant, whatever it names as kills (scripts/blind-score.ts). */
  ignoreKills?: boolean;
  /** With ignoreKills: these checks only, against every target (scripts/budget-estimates.ts --detections-of). */
  checks?: readonly string[];
  /** Every run with --budget N (scripts/budget-bench.ts); implies ignoreKills, the budget chooses the checks. */
  budget?: number;
  /** Every run with its checks lean, as a budgeted run runs them, but all of them (scripts/budget-estimates.ts). */
  lean?: boolean;
}

export async function selfTest(filter?: (id: string) => boolean, options: SelfTestOptions = {}): Promise<SelfTestRow[]> {
  const seeds = options.seeds ?? DEFAULT_SEEDS;
  // An open blind mutant names no kills: it is measured by scripts/blind-score.ts (ignoreKills), not judged here.
  const mutants: Mutant[] = (await loadMutants({ measured: options.ignoreKills === true })).filter(
    (m) => (!filter || filter(m.id)) && (options.ignoreKills || m.kills.length > 0),
  );
  const clean = cleanTargets();
  // A variant is judged against the reference of its profile, which then runs too.
  const chosenVariants = clean.filter((c) => c.kind === 'variant' && (!filter || filter(c.id)));
  const chosenClean = clean.filter((c) => !filter || filter(c.id) || (c.kind === 'reference' && chosenVariants.some((v) => v.profile === c.profile)));
  const targets: Target[] = [
    ...chosenClean,
    ...mutants.map((m) => ({
      kind: 'mutant' as const,
      id: m.id,
      description: m.description,
      expected: [...m.kills],
      profile: m.profile ?? 'primary',
      ...(m.judgedIn === 'full-run' ? { fullRun: true } : {}),
    })),
  ];
  const workers = options.workers ?? defaultWorkers();
  const [firstSeed, ...laterSeeds] = seeds as [number, ...number[]];
  const onlyOf = (t: Target) => (options.ignoreKills || options.budget !== undefined ? [...(options.checks ?? [])] : t.fullRun ? [] : t.expected);
  const budget = { ...(options.budget !== undefined ? { budget: options.budget } : {}), ...(options.lean ? { lean: true } : {}) };
  const first = await runJobs(
    targets.map((t) => ({ kind: t.kind, id: t.id, seed: firstSeed, only: onlyOf(t), ...budget })),
    workers,
    options.itemsPerUser,
  );
  const later = await runJobs(
    targets.flatMap((t) => {
      const run = first.find((r) => r.job.id === t.id);
      // A crashed first run says nothing about which checks read the seed: every later seed runs in full.
      const only = run === undefined || run.crash ? onlyOf(t) : run.seeded;
      if (run !== undefined && !run.crash && only.length === 0) return [];
      return laterSeeds.map((seed) => ({ kind: t.kind, id: t.id, seed, only, ...budget }));
    }),
    workers,
    options.itemsPerUser,
  );
  const runsOf = (id: string): SeedRun[] => {
    const firstRun = first.find((r) => r.job.id === id);
    const asRun = (r: JobResult): SeedRun => ({
      seed: r.job.seed,
      statuses: r.statuses,
      ...(r.failures ? { failures: r.failures } : {}),
      levels: r.levels,
      seeded: r.seeded,
      exitCode: r.exitCode,
      harnessErrors: r.harnessErrors,
      ms: r.ms,
      ...(r.crash ? { crash: r.crash } : {}),
    });
    if (firstRun === undefined) return [];
    return [
      asRun(firstRun),
      ...laterSeeds.map((seed) =>
        laterRun(
          firstRun,
          later.find((r) => r.job.id === id && r.job.seed === seed),
          seed,
          asRun,
        ),
      ),
    ];
  };
  const baseline = (profile: string, seed: number) =>
    runsOf(profile === 'staging' ? 'reference-staging' : 'reference').find((r) => r.seed === seed)?.statuses ?? {};
  return targets.filter((t) => !filter || filter(t.id)).map((t) => rowOf(t, runsOf(t.id), baseline));
}

/** A later seed's run: what was run again under it, and the first seed's statuses of the checks that did not read the seed. */
function laterRun(first: JobResult, rerun: JobResult | undefined, seed: number, asRun: (r: JobResult) => SeedRun): SeedRun {
  if (first.crash) return rerun ? asRun(rerun) : { ...asRun(first), seed };
  const carried = Object.keys(first.statuses).filter((id) => !first.seeded.includes(id));
  const carriedStatuses = Object.fromEntries(carried.map((id) => [id, first.statuses[id]!]));
  // The first run's failures (messages, exchanges) are not repeated in the runs that only carry its statuses.
  if (rerun === undefined) {
    const { failures: _shownInFirstRun, ...carriedRun } = asRun(first);
    return { ...carriedRun, seed, ms: 0, carried };
  }
  const run = asRun(rerun);
  // A crash under a later seed loses what it would have run again; the carried statuses still stand.
  return { ...run, statuses: { ...carriedStatuses, ...run.statuses }, levels: { ...first.levels, ...run.levels }, carried };
}

/** A word a failure message must never print: JavaScript's rendering of a value nobody described. */
export const JUNK_IN_MESSAGE = /\b(?:undefined|NaN)\b|\[object Object\]/;

/** What a failed or erred check printed in one run, with the run and the target it belongs to. */
export interface PrintedFailure {
  target: SelfTestRow;
  seed: number;
  check: string;
  status: Status | undefined;
  level: string | undefined;
  printed: FailureEvidence;
}

/** Every failure the self-test's runs printed (runs that only carry the first seed's statuses add none). */
export function printedFailures(rows: readonly SelfTestRow[]): PrintedFailure[] {
  return rows.flatMap((target) =>
    target.runs.flatMap((run) =>
      Object.entries(run.failures ?? {}).map(([check, printed]) => ({
        target,
        seed: run.seed,
        check,
        status: run.statuses[check],
        level: run.levels[check],
        printed,
      })),
    ),
  );
}

/** "mutant seed 1 CHECK: the line of its message that prints undefined, [object Object] or NaN". */
export function junkMessages(rows: readonly SelfTestRow[]): string[] {
  const lines = printedFailures(rows)
    .filter((f) => JUNK_IN_MESSAGE.test(f.printed.message ?? ''))
    .map((f) => {
      const line = (f.printed.message ?? '').split('\n').find((l) => JUNK_IN_MESSAGE.test(l)) ?? '';
      return `${f.target.id} seed ${f.seed} ${f.check}: ${line.slice(0, 300)}`;
    });
  return [...new Set(lines)];
}

/** Failures of a MUST check on a mutant with neither the exchange that showed the fault nor a command that replays it. */
export function failuresWithoutEvidence(rows: readonly SelfTestRow[]): string[] {
  return printedFailures(rows)
    .filter((f) => f.target.kind === 'mutant' && f.status === 'failed' && f.level === 'MUST' && !f.printed.exchange && !f.printed.reproduction)
    .map((f) => `${f.target.id} seed ${f.seed} ${f.check}: ${(f.printed.message ?? '').split('\n')[0]!.slice(0, 200)}`);
}

export function defaultWorkers(): number {
  return Math.max(2, Math.min(availableParallelism(), 4));
}

const seedList = (seeds: readonly number[]) => seeds.join(',');

function detail(row: SelfTestRow): string {
  if (row.kind === 'mutant') {
    const crashed = row.runs.filter((r) => r.crash).map((r) => `seed ${r.seed}: ${r.crash}`);
    if (row.survivedSeeds!.length === 0) return row.expected.map((id) => `${id}=failed`).join(' ');
    const alive = row.expected
      .filter((id) => row.statuses[id] !== 'failed')
      .map((id) => `${id}=${row.statuses[id] ?? 'absent'}`)
      .join(' ');
    const when =
      row.killedSeeds!.length === 0
        ? 'survived under every seed'
        : `killed under seeds ${seedList(row.killedSeeds!)} only; survived under seeds ${seedList(row.survivedSeeds!)}`;
    return `${when} (${alive})${crashed.length ? `; ${crashed.join('; ')}` : ''}`;
  }
  const failing = row.runs.filter((r) => r.crash || r.exitCode !== 0 || Object.values(r.statuses).some(bad));
  const problems = failing.map(
    (r) =>
      `seed ${r.seed}: ${
        r.crash ??
        `exit ${r.exitCode} ${Object.entries(r.statuses)
          .filter(([, s]) => bad(s))
          .map(([id, s]) => `${id}=${s} (${r.levels[id] ?? '?'})`)
          .join(' ')}`
      }`,
  );
  const unjudged = row.unjudged?.length
    ? `; not judged here but passed by the reference: ${row.unjudged.map((id) => `${id}=${row.statuses[id] ?? 'absent'}`).join(' ')}`
    : '';
  return `${problems.length === 0 ? 'exit 0 under every seed' : problems.join('; ')}${unjudged}`;
}

/** Per clause element: its checks and mutants, and whether each mutant was killed under every seed. */
export function elementLines(rows: readonly SelfTestRow[]): { lines: string[]; elements: number; proven: number } {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lines: string[] = [];
  let elements = 0;
  let proven = 0;
  for (const [clause, list] of Object.entries(clauseElements)) {
    for (const element of list) {
      const ran = element.mutants.map((id) => byId.get(id)).filter((r): r is SelfTestRow => r !== undefined);
      if (ran.length === 0) continue;
      elements++;
      const ok = ran.length === element.mutants.length && ran.every((r) => r.ok);
      if (ok) proven++;
      const mutantText = element.mutants.map((id) => {
        const r = byId.get(id);
        return r ? `${id}${r.ok ? '' : ` (survived under seeds ${seedList(r.survivedSeeds ?? [])})`}` : `${id} (not run)`;
      });
      lines.push(
        `${ok ? 'ok  ' : 'FAIL'} ${clause.padEnd(6)} ${`${element.element} [${element.kind}]`.padEnd(58)} checks ${element.checks.join(', ')}; mutants ${mutantText.join(', ')}`,
      );
    }
  }
  return { lines, elements, proven };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (flag: string) => (args.includes(flag) ? (args[args.indexOf(flag) + 1] ?? '') : undefined);
  const onlyArg = value('--only');
  const only = onlyArg === undefined ? undefined : new Set(onlyArg.split(','));
  const itemsArg = value('--items');
  const itemsPerUser = itemsArg === undefined ? undefined : Number(itemsArg);
  if (itemsPerUser !== undefined && !(Number.isSafeInteger(itemsPerUser) && itemsPerUser > 0)) throw new Error('--items needs a positive integer');
  const seedsArg = value('--seeds');
  const seeds = seedsArg === undefined ? DEFAULT_SEEDS : seedsArg.split(',').map(Number);
  if (!seeds.every(Number.isSafeInteger) || seeds.length === 0) throw new Error('--seeds needs a comma-separated list of integers');
  const workersArg = value('--workers');
  const workers = workersArg === undefined ? defaultWorkers() : Number(workersArg);
  if (!(Number.isSafeInteger(workers) && workers > 0)) throw new Error('--workers needs a positive integer');
  const started = Date.now();
  // --lean: the checks run as a budgeted run runs them (a clean target must pass lean too; a mutant's kills are proven at full strength).
  const lean = args.includes('--lean');
  const rows = await selfTest(only ? (id) => only.has(id) : undefined, {
    seeds,
    workers,
    ...(itemsPerUser === undefined ? {} : { itemsPerUser }),
    ...(lean ? { lean } : {}),
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } else {
    const out = (line: string) => process.stdout.write(`${line}\n`);
    for (const row of rows) out(`${row.ok ? 'ok  ' : 'FAIL'} ${row.kind.padEnd(9)} ${row.id.padEnd(40)} ${detail(row)}`);
    const { lines, elements, proven } = elementLines(rows);
    if (lines.length > 0) {
      out('');
      out('clause elements (clause, element [kind], covering checks, proving mutants):');
      for (const line of lines) out(line);
    }
    const mutants = rows.filter((r) => r.kind === 'mutant');
    const someSeeds = mutants.filter((r) => !r.ok && r.killedSeeds!.length > 0);
    const never = mutants.filter((r) => !r.ok && r.killedSeeds!.length === 0);
    const cleanRows = rows.filter((r) => r.kind !== 'mutant');
    out('');
    const laterRuns = rows.flatMap((r) => r.runs.slice(1));
    const carriedWhole = laterRuns.filter((r) => r.carried !== undefined && r.ms === 0).length;
    out(`self-test under seeds ${seedList(seeds)} (${workers} workers, ${seconds} s):`);
    out(
      `later seeds: ${laterRuns.length - carriedWhole} of ${laterRuns.length} runs sent again, for the checks that read the seed under seed ${seeds[0]}; the other checks send the same requests under any seed and keep their first status`,
    );
    out(
      `mutation score: ${mutants.filter((r) => r.ok).length}/${mutants.length} mutants killed under every seed (${someSeeds.length} under some seeds only${someSeeds.length ? `: ${someSeeds.map((r) => `${r.id} survived seeds ${seedList(r.survivedSeeds!)}`).join('; ')}` : ''}, ${never.length} never${never.length ? `: ${never.map((r) => r.id).join(', ')}` : ''})`,
    );
    out(`clean targets: ${cleanRows.filter((r) => r.ok).length}/${cleanRows.length} conform under every seed with no failed check at any level`);
    const junk = junkMessages(rows);
    const bare = failuresWithoutEvidence(rows);
    out(
      `failure messages: ${junk.length} print undefined, [object Object] or NaN; ${bare.length} MUST failure(s) on mutants carry neither an exchange nor a reproduction`,
    );
    for (const line of [...junk, ...bare]) out(`  ${line}`);
    out(
      `clause elements: ${proven}/${elements} proven (a covering check and a mutant killed under every seed); the table holds ${elementCount()} elements of ${Object.keys(clauseElements).length} clauses; ${pendingElements.length} elements of the inventory wait for a check or a mutant (scripts/inventory.ts --list)`,
    );
  }
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
}

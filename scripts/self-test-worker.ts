/**
 * One worker of the self-test (scripts/mutation-score.ts): a process with its own SuiteRunner that
 * runs the jobs its parent sends over IPC, one at a time, each against a fresh reference server.
 * A job is one target (the reference, a clean variant or a mutant) under one fast-check seed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDataset, type Dataset } from '../fixtures/dataset.ts';
import { loadMutants, type Mutant } from '../fixtures/mutants/index.ts';
import { startReference, type ReferenceOptions } from '../fixtures/reference/server.ts';
import { variants } from '../fixtures/variants.ts';
import { openTarget, prefetchSharedReads, readAhead } from '../src/runner/open-target.ts';
import { DEFAULT_RUNS } from '../src/config/options.ts';
import { DEFAULT_MAX_REQUESTS } from '../src/config/resolve.ts';
import { defaultGate } from '../src/config/plan.ts';
import { execute, type ExecutePlan } from '../src/runner/execute.ts';
import type { CheckResult, Status } from '../src/runner/results.ts';
import { SuiteRunner } from '../src/runner/vitest-host.ts';

export type TargetKind = 'reference' | 'variant' | 'mutant';

export interface Job {
  kind: TargetKind;
  id: string;
  seed: number;
  /** Checks to run (all when empty): a mutant runs only those it names as kills, unless it is judged in a full run. */
  only: readonly string[];
  /** --budget N for the run (scripts/budget-bench.ts): the checks it can afford, most valuable first. */
  budget?: number;
  /** The checks run lean, as a budgeted run runs them (scripts/budget-estimates.ts). */
  lean?: boolean;
}

/** What a failed or erred check printed: its message and the evidence attached to it (bodies trimmed as in the report). */
export type FailureEvidence = Pick<CheckResult, 'message' | 'exchange' | 'reproduction'>;

export interface JobResult {
  job: Job;
  statuses: Record<string, Status>;
  /** Per check that failed or erred in this job, what it printed; absent when none did. */
  failures?: Record<string, FailureEvidence>;
  /** Per check, its level (MUST or SHOULD). */
  levels: Record<string, string>;
  /** Checks that read the seed: only these may send other requests under another seed. */
  seeded: string[];
  exitCode: number;
  harnessErrors: string[];
  /** Wall time of the job. */
  ms: number;
  /** The job could not run at all (its target would not start, the runner threw). */
  crash?: string;
}

export type ToWorker = { type: 'job'; job: Job } | { type: 'stop' };
export type FromWorker = { type: 'ready' } | { type: 'result'; result: JobResult };

/** Fast-check runs per property in the self-test: the CLI's default, so that what it proves holds for a default run. */
export const SELF_TEST_RUNS = DEFAULT_RUNS;

async function runAgainst(runner: SuiteRunner, reference: ReferenceOptions, job: Job): Promise<Omit<JobResult, 'job' | 'ms'>> {
  const server = await startReference(reference);
  const target = await openTarget({
    kind: 'remote',
    baseUrl: server.url,
    profile: reference.profile ?? 'primary',
    label: 'self-test',
    keys: { primary: server.keys.primary, other: server.keys.other },
  });
  try {
    const plan: ExecutePlan = {
      settings: { seed: job.seed, runs: SELF_TEST_RUNS, timeoutMs: 10_000, concurrency: 8, rps: 0, maxRequests: DEFAULT_MAX_REQUESTS },
      deadlineSeconds: 300,
      only: job.only,
      skip: [],
      gate: defaultGate,
      waivers: [],
      ...(job.budget !== undefined ? { budget: job.budget } : {}),
      ...(job.lean ? { lean: true } : {}),
    };
    // A run of every check of the primary profile sends its data-free reads while the checks load, as the CLI's does:
    // what the self-test proves of such a run holds for the one users make.
    if (job.only.length === 0 && target.profile === 'primary' && job.budget === undefined && !job.lean) {
      await readAhead(target);
      target.prefetching = prefetchSharedReads(target);
    }
    const { result, harnessErrors } = await execute(runner, target, plan, {
      journalPath: join(mkdtempSync(join(tmpdir(), 'conform-self-')), 'journal.jsonl'),
    });
    const failed = result.checks.filter((c) => c.status === 'failed' || c.status === 'error');
    return {
      statuses: Object.fromEntries(result.checks.map((c) => [c.id, c.status])),
      ...(failed.length > 0 ? { failures: Object.fromEntries(failed.map((c) => [c.id, evidenceOf(c)])) } : {}),
      levels: Object.fromEntries(result.checks.map((c) => [c.id, c.level])),
      seeded: result.checks.filter((c) => c.seeded).map((c) => c.id),
      exitCode: result.exitCode,
      harnessErrors,
    };
  } finally {
    await target.close();
    await server.close();
  }
}

function evidenceOf(check: CheckResult): FailureEvidence {
  return {
    ...(check.message !== undefined ? { message: check.message } : {}),
    ...(check.exchange ? { exchange: check.exchange } : {}),
    ...(check.reproduction ? { reproduction: check.reproduction } : {}),
  };
}

/** How to start the reference for a job: profile, variant, mutant wrapper and dataset. */
export function referenceFor(job: Job, mutants: readonly Mutant[], datasetFor: (mutant?: Mutant) => { dataset?: Dataset }): ReferenceOptions {
  if (job.kind === 'reference') return { ...(job.id === 'reference-staging' ? { profile: 'staging' as const } : {}), ...datasetFor() };
  if (job.kind === 'variant') {
    const v = variants.find((x) => x.id === job.id);
    if (!v) throw new Error(`no variant ${job.id}`);
    return { variant: v.variant, ...(v.profile ? { profile: v.profile } : {}), ...datasetFor(v.dataset ? ({ dataset: v.dataset } as Mutant) : undefined) };
  }
  const mutant = mutants.find((m) => m.id === job.id);
  if (!mutant) throw new Error(`no mutant ${job.id}`);
  return {
    ...(mutant.profile ? { profile: mutant.profile } : {}),
    ...(mutant.variant ? { variant: mutant.variant } : {}),
    ...(mutant.wrap ? { wrap: mutant.wrap } : {}),
    ...datasetFor(mutant),
  };
}

/**
 * One dataset for every target of a worker (the store copies what it changes), built once instead of once per job; a
 * mutant that needs other data gets its own. It is frozen: a target that changed the dataset itself would throw rather
 * than hand its change to the next job.
 */
export function datasets(itemsPerUser: number | undefined): (mutant?: Mutant) => { dataset?: Dataset } {
  const shared = deepFreeze(buildDataset(itemsPerUser === undefined ? undefined : { itemsPerUser }));
  return (mutant) => {
    const own = mutant?.dataset;
    if (own && (itemsPerUser === undefined || own.seed !== undefined || (own.itemsPerUser ?? 120) > itemsPerUser)) return { dataset: buildDataset(own) };
    return { dataset: shared };
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

async function serve(itemsPerUser: number | undefined): Promise<void> {
  const send = (message: FromWorker) => process.send!(message);
  const mutants = await loadMutants({ measured: true });
  const datasetFor = datasets(itemsPerUser);
  const runner = await SuiteRunner.create({ checkTimeoutMs: 120_000, keepThread: true });
  process.on('message', (message: ToWorker) => {
    if (message.type === 'stop') {
      void runner.close().finally(() => process.exit(0));
      return;
    }
    const { job } = message;
    void (async () => {
      const started = Date.now();
      try {
        const run = await runAgainst(runner, referenceFor(job, mutants, datasetFor), job);
        send({ type: 'result', result: { job, ...run, ms: Date.now() - started } });
      } catch (error) {
        send({
          type: 'result',
          result: {
            job,
            statuses: {},
            levels: {},
            seeded: [],
            exitCode: -1,
            harnessErrors: [],
            ms: Date.now() - started,
            crash: error instanceof Error ? error.message : String(error),
          },
        });
      }
    })();
  });
  send({ type: 'ready' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const itemsIndex = process.argv.indexOf('--items');
  await serve(itemsIndex >= 0 ? Number(process.argv[itemsIndex + 1]) : undefined);
}

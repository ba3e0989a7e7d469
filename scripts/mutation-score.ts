/**
 * The self-test of the suite, in one process: the reference and each of its variants must conform,
 * and each mutant must fail exactly the checks it names. Prints a table, or JSON with --json.
 *   node --import tsx scripts/mutation-score.ts [--json] [--only mutant-id,…] [--items N]
 * --items N gives every user N items (default 120): the checks must bite at scale too.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDataset } from '../fixtures/dataset.ts';
import { loadMutants, type Mutant } from '../fixtures/mutants/index.ts';
import { startReference, type ReferenceOptions } from '../fixtures/reference/server.ts';
import { variants } from '../fixtures/variants.ts';
import { openTarget } from '../src/cli/targets.ts';
import { execute } from '../src/execute.ts';
import type { Status } from '../src/results.ts';
import { SuiteRunner } from '../src/run.ts';

export interface SelfTestRow {
  kind: 'reference' | 'variant' | 'mutant';
  id: string;
  description: string;
  /** For mutants: the checks named as kills and the status each ended with. */
  expected: string[];
  statuses: Record<string, Status>;
  exitCode: number;
  ok: boolean;
  harnessErrors: string[];
  /** For variants: checks the reference of the same profile passes but this variant left unjudged (and may not). */
  unjudged?: string[];
  /** For clean targets: the checks that failed, with their level (a SHOULD failure counts as much as a MUST one). */
  failedChecks?: string[];
}

async function runAgainst(runner: SuiteRunner, reference: ReferenceOptions, only: readonly string[]): Promise<{ statuses: Record<string, Status>; levels: Record<string, string>; exitCode: number; harnessErrors: string[] }> {
  const server = await startReference(reference);
  const target = await openTarget({ kind: 'remote', baseUrl: server.url, profile: reference.profile ?? 'primary', label: 'self-test', keys: { primary: server.keys.primary, other: server.keys.other } });
  try {
    const { result, harnessErrors } = await execute(runner, target, {
      seed: 1,
      runs: 15,
      timeoutMs: 10_000,
      deadline: Date.now() + 300_000,
      concurrency: 8,
      rps: 0,
      only,
      skip: [],
      journalPath: join(mkdtempSync(join(tmpdir(), 'conform-self-')), 'journal.jsonl'),
    });
    return {
      statuses: Object.fromEntries(result.checks.map((c) => [c.id, c.status])),
      levels: Object.fromEntries(result.checks.map((c) => [c.id, c.level])),
      exitCode: result.exitCode,
      harnessErrors,
    };
  } finally {
    await target.close();
    await server.close();
  }
}

export async function selfTest(filter?: (id: string) => boolean, options: { itemsPerUser?: number } = {}): Promise<SelfTestRow[]> {
  // One dataset for every target (the store copies what it changes); a mutant that needs other data
  // gets its own unless the shared one is at least as large.
  const shared = options.itemsPerUser === undefined ? undefined : buildDataset({ itemsPerUser: options.itemsPerUser });
  const datasetFor = (mutant?: Mutant) => {
    const own = mutant?.dataset;
    if (own && (shared === undefined || own.seed !== undefined || (own.itemsPerUser ?? 120) > options.itemsPerUser!)) return { dataset: buildDataset(own) };
    return shared ? { dataset: shared } : {};
  };
  const runner = await SuiteRunner.create({ checkTimeoutMs: 120_000 });
  const rows: SelfTestRow[] = [];
  try {
    const clean = [
      { kind: 'reference' as const, id: 'reference', description: 'the reference, primary profile', options: {} },
      { kind: 'reference' as const, id: 'reference-staging', description: 'the reference, staging profile', options: { profile: 'staging' as const } },
      ...variants.map((v) => ({ kind: 'variant' as const, id: v.id, description: v.description, options: { variant: v.variant, ...(v.profile ? { profile: v.profile } : {}) }, mayLeaveUnjudged: v.mayLeaveUnjudged ?? {} })),
    ];
    const referenceStatuses: Partial<Record<string, Record<string, Status>>> = {};
    for (const entry of clean.filter((e) => !filter || filter(e.id) || e.kind === 'reference')) {
      const { levels, ...run } = await runAgainst(runner, { ...entry.options, ...datasetFor() }, []);
      const profile = entry.options.profile ?? 'primary';
      if (entry.kind === 'reference') referenceStatuses[profile] = run.statuses;
      if (filter && !filter(entry.id)) continue;
      // A clean target fails no check at all: a SHOULD failure on a correct implementation is a false alarm too.
      const failedChecks = Object.entries(run.statuses).filter(([, s]) => s === 'failed' || s === 'error').map(([id, s]) => `${id} (${levels[id]}, ${s})`);
      // A variant that makes a check skip hides a false failure as surely as one that makes it fail,
      // unless the variant names the check and why its choice removes the check's precondition.
      const baseline = referenceStatuses[profile] ?? {};
      const allowed = 'mayLeaveUnjudged' in entry ? entry.mayLeaveUnjudged : {};
      const unjudged = entry.kind === 'variant' ? Object.keys(baseline).filter((id) => baseline[id] === 'passed' && run.statuses[id] !== 'passed' && !(id in allowed && run.statuses[id] === 'skipped')) : [];
      rows.push({ kind: entry.kind, id: entry.id, description: entry.description, expected: [], ...run, unjudged, failedChecks, ok: run.exitCode === 0 && failedChecks.length === 0 && unjudged.length === 0 });
    }
    const mutants: Mutant[] = (await loadMutants()).filter((m) => !filter || filter(m.id));
    for (const mutant of mutants) {
      const run = await runAgainst(
        runner,
        {
          ...(mutant.profile ? { profile: mutant.profile } : {}),
          ...(mutant.variant ? { variant: mutant.variant } : {}),
          ...(mutant.wrap ? { wrap: mutant.wrap } : {}),
          ...datasetFor(mutant),
        },
        mutant.kills,
      );
      const ok = mutant.kills.every((id) => run.statuses[id] === 'failed');
      rows.push({ kind: 'mutant', id: mutant.id, description: mutant.description, expected: [...mutant.kills], ...run, ok });
    }
  } finally {
    await runner.close();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const onlyIndex = args.indexOf('--only');
  const only = onlyIndex >= 0 ? new Set((args[onlyIndex + 1] ?? '').split(',')) : undefined;
  const itemsIndex = args.indexOf('--items');
  const itemsPerUser = itemsIndex >= 0 ? Number(args[itemsIndex + 1]) : undefined;
  if (itemsPerUser !== undefined && !(Number.isSafeInteger(itemsPerUser) && itemsPerUser > 0)) throw new Error('--items needs a positive integer');
  const rows = await selfTest(only ? (id) => only.has(id) : undefined, itemsPerUser === undefined ? {} : { itemsPerUser });
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } else {
    for (const row of rows) {
      const detail = row.kind === 'mutant'
        ? row.expected.map((id) => `${id}=${row.statuses[id] ?? 'absent'}`).join(' ')
        : `exit ${row.exitCode}${row.failedChecks?.length ? `; failed: ${row.failedChecks.join(' ')}` : ''}${row.unjudged?.length ? `; not judged here but passed by the reference: ${row.unjudged.map((id) => `${id}=${row.statuses[id] ?? 'absent'}`).join(' ')}` : ''}`;
      process.stdout.write(`${row.ok ? 'ok  ' : 'FAIL'} ${row.kind.padEnd(9)} ${row.id.padEnd(36)} ${detail}\n`);
    }
    const mutants = rows.filter((r) => r.kind === 'mutant');
    process.stdout.write(`mutation score: ${mutants.filter((r) => r.ok).length}/${mutants.length} mutants killed; ${rows.filter((r) => r.kind !== 'mutant' && r.ok).length}/${rows.filter((r) => r.kind !== 'mutant').length} clean targets conform\n`);
  }
  process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
}

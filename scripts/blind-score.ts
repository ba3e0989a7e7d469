/**
 * The kill rate of mutants written blind: every check runs against each mutant of the named registry
 * areas (their `kills` are not consulted), and a mutant counts as killed when some check fails under
 * every seed. Prints, per mutant, the checks that failed (with their level) and a summary line.
 *   node --import tsx scripts/blind-score.ts --areas blind-round-1[,blind-round-2] [--seeds 1,2,3,4,5] [--workers N] [--json] [--jsonl FILE]
 *   node --import tsx scripts/blind-score.ts --ids blind3-a,blind9-b … (those mutants only, of any area)
 * --jsonl FILE appends one row per mutant as each batch of mutants finishes, so a long measurement that is
 * cut off keeps what it measured (a mutant already in FILE is not measured again).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { allMutants, measurementGrids, mutantsByArea } from '../fixtures/mutants/index.ts';
import { DEFAULT_SEEDS, defaultWorkers, selfTest, type SelfTestRow } from './mutation-score.ts';

export interface BlindRow {
  id: string;
  description: string;
  /** Per seed, the checks that failed (id and level). */
  failedBySeed: { seed: number; failed: string[]; crash?: string }[];
  /** Some check failed under every seed. */
  killed: boolean;
  /** Some MUST check failed under every seed. */
  killedByMust: boolean;
  /** Checks that failed under every seed. */
  alwaysFailing: string[];
}

export function blindRow(row: SelfTestRow): BlindRow {
  const failedBySeed = row.runs.map((run) => ({
    seed: run.seed,
    failed: Object.entries(run.statuses)
      .filter(([, s]) => s === 'failed')
      .map(([id]) => `${id} (${run.levels[id] ?? '?'})`),
    ...(run.crash ? { crash: run.crash } : {}),
  }));
  const always = (ids: string[][]) => (ids.length === 0 ? [] : ids.reduce((a, b) => a.filter((x) => b.includes(x))));
  const alwaysFailing = always(failedBySeed.map((s) => s.failed));
  return {
    id: row.id,
    description: row.description,
    failedBySeed,
    killed: row.runs.length > 0 && alwaysFailing.length > 0,
    killedByMust: alwaysFailing.some((c) => c.endsWith('(MUST)')),
    alwaysFailing,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const areas = (value('--areas') ?? '').split(',').filter(Boolean);
  const area = (name: string) => mutantsByArea[name] ?? measurementGrids[name];
  const unknown = areas.filter((a) => !area(a));
  const named = (value('--ids') ?? '').split(',').filter(Boolean);
  const unknownIds = named.filter((id) => !allMutants.some((m) => m.id === id));
  if (areas.length + named.length === 0 || unknown.length > 0 || unknownIds.length > 0)
    throw new Error(
      `--areas needs registry areas or measurement grids of fixtures/mutants/index.ts, --ids mutant ids of it (unknown: ${[...unknown, ...unknownIds].join(', ')})`,
    );
  const ids = new Set([...areas.flatMap((a) => area(a)!.map((m) => m.id)), ...named]);
  const seeds = (value('--seeds') ?? DEFAULT_SEEDS.join(',')).split(',').map(Number);
  const workers = Number(value('--workers') ?? defaultWorkers());
  // Every check runs: a blind mutant's kills are what this script finds out.
  const blindOnly = (id: string) => ids.has(id);
  const jsonl = value('--jsonl');
  const measure = async (only: (id: string) => boolean) =>
    (await selfTest(only, { seeds, workers, ignoreKills: true })).filter((r) => r.kind === 'mutant').map(blindRow);
  let rows: BlindRow[];
  if (jsonl) {
    const done = existsSync(jsonl)
      ? readFileSync(jsonl, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as BlindRow)
      : [];
    const todo = [...ids].filter((id) => !done.some((r) => r.id === id));
    for (let i = 0; i < todo.length; i += workers * 2) {
      const batch = new Set(todo.slice(i, i + workers * 2));
      const measured = await measure((id) => batch.has(id));
      for (const row of measured) appendFileSync(jsonl, `${JSON.stringify(row)}\n`);
      done.push(...measured);
    }
    rows = done.filter((r) => ids.has(r.id));
  } else {
    rows = await measure(blindOnly);
  }
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } else {
    for (const r of rows) {
      const detail = r.killed
        ? r.alwaysFailing.join(' ')
        : `survived (${r.failedBySeed.map((s) => `seed ${s.seed}: ${s.failed.join(' ') || s.crash || 'none'}`).join('; ')})`;
      process.stdout.write(`${r.killed ? (r.killedByMust ? 'KILL' : 'kill') : 'LIVE'} ${r.id.padEnd(44)} ${detail}\n`);
    }
    const killed = rows.filter((r) => r.killed).length;
    const byMust = rows.filter((r) => r.killedByMust).length;
    process.stdout.write(
      `\nblind kill rate (${[...areas, ...(named.length > 0 ? [`${named.length} named`] : [])].join(', ')}; seeds ${seeds.join(',')}): ${killed}/${rows.length} killed under every seed (${byMust} by a MUST check)\n`,
    );
  }
}

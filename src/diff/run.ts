import { idOf, type Row } from '../spec/lenient.ts';
import { compareIds, compareRecords, compareRows, sampleIds, sideNames, type Disagreement, type SideName } from './compare.ts';
import { applyIgnoreRules, type IgnoredField, type IgnoreRules } from './ignore.ts';
import { readCollection, readRecord, RequestBudget, type DiffSide } from './read.ts';

export interface DiffOptions {
  seed: number;
  /** How many common items get a single read on both sides. */
  sample: number;
  maxRequests: number;
  /** What does not count as a difference besides modification stamps: --ignore-field, and the items a conform run changed and put back. */
  ignore?: IgnoreRules;
}

export interface DiffReport {
  sides: Record<SideName, { label: string; baseUrl: string; profile: string; items: number }>;
  common: number;
  onlyOn: Record<SideName, string[]>;
  rowsCompared: number;
  sampled: string[];
  seed: number;
  requests: number;
  disagreements: Disagreement[];
  /** Fields whose differences were not counted, and why. */
  ignored: IgnoredField[];
}

/**
 * Compares one user's data on two deployments (§9): the same item ids, rows that agree on the fields
 * both show (staging's rows being a projection of primary's), and single reads of a seeded sample.
 */
export async function diffDeployments(target: DiffSide, against: DiffSide, options: DiffOptions): Promise<DiffReport> {
  const sides = { target, against };
  const budget = new RequestBudget(options.maxRequests);
  const rows = { target: await readCollection(target, budget), against: await readCollection(against, budget) };
  const byId = { target: indexById(rows.target), against: indexById(rows.against) };
  const ids = compareIds({ target: idsOf(rows.target), against: idsOf(rows.against) });
  const profiles = { target: target.profile, against: against.profile };

  const disagreements: Disagreement[] = [...ids.duplicates];
  for (const side of sideNames) {
    const unusable = rows[side].filter((r) => idOf(r.id) === undefined).length;
    if (unusable > 0)
      disagreements.push({ itemId: '(none)', where: 'collection', note: `${unusable} row(s) on ${side} carry no usable id, so they cannot be matched` });
  }
  for (const id of ids.common) {
    disagreements.push(...compareRows(id, { target: byId.target.get(id)!, against: byId.against.get(id)! }, profiles));
  }
  const sampled = sampleIds(ids.common, options.sample, options.seed);
  for (const id of sampled) {
    const reads = { target: await readRecord(target, id, budget), against: await readRecord(against, id, budget) };
    if (reads.target.record && reads.against.record) {
      disagreements.push(...compareRecords(id, { target: reads.target.record, against: reads.against.record }));
    } else {
      disagreements.push({
        itemId: id,
        where: 'single read',
        note: `GET /artifact.php answered ${reads.target.status} on target and ${reads.against.status} on against`,
      });
    }
  }

  const counted = applyIgnoreRules(disagreements, options.ignore ?? { fields: [], touched: [] });
  const summary = (side: SideName) => ({ label: sides[side].label, baseUrl: sides[side].baseUrl, profile: sides[side].profile, items: byId[side].size });
  return {
    sides: Object.fromEntries(sideNames.map((s) => [s, summary(s)])) as DiffReport['sides'],
    common: ids.common.length,
    onlyOn: ids.onlyOn,
    rowsCompared: ids.common.length,
    sampled,
    seed: options.seed,
    requests: budget.used,
    disagreements: counted.kept,
    ignored: counted.ignored,
  };
}

/** Exit 0 only when nothing disagrees: no id on one side only and no differing value. */
export function agrees(report: DiffReport): boolean {
  return report.disagreements.length === 0 && report.onlyOn.target.length === 0 && report.onlyOn.against.length === 0;
}

function idsOf(rows: readonly Row[]): string[] {
  return rows.map((r) => idOf(r.id)).filter((id): id is string => id !== undefined);
}

function indexById(rows: readonly Row[]): Map<string, Row> {
  const map = new Map<string, Row>();
  for (const row of rows) {
    const id = idOf(row.id);
    if (id !== undefined && !map.has(id)) map.set(id, row);
  }
  return map;
}

import { flag, idOf, isObject, type Row } from '../spec/lenient.ts';
import type { ProfileName } from '../spec/profiles.ts';
import { mulberry32 } from '../core/random.ts';
import { naturalOrder } from '../core/natural-order.ts';

export type SideName = 'target' | 'against';
export const sideNames: readonly SideName[] = ['target', 'against'];

/** What a staging list row carries (§2, §4); primary rows carry these and more. */
export const STAGING_ROW_FIELDS: readonly string[] = ['id', 'Title', 'tags'];

export interface Disagreement {
  itemId: string;
  /** Where the values were read. */
  where: 'list row' | 'single read' | 'collection';
  field?: string;
  /** The value on each side; `undefined` when the side has no such field. */
  values?: Record<SideName, unknown>;
  note: string;
  /** A staging row that carries a field staging omits: the shape is wrong, whatever the value. */
  projection?: true;
}

/**
 * Equal as the spec reads them: flags as 0/1 or booleans, ids as numbers or strings, tags in any
 * order (§2 leaves the order of labels open); everything else must match exactly.
 */
export function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (canonical(a) === canonical(b)) return true;
  if (field === 'tags' && Array.isArray(a) && Array.isArray(b)) return canonical([...a].map(canonical).sort()) === canonical([...b].map(canonical).sort());
  const fa = flag(a);
  if (fa !== undefined && fa === flag(b) && (typeof a === 'boolean' || typeof b === 'boolean')) return true;
  if ((field === 'id' || field.endsWith('_id')) && idOf(a) !== undefined && idOf(a) === idOf(b)) return true;
  return false;
}

/** JSON with object keys sorted, so that key order never counts as a difference. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

const other = (side: SideName): SideName => (side === 'target' ? 'against' : 'target');

/**
 * The rows of one item on both sides. Fields both carry must agree; a staging row carries exactly
 * id, Title and tags; a field only one side carries is allowed only when the other side is held to
 * the staging profile and the field is one staging omits (the projection of §2, §4, §9).
 */
export function compareRows(itemId: string, rows: Record<SideName, Row>, profiles: Record<SideName, ProfileName>): Disagreement[] {
  const found: Disagreement[] = [];
  const fields = [...new Set([...Object.keys(rows.target), ...Object.keys(rows.against)])];
  for (const field of fields) {
    const values = { target: rows.target[field], against: rows.against[field] };
    const has = { target: field in rows.target, against: field in rows.against };
    const stagingOnly = !STAGING_ROW_FIELDS.includes(field);
    const omittedBy = sideNames.filter((side) => has[side] && profiles[side] === 'staging' && stagingOnly);
    for (const side of omittedBy) {
      found.push({
        itemId,
        where: 'list row',
        field,
        values,
        note: `the ${side} row carries ${field}, which the staging profile omits from list rows`,
        projection: true,
      });
    }
    if (omittedBy.length > 0) continue;
    if (has.target && has.against) {
      if (!sameValue(field, values.target, values.against)) found.push({ itemId, where: 'list row', field, values, note: 'the values differ' });
      continue;
    }
    const lacking = other(has.target ? 'target' : 'against');
    if (profiles[lacking] === 'staging' && stagingOnly) continue; // the projection staging is allowed
    found.push({ itemId, where: 'list row', field, values, note: `the ${lacking} row lacks ${field}` });
  }
  return found;
}

/** Single reads return the full record on both profiles (§2), so the records must agree field by field. */
export function compareRecords(itemId: string, records: Record<SideName, Row>): Disagreement[] {
  const found: Disagreement[] = [];
  const fields = [...new Set([...Object.keys(records.target), ...Object.keys(records.against)])];
  for (const field of fields) {
    const values = { target: records.target[field], against: records.against[field] };
    const has = { target: field in records.target, against: field in records.against };
    if (has.target && has.against) {
      if (!sameValue(field, values.target, values.against)) found.push({ itemId, where: 'single read', field, values, note: 'the values differ' });
    } else {
      found.push({ itemId, where: 'single read', field, values, note: `only the ${has.target ? 'target' : 'against'} record carries ${field}` });
    }
  }
  return found;
}

/** Item ids listed on only one side, and ids listed more than once on a side. */
export function compareIds(ids: Record<SideName, readonly string[]>): { common: string[]; onlyOn: Record<SideName, string[]>; duplicates: Disagreement[] } {
  const sets = { target: new Set(ids.target), against: new Set(ids.against) };
  const duplicates: Disagreement[] = [];
  for (const side of sideNames) {
    const seen = new Set<string>();
    const reported = new Set<string>();
    for (const id of ids[side]) {
      if (seen.has(id) && !reported.has(id)) {
        reported.add(id);
        duplicates.push({ itemId: id, where: 'collection', note: `listed more than once on ${side} (a cursor walk returns every item once)` });
      }
      seen.add(id);
    }
  }
  return {
    common: sortIds([...sets.target].filter((id) => sets.against.has(id))),
    onlyOn: {
      target: sortIds([...sets.target].filter((id) => !sets.against.has(id))),
      against: sortIds([...sets.against].filter((id) => !sets.target.has(id))),
    },
    duplicates,
  };
}

export function sortIds(ids: string[]): string[] {
  return ids.sort(naturalOrder);
}

/** `count` ids chosen by a seeded shuffle: the same seed picks the same items again. */
export function sampleIds(ids: readonly string[], count: number, seed: number): string[] {
  const pool = [...ids];
  const random = mulberry32(seed);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return sortIds(pool.slice(0, Math.max(0, count)));
}

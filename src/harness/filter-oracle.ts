import { MAX_ROWS_PER_PAGE } from '../spec/limits.ts';
import { asJson, idOf, itemFlag, type Row } from '../spec/lenient.ts';
import { asText } from './expect.ts';

/**
 * What each filter of §4's table means, applied to rows the run has read: the oracle of the filter checks.
 */

/** The flag filters and the row field each one reads (§4 table, §4 rule 3). */
export const FILTER_FLAG_FIELDS = {
  kept: 'is_kept',
  physical: 'is_physical',
  digital: 'is_digital',
  secondary_collection: 'is_in_secondary_collection',
} as const;
export type FlagFilter = keyof typeof FILTER_FLAG_FIELDS;

export interface Filters {
  kept?: boolean;
  physical?: boolean;
  digital?: boolean;
  secondary_collection?: boolean;
  tag?: string;
  type_id?: string | number | (string | number)[];
}

export const tagsOf = (row: Row): string[] => (Array.isArray(row.tags) ? row.tags.filter((t): t is string => typeof t === 'string') : []);

/** A list of labels as a comparable text: as a set (order and repeats do not count), each label as text. */
export const labelSet = (tags: readonly unknown[]): string => JSON.stringify([...new Set(tags.map(String))].sort());

/** Whether a row must be in a filtered answer ('yes'), must not ('no'), or may be either way ('either'). */
export type Verdict = 'yes' | 'no' | 'either';

/**
 * The spec's meaning of each filter, applied to the rows of one full read: the oracle (§4). Where the
 * spec is silent the row may go either way: a flag served as null (not set) under a false filter, and
 * a tag that matches only when case is ignored. An item with no type matches no type filter.
 */
export function satisfies(row: Row, filters: Filters): Verdict {
  let verdict: Verdict = 'yes';
  for (const name of Object.keys(FILTER_FLAG_FIELDS) as FlagFilter[]) {
    const wanted = filters[name];
    if (wanted === undefined) continue;
    const value = itemFlag(row[FILTER_FLAG_FIELDS[name]]);
    if (value === null && !wanted) verdict = 'either';
    else if (Boolean(value) !== wanted) return 'no';
  }
  if (filters.tag !== undefined && !tagsOf(row).includes(filters.tag)) {
    if (!tagsOf(row).some((t) => t.toLowerCase() === filters.tag!.toLowerCase())) return 'no';
    verdict = 'either';
  }
  if (filters.type_id !== undefined) {
    const allowed = (Array.isArray(filters.type_id) ? filters.type_id : [filters.type_id]).map(String);
    if (idOf(row.type_id) === undefined || !allowed.includes(String(row.type_id))) return 'no';
  }
  return verdict;
}

/** A row as a filter failure shows it: its id, four flags, tags and type id. */
export function describeRow(row: Row): string {
  return `item ${asText(row.id)} (${Object.values(FILTER_FLAG_FIELDS)
    .map((f) => `${f}=${asText(row[f])}`)
    .join(', ')}, tags=${asJson(row.tags)}, type_id=${asText(row.type_id)})`;
}

/**
 * The word most titles share (three letters or more, in two titles or more, at most in half a page of
 * them), for a search that has several answers under any search semantics.
 */
export function commonTitleWord(rows: readonly Row[]): string | undefined {
  const counts = new Map<string, number>();
  for (const row of rows)
    if (typeof row.Title === 'string')
      for (const word of new Set(row.Title.toLowerCase().match(/\p{L}{3,}/gu) ?? [])) counts.set(word, (counts.get(word) ?? 0) + 1);
  const fitting = [...counts].filter(([, n]) => n >= 2 && n <= MAX_ROWS_PER_PAGE / 2);
  return fitting.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]?.[0];
}

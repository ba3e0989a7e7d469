/**
 * Readings of what the spec leaves open ("not shown"). Every conforming choice is accepted here,
 * in one place, so that checks stay strict only where the spec speaks.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Row = Record<string, unknown>;

const PREFERRED_ROW_KEYS = ['items', 'rows', 'data', 'results', 'artifacts', 'records'];

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The list of records in a response whose envelope key is not specified (§4 rule 5, §4 uses):
 * a bare array, or the one array-of-objects property other than `errors`.
 */
export function rowsOf(body: unknown, preferredKeys: readonly string[] = PREFERRED_ROW_KEYS): Row[] | undefined {
  if (Array.isArray(body)) return body.every(isObject) ? (body as Row[]) : undefined;
  if (!isObject(body)) return undefined;
  const candidates = Object.entries(body).filter(
    ([key, value]) => key !== 'errors' && Array.isArray(value) && value.every(isObject),
  );
  if (candidates.length === 1) return candidates[0]![1] as Row[];
  for (const key of preferredKeys) {
    const hit = candidates.find(([k]) => k === key);
    if (hit) return hit[1] as Row[];
  }
  const nonEmpty = candidates.filter(([, v]) => (v as unknown[]).length > 0);
  return nonEmpty.length === 1 ? (nonEmpty[0]![1] as Row[]) : undefined;
}

/** A flag may be served as 0/1, as a boolean, or as the strings "0"/"1". */
export function flag(value: unknown): boolean | undefined {
  if (value === 1 || value === true || value === '1' || value === 'true') return true;
  if (value === 0 || value === false || value === '0' || value === 'false') return false;
  return undefined;
}

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** A calendar date in ISO 8601 form, as a bare date or a date-time: where the spec does not show the format. */
export function isIsoDateOrDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  return match !== null && isIsoDate(match[1]) && (match[2] === undefined || !Number.isNaN(Date.parse(value)));
}

/** Item ids may be numbers or strings; compare them as strings. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value !== '') return value;
  return undefined;
}

/** The item a reference names: an id, or a nested item object carrying its id (`{ id, Title }`). */
export function itemRefOf(value: unknown): string | undefined {
  return idOf(value) ?? (isObject(value) ? idOf(value.id) : undefined);
}

const ITEM_FIELD_NAMES = ['artifact_id', 'item_id', 'artifact', 'item'];

/**
 * The field of a record that names its item where §2 does not show it (a use, a proposal outcome row,
 * an upcoming interaction): the one whose values all name items of `itemIds`. `id` is tried last, and
 * not at all when it is the record's own id (`ownId`, as for uses).
 */
export function itemFieldOf(rows: readonly Row[], itemIds: ReadonlySet<string>, options: { ownId?: boolean } = {}): string | undefined {
  if (rows.length === 0) return undefined;
  const seen = new Set<string>(ITEM_FIELD_NAMES);
  for (const row of rows) for (const key of Object.keys(row)) if (key !== 'id') seen.add(key);
  const keys = [...seen, ...(options.ownId ? [] : ['id'])];
  return keys.find((key) => rows.every((r) => itemIds.has(itemRefOf(r[key]) ?? '')));
}

/** The player ids a use names in `players` (§2). */
export function playerIdsOf(use: Row): (string | undefined)[] {
  return Array.isArray(use.players) ? use.players.map(idOf) : [];
}

/** The ids of a use's participants (§2), skipping entries that are not objects with an id. */
export function participantIdsOf(use: Row): string[] {
  return (Array.isArray(use.participants) ? use.participants : []).map((p) => (isObject(p) ? idOf(p.id) : undefined)).filter((id): id is string => id !== undefined);
}

/** The 400 body carries an errors list (§4 rule 4, §7); the shape of its entries is not shown. */
export function errorsList(body: unknown): unknown[] | undefined {
  return isObject(body) && Array.isArray(body.errors) ? body.errors : undefined;
}

const TIMESTAMP_NAME = /(^|_)(updated|modified|changed|touched)(_?(at|on|time|date))?$|^(updated|modified|last_modified|etag|version)$/i;

/** Fields an implementation may bump on any write: the record's own modification stamp. */
export function isModificationStamp(name: string): boolean {
  return TIMESTAMP_NAME.test(name);
}

/** Title orders an implementation may reasonably use for page paging (§4): none is specified. */
export const titleCollations: ReadonlyArray<{ name: string; compare: (a: string, b: string) => number }> = [
  { name: 'code-unit', compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0) },
  { name: 'case-insensitive', compare: (a, b) => codeUnit(a.toLowerCase(), b.toLowerCase()) },
  { name: 'locale (base)', compare: new Intl.Collator('en', { sensitivity: 'base' }).compare },
  { name: 'locale (variant)', compare: new Intl.Collator('en', { sensitivity: 'variant' }).compare },
  { name: 'root locale', compare: new Intl.Collator(undefined).compare },
];

function codeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

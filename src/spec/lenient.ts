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
  const candidates = Object.entries(body).filter(([key, value]) => key !== 'errors' && Array.isArray(value) && value.every(isObject));
  if (candidates.length === 1) return candidates[0]![1] as Row[];
  // Not a record itself (a record's empty lists, tags or players, hold no rows of a listing):
  if (!('id' in body)) {
    // every list empty: no rows, whichever list held them (an empty answer with a warnings list beside its rows);
    if (candidates.length > 1 && candidates.every(([, v]) => (v as unknown[]).length === 0)) return [];
    // no list at the top: one object, itself no record, holding a non-empty list of records a level down ({data: {items: […]}}).
    const nested = Object.values(body).filter(
      (v) => isObject(v) && !('id' in v) && Object.values(v).some((w) => Array.isArray(w) && w.length > 0 && w.every(isObject)),
    );
    if (candidates.length === 0 && nested.length === 1) return rowsOf(nested[0], preferredKeys);
  }
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

/**
 * An item's flag (is_kept and the independent flags, §2): read as flag(), and `null` as "not set". A
 * `true` filter must leave such an item out; a `false` filter may list it or not.
 */
export function itemFlag(value: unknown): boolean | null | undefined {
  return value === null ? null : flag(value);
}

/** Whether an item's flag is set; a flag served as null is not. */
export const isSet = (value: unknown): boolean => itemFlag(value) === true;

/** A value quoted as JSON in a failure message (strings in quotes), `absent` for a missing field, never `undefined`. */
export function asJson(value: unknown): string {
  if (value === undefined) return 'absent';
  return JSON.stringify(value) ?? String(value);
}

/** A short description of a JSON value's shape, for failures whose cause is an answer the suite could not read. */
export function shapeOf(value: unknown): string {
  if (value === undefined) return 'no JSON body';
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const kinds = [...new Set(value.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v)))];
    return value.length === 0 ? 'an empty list' : `a list of ${value.length} ${kinds.join('/')} entr${value.length === 1 ? 'y' : 'ies'}`;
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return 'an empty object';
    const shown = keys
      .slice(0, 8)
      .map((k) => `${k} (${kindOf(value[k])})`)
      .join(', ');
    return `an object with ${shown}${keys.length > 8 ? `, and ${keys.length - 8} more keys` : ''}`;
  }
  const text = JSON.stringify(value);
  return `the ${typeof value} ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `list of ${value.length}`;
  return isObject(value) ? 'object' : typeof value;
}

/** Fields that mark an object as an item record (§2): it has an id and at least one of the others. */
const RECORD_FIELDS = ['Title', 'is_kept', 'tags', 'type_id', 'type', 'is_physical', 'is_digital', 'is_in_secondary_collection'];
const looksLikeRecord = (value: unknown): value is Row => isObject(value) && idOf(value.id) !== undefined && RECORD_FIELDS.some((f) => f in value);

/**
 * The item record in a single-item read (§4 GET /artifact.php), found by its structure: the body itself,
 * or an object inside an envelope whose name the spec does not show (`{ "<name>": { ...record } }`,
 * also one level deeper, or a list holding just the record). With `id`, a record carrying that id
 * is preferred; otherwise the record must be the only one found at the shallowest depth.
 */
export function recordOf(body: unknown, id?: string): Row | undefined {
  if (looksLikeRecord(body) && (id === undefined || idOf(body.id) === id)) return body;
  const levels: Row[][] = [[], [], []];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 2) return;
    if (Array.isArray(value)) {
      if (value.length === 1) visit(value[0], depth);
      return;
    }
    if (!isObject(value)) return;
    if (depth > 0 && looksLikeRecord(value)) {
      levels[depth]!.push(value);
      return;
    }
    for (const child of Object.values(value)) visit(child, depth + 1);
  };
  visit(body, 0);
  if (looksLikeRecord(body)) levels[0]!.push(body);
  if (id !== undefined) {
    const match = levels.flat().find((r) => idOf(r.id) === id);
    if (match) return match;
  }
  const shallowest = levels.find((l) => l.length > 0);
  return shallowest?.length === 1 ? shallowest[0] : undefined;
}

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/**
 * A calendar date where the spec fixes no format: a bare ISO 8601 date, or a date-time with a `T` or a
 * space (SQL DATETIME, `2025-11-25 00:00:00`), with or without seconds, fractions and any time zone.
 */
export function isDateOrDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?: ?(?:Z|UTC|[+-]\d{2}(?::?\d{2})?))?)?$/i.exec(value);
  if (match === null || !isIsoDate(match[1])) return false;
  const [hours, minutes, seconds] = [match[2], match[3], match[4]].map((v) => (v === undefined ? 0 : Number(v)));
  return hours! < 24 && minutes! < 60 && seconds! < 61;
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

const DATE_NAME = /date|day|(^|_)on$|_at$|time|played|used|when/i;
const STAMP_NAME =
  /^(created|updated|modified|recorded|inserted|deleted|logged|added|entered|saved|imported|synced)(_?(at|on|time|date))?$|^(created|updated|modified|logged|added|entered|saved)[A-Z]|^date_?(added|created|modified|logged|entered)$/i;
/** Names that speak of the use itself (played_on, used_at, the plain date) before those of any other date. */
const PLAY_NAME = /play|used|^use_?(date|day|on|at)$|^(date|day|when)$/i;

/**
 * The field of a use that holds its date (not shown in §2): among the fields whose every value is a
 * date or a date-time, the first named like a date that is not a record stamp (created_at …).
 */
export function useDateFieldOf(uses: readonly Row[]): string | undefined {
  // A check may ask of the same answer's uses for every request it judges: answered once per list.
  if (dateFieldByUses.has(uses)) return dateFieldByUses.get(uses);
  const field = findUseDateField(uses);
  dateFieldByUses.set(uses, field);
  return field;
}

const dateFieldByUses = new WeakMap<readonly Row[], string | undefined>();

function findUseDateField(uses: readonly Row[]): string | undefined {
  const keys = [...new Set(uses.flatMap((u) => Object.keys(u)))];
  const dated = keys.filter((key) => uses.every((u) => isDateOrDateTime(u[key])));
  const plain = dated.filter((key) => !STAMP_NAME.test(key));
  return plain.find((key) => PLAY_NAME.test(key)) ?? plain.find((key) => DATE_NAME.test(key)) ?? (plain.length === 1 ? plain[0] : undefined);
}

/**
 * A count field of proposal outcome rows (names not shown, §2): the first field named like `name` whose values are all whole
 * numbers (or numeric text), a field named as a flag (is_…, has_…, include_…) only when no other is: a row may carry a flag
 * such as is_other beside its counts.
 */
export function countFieldOf(rows: readonly Row[], name: RegExp): string | undefined {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const whole = (k: string) => rows.every((r) => typeof r[k] !== 'boolean' && r[k] !== null && r[k] !== '' && Number.isInteger(Number(r[k])));
  const named = keys.filter((k) => name.test(k) && whole(k));
  return named.find((k) => !/^(is|has|include)_/i.test(k)) ?? named[0];
}

/** Names of fields that hold something other than an item's id, whatever numbers they hold: a type's, a user's, a count. */
const NOT_AN_ITEM =
  /(^|_)(type|user|player|owner|household|account)(_?id)?$|^(type|user|player|owner)Id$|count|plays|declin|else|other|year|^yr$|^(mnp|mxp|ss|mnt|mxt|wt|rank|position|version)$/i;

/**
 * The field of a record that names its item where §2 does not show it (a use, a proposal outcome row,
 * an upcoming interaction): the one whose values all name items of `itemIds`. Tried in turn: the usual names, other
 * names that speak of an item (game_id, thing), `id` (not at all when it is the record's own id, `ownId`, as for uses),
 * then any other field, never one named for another thing (type_id, user_id, plays), whose numbers may happen to be
 * item ids too.
 */
export function itemFieldOf(rows: readonly Row[], itemIds: ReadonlySet<string>, options: { ownId?: boolean } = {}): string | undefined {
  if (rows.length === 0) return undefined;
  const others = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) if (key !== 'id' && !ITEM_FIELD_NAMES.includes(key) && !NOT_AN_ITEM.test(key)) others.add(key);
  const itemLike = [...others].filter((key) => /artifact|item|game|thing|object/i.test(key));
  const keys = [...ITEM_FIELD_NAMES, ...itemLike, ...(options.ownId ? [] : ['id']), ...[...others].filter((key) => !itemLike.includes(key))];
  return keys.find((key) => rows.every((r) => itemIds.has(itemRefOf(r[key]) ?? '')));
}

/** The player ids a use names in `players` (§2). */
export function playerIdsOf(use: Row): (string | undefined)[] {
  return Array.isArray(use.players) ? use.players.map(idOf) : [];
}

/** The ids of a use's participants (§2), skipping entries that are not objects with an id. */
export function participantIdsOf(use: Row): string[] {
  return (Array.isArray(use.participants) ? use.participants : [])
    .map((p) => (isObject(p) ? idOf(p.id) : undefined))
    .filter((id): id is string => id !== undefined);
}

/**
 * The 400 body carries an errors list (§4 rule 4, §7); the shape of its entries is not shown, nor where
 * the list sits: at the top level, or in one nested object (`{ "error": { "errors": [...] } }`).
 */
export function errorsList(body: unknown): unknown[] | undefined {
  if (!isObject(body)) return undefined;
  if (Array.isArray(body.errors)) return body.errors;
  const nested = Object.values(body).filter((v) => isObject(v) && Array.isArray(v.errors)) as { errors: unknown[] }[];
  return nested.length === 1 ? nested[0]!.errors : undefined;
}

/**
 * A field of the list answer the spec names (has_more, next_cursor, §4 rule 2) but whose place it does
 * not show: at the top level, else in the one nested object that carries it (meta, paging …).
 */
export function envelopeField(body: unknown, name: string): unknown {
  if (!isObject(body)) return undefined;
  if (name in body) return body[name];
  const holders = Object.values(body).filter((v): v is Record<string, unknown> => isObject(v) && name in v);
  return holders.length === 1 ? holders[0]![name] : undefined;
}

/** Fields the spec names (§2, §4): a difference in one of these is always reported, whatever its name looks like. */
export const SPEC_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'Title',
  'type',
  'type_id',
  'is_kept',
  'is_physical',
  'is_digital',
  'is_in_secondary_collection',
  'tags',
  'MnP',
  'MxP',
  'SS',
  'MnT',
  'MxT',
  'Wt',
  'Yr',
  'Acq',
  'plays',
  'last_use',
]);

/** Words that make a field a record of when or how often the record changed, not of what it holds. */
const STAMP_WORDS = new Set([
  'updated',
  'update',
  'modified',
  'modification',
  'mod',
  'changed',
  'touched',
  'edited',
  'mtime',
  'lastmod',
  'version',
  'revision',
  'rev',
  'etag',
  'edit',
  'saved',
  'timestamp',
  'ts',
]);
/** Words that end a stamp of the kept flag (`kept_at`, `keptOn`, `kept_since`). */
const TIME_WORDS = new Set(['at', 'on', 'time', 'date', 'since', 'ts', 'timestamp']);

/** `updated_at`, `lastModified`, `Kept-At`, `VERSION` → their words in lower case. */
export function fieldWords(field: string): string[] {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * A modification stamp in any naming style (updated_at, lastModified, date_modified, kept_at,
 * version, etag …). The spec fixes none of them, and toggling the kept flag and putting it back
 * legitimately moves them, so two deployments holding the same data may differ there.
 */
export function isModificationStamp(field: string): boolean {
  if (SPEC_FIELDS.has(field)) return false;
  const words = fieldWords(field);
  if (words.some((w) => STAMP_WORDS.has(w))) return true;
  const kept = words.indexOf('kept');
  return kept >= 0 && words.slice(kept + 1).some((w) => TIME_WORDS.has(w));
}

/**
 * Two values alike where the spec orders nothing: lists of plain values (tags, player ids) compared as
 * multisets at any depth; lists of records keep their order (a listing's order is judged elsewhere).
 */
export function sameUnordered(a: unknown, b: unknown): boolean {
  return JSON.stringify(withSortedLists(a)) === JSON.stringify(withSortedLists(b));
}

/** The value with every list of plain values (tags, player ids) sorted: for comparisons where the spec orders nothing. */
export function withSortedLists(value: unknown): unknown {
  if (Array.isArray(value)) {
    const plain = value.every((v) => v === null || typeof v !== 'object');
    const inner = value.map(withSortedLists);
    return plain ? inner.sort((a, b) => codeUnit(JSON.stringify(a), JSON.stringify(b))) : inner;
  }
  return isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSortedLists(v)])) : value;
}

/** A date, alone or at midnight (`2020-01-05`, `2020-01-05 00:00:00`, `2020-01-05T00:00:00Z`): the date. */
const DATE_AT_MIDNIGHT = /^(\d{4}-\d{2}-\d{2})(?:[T ]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?$/;

/**
 * Whether one of the eight fields fields "collection" adds (MnP … Acq) holds a known value, as a record and a row of the
 * same item are compared (their types and units are not shown, §2): an unknown value is null, an empty text, absent, or
 * zero as a column without null stores it (0, "0.00", the zero date "0000-00-00"), which one answer may serve and the
 * other as null.
 */
export const knownFieldValue = (value: unknown): boolean =>
  value !== null && value !== undefined && value !== 0 && value !== false && !(typeof value === 'string' && /^[\s0.:T-]*$/.test(value));

/**
 * One value of a collection field (MnP … Acq) as comparable text, read loosely because §2 shows none of their types:
 * a number and its decimal text ("2.50") are one value, a date and that date at midnight are one value, and null, an
 * empty text and a missing field are one lack of a value (undefined), and lists are one value in any order (§2 orders none).
 */
export function looseFieldValue(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object') return sortedListsJson(value);
  const text = String(value).trim();
  if (text === '') return undefined;
  if (Number.isFinite(Number(text))) return String(Number(text));
  return DATE_AT_MIDNIGHT.exec(text)?.[1] ?? text;
}

/**
 * A field of a record the spec does not show (a use's date, its item, whatever else it carries) read loosely at any depth,
 * as two answers about the same record are compared: scalars as looseFieldValue (a boolean as 1 or 0), lists as multisets,
 * objects without null members, kept-state fields or modification stamps (the kept toggle legitimately moves them), and an
 * object beside a plain value as its id (an item named by id in one answer, nested in the other).
 */
export function sameLooseValue(a: unknown, b: unknown): boolean {
  if (isObject(a) !== isObject(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const [record, plain] = isObject(a) ? [a, b] : [b, a];
    return plain !== null && plain !== undefined && looseFieldValue(idOf((record as Row).id)) === looseFieldValue(plain);
  }
  return looseRecordValue(a) === looseRecordValue(b);
}

function looseRecordValue(value: unknown): string | undefined {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value))
    return `[${value
      .map((v) => looseRecordValue(v) ?? 'null')
      .sort(codeUnit)
      .join(',')}]`;
  if (isObject(value)) {
    const fields = Object.entries(value)
      .filter(([k]) => !isKeptStateField(k) && !isModificationStamp(k))
      .map(([k, v]) => [k, looseRecordValue(v)] as const)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
      .sort(codeUnit);
    return `{${fields.join(',')}}`;
  }
  return looseFieldValue(value);
}

/**
 * `JSON.stringify(withSortedLists(value))`, written directly: the checks that compare whole answers (frames, scoping)
 * build it for hundreds of rows, and the intermediate copies cost their thread tens of milliseconds.
 */
export function sortedListsJson(value: unknown): string {
  if (Array.isArray(value)) {
    const parts = value.map(sortedListsJson);
    if (value.every((v) => v === null || typeof v !== 'object')) parts.sort(codeUnit);
    return `[${parts.join(',')}]`;
  }
  if (isObject(value)) {
    const fields: string[] = [];
    for (const [k, v] of Object.entries(value)) if (v !== undefined) fields.push(`${JSON.stringify(k)}:${sortedListsJson(v)}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Fields of the kept state itself, however a record spells them (is_kept, kept_at, isKept, keptAt): the toggle changes them. */
export const isKeptStateField = (name: string): boolean => /(^|_)kept($|_)/i.test(name) || /(^|[a-z])Kept([A-Z]|$)|^kept[A-Z]/.test(name);

/**
 * Like `sortedListsJson`, with lists of records sorted too: what a store holds, whatever order an answer lists it in (the
 * order of uses, types and players is not shown, §2, nor that of proposal rows of equal counts).
 */
export function unorderedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(unorderedJson).sort(codeUnit).join(',')}]`;
  if (isObject(value)) {
    const fields: string[] = [];
    for (const [k, v] of Object.entries(value)) if (v !== undefined) fields.push(`${JSON.stringify(k)}:${unorderedJson(v)}`);
    return `{${fields.sort(codeUnit).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The same value written with every object's keys sorted, so that the same record compares equal however it is served. */
export function sortedKeysJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedKeysJson).join(',')}]`;
  if (isObject(value)) {
    const fields: string[] = [];
    for (const k of Object.keys(value).sort()) if (value[k] !== undefined) fields.push(`${JSON.stringify(k)}:${sortedKeysJson(value[k])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Natural order: runs of digits compared as numbers ("Game 2" before "Game 10"). */
const natural = (sensitivity: Intl.CollatorOptions['sensitivity']) => new Intl.Collator('en', { numeric: true, sensitivity }).compare;
/** Spaces and punctuation ignored ("Ark Nova" beside "Arknova"). */
const ignoringPunctuation = (numeric: boolean) => new Intl.Collator('en', { ignorePunctuation: true, numeric, sensitivity: 'base' }).compare;
const lettersAndDigits = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

const baseLocale = new Intl.Collator('en', { sensitivity: 'base' }).compare;

/**
 * Title orders an implementation may reasonably use for page paging (§4 says only that cursor paging
 * pages by id instead of by title): none is specified, so any usual collation is accepted.
 */
export const titleCollations: ReadonlyArray<{ name: string; compare: (a: string, b: string) => number }> = [
  { name: 'code-unit', compare: (a, b) => codeUnit(a, b) },
  { name: 'case-insensitive', compare: (a, b) => codeUnit(a.toLowerCase(), b.toLowerCase()) },
  { name: 'locale (base)', compare: baseLocale },
  { name: 'locale (variant)', compare: new Intl.Collator('en', { sensitivity: 'variant' }).compare },
  { name: 'root locale', compare: new Intl.Collator(undefined).compare },
  { name: 'natural (base)', compare: natural('base') },
  { name: 'natural (variant)', compare: natural('variant') },
  { name: 'ignoring spaces and punctuation', compare: ignoringPunctuation(false) },
  { name: 'ignoring spaces and punctuation, natural', compare: ignoringPunctuation(true) },
  { name: 'letters and digits only, case-insensitive', compare: (a, b) => codeUnit(lettersAndDigits(a), lettersAndDigits(b)) },
  // Case folded to capitals (ORDER BY UPPER(Title), MySQL's general_ci): apart from lower-casing where [ \ ] ^ _ ` fall.
  { name: 'case-insensitive, upper-cased', compare: (a, b) => codeUnit(a.toUpperCase(), b.toUpperCase()) },
  // Filed without a leading article ("The Castles of Burgundy" under C), as collection catalogues file titles.
  { name: 'ignoring a leading article', compare: (a, b) => baseLocale(withoutArticle(a), withoutArticle(b)) },
  // Or without a leading "The" alone (a media library's sort title), "A" and "An" kept.
  { name: 'ignoring a leading "The"', compare: (a, b) => baseLocale(a.replace(/^the\s+/i, ''), b.replace(/^the\s+/i, '')) },
];

function withoutArticle(title: string): string {
  return title.replace(/^(the|a|an)\s+/i, '');
}

function codeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const TYPE_ID_NAMES = ['id', 'type_id', 'typeId', 'type', 'code', 'key'];

/**
 * The ids /types.php lists: a type record's fields are not shown beyond its id being usable as type_id
 * (§2), so the id is read from `id`, else from the first field (type_id, typeId, code …, then any other)
 * every type holds with distinct values that covers `used`, the type ids of the collection's items.
 */
export function typeIdsOf(types: readonly Row[], used: readonly string[] = []): Set<string> | undefined {
  const key = typeIdKeyOf(types, used);
  return key === undefined ? undefined : new Set(types.map((t) => idOf(t[key])) as string[]);
}

/** The field of the type records that holds their ids, as typeIdsOf finds it. */
export function typeIdKeyOf(types: readonly Row[], used: readonly string[] = []): string | undefined {
  const keys = [...new Set(types.flatMap((t) => Object.keys(t)))];
  const ordered = [...TYPE_ID_NAMES.filter((k) => k === 'id' || keys.includes(k)), ...keys.filter((k) => !TYPE_ID_NAMES.includes(k))];
  const idsUnder = (key: string) => types.map((t) => idOf(t[key]));
  const usable = ordered.filter((key) => {
    const values = idsUnder(key);
    return values.every((v) => v !== undefined) && new Set(values).size === values.length;
  });
  return usable.find((k) => used.every((id) => idsUnder(k).includes(id))) ?? usable[0];
}

/** The distinct type ids the rows carry (none on staging rows, which have no type_id). */
export function typeIdsCarried(rows: readonly Row[]): string[] {
  return [...new Set(rows.map((r) => idOf(r.type_id)).filter((id): id is string => id !== undefined))];
}

/** Whether the collection's type ids are numeric (numbers or digit strings): then a non-numeric string is no valid type_id. */
export function typeIdsAreNumeric(rows: readonly Row[]): boolean {
  const typeIds = rows.map((r) => r.type_id).filter((v) => v !== null && v !== undefined);
  return typeIds.length > 0 && typeIds.every((v) => typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v)));
}

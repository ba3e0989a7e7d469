import type { Api } from '../http/api.ts';
import type { Exchange } from '../http/exchange.ts';
import type { KeyRef } from '../safety/journal.ts';
import { isModificationStamp, isObject, recordOf, rowsOf, SPEC_FIELDS, unorderedJson, type Row } from '../spec/lenient.ts';
import { MAX_ROWS_PER_PAGE } from '../spec/limits.ts';
import type { Discovery } from './discovery.ts';
import { cursorWindow } from './paging.ts';
import { profiles, type ProfileName } from '../spec/profiles.ts';

/** Strings that identify the user's data: a response without a valid key must contain none of them. */
export function fingerprints(rows: readonly Row[]): string[] {
  return rows
    .map((r) => r.Title)
    .filter((t): t is string => typeof t === 'string' && t.trim().length >= 6)
    .slice(0, 50);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether a record found in an answer only repeats the request body: every field of it was sent. */
function echoes(record: Record<string, unknown>, requestBody: string | undefined): boolean {
  let sent: unknown;
  try {
    sent = requestBody === undefined ? undefined : JSON.parse(requestBody);
  } catch {
    return false;
  }
  return isObject(sent) && Object.entries(record).every(([k, v]) => JSON.stringify(sent[k]) === JSON.stringify(v));
}

/** Fields §2 names for the records of a user's data: an item's (SPEC_FIELDS), a use's, a player's, a proposal row's, a user's. */
const RECORD_FIELDS: ReadonlySet<string> = new Set([
  ...SPEC_FIELDS,
  'players',
  'participants',
  'FirstName',
  'LastName',
  'birth_year',
  'represents_user_id',
  'artifact_id',
  'item_name',
  'user_id',
  'username',
  'email',
]);

/** Describes the user data found in a response, or undefined when it carries none. */
export function userDataIn(exchange: Exchange, known: readonly string[]): string | undefined {
  const text = exchange.response.text;
  // What the request itself carried is an echo, not a leak: a title the client sent is no user data.
  const sent = `${safeDecode(exchange.request.url)} ${exchange.request.body ?? ''}`;
  const hit = known.find((title) => !sent.includes(title) && (text.includes(title) || text.includes(JSON.stringify(title).slice(1, -1))));
  if (hit !== undefined) return `the body contains the title "${hit}"`;
  // Records of the user's data carry a field the spec names for one (an error's details, invalid_params or links do not).
  const rows = (rowsOf(exchange.response.json) ?? []).filter((r) => Object.keys(r).some((k) => RECORD_FIELDS.has(k)));
  if (rows.length > 0) return `the body carries ${rows.length} record(s)`;
  const body = exchange.response.json;
  const record = isObject(body) && ('Title' in body || 'is_kept' in body) ? body : recordOf(body);
  if (record !== undefined && !echoes(record, exchange.request.body)) return 'the body carries an item record';
  return undefined;
}

/** The body with the request's own path masked: catch-all pages often quote the path asked for. */
function maskedBody(exchange: Exchange): string {
  const path = new URL(exchange.request.url).pathname;
  return exchange.response.text.split(path).join('{path}');
}

/** Two answers alike but for the path each quotes: the same status and body. */
export function sameAnswer(a: Exchange, b: Exchange): boolean {
  return a.response.status === b.response.status && maskedBody(a) === maskedBody(b);
}

/**
 * Whether an answer shows the path is no endpoint of the target: 404 or 410, or a 2xx page that holds
 * no records and none of the user's data (a catch-all page), or the very answer a path no API serves
 * gets (`baseline`, the path masked).
 */
export function answersAsAbsent(exchange: Exchange, known: readonly string[], baseline?: Exchange): boolean {
  const { status } = exchange.response;
  if (status === 404 || status === 410) return true;
  if (baseline && sameAnswer(exchange, baseline)) return true;
  return status >= 200 && status < 300 && userDataIn(exchange, known) === undefined;
}

/**
 * What a snapshot reads: everything the agent can see, or the collection only (its rows, kept flags included),
 * for probes that can reach nothing else: a list request refused with 400.
 */
export type SnapshotScope = 'everything' | 'collection';

/** Cursor pages a snapshot reads: the whole collection up to 1,000 items, else its first 1,000 by id. */
const SNAPSHOT_PAGES = 5;
/** Items of a larger collection whose uses a snapshot reads. */
const SNAPSHOT_USE_ITEMS = 3;

/**
 * A fresh read of what the agent can see, for before/after comparisons around probes. A collection of
 * up to 1,000 items is read whole, with every use and proposal outcome. A larger one is read in bounded
 * windows, so that the comparison costs the same at any size: its first 1,000 items by id, the uses of
 * the first few of them, and what a wrongly accepted probe would have made (uses of `probe.id`, items
 * titled `probe.title`). Types and players are read whole.
 */
export async function stateSnapshot(
  api: Api,
  user: KeyRef,
  profile: ProfileName,
  probe: { id?: string | number; title?: string } = {},
  scope: SnapshotScope = 'everything',
): Promise<string> {
  const window = await cursorWindow(api, { per_page: MAX_ROWS_PER_PAGE }, { user, maxPages: SNAPSHOT_PAGES });
  const rows = window.pages.flatMap((p) => p.rows);
  if (scope === 'collection') return unorderedJson([rows.map(stripStamps)]);
  const reads = [api.types(user)];
  if (profiles[profile].has('players')) reads.push(api.players(user));
  if (window.complete) reads.push(api.uses({}, user), api.proposals({ include_other: 1 }, user));
  else {
    const sample = rows.slice(0, SNAPSHOT_USE_ITEMS).map((r) => r.id as string | number);
    reads.push(...[...sample, ...(probe.id !== undefined ? [probe.id] : [])].map((id) => api.uses({ artifact_id: id }, user)));
    if (probe.title !== undefined) reads.push(api.list({ query: probe.title, per_page: MAX_ROWS_PER_PAGE }, user));
  }
  const others = await Promise.all(reads);
  // The rows of each read, not its envelope: an envelope may carry a volatile field (a time it was served).
  // No list has a stated order (of rows, tags, players): each is sorted, so that only a change of content differs.
  return unorderedJson([rows.map(stripStamps), ...others.map(stateOf)]);
}

/**
 * The snapshot stateSnapshot takes of the first user, made of the run's shared reads (the collection
 * walk, uses, proposal outcomes, types, players) when they cover what it reads, else read afresh. For
 * a check's "before", taken while no check writes (a check that reads starts before any toggle): the
 * shared reads then hold exactly what a fresh snapshot would read.
 */
export async function sharedStateSnapshot(
  api: Api,
  discover: Discovery,
  profile: ProfileName,
  probe: { id?: string | number; title?: string } = {},
  scope: SnapshotScope = 'everything',
): Promise<string> {
  const walked = await discover.collection().catch(() => undefined);
  if (!walked || walked.pages.length > SNAPSHOT_PAGES) return stateSnapshot(api, 'primary', profile, probe, scope);
  if (scope === 'collection') return unorderedJson([walked.rows.map(stripStamps)]);
  const reads = [discover.shared('GET /types.php')];
  if (profiles[profile].has('players')) reads.push(discover.shared('GET /players.php'));
  reads.push(
    discover.uses().then((u) => u.exchange),
    discover.shared('GET /proposals.php?include_other=1'),
  );
  const others = await Promise.all(reads).catch(() => undefined);
  if (!others) return stateSnapshot(api, 'primary', profile, probe);
  return unorderedJson([walked.rows.map(stripStamps), ...others.map(stateOf)]);
}

/**
 * What one read of a snapshot shows of the state: its status and its rows (or its body, where it holds none). A refusal's
 * body is no state: an error may carry a request id or a time that differs on every read.
 */
function stateOf(e: Exchange): unknown[] {
  const { status, json } = e.response;
  return [status, status >= 400 ? null : (rowsOf(json) ?? json)];
}

function stripStamps(row: Row): Row {
  return Object.fromEntries(Object.entries(row).filter(([name]) => !isModificationStamp(name)));
}

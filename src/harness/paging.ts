import { ensure, okRows } from './expect.ts';
import type { Api } from '../http/api.ts';
import type { Exchange } from '../http/exchange.ts';
import type { KeyRef } from '../safety/journal.ts';
import { asJson, envelopeField, flag, isObject, shapeOf, type Row } from '../spec/lenient.ts';

export interface Page {
  rows: Row[];
  hasMore: boolean | undefined;
  nextCursor: unknown;
  exchange: Exchange;
}

/** One page of POST /artifacts.php, with has_more and next_cursor read leniently (§4 rule 2): top level or nested. */
export async function fetchPage(api: Api, body: Record<string, unknown>, user: KeyRef = 'primary'): Promise<Page> {
  return pageOf(await api.list(body, user), body);
}

/** The page an answer of POST /artifacts.php with `body` holds (fetchPage for an answer already read). */
export function pageOf(exchange: Exchange, body: Record<string, unknown>): Page {
  const rows = okRows('C4.4', exchange, `POST /artifacts.php ${JSON.stringify(body)}`);
  const envelope = exchange.response.json;
  ensure(
    'C4.4',
    isObject(envelope),
    `POST /artifacts.php ${JSON.stringify(body)}: looked for an object carrying has_more beside the rows; found ${shapeOf(envelope)}`,
    exchange,
  );
  return { rows, hasMore: flag(envelopeField(envelope, 'has_more')), nextCursor: envelopeField(envelope, 'next_cursor'), exchange };
}

export const noCursor = (cursor: unknown): boolean => cursor === null || cursor === undefined || cursor === '';

/**
 * What keeps a cursor walk from going on after `page` (§4 rule 2), or undefined when it may go on or has
 * ended: the one reading of has_more and next_cursor that the checks and conform diff share.
 */
export function cursorStepProblem(page: Page): string | undefined {
  if (page.hasMore === undefined) return `has_more must be a boolean (or 0/1); it is ${asJson(envelopeField(page.exchange.response.json, 'has_more'))}`;
  if (!page.hasMore) return undefined;
  if (noCursor(page.nextCursor)) return 'has_more is true but there is no next_cursor';
  if (page.rows.length === 0) return 'an empty page claims has_more';
  return undefined;
}

/** Ids in ascending order: numerically when both are numbers, else by code units. */
export function compareIds(a: string, b: string): number {
  const numeric = /^\d+$/.test(a) && /^\d+$/.test(b);
  return numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0;
}

/** Cursor paging is by id (§4); whether ascending or descending is not shown. */
export type IdDirection = 'ascending' | 'descending';

/** The direction of a cursor walk, read from its first and last ids. */
export function directionOf(ids: readonly string[]): IdDirection {
  return ids.length > 1 && compareIds(ids[0]!, ids.at(-1)!) > 0 ? 'descending' : 'ascending';
}

/** Compares ids in the order a walk in `direction` returns them. */
export function inWalkOrder(direction: IdDirection): (a: string, b: string) => number {
  return direction === 'ascending' ? compareIds : (a, b) => compareIds(b, a);
}

/** The first pages of a cursor walk, and whether they are all of them. */
export interface CursorWindow {
  pages: Page[];
  complete: boolean;
}

/**
 * Walks a listing by cursor from the start, for at most `maxPages` pages, or until `enough` says the
 * pages so far suffice. Each step checks what makes the next one possible (has_more, next_cursor).
 * `first`: the answer to the first page (`body` with cursor null), when it has been read already.
 */
export async function cursorWindow(
  api: Api,
  body: Record<string, unknown>,
  { user = 'primary', maxPages, enough, first }: { user?: KeyRef; maxPages: number; enough?: (page: Page) => boolean; first?: Exchange },
): Promise<CursorWindow> {
  const pages: Page[] = [];
  let cursor: unknown = null;
  for (let i = 0; i < maxPages; i++) {
    const page = i === 0 && first ? pageOf(first, { ...body, cursor }) : await fetchPage(api, { ...body, cursor }, user);
    pages.push(page);
    const problem = cursorStepProblem(page);
    ensure('C4.4', problem === undefined, `cursor paging: ${problem}`, page.exchange);
    if (!page.hasMore) return { pages, complete: true };
    if (enough?.(page)) break;
    cursor = page.nextCursor;
  }
  return { pages, complete: false };
}

/** Walks every page of a listing by cursor; stops at `maxPages` with an error rather than looping. */
export async function cursorWalk(
  api: Api,
  body: Record<string, unknown>,
  { user = 'primary', maxPages = 500, first }: { user?: KeyRef; maxPages?: number; first?: Exchange } = {},
): Promise<Page[]> {
  const { pages, complete } = await cursorWindow(api, body, { user, maxPages, ...(first ? { first } : {}) });
  if (!complete) throw new Error(`cursor walk did not end within ${maxPages} pages`);
  return pages;
}

/**
 * The rows of a cursor window that an oracle can be held to: all of them when the walk is complete,
 * else those up to the last id seen in the walk's order (cursor pages come in id order, §4; `direction`
 * is the whole walk's), so that "every matching item up to there was returned" is a claim about the
 * window alone.
 */
export function windowBound(window: CursorWindow, idOf: (row: Row) => string | undefined, direction: IdDirection = 'ascending'): (id: string) => boolean {
  if (window.complete) return () => true;
  const order = inWalkOrder(direction);
  const ids = window.pages.flatMap((p) => p.rows.map(idOf)).filter((id): id is string => id !== undefined);
  const furthest = ids.reduce<string | undefined>((max, id) => (max === undefined || order(id, max) > 0 ? id : max), undefined);
  return (id) => furthest !== undefined && order(id, furthest) <= 0;
}

/**
 * Walks every page of a listing by page number. `expected`: the pages the listing should have (known from
 * a walk of the same listing), read together instead of one after another; pages read past the first
 * that says it is the last are dropped, and a listing longer than expected is walked on one at a time.
 */
export async function pageWalk(api: Api, body: Record<string, unknown>, maxPages = 500, expected = 1): Promise<Page[]> {
  const pages: Page[] = [];
  const together = Math.max(1, Math.min(expected, maxPages));
  const first = Array.from({ length: together }, (_, i) => fetchPage(api, { ...body, page: i + 1 }));
  // A page past the last one may fail on its own; it matters only if the walk gets to it.
  for (const read of first) read.catch(() => {});
  for (let page = 1; page <= maxPages; page++) {
    const current = await (first[page - 1] ?? fetchPage(api, { ...body, page }));
    pages.push(current);
    ensure(
      'C4.4',
      current.hasMore !== undefined,
      `page paging: has_more must be a boolean (or 0/1); it is ${asJson(envelopeField(current.exchange.response.json, 'has_more'))}`,
      current.exchange,
    );
    if (!current.hasMore) return pages;
  }
  throw new Error(`page walk did not end within ${maxPages} pages`);
}

/**
 * Page numbers to read of a page-numbered listing of `total` pages: all of them up to `whole`, else
 * runs of `run` consecutive pages at the start, at a seeded place in the middle, and at the end.
 */
export function pageRuns(total: number, seed: number, { whole = 25, run = 3 }: { whole?: number; run?: number } = {}): number[][] {
  const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
  if (total <= whole) return [range(1, total)];
  const middleFrom = run + 1 + (Math.abs(seed) % (total - 3 * run));
  return [range(1, run), range(middleFrom, run), range(total - run + 1, run)];
}

const PAGE_SIZE_NAMES = ['per_page', 'perPage', 'page_size', 'pageSize', 'limit'];

/**
 * The page size a list answer states, if it states one: the envelope is not shown (§4 rule 5), so
 * the usual names are looked for at the top level and in a nested object named for paging (meta, pagination …);
 * not in others, such as an echo of the request or a rate limit's (§8: rate limits are not shown).
 */
export function statedPageSize(envelope: unknown): { name: string; value: number } | undefined {
  if (!isObject(envelope)) return undefined;
  const places = [envelope, ...Object.entries(envelope).flatMap(([key, value]) => (isObject(value) && /pag|meta/i.test(key) ? [value] : []))];
  for (const place of places) {
    for (const name of PAGE_SIZE_NAMES) {
      const value = place[name];
      if ((typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) && Number.isFinite(Number(value)))
        return { name, value: Number(value) };
    }
  }
  return undefined;
}

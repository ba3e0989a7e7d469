import { ensure, okRows } from './expect.ts';
import type { Api } from './http/api.ts';
import type { Exchange } from './http/exchange.ts';
import type { KeyRef } from './journal.ts';
import { flag, isObject, type Row } from './lenient.ts';

export interface Page {
  rows: Row[];
  hasMore: boolean | undefined;
  nextCursor: unknown;
  exchange: Exchange;
}

/** One page of POST /artifacts.php, with has_more and next_cursor read leniently (§4 rule 2). */
export async function fetchPage(api: Api, body: Record<string, unknown>, user: KeyRef = 'primary'): Promise<Page> {
  const exchange = await api.list(body, user);
  const rows = okRows(exchange, `POST /artifacts.php ${JSON.stringify(body)}`);
  const envelope = exchange.response.json;
  ensure(isObject(envelope), `POST /artifacts.php ${JSON.stringify(body)}: the body must be an object carrying has_more`, exchange);
  return { rows, hasMore: flag(envelope.has_more), nextCursor: envelope.next_cursor, exchange };
}

export const noCursor = (cursor: unknown): boolean => cursor === null || cursor === undefined || cursor === '';

/** Walks every page of a listing by cursor; stops at `maxPages` with an error rather than looping. */
export async function cursorWalk(api: Api, body: Record<string, unknown>, { user = 'primary', maxPages = 500 }: { user?: KeyRef; maxPages?: number } = {}): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: unknown = null;
  for (let i = 0; i < maxPages; i++) {
    const page = await fetchPage(api, { ...body, cursor }, user);
    pages.push(page);
    ensure(page.hasMore !== undefined, 'cursor paging: has_more must be a boolean (or 0/1)', page.exchange);
    if (!page.hasMore) return pages;
    ensure(!noCursor(page.nextCursor), 'cursor paging: has_more is true but there is no next_cursor', page.exchange);
    ensure(page.rows.length > 0, 'cursor paging: an empty page claims has_more', page.exchange);
    cursor = page.nextCursor;
  }
  throw new Error(`cursor walk did not end within ${maxPages} pages`);
}

/** Walks every page of a listing by page number. */
export async function pageWalk(api: Api, body: Record<string, unknown>, maxPages = 500): Promise<Page[]> {
  const pages: Page[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const current = await fetchPage(api, { ...body, page });
    pages.push(current);
    ensure(current.hasMore !== undefined, 'page paging: has_more must be a boolean (or 0/1)', current.exchange);
    if (!current.hasMore) return pages;
  }
  throw new Error(`page walk did not end within ${maxPages} pages`);
}

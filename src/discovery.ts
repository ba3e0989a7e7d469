import { okObject } from './expect.ts';
import { cursorWalk } from './paging.ts';
import type { Api } from './http/api.ts';
import type { KeyRef } from './journal.ts';
import { flag, idOf, type Row } from './lenient.ts';

export const PAGE_MAX = 200;
/** A cursor walk stops after this many pages (50,000 rows at 200 a page). */
const MAX_WALK_PAGES = 250;

export interface Collection {
  rows: Row[];
  ids: string[];
  requests: number;
}

/**
 * Finds what a check needs in whatever the target holds. Full reads are done once per worker and
 * reused; they are invalidated by `invalidate()` after writes that were not restored.
 */
export class Discovery {
  private readonly walks = new Map<KeyRef, Promise<Collection>>();

  constructor(
    private readonly api: Api,
  ) {}

  /** Every row of a user's collection, read once by a cursor walk (§4 rule 2). */
  collection(user: KeyRef = 'primary'): Promise<Collection> {
    let walk = this.walks.get(user);
    if (!walk) {
      walk = this.walk(user);
      walk.catch(() => this.walks.delete(user));
      this.walks.set(user, walk);
    }
    return walk;
  }

  /** An uncached cursor walk, for before/after comparisons around writes. */
  async freshRows(user: KeyRef = 'primary'): Promise<Row[]> {
    return (await this.walk(user)).rows;
  }

  invalidate(): void {
    this.walks.clear();
  }

  async anyItem(user: KeyRef = 'primary'): Promise<Row | undefined> {
    return (await this.collection(user)).rows[0];
  }

  /** Full single-item record (§4 GET /artifact.php). */
  async record(id: string, user: KeyRef = 'primary'): Promise<Record<string, unknown>> {
    return okObject(await this.api.item(id, user), `GET /artifact.php?id=${id}`);
  }

  /** Up to `count` items whose kept flag equals `kept`, by single reads when rows lack the flag. */
  async itemsWithKept(kept: boolean, count = 1, user: KeyRef = 'primary'): Promise<Row[]> {
    const { rows } = await this.collection(user);
    const found: Row[] = [];
    for (const row of rows) {
      let value = flag(row.is_kept);
      if (value === undefined) value = flag((await this.record(String(row.id), user)).is_kept);
      if (value === kept) found.push(row);
      if (found.length >= count) break;
    }
    return found;
  }

  /** Item rows that carry at least one tag. */
  async itemsWithTags(user: KeyRef = 'primary'): Promise<Row[]> {
    const { rows } = await this.collection(user);
    return rows.filter((row) => Array.isArray(row.tags) && row.tags.length > 0);
  }

  /** An id no item of the user has: used where a wrongly accepted request must do no harm. */
  async unusedId(user: KeyRef = 'primary'): Promise<string | number> {
    const { ids } = await this.collection(user);
    const numeric = ids.map(Number).filter(Number.isSafeInteger);
    if (numeric.length === ids.length) return Math.max(0, ...numeric) + 987_654_321;
    return `conform-absent-${Date.now().toString(36)}`;
  }

  private async walk(user: KeyRef): Promise<Collection> {
    const pages = await cursorWalk(this.api, { per_page: PAGE_MAX }, { user, maxPages: MAX_WALK_PAGES });
    const rows = pages.flatMap((p) => p.rows);
    return { rows, ids: rows.map((r) => idOf(r.id)).filter((id): id is string => id !== undefined), requests: pages.length };
  }
}

import { asRunShared, currentCheck, inForeground, keptKey } from '../http/check-scope.ts';
import { fail, is2xx, okJson, okRows } from './expect.ts';
import { cursorWalk, cursorWindow, directionOf, type CursorWindow, type IdDirection, type Page } from './paging.ts';
import { listRequest, rawListRequest, type Api } from '../http/api.ts';
import { requestKey, type Exchange } from '../http/exchange.ts';
import type { KeyRef } from '../safety/journal.ts';
import { idOf, isSet, itemFieldOf, itemFlag, itemRefOf, recordOf, shapeOf, useDateFieldOf, type Row } from '../spec/lenient.ts';
import { MAX_ROWS_PER_PAGE } from '../spec/limits.ts';
import type { ToggleLane } from './meta.ts';
import { WALK_BODY, type PreflightAnswers, type PreflightRead, type WalkStart } from './target.ts';
import { dataFreeUnnamedReads, unnamedPathKey } from './unnamed-paths.ts';
import { MALFORMED_LIST_BODIES, OVERSIZED_PAGE_BODIES, WRONG_KIND_FILTER_BODIES } from './data-free-probes.ts';
import { dataFreeCredentialRequests } from './credentials.ts';
import { naturalOrder } from '../core/natural-order.ts';

/**
 * Below this many items the collection sets no items apart: the main lane keeps them all, and the
 * check of the set-apart lane runs in the main lane on the first items like the others.
 */
const SET_APART_FROM = 20;
/** How many items are set apart for the set-apart lane (KEPT-006's model works on three). */
const SET_APART_COUNT = 3;
/**
 * Below this many items per check that toggles its own items, the collection is not dealt out: those
 * checks join the main lane and each sees every item, as the others do.
 */
const OWN_SHARE_FROM = 10;

/**
 * The one full read of a collection a run makes per user: a cursor walk of at most this many pages
 * (150,000 rows at 200 a page; two such walks and the rest of a run fit the default budget of 2,500
 * requests). Every other read of the list is a bounded window.
 */
const MAX_WALK_PAGES = 750;

export interface Collection {
  rows: Row[];
  ids: string[];
  /** The walk's pages, in order: the last one ended it. */
  pages: Page[];
  /** The walk's id order (cursor paging is by id, §4; its direction is not shown). */
  direction: IdDirection;
}

const sharedReads = {
  // The kept toggle, the only write, cannot change these.
  'GET /api-docs?format=json': (api: Api) => api.catalog(),
  'GET /players.php': (api: Api) => api.players(),
  'GET /players.php (second user)': (api: Api) => api.players('other'),
  'GET /types.php': (api: Api) => api.types(),
  'GET /types.php (second user)': (api: Api) => api.types('other'),
  // These follow the kept flags (§4).
  'GET /proposals.php': (api: Api) => api.proposals({}),
  'GET /proposals.php?include_other=1': (api: Api) => api.proposals({ include_other: 1 }),
  'GET /proposals.php?include_other=1 (second user)': (api: Api) => api.proposals({ include_other: 1 }, 'other'),
  'GET /proposals.php?sort=explicit_declines': (api: Api) => api.proposals({ sort: 'explicit_declines' }),
  'GET /proposals.php?sort=item_name&direction=desc (second user)': (api: Api) => api.proposals({ sort: 'item_name', direction: 'desc' }, 'other'),
  'GET /upcoming-interactions.php': (api: Api) => api.upcoming(),
  // The suite toggles no item of the second user, so this one follows no toggle of the run.
  'GET /upcoming-interactions.php (second user)': (api: Api) => api.upcoming('other'),
} as const;
export type SharedRead = keyof typeof sharedReads;

/** List bodies a full run of the primary profile reads as shared answers whatever the data (paging probes, fields, include). */
const DATA_FREE_LIST_BODIES: readonly (Record<string, unknown> | undefined)[] = [
  undefined,
  {},
  { cursor: null },
  { per_page: 1 },
  { per_page: 5, cursor: null },
  { per_page: 200 },
  ...OVERSIZED_PAGE_BODIES,
  { per_page: 500 },
  { per_page: 500, cursor: null },
  { per_page: 200, fields: 'collection' },
  { per_page: 200, include: ['uses_summary'] },
  { per_page: 200, fields: 'collection', include: ['uses_summary'] },
];

const listKey = (body: Record<string, unknown> | undefined): string => (body === undefined ? 'GET' : JSON.stringify(body));

/**
 * The run's shared reads whose requests depend on nothing the target holds, by their key here: a full run of the
 * primary profile makes every one of them, so the CLI may send them while the checks load (src/runner/open-target.ts)
 * and hand the answers over; `user` reads need the second user's key. The unnamed paths probed depend on the base URL.
 */
export const prefetchedReads = (baseUrl: string): readonly { key: string; user: KeyRef; send: (api: Api) => Promise<Exchange> }[] => [
  ...(
    [
      'GET /players.php',
      'GET /proposals.php',
      'GET /proposals.php?include_other=1',
      'GET /proposals.php?sort=explicit_declines',
      'GET /upcoming-interactions.php',
    ] as const
  ).map((read) => ({ key: `shared ${read}`, user: 'primary' as const, send: sharedReads[read] })),
  ...(['GET /players.php (second user)', 'GET /proposals.php?include_other=1 (second user)'] as const).map((read) => ({
    key: `shared ${read}`,
    user: 'other' as const,
    send: sharedReads[read],
  })),
  { key: 'uses primary', user: 'primary', send: (api) => api.uses({}) },
  { key: 'uses other', user: 'other', send: (api) => api.uses({}, 'other') },
  ...DATA_FREE_LIST_BODIES.map((body) => ({ key: `list ${listKey(body)}`, user: 'primary' as const, send: (api: Api) => api.list(body) })),
  ...dataFreeUnnamedReads(baseUrl).map(({ path, query }) => ({
    key: `unnamed ${unnamedPathKey(path, query)}`,
    user: 'primary' as const,
    send: (api: Api) => api.probe('GET', path, { query }),
  })),
  // Not shared reads: requests checks send themselves, whose answers the client hands to the first check that sends the same.
  ...[
    ...MALFORMED_LIST_BODIES.map((raw) => rawListRequest(raw)),
    ...WRONG_KIND_FILTER_BODIES.map((body) => listRequest(body)),
    ...dataFreeCredentialRequests('primary'),
  ].map((spec) => ({
    key: `${CHECK_REQUEST} ${requestKey(spec)}`,
    user: 'primary' as const,
    send: (api: Api) => api.client.send(spec),
  })),
];

/** The prefix of a prefetched answer to a request a check sends itself (ApiClient.adoptAnswer), not a shared read. */
export const CHECK_REQUEST = 'request';

/** Whether a prefetched read's key is that of a request a check sends itself (CHECK_REQUEST), not a shared read. */
export const isCheckRequest = (key: string): boolean => key.startsWith(`${CHECK_REQUEST} `);

/** The requestKey inside such a key. */
export const checkRequestKey = (key: string): string => key.slice(CHECK_REQUEST.length + 1);

export interface Uses {
  rows: Row[];
  exchange: Exchange;
}

/**
 * Finds what a check needs in whatever the target holds. Full reads are done once per worker and
 * reused by every oracle; they are invalidated by `invalidate()` after writes that were not restored.
 */
export class Discovery {
  private readonly walks = new Map<KeyRef, Promise<Collection>>();
  private readonly usesReads = new Map<KeyRef, Promise<Uses>>();
  private readonly sharedReads = new Map<SharedRead, Promise<Exchange>>();
  private readonly itemUses = new Map<string, Promise<Exchange>>();
  private readonly listReads = new Map<string, Promise<Exchange>>();
  private readonly windows = new Map<string, Promise<CursorWindow>>();
  private readonly absentPaths = new Map<string, Promise<Exchange>>();
  /** The first page of each user's walk as the pre-flight read it: the first walk starts from it. */
  private readonly walkStarts = new Map<KeyRef, Exchange>();
  private shares = new Map<string, number>();
  /** How many shares the collection is dealt into (toggleRows). */
  private dealtInto = 0;
  /** Every check of the suite that declares the own-items lane, selected or not, in declaration order. */
  private ownItemChecks: readonly string[] = [];
  /** Per check, the run's shared reads it used, whoever sent them: a budget prices each read once (sharedReadsOf). */
  private readonly used = new Map<string, Set<string>>();
  /** Pages each user's collection walk took, once one ended. */
  private readonly pagesOfWalk = new Map<KeyRef, number>();
  /** Requests each shared read took (a walk: its pages). */
  private readonly readCosts = new Map<string, number>();

  /**
   * @param users whose shared reads start together, when the first check needs a collection
   * @param eager whether the first need of a collection starts every user's walk and uses at once; a lean
   *   (budgeted) run starts each only when a check needs it, so that it pays for no read its checks leave unused
   */
  constructor(
    private readonly api: Api,
    private readonly users: readonly KeyRef[] = ['primary'],
    private readonly eager = true,
    preflight: PreflightAnswers = {},
  ) {
    // The pre-flight's answers cost the checks nothing: a budget prices them at no request.
    for (const [read, exchange] of Object.entries(preflight) as [PreflightRead | WalkStart, Exchange][]) {
      if (read === 'collection walk, first page') this.walkStarts.set('primary', exchange);
      else if (read === 'collection walk (second user), first page') this.walkStarts.set('other', exchange);
      else {
        this.sharedReads.set(read, Promise.resolve(exchange));
        this.readCosts.set(read, 0);
      }
    }
  }

  /** Shared reads the CLI sent while the checks loaded, by the key noteUse knows them by: each charged to its first taker. */
  private readonly prefetchCharges = new Map<string, number>();

  /** Until it settles, the reads that a prefetched answer may hold wait for it (awaitPrefetched). */
  private prefetchArrival: Promise<void> | undefined;

  /**
   * The CLI's prefetched answers arrive after the checks start (src/harness/prefetch-channel.ts): the checks do their
   * own work meanwhile, and each read that one of the answers may hold waits until they are taken in.
   */
  awaitPrefetched(arrival: Promise<void>): void {
    this.prefetchArrival = arrival.finally(() => {
      this.prefetchArrival = undefined;
    });
  }

  private afterPrefetch<T>(read: () => Promise<T>): Promise<T> {
    return this.prefetchArrival ? this.prefetchArrival.then(read) : read();
  }

  /** A shared read the CLI sent while the checks loaded (prefetchedReads), by its key there. */
  takePrefetched(key: string, exchange: Exchange): void {
    const [kind, ...rest] = key.split(' ');
    const name = rest.join(' ');
    if (kind === 'shared' && name in sharedReads) {
      this.sharedReads.set(name as SharedRead, Promise.resolve(exchange));
      this.prefetchCharges.set(name, exchange.seq);
    } else if (kind === 'uses' && (name === 'primary' || name === 'other')) {
      const read = name === 'primary' ? 'GET /uses.php' : 'GET /uses.php (second user)';
      const rows = is2xx(exchange) ? tryRows(exchange) : undefined;
      // A refused or unreadable answer is left to the check that needs it, which reads and judges it itself.
      if (!rows) return;
      this.usesReads.set(name, Promise.resolve({ rows, exchange }));
      this.prefetchCharges.set(read, exchange.seq);
    } else if (kind === 'unnamed') {
      this.absentPaths.set(name, Promise.resolve(exchange));
      this.prefetchCharges.set(name, exchange.seq);
    } else if (kind === 'list') {
      this.listReads.set(name, Promise.resolve(exchange));
      this.prefetchCharges.set(name === 'GET' ? 'GET /artifacts.php' : `POST /artifacts.php ${name}`, exchange.seq);
    }
  }

  /**
   * Every row of a user's collection, read once by a cursor walk (§4 rule 2). The first call also
   * starts the other shared reads (each user's walk and uses) in the background: a run that reads one
   * collection nearly always needs them all, and this way they overlap the checks that come first.
   */
  collection(user: KeyRef = 'primary'): Promise<Collection> {
    if (this.walks.size === 0 && this.eager) {
      for (const other of this.users) {
        if (other !== user) void this.collectionOnly(other).catch(() => undefined);
        void this.uses(other).catch(() => undefined);
      }
    }
    return this.collectionOnly(user);
  }

  private collectionOnly(user: KeyRef): Promise<Collection> {
    const key = user === 'primary' ? 'collection walk' : 'collection walk (second user)';
    this.noteUse(key);
    return sharedRead(this.walks, user, async () => {
      const first = this.walkStarts.get(user);
      // Only the first walk starts from the pre-flight's page: one after a kept write reads it afresh.
      this.walkStarts.delete(user);
      const walked = await asRunShared(() => this.walk(user, first));
      this.readCosts.set(key, walked.pages.length - (first ? 1 : 0));
      this.pagesOfWalk.set(user, walked.pages.length);
      return walked;
    });
  }

  private noteUse(key: string): void {
    const scope = currentCheck();
    const id = scope?.id;
    if (id === undefined) return;
    // A read the CLI sent for the run counts among the requests of the first check that takes it, as if it had sent it.
    const seq = this.prefetchCharges.get(key);
    if (seq !== undefined) {
      this.prefetchCharges.delete(key);
      scope!.seqs.push(seq);
      scope!.sharedSeqs.push(seq);
      this.readCosts.set(key, 1);
    }
    const keys = this.used.get(id) ?? new Set<string>();
    keys.add(key);
    this.used.set(id, keys);
  }

  /** The run's shared reads the check used (whoever sent them), each with the requests it took. */
  sharedReadsOf(checkId: string): Record<string, number> {
    return Object.fromEntries([...(this.used.get(checkId) ?? [])].sort().map((key) => [key, this.readCosts.get(key) ?? 1]));
  }

  /**
   * Every use of the user, read once (GET /uses.php has no paging, §4): the kept toggle, the only
   * write, cannot change it.
   */
  uses(user: KeyRef = 'primary'): Promise<Uses> {
    return this.afterPrefetch(() => {
      this.noteUse(user === 'primary' ? 'GET /uses.php' : 'GET /uses.php (second user)');
      return sharedRead(this.usesReads, user, async () => {
        const exchange = await asRunShared(() => this.api.uses({}, user));
        return { rows: okRows('C4.15', exchange, user === 'primary' ? 'GET /uses.php' : 'GET /uses.php (second user)'), exchange };
      });
    });
  }

  /**
   * The item of the latest use (ties by least id), where the uses name their item and carry a date in fields told apart
   * (neither is shown, §2): where a date cut-off (today, a time zone) shows first. Several checks read its uses, once.
   */
  async newestUsedItem(): Promise<string | undefined> {
    const [uses, { ids }] = await Promise.all([this.uses(), this.collection()]);
    const field = itemFieldOf(uses.rows, new Set(ids), { ownId: true });
    const date = useDateFieldOf(uses.rows);
    if (field === undefined || date === undefined) return undefined;
    let newest: { id: string; day: string } | undefined;
    for (const use of uses.rows) {
      const id = itemRefOf(use[field]);
      const day = String(use[date]).slice(0, 10);
      if (id === undefined) continue;
      if (newest === undefined || day > newest.day || (day === newest.day && naturalOrder(id, newest.id) < 0)) newest = { id, day };
    }
    return newest?.id;
  }

  /** The item whose uses a check reads as a sample of one: the item of the latest use, else the collection's first item. */
  async usesSampleItem(): Promise<string | undefined> {
    return (await this.newestUsedItem()) ?? idOf((await this.anyItem())?.id);
  }

  /**
   * One item's uses (GET /uses.php?artifact_id=…), read once per run whatever check asks: the kept
   * toggle cannot change them.
   */
  usesOf(artifactId: string | number): Promise<Exchange> {
    this.noteUse(`GET /uses.php?artifact_id=${artifactId}`);
    return sharedRead(this.itemUses, String(artifactId), () => asRunShared(() => this.api.uses({ artifact_id: artifactId })));
  }

  /**
   * One answer of an endpoint without paging, read once per run and shared by the checks that use it
   * as an oracle or a baseline. Those that follow the kept flags rely, like the collection walk, on
   * every check putting back what it toggled before the next one starts; checks that toggle read afresh.
   */
  shared(read: SharedRead): Promise<Exchange> {
    return this.afterPrefetch(() => {
      this.noteUse(read);
      return sharedRead(this.sharedReads, read, () => asRunShared(() => sharedReads[read](this.api)));
    });
  }

  /**
   * The items set apart for the toggling check of the set-apart lane (schedule.ts): the first titled
   * rows of the walk, the items KEPT-006's model has always worked on, so that it judges as it did
   * when it ran alone; the other toggling checks leave them out. None when the collection is small.
   */
  async setApart(): Promise<Row[]> {
    const { rows } = await this.collection();
    if (rows.length < SET_APART_FROM) return [];
    return rows.filter((r) => typeof r.Title === 'string').slice(0, SET_APART_COUNT);
  }

  /**
   * The rows of the primary collection that a toggling check may toggle or watch: all but those set
   * apart; for a check of the own-items lane, only its share (every n-th of them, dealt in turn).
   */
  async toggleRows(): Promise<Row[]> {
    const rows = await this.mainRows();
    const share = this.shares.get(currentCheck()?.id ?? '');
    return share === undefined ? rows : rows.filter((_, i) => i % this.dealtInto === share);
  }

  private async mainRows(): Promise<Row[]> {
    const [{ rows }, apart] = await Promise.all([this.collection(), this.setApart()]);
    const excluded = new Set(apart.map((r) => idOf(r.id)));
    return rows.filter((r) => !excluded.has(idOf(r.id)));
  }

  /**
   * Every check the suite declares in the own-items lane, whether the run selected it or not (before
   * dealShares): a lean run is told them, so that its shares are those of the budget table's run.
   */
  declareOwnItemChecks(checkIds: readonly string[]): void {
    this.ownItemChecks = checkIds;
  }

  /**
   * The checks of the own-items lane, in declaration order: each gets a share of the collection (toggleRows).
   * Once told the checks the suite declares in the lane (a lean run), the shares are dealt as if every one
   * of them ran, so that a check toggles and watches the same items whichever others the budget chose: it
   * judges as the budget table measured it, in a lean run of every check. Otherwise the checks the run
   * selected share the collection among themselves (each more items: --only, the self-test's kills).
   */
  dealShares(checkIds: readonly string[]): void {
    const declared = checkIds.every((id) => this.ownItemChecks.includes(id)) ? this.ownItemChecks : checkIds;
    this.dealtInto = declared.length;
    this.shares = new Map(checkIds.map((id) => [id, declared.indexOf(id)]));
  }

  /**
   * Whether a lane's items are there: the set-apart items, a second user (whose items no main-lane check
   * touches), or enough items to deal each check of the own-items lane a share.
   */
  async laneAvailable(lane: ToggleLane, sharers = 1): Promise<boolean> {
    if (lane === 'second-user') return this.users.includes('other');
    if (lane === 'own-items') return (await this.mainRows()).length >= OWN_SHARE_FROM * Math.max(sharers, this.ownItemChecks.length);
    return (await this.setApart()).length > 0;
  }

  /**
   * One answer of POST /artifacts.php with `body` (a GET with no body when undefined), shared by the
   * checks that ask for the same page. Its rows carry kept flags, so no shared answer outlives a kept
   * write: a check that toggles reads afresh, and the answers are dropped before it writes (`settled`).
   * A toggling check that reads nothing of the kept state in the answer (`usesKeptState: false`: which item
   * has the fullest record, an item's plays) takes the shared answer when there is one (no kept write can
   * change what it reads), but starts none: an answer it started could meet another lane's write.
   */
  list(body?: Record<string, unknown>, { usesKeptState = true }: { usesKeptState?: boolean } = {}): Promise<Exchange> {
    return this.afterPrefetch(() => {
      const key = body === undefined ? 'GET' : JSON.stringify(body);
      const toggles = currentCheck()?.toggles === true;
      if (toggles && (usesKeptState || !this.listReads.has(key))) return this.api.list(body);
      this.noteUse(body === undefined ? 'GET /artifacts.php' : `POST /artifacts.php ${key}`);
      return sharedRead(this.listReads, key, () => asRunShared(() => this.api.list(body)));
    });
  }

  /**
   * The first rows of a filtered listing by id (a cursor window of at most `pages` pages of `body`),
   * shared by the checks that read the same window, like `list`: no shared window outlives a kept write.
   */
  window(body: Record<string, unknown>, pages: number): Promise<CursorWindow> {
    if (currentCheck()?.toggles) return cursorWindow(this.api, body, { maxPages: pages });
    const key = `${JSON.stringify(body)} (${pages} pages)`;
    this.noteUse(`cursor window ${key}`);
    return sharedRead(this.windows, key, () =>
      asRunShared(async () => {
        const read = await cursorWindow(this.api, body, { maxPages: pages });
        this.readCosts.set(`cursor window ${key}`, read.pages.length);
        return read;
      }),
    );
  }

  /**
   * GET /types.php, GET /upcoming-interactions.php or GET /players.php with a user id (and all_users=1) in the query, read once per run
   * for the checks that ask (SCOPE-002, SCOPE-007); like `list`, no such answer outlives a kept write.
   */
  withUserId(read: 'GET /types.php' | 'GET /upcoming-interactions.php' | 'GET /players.php', userId: string | number): Promise<Exchange> {
    // Beside it all_users=1, the flag an admin listing of the same service might honour: neither is a parameter of these
    // reads (§4), so a conforming server ignores or refuses both; one that honours either lists another user's rows.
    const query = { user_id: userId, all_users: 1 };
    const send = () =>
      read === 'GET /types.php'
        ? this.api.types('primary', query)
        : read === 'GET /players.php'
          ? this.api.players('primary', query)
          : this.api.upcoming('primary', query);
    if (currentCheck()?.toggles) return send();
    const key = `${read}?user_id=${userId}`;
    this.noteUse(key);
    return sharedRead(this.listReads, key, () => asRunShared(send));
  }

  /**
   * One GET of a path the spec does not name (the user enumeration probes, a path no API serves), shared
   * by the checks that probe it: no kept write can change what such a path answers.
   */
  unnamedPath(path: string, query: Record<string, string | number>): Promise<Exchange> {
    return this.afterPrefetch(() => {
      const key = unnamedPathKey(path, query);
      this.noteUse(key);
      return sharedRead(this.absentPaths, key, () => asRunShared(() => this.api.probe('GET', path, { query })));
    });
  }

  /** A fresh read of the first rows by id (at most `pages` cursor pages), for before/after comparisons. */
  freshWindow(pages: number, user: KeyRef = 'primary'): Promise<CursorWindow> {
    return cursorWindow(this.api, { per_page: MAX_ROWS_PER_PAGE }, { user, maxPages: pages });
  }

  invalidate(): void {
    this.walks.clear();
    this.listReads.clear();
    this.windows.clear();
  }

  /**
   * Settles when every shared read started so far has its answer (or failed): a check waits for the
   * reads it started in the background, so that they count among its requests and none is in flight
   * when a check that toggles starts. A check that toggles calls it before each write (its `quiet`):
   * then the shared list answers are dropped.
   */
  async settled(): Promise<void> {
    await this.prefetchArrival;
    const reads = [this.walks, this.usesReads, this.sharedReads, this.itemUses, this.listReads, this.windows, this.absentPaths].flatMap((map) => [
      ...map.values(),
    ]);
    await Promise.allSettled(reads);
    if (currentCheck()?.toggles) {
      this.listReads.clear();
      this.windows.clear();
    }
  }

  async anyItem(user: KeyRef = 'primary'): Promise<Row | undefined> {
    return (await this.collection(user)).rows[0];
  }

  /**
   * One answer of GET /artifact.php for an item, shared by the checks that read it; like `list`, no shared answer
   * outlives a kept write (its record carries the kept flag): a check that toggles reads afresh.
   */
  item(id: string, user: KeyRef = 'primary'): Promise<Exchange> {
    const scope = currentCheck();
    if (scope?.toggles) return this.api.item(id, user);
    const key = `GET /artifact.php?id=${id}${user === 'other' ? ' (second user)' : ''}`;
    this.noteUse(key);
    return sharedRead(this.listReads, key, () => asRunShared(() => this.api.item(id, user))).then((exchange) => {
      scope?.taken.push(exchange.seq);
      return exchange;
    });
  }

  /** Full single-item record (§4 GET /artifact.php), bare or inside an envelope. */
  async record(id: string, user: KeyRef = 'primary'): Promise<Record<string, unknown>> {
    return this.recordIn(await this.item(id, user), id, user);
  }

  /** The item record of an answer of GET /artifact.php for `id` (as `record` reads it), for a check that judged the answer first. */
  recordIn(exchange: Exchange, id: string, user: KeyRef = 'primary'): Record<string, unknown> {
    const what = `GET /artifact.php?id=${id}`;
    const body = okJson('C4.14', exchange, what);
    const record =
      recordOf(body, id) ??
      fail(
        'C4.14',
        `${what}: looked for the item record (an object with id and item fields, the body itself or inside an envelope); found ${shapeOf(body)}`,
        exchange,
      );
    const kept = itemFlag(record.is_kept);
    if (kept !== undefined) currentCheck()?.seenKept.set(keptKey(user, id), { value: kept ? 1 : 0, servedId: record.id });
    return record;
  }

  /** Up to `count` items whose kept flag equals `kept`, by single reads when rows lack the flag. */
  async itemsWithKept(kept: boolean, count = 1, user: KeyRef = 'primary'): Promise<Row[]> {
    const { rows } = await this.collection(user);
    const found: Row[] = [];
    for (const row of rows) {
      let value = itemFlag(row.is_kept);
      if (value === undefined) value = itemFlag((await this.record(String(row.id), user)).is_kept);
      if (isSet(value) === kept) found.push(row);
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
    if (numeric.length === ids.length) return numeric.reduce((max, id) => Math.max(max, id), 0) + 987_654_321;
    // String ids: one shaped like the served ones (their prefix, other digits), so that it reads as an id no item has.
    const taken = new Set(ids);
    const shaped = /^(.*?)(\d+)$/.exec(ids.find((id) => /\d$/.test(id)) ?? '');
    for (let n = 987_654_321; shaped && n < 987_654_331; n++) {
      const candidate = `${shaped[1]}${n}`;
      if (!taken.has(candidate)) return candidate;
    }
    return `conform-absent-${Date.now().toString(36)}`;
  }

  /** Pages the user's collection walk took, when the run walked it. */
  walkPages(user: KeyRef): number | undefined {
    return this.pagesOfWalk.get(user);
  }

  /**
   * Every item's kept flag (a flag served as null reads as 0) from a walk of the user's collection made now,
   * not shared: the run's state after its kept writes. Items whose rows carry no kept flag are left out.
   */
  async keptNow(user: KeyRef): Promise<Map<string, 0 | 1>> {
    const values = new Map<string, 0 | 1>();
    for (const row of (await this.walk(user)).rows) {
      const id = idOf(row.id);
      const kept = itemFlag(row.is_kept);
      if (id !== undefined && kept !== undefined) values.set(id, kept ? 1 : 0);
    }
    return values;
  }

  private async walk(user: KeyRef, first?: Exchange): Promise<Collection> {
    const pages = await cursorWalk(this.api, WALK_BODY, { user, maxPages: MAX_WALK_PAGES, ...(first ? { first } : {}) });
    const rows = pages.flatMap((p) => p.rows);
    const ids = rows.map((r) => idOf(r.id)).filter((id): id is string => id !== undefined);
    return { rows, ids, pages, direction: directionOf(ids) };
  }
}

/**
 * A read of the run, made once and shared by every check. It is sent in the foreground whoever starts
 * it: checks that others wait for may need it too.
 */
function sharedRead<K, T>(reads: Map<K, Promise<T>>, key: K, read: () => Promise<T>): Promise<T> {
  return cached(reads, key, () => inForeground(read));
}

/**
 * A read that answers the same argument once, for a check that does not toggle: the runs of a property
 * that draw one value twice send its request(s) once, and the answer is the one the first run judged.
 */
export function readOnce<A, T>(read: (arg: A) => Promise<T>, key: (arg: A) => string = (arg) => JSON.stringify(arg)): (arg: A) => Promise<T> {
  const reads = new Map<string, Promise<T>>();
  return (arg) => cached(reads, key(arg), () => read(arg));
}

/** A read made once; a failed one is forgotten so that the next caller tries again. */
function cached<K, T>(reads: Map<K, Promise<T>>, key: K, read: () => Promise<T>): Promise<T> {
  let pending = reads.get(key);
  if (!pending) {
    pending = read();
    pending.catch(() => reads.delete(key));
    reads.set(key, pending);
  }
  return pending;
}

function tryRows(exchange: Exchange): Row[] | undefined {
  try {
    return okRows('C4.15', exchange, 'GET /uses.php');
  } catch {
    return undefined;
  }
}

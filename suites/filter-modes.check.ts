import {
  asJson,
  differingCollectionValue,
  differingItemState,
  is2xx,
  rowsOf,
  check,
  commonTitleWord,
  cursorWindow,
  describe,
  describeRow,
  ensure,
  fetchPage,
  idOf,
  inWalkOrder,
  labelSet,
  MAX_ROWS_PER_PAGE,
  missingField,
  profiles,
  satisfies,
  summariesAgreeWithUses,
  tagsOf,
  windowBound,
  type CheckContext,
  type Filters,
  type Page,
  type Row,
  type Verdict,
  titleCollations,
} from '../src/harness/index.ts';

/**
 * Filters read in each way of asking for rows: several filters together, on an explicit page 1 (beside fields and
 * include), on page 2, on the page after a cursor, beside a search, beside a tag, and with the second user's key. Each
 * request is designed from rows the run already knows so that every filter in it is needed: for each filter some item
 * satisfies all the others but not that one, so a server that drops any one filter in that mode returns a row the
 * request excludes. The designs of one mode together hold each filter value (kept, physical, digital,
 * secondary_collection true and false, one type id, a list of type ids) wherever the data allows.
 */

type FilterKey = keyof Filters;

/** How a designed request is read, and what its rows must be. */
type Mode = 'page one' | 'page two' | 'cursor' | 'search' | 'second key' | 'tag';

/** Requests designed per mode (a cursor design and a search design read two pages by cursor). */
const DESIGNS_PER_MODE: Readonly<Record<Mode, number>> = { 'page one': 2, 'page two': 3, cursor: 2, search: 2, 'second key': 2, tag: 3 };

/** The modes read by cursor over two pages, the first holding half of the rows that must come back (a search's second design). */
const byCursor = (mode: Mode): boolean => mode === 'cursor' || mode === 'search';

const FLAG_KEYS = ['kept', 'physical', 'digital', 'secondary_collection'] as const;

/** The values a design may give the type filter: one of the three types most items have, or the more common half of the types. */
function typeValues(rows: readonly Row[]): (string | number | (string | number)[])[] {
  const counts = new Map<string, { id: string | number; count: number }>();
  for (const row of rows) {
    const id = row.type_id;
    if ((typeof id !== 'number' && typeof id !== 'string') || idOf(id) === undefined) continue;
    const seen = counts.get(String(id)) ?? { id, count: 0 };
    counts.set(String(id), { id: seen.id, count: seen.count + 1 });
  }
  const ordered = [...counts.values()].sort((a, b) => b.count - a.count || (String(a.id) < String(b.id) ? -1 : 1)).map((c) => c.id);
  if (ordered.length < 2) return [];
  return [...ordered.slice(0, 3), ordered.slice(0, Math.ceil(ordered.length / 2))];
}

/** The name of a filter value a mode's designs should hold: a flag and its value, "type one" or "type list". */
const valueNames = (filters: Filters): string[] =>
  Object.entries(filters).map(([key, value]) =>
    key === 'type_id' ? (Array.isArray(value) ? 'type list' : 'type one') : key === 'tag' ? `tag ${value}` : `${key} ${value}`,
  );

/** The tags a design may use: the three most used, and the most used one holding a character other than a letter or digit. */
function tagValues(rows: readonly Row[]): string[] {
  const counts = new Map<string, number>();
  for (const row of rows) for (const tag of new Set(tagsOf(row))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const ordered = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([tag]) => tag);
  const marked = ordered.find((tag) => /[^\p{L}\p{N}]/u.test(tag));
  return [...new Set([...ordered.slice(0, 3), ...(marked === undefined ? [] : [marked])])];
}

/** Every combination of at most one value per filter. */
function combinations(rows: readonly Row[]): Filters[] {
  const [types, tags] = [typeValues(rows), tagValues(rows)];
  let all: Filters[] = [{}];
  for (const key of FLAG_KEYS) all = all.flatMap((f) => [f, { ...f, [key]: true }, { ...f, [key]: false }]);
  all = all.flatMap((f) => [f, ...types.map((type_id) => ({ ...f, type_id }))]);
  return all.flatMap((f) => [f, ...tags.map((tag) => ({ ...f, tag }))]);
}

/** The rows a request must return ('yes'), and those it may ('either'). */
const matching = (pool: readonly Row[], filters: Filters) => ({
  yes: pool.filter((r) => satisfies(r, filters) === 'yes'),
  either: pool.filter((r) => satisfies(r, filters) === 'either'),
});

/**
 * Each row's verdict under each single filter value (a combination's verdict is theirs together: no where one is no,
 * either where one is either), and each row's place in the walk's id order: what `fits` reads, computed once a pool, so
 * that weighing thousands of combinations costs the run no time worth a round trip.
 */
function verdictTable(pool: readonly Row[], direction: 'ascending' | 'descending') {
  const order = inWalkOrder(direction);
  const byId = pool.map((r, i) => ({ id: idOf(r.id) ?? '', i })).sort((x, y) => order(x.id, y.id));
  const rank = new Array<number>(pool.length);
  for (const [place, { i }] of byId.entries()) rank[i] = place;
  // Per filter, its values' columns (a list of type ids by the list itself: the combinations share one per value).
  const columns = new Map<FilterKey, Map<unknown, Verdict[]>>();
  const column = (key: FilterKey, value: unknown): Verdict[] => {
    const ofKey = columns.get(key) ?? columns.set(key, new Map()).get(key)!;
    let verdicts = ofKey.get(value);
    if (verdicts === undefined) {
      verdicts = pool.map((r) => satisfies(r, { [key]: value }));
      ofKey.set(value, verdicts);
    }
    return verdicts;
  };
  return { size: pool.length, rank, column };
}

/**
 * Whether every filter of the combination is needed where the mode shows rows (some row satisfies every other filter
 * and fails that one; after the first page for a read that pages on by cursor, whose first page holds the first half of
 * the matching rows in id order), and the mode can read it.
 */
function fits(table: ReturnType<typeof verdictTable>, filters: Filters, mode: Mode): boolean {
  const entries = Object.entries(filters) as [FilterKey, unknown][];
  if (entries.length === 0) return false;
  const columns = entries.map(([key, value]) => table.column(key, value));
  const yesRanks: number[] = [];
  let either = 0;
  // Per filter, the furthest place of a row only it leaves out (-1: none).
  const furthest = entries.map(() => -1);
  for (let i = 0; i < table.size; i++) {
    let failed = -1;
    let failures = 0;
    let unset = false;
    // An index loop: this runs for every row of every combination weighed (some million times a run).
    for (let j = 0; j < columns.length; j++) {
      const verdict = columns[j]![i];
      if (verdict === 'no') {
        failures++;
        failed = j;
      } else if (verdict === 'either') unset = true;
    }
    if (failures === 0) {
      if (unset) either++;
      else yesRanks.push(table.rank[i]!);
    } else if (failures === 1 && !unset) furthest[failed] = Math.max(furthest[failed]!, table.rank[i]!);
  }
  if (yesRanks.length + either > MAX_ROWS_PER_PAGE) return false;
  if (mode === 'page two' && yesRanks.length < 3) return false;
  if (byCursor(mode) && yesRanks.length < 2) return false;
  const firstPageEnd = mode === 'cursor' ? yesRanks.sort((x, y) => x - y)[Math.ceil(yesRanks.length / 2) - 1]! : -1;
  return furthest.every((place) => place > firstPageEnd);
}

/** The pairs of filter values a combination holds together (each needed in it, so each is seen beside the other). */
const pairNames = (filters: Filters): string[] => {
  const names = valueNames(filters).sort();
  return names.flatMap((a, i) => names.slice(i + 1).map((b) => `${a} | ${b}`));
};

/**
 * A mode's designs: each in turn the fitting combination that holds the most filter values the mode's earlier designs
 * did not (a tag counting half: the flags and types come first), then the most pairs of values no design of the check
 * held together yet (`pairs`, added to), then the most filters.
 */
function plan(pool: readonly Row[], mode: Mode, direction: 'ascending' | 'descending', pairs: Set<string>): Filters[] {
  // A tag's designs always carry a tag: they hold the other filters beside one.
  const table = verdictTable(pool, direction);
  const candidates = combinations(pool).filter((f) => (mode !== 'tag' || f.tag !== undefined) && fits(table, f, mode));
  const held = new Set<string>();
  const designs: Filters[] = [];
  const score = (f: Filters): number[] => [
    valueNames(f)
      .filter((n) => !held.has(n) && (mode !== 'tag' || !n.startsWith('tag ')))
      .reduce((sum, n) => sum + (n.startsWith('tag ') ? 1 : 2), 0),
    pairNames(f).filter((n) => !pairs.has(n)).length,
    Object.keys(f).length,
  ];
  const better = (x: number[], y: number[]) => x[0]! > y[0]! || (x[0] === y[0] && (x[1]! > y[1]! || (x[1] === y[1] && x[2]! > y[2]!)));
  for (let i = 0; i < DESIGNS_PER_MODE[mode]; i++) {
    let best: { filters: Filters; score: number[] } | undefined;
    for (const f of candidates) {
      const s = score(f);
      if (s[0] === 0) continue;
      if (best === undefined || better(s, best.score)) best = { filters: f, score: s };
    }
    if (best === undefined) break;
    designs.push(best.filters);
    for (const n of valueNames(best.filters)) held.add(n);
    for (const n of pairNames(best.filters)) pairs.add(n);
  }
  return designs;
}

const WHY =
  "(§4 table: each filter keeps only the items that satisfy it, whatever else the body asks for; fields and include only add columns, query only chooses among the items; the second key reads its own user's items)";

/** One designed request: its filters, how it is read, and what the run knows of the user whose key sends it. */
interface Design {
  mode: Mode;
  filters: Filters;
  /** The rows it is designed from (a search's: the search's own answer). */
  pool: readonly Row[];
  direction: 'ascending' | 'descending';
  /** Every item id of the user's collection. */
  ids: readonly string[];
  /** The user's collection walk by item id: each item's title and labels. */
  walk: ReadonlyMap<string, Row>;
  /** A page 1 one row short of the items that satisfy every filter (one design of page one, where two items do). */
  short?: boolean;
  /** A search's first design: one page of 200 in page mode (its second reads two cursor pages). */
  paged?: boolean;
}

/**
 * What every row of a designed page carries (§4 rule 3, and what fields and include add), and, beside include, each
 * row's plays and last_use those of the item's recorded uses (§2): a row shape or a summary lost in one way of asking shows.
 */
async function judgeRows(t: CheckContext, design: Design, body: Record<string, unknown>, page: Page, label: string): Promise<void> {
  const lacking = page.rows.find((r) => missingField(r, body) !== undefined);
  ensure(
    'C4.10',
    lacking === undefined,
    `${label}: row ${asJson(lacking?.id)} lacks ${lacking ? missingField(lacking, body) : ''} (§4 rule 3: every row carries id, Title, type, type_id, the four flags and tags; fields and include add theirs to each row)`,
    page.exchange,
  );
  // One item, one title and one set of labels (§2): a way of asking only chooses the rows. Labels compare as sets.
  const labels = (tags: unknown) => (Array.isArray(tags) ? labelSet(tags) : asJson(tags));
  const walked = (r: Row) => design.walk.get(idOf(r.id) ?? '');
  const changed = page.rows.find((r) => {
    const w = walked(r);
    return w !== undefined && (r.Title !== w.Title || labels(r.tags) !== labels(w.tags));
  });
  ensure(
    'C2.1',
    changed === undefined,
    `${label}: row ${asJson(changed?.id)} shows Title ${asJson(changed?.Title)} and tags ${asJson(changed?.tags)}, but the collection walk shows ${changed ? `${asJson(walked(changed)?.Title)} and ${asJson(walked(changed)?.tags)}` : ''} for that item (§2: an item has one title and one set of labels, whatever the request asks for)`,
    page.exchange,
  );
  // And one type and one set of flags (§2; §4 rule 3): flags read as set or not, ids loosely.
  const unlike = page.rows.find((r) => walked(r) !== undefined && differingItemState(r, walked(r)!) !== undefined);
  const field = unlike && differingItemState(unlike, walked(unlike)!);
  ensure(
    'C4.10',
    unlike === undefined,
    `${label}: row ${asJson(unlike?.id)} shows ${field} ${asJson(unlike?.[field ?? ''])}, but the collection walk shows ${asJson(unlike && walked(unlike)?.[field ?? ''])} for that item (§2: an item has one type and one set of flags, whatever the request asks for)`,
    page.exchange,
  );
  // And the eight fields "collection" adds are the item's own, as the run's shared read of them alone gives them (§2: MnP …
  // Acq of the item; §4: fields adds them to each row, whatever else the body asks): compared loosely, their types are not shown.
  if (body.fields === 'collection' && design.mode !== 'second key') {
    const alone = await t.discover.list({ per_page: MAX_ROWS_PER_PAGE, fields: 'collection' });
    const own = new Map((is2xx(alone) ? (rowsOf(alone.response.json) ?? []) : []).map((r) => [idOf(r.id), r]));
    const odd = differingCollectionValue(page.rows, own);
    ensure(
      'C2.4',
      odd === undefined,
      `${label}: row ${asJson(odd?.row.id)} shows ${odd?.field} ${asJson(odd?.row[odd.field])}, but POST /artifacts.php {"per_page":200,"fields":"collection"} shows ${asJson(odd?.itsOwn[odd.field])} for that item (fields "collection" adds the item's own values, whatever the filters)`,
      page.exchange,
    );
  }
  if (!Array.isArray(body.include)) return;
  const user = design.mode === 'second key' ? 'other' : 'primary';
  const uses = await t.discover.uses(user);
  summariesAgreeWithUses(page.rows, uses, design.ids, `${user === 'other' ? "the second user's " : ''}GET /uses.php without a parameter`, label);
}

/**
 * A page read without a cursor pages by title (§4: a cursor pages by id instead of by title), whatever the filters, fields
 * and include: its titles follow some usual collation (which one is not shown).
 */
function inTitleOrder(page: Page, label: string): void {
  const titles = page.rows.map((r) => String(r.Title ?? ''));
  ensure(
    'C4.5',
    titleCollations.some((c) => titles.every((title, i) => i === 0 || c.compare(titles[i - 1]!, title) <= 0)),
    `${label} lists its titles in no usual title order (${titles
      .slice(0, 4)
      .map((title) => asJson(title))
      .join(', ')} …): without a cursor the list pages by title (§4: a cursor pages by id instead of by title), whatever the filters`,
    page.exchange,
  );
}

/** Judges one designed request's rows against the pool it was designed from. */
async function judge(t: CheckContext, design: Design, word: string | undefined): Promise<void> {
  const { pool, filters, mode, direction } = design;
  const cursor = byCursor(mode) && !design.paged;
  const offered = profiles[t.target.profile];
  const { yes, either } = matching(pool, filters);
  // Every design asks for what fields and include add, where offered: they only add to each row (§4 table).
  const adds = {
    ...(offered.has('list-fields') ? { fields: 'collection' } : {}),
    ...(offered.has('list-include') ? { include: ['uses_summary'] } : {}),
  };
  if (mode === 'page two') {
    // One row short of the matching items a page: page 2 holds the one left (and any item whose flag is not set, which a
    // false filter may list or not), whatever the order of the pages.
    const body = { ...filters, per_page: yes.length - 1, page: 2, ...adds };
    const page = await fetchPage(t.api, body);
    const label = `POST /artifacts.php ${JSON.stringify(body)}`;
    await judgeRows(t, design, body, page, label);
    const wrong = page.rows.find((r) => satisfies(r, filters) === 'no');
    ensure('C4.8', !wrong, `${label} returned ${wrong ? describeRow(wrong) : ''}, which the filters exclude ${WHY}`, page.exchange);
    // Holding fewer rows than its size, page 2 is the last page (§4 rule 2: has_more says whether another page exists).
    ensure(
      'C4.4',
      page.rows.length >= body.per_page || page.hasMore !== true,
      `${label} holds ${page.rows.length} rows, fewer than the ${body.per_page} a page asks for, so no other page exists, yet it says has_more ${asJson(page.hasMore)} (§4 rule 2: has_more says whether another page exists, whatever the filters)`,
      page.exchange,
    );
    ensure(
      'C4.8',
      page.rows.length >= 1 && page.rows.length <= 1 + either.length,
      `${label}: the walk shows ${yes.length} items that satisfy every filter${either.length > 0 ? ` (and ${either.length} with a flag not set)` : ''}, so page 2 at ${body.per_page} a page holds ${either.length > 0 ? `1 to ${1 + either.length}` : 'exactly 1'}; it holds ${page.rows.length} (ids ${page.rows
        .slice(0, 6)
        .map((r) => asJson(r.id))
        .join(', ')}) ${WHY}`,
      page.exchange,
    );
    return;
  }
  if (design.short) {
    // Page 1 one row short of the matching items: it is full, says another page exists (§4 rule 2), holds no item the
    // filters exclude, and misses at most the one left for page 2 (and one more for each item whose flag is not set).
    const body = { ...filters, page: 1, per_page: yes.length - 1, ...adds };
    const page = await fetchPage(t.api, body);
    const label = `POST /artifacts.php ${JSON.stringify(body)}`;
    await judgeRows(t, design, body, page, label);
    inTitleOrder(page, label);
    const wrong = page.rows.find((r) => satisfies(r, filters) === 'no');
    ensure('C4.8', !wrong, `${label} returned ${wrong ? describeRow(wrong) : ''}, which the filters exclude ${WHY}`, page.exchange);
    ensure(
      'C4.4',
      page.hasMore === true,
      `${label}: the walk shows ${yes.length} items that satisfy every filter, more than the ${body.per_page} a page asks for, yet page 1 says has_more ${asJson(page.hasMore)} (§4 rule 2: has_more says whether another page exists, whatever the filters)`,
      page.exchange,
    );
    const shown = new Set(page.rows.map((r) => idOf(r.id)));
    const missing = yes.filter((r) => !shown.has(idOf(r.id)));
    ensure(
      'C4.8',
      page.rows.length === body.per_page && missing.length <= 1 + either.length,
      `${label}: the walk shows ${yes.length} items that satisfy every filter${either.length > 0 ? ` (and ${either.length} with a flag not set)` : ''}, so page 1 holds ${body.per_page} of them; it holds ${page.rows.length} and misses ${missing.length}, e.g. ${missing[0] ? describeRow(missing[0]) : ''} ${WHY}`,
      page.exchange,
    );
    return;
  }
  const user = mode === 'second key' ? 'other' : 'primary';
  const additions = { ...(mode === 'page one' ? { page: 1 } : mode === 'search' ? { query: word } : mode === 'tag' ? { cursor: null } : {}), ...adds };
  const firstBody = cursor
    ? { ...filters, ...additions, per_page: Math.ceil(yes.length / 2), cursor: null }
    : { ...filters, ...additions, per_page: MAX_ROWS_PER_PAGE };
  const window = cursor ? await cursorWindow(t.api, firstBody, { maxPages: 2 }) : { pages: [await fetchPage(t.api, firstBody, user)], complete: true };
  const label = (page: number) =>
    `POST /artifacts.php ${JSON.stringify(firstBody)}${user === 'other' ? ' with the second key' : ''}${cursor ? `, cursor page ${page + 1}` : ''}`;
  // per_page is the page size (§4 table), in cursor paging and beside any filter as well.
  const overfull = window.pages.findIndex((p) => p.rows.length > firstBody.per_page);
  ensure(
    'C4.3',
    overfull === -1,
    `${label(overfull)} holds ${window.pages[overfull]?.rows.length} rows, more than the ${firstBody.per_page} per_page asks for (§4 table: per_page is the page size, whatever the filters)`,
    window.pages[overfull]?.exchange,
  );
  for (const [i, page] of window.pages.entries()) await judgeRows(t, design, firstBody, page, label(i));
  // A page-mode page holding fewer rows than its size is the last one: it says no other page exists (§4 rule 2).
  const lone = cursor ? undefined : window.pages[0];
  ensure(
    'C4.4',
    lone === undefined || lone.rows.length >= firstBody.per_page || lone.hasMore !== true,
    `${label(0)} holds ${lone?.rows.length} rows, fewer than the ${firstBody.per_page} a page asks for, so no other page exists, yet it says has_more ${asJson(lone?.hasMore)} (§4 rule 2: has_more says whether another page exists, whatever the filters)`,
    lone?.exchange,
  );
  // A cursor page continues after the one before it (§4: a cursor pages by id): no item is on two pages.
  const firstOn = new Map<string, number>();
  let twice: { id: string; first: number; again: number } | undefined;
  for (const [i, p] of window.pages.entries())
    for (const r of p.rows) {
      const id = idOf(r.id) ?? '';
      const first = firstOn.get(id);
      if (first === undefined) firstOn.set(id, i);
      else if (first !== i && twice === undefined) twice = { id, first, again: i };
    }
  ensure(
    'C4.4',
    twice === undefined,
    `${label(twice?.again ?? 0)} holds item ${twice?.id ?? ''}, which cursor page ${(twice?.first ?? 0) + 1} already held: the next_cursor of a page leads on after it (§4: a cursor pages by id)`,
    window.pages[twice?.again ?? 0]?.exchange,
  );
  // Cursor pages go by id (§4), in the walk's direction (which the spec does not show), across the pages too.
  if (cursor) {
    const order = inWalkOrder(direction);
    const listed = window.pages.flatMap((p, i) => p.rows.map((r) => ({ id: idOf(r.id) ?? '', i })));
    const back = listed.findIndex((x, k) => k > 0 && order(listed[k - 1]!.id, x.id) > 0);
    ensure(
      'C4.4',
      back === -1,
      `${label(listed[back]?.i ?? 0)} lists item ${listed[back]?.id ?? ''} after item ${listed[back - 1]?.id ?? ''}, against the ${direction} id order of the collection walk: a cursor pages by id (§4), whatever the filters`,
      window.pages[listed[back]?.i ?? 0]?.exchange,
    );
  }
  if (!cursor && !('cursor' in firstBody)) inTitleOrder(window.pages[0]!, label(0));
  const got = window.pages.flatMap((p) => p.rows);
  const known = new Set(pool.map((r) => idOf(r.id)));
  // A search's rows are the search's own answer narrowed by the filters: an item the search alone does not find is wrong too.
  const wrong = got.find((r) => satisfies(r, filters) === 'no' || (mode === 'search' && !known.has(idOf(r.id))));
  const wrongAt = wrong ? window.pages.findIndex((p) => p.rows.includes(wrong)) : 0;
  ensure(
    'C4.8',
    !wrong,
    `${label(wrongAt)} returned ${wrong ? describeRow(wrong) : ''}, which ${wrong && satisfies(wrong, filters) !== 'no' ? `the same search without filters does not find` : 'the filters exclude'} ${WHY}`,
    window.pages[wrongAt]?.exchange,
  );
  const gotIds = new Set(got.map((r) => idOf(r.id)));
  const covered = cursor ? windowBound(window, (r) => idOf(r.id), direction) : () => true;
  const missing = yes.filter((r) => covered(idOf(r.id) ?? '') && !gotIds.has(idOf(r.id)));
  ensure(
    'C4.8',
    missing.length === 0,
    `${label(0)} left out ${missing.length} item(s) that satisfy every filter${mode === 'search' ? ' and that the same search without filters finds' : ''}, e.g. ${missing[0] ? describeRow(missing[0]) : ''} ${WHY}`,
    window.pages[0]?.exchange,
  );
}

describe('filters in every way of asking (§4 POST /artifacts.php)', () => {
  check(
    {
      id: 'FILT-008',
      level: 'MUST',
      sections: ['§4'],
      title:
        'filters keep their meaning in every way of asking: requests designed so that each of their filters is needed (an item satisfies all the others but not it), one to three per way of asking (an explicit page 1, also one row short of its items, which says has_more; page 2 one row short; the page after a cursor; beside a search, over two cursor pages and on one page; beside a tag on a first cursor page; with the second key), holding between them each value of each filter the data allows, return exactly the items that satisfy every filter, cursor pages keep the id order of the walk, hold no item twice and no more rows than per_page asks for, and every row carries the fields of rule 3 (with the title, labels, type, type id and flags the collection walk shows for its item), what fields and include add (asked in every design), and plays and last_use of the recorded uses of its item; so do the rows of the walk of the second user',
      requires: ['list-filters', 'full-rows'],
      accepts: [
        'flags as 0/1, booleans, "0"/"1" or null; a null flag is not set: a false filter may list the item or not, a true filter must not',
        'items with no type (type and type_id null): no type filter lists them',
        'cursor pages in ascending or descending id order; page-mode pages in any title order',
        "any search semantics: a search with filters must return the search's own answer narrowed by them",
      ],
    },
    async (t) => {
      const { rows, direction, ids } = await t.discover.collection();
      const walk = new Map(rows.map((r) => [idOf(r.id) ?? '', r]));
      t.need(rows[0], 'the collection is empty, so filters cannot be observed');
      // Pairs of filter values the designs so far hold together: each design adds pairs the others lack where it can.
      const pairs = new Set<string>();
      const designed: Design[] = [];
      for (const mode of ['page one', 'page two', 'cursor', 'tag'] as const) {
        const designs = plan(rows, mode, direction, pairs);
        // Of page one's designs, the one most items satisfy (two at least) is read one row short of them.
        const sizes = designs.map((f) => matching(rows, f).yes.length);
        const shortAt = mode === 'page one' && Math.max(...sizes) >= 2 ? sizes.indexOf(Math.max(...sizes)) : -1;
        for (const [i, filters] of designs.entries())
          designed.push({ mode, filters, pool: rows, direction, ids, walk, ...(i === shortAt ? { short: true } : {}) });
      }
      // A search's pool is its own answer: the run's shared read of the search FILT-007 reads too.
      const word = commonTitleWord(rows);
      if (word !== undefined) {
        const search = await t.discover.window({ per_page: MAX_ROWS_PER_PAGE, query: word }, 3);
        if (search.complete) {
          const found = search.pages.flatMap((p) => p.rows);
          for (const [i, filters] of plan(found, 'search', direction, pairs).entries())
            designed.push({ mode: 'search', filters, pool: found, direction, ids, walk, ...(i === 0 ? { paged: true } : {}) });
        }
      }
      if (t.target.keys.other !== undefined) {
        const theirs = await t.discover.collection('other');
        const theirWalk = new Map(theirs.rows.map((r) => [idOf(r.id) ?? '', r]));
        for (const filters of plan(theirs.rows, 'second key', theirs.direction, pairs))
          designed.push({
            mode: 'second key',
            filters,
            pool: theirs.rows,
            direction: theirs.direction,
            ids: theirs.ids,
            walk: theirWalk,
          });
        // The second user's walk (the run's shared read) is held to rule 3 as the first user's is (LIST-002): it costs nothing more.
        for (const [i, page] of theirs.pages.entries()) {
          const lacking = page.rows.find((r) => missingField(r) !== undefined);
          ensure(
            'C4.10',
            lacking === undefined,
            `cursor page ${i + 1} of the second user's collection walk: row ${asJson(lacking?.id)} lacks ${lacking ? missingField(lacking) : ''} (§4 rule 3: every row carries id, Title, type, type_id, the four flags and tags, whoever's key reads them)`,
            page.exchange,
          );
        }
      }
      t.need(designed[0], 'no combination of filters has an item that fails only one of them, so no filter is seen to be needed');
      await Promise.all(designed.map((d) => judge(t, d, word)));
    },
  );
});

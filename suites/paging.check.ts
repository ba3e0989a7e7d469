import {
  OVERSIZED_PAGE_BODIES,
  DEFAULT_ROWS_PER_PAGE,
  describe,
  check,
  cursorStepProblem,
  cursorWindow,
  ensure,
  ensureNo5xx,
  envelopeField,
  flag,
  isObject,
  fetchPage,
  idOf,
  pageOf,
  inWalkOrder,
  is2xx,
  is4xx,
  MAX_ROWS_PER_PAGE,
  okRows,
  pageRuns,
  pageWalk,
  rowsOf,
  statedPageSize,
  titleCollations,
  type Page,
  asJson,
  asText,
  profiles,
  isSet,
  ROW_FIELDS,
  sameUnordered,
} from '../src/harness/index.ts';

/** Two answers' values of one field of the same item alike: flags as set or not, ids as numbers or strings, labels as sets, the rest as served. */
function sameRowValue(field: string, a: unknown, b: unknown): boolean {
  if (field.startsWith('is_')) return isSet(a) === isSet(b);
  if (field === 'type_id') return idOf(a) === idOf(b);
  if (field === 'tags') return sameUnordered(a, b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Listings of up to this many pages are walked whole; longer ones are read in bounded runs. */
const SHORT_LISTING_PAGES = 25;
/**
 * The small-page cursor walk of PAGE-006: about this many pages over at most this many items (each
 * boundary between them is a place a cursor could lose, repeat or leak a row; past eight, more of them
 * killed no further mutant in the self-test).
 */
const SMALL_WALK_PAGES = 8;
const SMALL_WALK_ITEMS = 125;
/** PAGE-007 reads the listing by title in about this many pages (fewer for a short one: at least 5 rows a page). */
const TITLE_WALK_PAGES = 10;

const ids = (rows: readonly Record<string, unknown>[]) => rows.map((r) => idOf(r.id) ?? '?');

describe('paging (§4 POST /artifacts.php, §8)', () => {
  check(
    {
      id: 'PAGE-001',
      level: 'MUST',
      sections: ['§4', '§8'],
      keptBlind: true,
      title:
        'without per_page a page holds 50 rows (or the whole collection when smaller), paging by page or by cursor; page 1 of kept false beside include uses_summary holds at most 50 rows, and fewer only as the last page',
      accepts: ['any envelope key for the rows; has_more as a boolean or 0/1'],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      const expected = Math.min(DEFAULT_ROWS_PER_PAGE, rows.length);
      // The default holds for both ways of paging and with a page number sent (§4 table: per_page defaults to 50
      // whatever else is sent). The pages are read together; a failure is reported in this order.
      // The first is the run's shared read of page 1 (PAGE-008 reads it too).
      // The page number is sent beside include uses_summary where it is offered: include only adds fields to each row (§4).
      const summary = profiles[t.target.profile].has('list-include') ? { include: ['uses_summary'] } : {};
      // The page number goes with kept false as well: a filter chooses the rows, not the page size. How many items are
      // unkept at the moment of the read is not known (other checks toggle), so that page is judged by itself: at most 50
      // rows, and a page of fewer is the last one (§4 rule 2: has_more says whether another page exists).
      // Where the filters are offered; the page of the filter is this check's own read, not a shared one.
      const unkept = profiles[t.target.profile].has('list-filters') ? { kept: false } : {};
      const bodies: Record<string, unknown>[] = [{}, { cursor: null }, { page: 1, ...unkept, ...summary }];
      const pages = await Promise.all(bodies.map(async (body) => pageOf(await ('kept' in body ? t.api.list(body) : t.discover.list(body)), body)));
      for (const [i, body] of bodies.entries()) {
        const page = pages[i]!;
        if ('kept' in body) {
          ensure(
            'C4.3',
            page.rows.length <= DEFAULT_ROWS_PER_PAGE && (page.rows.length === DEFAULT_ROWS_PER_PAGE || page.hasMore !== true),
            `POST /artifacts.php ${JSON.stringify(body)} returned ${page.rows.length} rows with has_more ${asJson(page.hasMore)}; the default page size is ${DEFAULT_ROWS_PER_PAGE}, so a page of fewer rows is the last one`,
            page.exchange,
          );
          continue;
        }
        ensure(
          'C4.3',
          page.rows.length === expected,
          `POST /artifacts.php ${JSON.stringify(body)} returned ${page.rows.length} rows; the default page size is 50 and the collection has ${rows.length}`,
          page.exchange,
        );
      }
    },
  );

  check(
    {
      id: 'PAGE-002',
      level: 'MUST',
      sections: ['§4', '§8'],
      keptBlind: true,
      title: 'a per_page above 200 is refused with a 4xx or answered with the 200 rows of a clamped page or the default page',
      accepts: ['clamping to 200, answering with the default page, or refusing (any 4xx, with or without an errors list: per_page is no filter)'],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      for (const body of OVERSIZED_PAGE_BODIES) {
        const ex = await t.discover.list(body);
        ensureNo5xx('C7.2', ex, `POST /artifacts.php ${JSON.stringify(body)}`);
        if (is4xx(ex)) continue;
        const got = okRows('C8.1', ex, `POST /artifacts.php ${JSON.stringify(body)}`);
        ensure(
          'C8.1',
          got.length <= MAX_ROWS_PER_PAGE,
          `POST /artifacts.php ${JSON.stringify(body)} returned ${got.length} rows; at most ${MAX_ROWS_PER_PAGE} are allowed`,
          ex,
        );
        ensure('C4.3', got.length > 0 || rows.length === 0, `POST /artifacts.php ${JSON.stringify(body)} returned no rows from a non-empty collection`, ex);
        // Served, the size is the maximum or the default page (rows.length caps both): any other count honoured neither.
        const sizes = [Math.min(rows.length, MAX_ROWS_PER_PAGE), Math.min(rows.length, DEFAULT_ROWS_PER_PAGE)];
        ensure(
          'C8.1',
          sizes.includes(got.length),
          `POST /artifacts.php ${JSON.stringify(body)} returned ${got.length} rows of a collection of ${rows.length}: a per_page above ${MAX_ROWS_PER_PAGE} is clamped (${sizes[0]} rows here), served as the default page (${sizes[1]} here) or refused`,
          ex,
        );
      }
    },
  );

  check(
    {
      id: 'PAGE-003',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title: 'per_page from 1 to 200 is honoured, and by cursor at 1 a page whose has_more is true carries a next_cursor',
      accepts: ['any envelope key for the rows', 'an opaque next_cursor of any type', 'has_more and next_cursor at the top level or nested in the envelope'],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      t.need(rows[0], 'the collection is empty, so page sizes cannot be observed');
      for (const perPage of [1, MAX_ROWS_PER_PAGE]) {
        // Shared reads: SCOPE-001 reads the page of 200 too.
        const page = pageOf(await t.discover.list({ per_page: perPage }), { per_page: perPage });
        ensure(
          'C4.3',
          page.rows.length === Math.min(perPage, rows.length),
          `per_page ${perPage} returned ${page.rows.length} rows (collection: ${rows.length})`,
          page.exchange,
        );
      }
      // The smallest size by cursor too (§4 table: per_page is the page size in either mode): one row, has_more true while
      // the walk holds another item, and then a next_cursor to go on with (§4 rule 2: the response carries next_cursor
      // for cursor paging), or an agent paging one item at a time could not pass the first.
      const body = { per_page: 1, cursor: null };
      const label = `POST /artifacts.php ${JSON.stringify(body)}`;
      const first = pageOf(await t.discover.list(body), body);
      ensure('C4.3', first.rows.length === 1, `${label} returned ${first.rows.length} rows (collection: ${rows.length})`, first.exchange);
      ensure(
        'C4.4',
        rows.length < 2 || first.hasMore === true,
        `${label}: the walk holds ${rows.length} items, yet the first cursor page of one says has_more ${asText(first.hasMore)}`,
        first.exchange,
      );
      const problem = cursorStepProblem(first);
      ensure('C4.4', problem === undefined, `${label} (the walk holds ${rows.length} items): ${problem}`, first.exchange);
    },
  );

  check(
    {
      id: 'PAGE-004',
      level: 'MUST',
      sections: ['§4', '§7'],
      keptBlind: true,
      title:
        'edge values of page and per_page never cause a 5xx or an oversized page; a page past the end, also beside kept true at per_page 200, holds no rows',
      accepts: [
        'a page past the end (also beside kept true) answered as an empty page with has_more false, or refused with 404 or another 4xx',
        'page 0, negative pages and sizes refused (any 4xx, with or without an errors list: they are no filters) or answered with a page of at most 200 rows',
      ],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      // A page past the end: an empty last page, or a 404 (no page has that number; the status is not shown). Where the
      // filters are offered, a page past the end beside kept true too, read together: past the end of the whole
      // collection, it is past the end of the kept items whatever their flags, and is answered alike (§4: page is the
      // page number of the filtered listing; has_more says where it ends), not with the listing's first items again. That
      // one is numbered at the largest page size (a size above 100; §4: per_page up to 200, and page selects the page of
      // per_page rows at any allowed size), past the end at that size too. The other is the page just past the end at the
      // largest size: page n starts after (n-1) pages of per_page rows (§4 table: page is the page number, per_page the page
      // size, up to 200, §8), so an offset computed from a smaller step (an old maximum of 100) shows there as the
      // listing's last rows served again.
      const pastEnd = { page: Math.ceil(rows.length / MAX_ROWS_PER_PAGE) + 1, per_page: MAX_ROWS_PER_PAGE };
      const pastEndLarge = { page: Math.ceil(rows.length / MAX_ROWS_PER_PAGE) + 5, per_page: MAX_ROWS_PER_PAGE };
      const bodies: Record<string, unknown>[] = [pastEnd, ...(profiles[t.target.profile].has('list-filters') ? [{ kept: true, ...pastEndLarge }] : [])];
      const probes = await Promise.all(bodies.map((body) => t.api.list(body)));
      for (const [i, probe] of probes.entries()) {
        // A page past the end refused (404, or another 4xx such as 400 or 422: §7 does not show the status) lists nothing.
        if (probe.response.status >= 400 && probe.response.status < 500) continue;
        const label = `POST /artifacts.php ${JSON.stringify(bodies[i])}`;
        const beyond = pageOf(probe, bodies[i]!);
        ensure(
          'C4.5',
          beyond.rows.length === 0,
          `${label}, a page past the end (the collection holds ${rows.length} items, ${Number(bodies[i]!.per_page ?? DEFAULT_ROWS_PER_PAGE)} a page), returned ${beyond.rows.length} rows (ids ${ids(beyond.rows).slice(0, 6).join(', ')})`,
          beyond.exchange,
        );
        ensure('C4.4', beyond.hasMore === false, `${label}, a page past the end, must have has_more false; it has ${asText(beyond.hasMore)}`, beyond.exchange);
      }
      const edges: Record<string, unknown>[] = [{ page: 0 }, { page: -1 }, { per_page: 0 }, { per_page: -5 }, { page: 2 ** 31 }, { per_page: 2 ** 53 }];
      for (const body of edges) {
        const ex = await t.api.list(body);
        ensureNo5xx('C7.2', ex, `POST /artifacts.php ${JSON.stringify(body)}`);
        if (is4xx(ex)) continue;
        ensure('C8.1', is2xx(ex), `POST /artifacts.php ${JSON.stringify(body)}: expected a 4xx or a page, got ${ex.response.status}`, ex);
        const got = rowsOf(ex.response.json) ?? [];
        ensure('C8.1', got.length <= MAX_ROWS_PER_PAGE, `POST /artifacts.php ${JSON.stringify(body)} returned ${got.length} rows`, ex);
      }
    },
  );

  check(
    {
      id: 'PAGE-005',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title:
        'has_more is true exactly when another non-empty page exists, also for an exactly full last page; the last two pages hold different items (and, for two pages ending between equal titles, all of them)',
      accepts: ['has_more as a boolean or 0/1', 'any order among equal titles, and any usual collation (the size is chosen by one, the pages judged by none)'],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      const n = rows.length;
      t.need(n >= 2 ? n : undefined, `needs at least two items to have a second page (has ${n})`);
      // The size that leaves an exactly full last page: the largest with two pages before it (a third page or later is
      // where an offset computed from the page number can slip), else the largest below the collection's size.
      const divisors = [...Array(Math.min(n, MAX_ROWS_PER_PAGE)).keys()].map((i) => i + 1).filter((s) => n % s === 0 && s < n);
      const dividing = Math.max(...(divisors.some((s) => n / s >= 3) ? divisors.filter((s) => n / s >= 3) : divisors));
      // The size that leaves a partly full last page: where one is known, one over half the collection that ends page 1
      // between two items of the same title (by the titles as a usual collation orders them), so that pages 1 and 2 read
      // below meet between equal titles, where a page query whose ties fall another way repeats one and loses the other.
      const titles = rows.map((r) => String(r.Title ?? '')).sort(titleCollations[2]!.compare);
      const twinSplit = [...Array(Math.min(n, MAX_ROWS_PER_PAGE + 1)).keys()].find((s) => s > n / 2 && s < n && n % s !== 0 && titles[s - 1] === titles[s]);
      // Below the collection's size: at or above it the listing is one page, with no page before the last to read.
      const notDividing = twinSplit ?? [...Array(MAX_ROWS_PER_PAGE - 1).keys()].map((i) => i + 2).find((s) => n % s !== 0 && s < n);
      // A lean (budgeted) run reads the last two pages at the dividing size only.
      for (const size of [dividing, ...(t.target.lean ? [] : [notDividing])].filter((s): s is number => s !== undefined)) {
        const lastPage = Math.ceil(n / size);
        const expectedRows = n - (lastPage - 1) * size;
        const last = await fetchPage(t.api, { per_page: size, page: lastPage });
        ensure(
          'C4.4',
          last.rows.length === expectedRows && last.hasMore === false,
          `page ${lastPage} at per_page ${size} (the last, ${expectedRows === size ? 'exactly full' : 'partly full'}) should hold ${expectedRows} rows with has_more false; got ${last.rows.length} rows, has_more ${asText(last.hasMore)}`,
          last.exchange,
        );
        const before = await fetchPage(t.api, { per_page: size, page: lastPage - 1 });
        ensure(
          'C4.4',
          before.hasMore === true,
          `page ${lastPage - 1} at per_page ${size} is followed by a non-empty page, yet has_more is ${asText(before.hasMore)}`,
          before.exchange,
        );
        // Two pages of one listing at one size hold different items (§4: page is the page number; each item is one
        // row of the listing), in any order among equal titles; pages 1 and 2 of a two-page listing hold all of it.
        const onBoth = ids(last.rows).filter((id) => ids(before.rows).includes(id));
        ensure(
          'C4.5',
          onBoth.length === 0,
          `pages ${lastPage - 1} and ${lastPage} at per_page ${size} both hold item(s) ${onBoth.join(', ')} (titled ${asText(last.rows.find((r) => idOf(r.id) === onBoth[0])?.Title)})`,
          last.exchange,
        );
        if (lastPage === 2) {
          const served = new Set([...ids(before.rows), ...ids(last.rows)]);
          const missing = rows.filter((r) => !served.has(idOf(r.id) ?? '?'));
          ensure(
            'C4.5',
            missing.length === 0,
            `pages 1 and 2 at per_page ${size} (the whole listing of ${n} items) leave out ${missing.length} item(s), e.g. item ${asText(missing[0]?.id)} titled ${asText(missing[0]?.Title)}`,
            last.exchange,
          );
        }
      }
      if (n <= MAX_ROWS_PER_PAGE) {
        const whole = await fetchPage(t.api, { per_page: n, cursor: null });
        ensure(
          'C4.4',
          whole.hasMore === false,
          `a cursor page holding the whole collection (${n} items) has has_more ${asText(whole.hasMore)}`,
          whole.exchange,
        );
        const short = await fetchPage(t.api, { per_page: n - 1, cursor: null });
        ensure('C4.4', short.hasMore === true, `a cursor page of ${n - 1} of ${n} items has has_more ${asText(short.hasMore)}`, short.exchange);
      }
    },
  );

  check(
    {
      id: 'PAGE-006',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title: 'a cursor walk returns every item once in id order and ends with has_more false',
      accepts: [
        'ascending or descending id order (the direction is not shown)',
        'ids as numbers (compared numerically) or strings (compared by code units)',
        'an opaque next_cursor of any type; on the last page (has_more false) null, empty, absent or still set',
        'has_more and next_cursor at the top level or nested in the envelope',
      ],
    },
    async (t) => {
      // The run's shared read is a whole cursor walk at 200 a page: it is judged here.
      const { rows, pages: walk, direction } = await t.discover.collection();
      t.need(rows[0], 'the collection is empty');
      const walked = ids(rows);
      const last = walk.at(-1)!;
      ensure('C4.4', new Set(walked).size === walked.length, `the cursor walk returned ${walked.length - new Set(walked).size} item(s) twice`, last.exchange);
      const sorted = [...walked].sort(inWalkOrder(direction));
      const firstOut = walked.findIndex((id, i) => id !== sorted[i]);
      ensure(
        'C4.4',
        firstOut === -1,
        `the cursor walk is in no one id order (${direction}, judged from its first and last ids; at position ${firstOut}: ${walked[firstOut]})`,
        walk[Math.floor(firstOut / MAX_ROWS_PER_PAGE)]?.exchange,
      );
      // Small pages cross many page boundaries: their first pages must hold exactly the first items.
      const perPage = Math.max(3, Math.ceil(Math.min(rows.length, SMALL_WALK_ITEMS) / SMALL_WALK_PAGES));
      const small = await cursorWindow(t.api, { per_page: perPage }, { maxPages: SMALL_WALK_PAGES });
      const smallIds = small.pages.flatMap((p) => ids(p.rows));
      const expected = small.complete ? walked : walked.slice(0, smallIds.length);
      const at = smallIds.findIndex((id, i) => id !== expected[i]);
      ensure(
        'C4.4',
        at === -1 && smallIds.length === expected.length,
        `a cursor walk at ${perPage} a page disagrees with one at ${MAX_ROWS_PER_PAGE} a page: ${at === -1 ? `${smallIds.length} items instead of ${expected.length}` : at >= expected.length ? `item ${smallIds[at]} at position ${at}, past the ${expected.length} items the walk at ${MAX_ROWS_PER_PAGE} a page returned` : `item ${smallIds[at]} where ${expected[at]} belongs (position ${at})`}`,
        small.pages[Math.floor(Math.max(at, 0) / perPage)]?.exchange,
      );
      // Page paging holds the same items: read whole when short, else its first pages and its last.
      const total = Math.ceil(rows.length / MAX_ROWS_PER_PAGE);
      const known = new Set(walked);
      if (total <= SHORT_LISTING_PAGES) {
        const pageIds = (await pageWalk(t.api, { per_page: MAX_ROWS_PER_PAGE }, SHORT_LISTING_PAGES + 1, total)).flatMap((p) => ids(p.rows));
        const missing = pageIds.filter((id) => !known.has(id));
        ensure(
          'C4.5',
          missing.length === 0 && walked.length === pageIds.length,
          `the cursor walk (${walked.length} items) and page paging (${pageIds.length} items) disagree; e.g. ${missing[0] ?? 'extra items'} missing`,
          last.exchange,
        );
        return;
      }
      const read = await Promise.all([1, 2, total].map((page) => fetchPage(t.api, { per_page: MAX_ROWS_PER_PAGE, page })));
      const pageIds = read.flatMap((p) => ids(p.rows));
      const stranger = pageIds.find((id) => !known.has(id));
      ensure(
        'C4.5',
        stranger === undefined,
        `page paging lists item ${stranger}, which the cursor walk did not return`,
        read.find((p) => ids(p.rows).includes(stranger!))?.exchange,
      );
      const lastPage = read.at(-1)!;
      const expectedLast = rows.length - (total - 1) * MAX_ROWS_PER_PAGE;
      ensure(
        'C4.5',
        lastPage.rows.length === expectedLast && lastPage.hasMore === false,
        `page ${total} at ${MAX_ROWS_PER_PAGE} a page should be the last, with ${expectedLast} of the ${rows.length} items the cursor walk returned; it holds ${lastPage.rows.length} (has_more ${asText(lastPage.hasMore)})`,
        lastPage.exchange,
      );
    },
  );

  check(
    {
      id: 'PAGE-007',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title: 'page paging is complete and ordered by title under one consistent collation',
      accepts: [
        'any usual collation: code units, case-insensitive, locale (base or variant sensitivity), natural number order, spaces and punctuation ignored',
        'any order among equal titles',
      ],
    },
    async (t) => {
      const { rows: all } = await t.discover.collection();
      t.need(all.length >= 2 ? all : undefined, 'fewer than two items, so there is no order to observe');
      const perPage = Math.min(MAX_ROWS_PER_PAGE, Math.max(5, Math.ceil(all.length / TITLE_WALK_PAGES)));
      const total = Math.ceil(all.length / perPage);
      // Short listings are walked whole; long ones in runs of consecutive pages (start, seeded middle, end).
      const numbers = pageRuns(total, t.target.seed, { whole: SHORT_LISTING_PAGES });
      const runs: Page[][] =
        numbers.length === 1
          ? [await pageWalk(t.api, { per_page: perPage }, SHORT_LISTING_PAGES + 5, total)]
          : await Promise.all(numbers.map((run) => Promise.all(run.map((page) => fetchPage(t.api, { per_page: perPage, page })))));
      const pages = runs.flat();
      const rows = pages.flatMap((p) => p.rows);
      const walked = ids(rows);
      ensure(
        'C4.5',
        new Set(walked).size === walked.length,
        `page paging returned ${walked.length - new Set(walked).size} item(s) twice`,
        pages.at(-1)?.exchange,
      );
      const titles = rows.map((r) => String(r.Title ?? ''));
      const consistent = titleCollations.filter((c) => titles.every((title, i) => i === 0 || c.compare(titles[i - 1]!, title) <= 0));
      const at = titles.findIndex((title, i) => i > 0 && titleCollations[2]!.compare(titles[i - 1]!, title) > 0);
      ensure(
        'C4.5',
        consistent.length > 0,
        `titles are not ordered under any usual collation (e.g. "${titles[at - 1]}" before "${titles[at]}")`,
        pages[Math.floor(at / perPage)]?.exchange,
      );
      const seen = new Set(walked);
      if (runs.length === 1) {
        const missing = all.map((r) => idOf(r.id) ?? '?').filter((id) => !seen.has(id));
        ensure('C4.5', missing.length === 0, `page paging missed ${missing.length} item(s), e.g. ${missing[0]}`, pages.at(-1)?.exchange);
        return;
      }
      // Within a run of consecutive pages, every item whose title sorts strictly inside the run's span
      // (under each collation the pages are consistent with) must be on one of them.
      for (const [i, run] of runs.entries()) {
        const spanTitles = run.flatMap((p) => p.rows.map((r) => String(r.Title ?? '')));
        if (spanTitles.length === 0) continue;
        const [first, lastTitle] = [spanTitles[0]!, spanTitles.at(-1)!];
        const insideUnder = (c: (typeof consistent)[number]) => (r: Record<string, unknown>) =>
          c.compare(first, String(r.Title ?? '')) < 0 && c.compare(String(r.Title ?? ''), lastTitle) < 0;
        const missing = consistent.reduce(
          (candidates, c) => candidates.filter(insideUnder(c)),
          all.filter((r) => !seen.has(idOf(r.id) ?? '?')),
        );
        ensure(
          'C4.5',
          missing.length === 0,
          `pages ${numbers[i]!.join(', ')} at ${perPage} a page span "${first}" to "${lastTitle}" but leave out ${missing.length} item(s) titled in between, e.g. item ${asText(missing[0]?.id)} "${asText(missing[0]?.Title)}"`,
          run.at(-1)?.exchange,
        );
      }
    },
  );

  check(
    {
      id: 'PAGE-008',
      level: 'MUST',
      sections: ['§4'],
      title: 'a GET with no body lists page 1, each row with the values page 1 gives the item, with the has_more of page 1',
      accepts: ['any envelope key for the rows; has_more as a boolean or 0/1, at the top level or nested'],
    },
    async (t) => {
      const [viaGet, viaPost] = await Promise.all([t.discover.list(undefined), t.discover.list({})]);
      const got = okRows('C4.2', viaGet, 'GET /artifacts.php');
      const expected = okRows('C4.2', viaPost, 'POST /artifacts.php {}');
      ensure(
        'C4.2',
        JSON.stringify(ids(got)) === JSON.stringify(ids(expected)),
        `GET /artifacts.php returned ${got.length} rows that differ from page 1 (${expected.length} rows)`,
        viaGet,
      );
      // The same items either way, each carrying the same values (§4 rule 3: every row carries them, whichever way the list
      // is asked): flags compared as set or not (0/1, booleans and null are choices), labels as sets. The kept flag too: the
      // check reads before any toggle.
      const before = new Map(expected.map((r) => [idOf(r.id), r]));
      const differs = got
        .map((row) => ({ row, other: before.get(idOf(row.id)) }))
        .flatMap(({ row, other }) =>
          other === undefined ? [] : ROW_FIELDS.filter((f) => f in row && f in other && !sameRowValue(f, row[f], other[f])).map((f) => ({ row, other, f })),
        )[0];
      ensure(
        'C4.10',
        differs === undefined,
        `GET /artifacts.php lists item ${asText(differs?.row.id)} with ${differs?.f} ${asJson(differs?.row[differs.f])}, but POST /artifacts.php {} (page 1 too) with ${asJson(differs?.other[differs.f])}: a row carries the item's own values however the list is asked (§4 rule 3)`,
        viaGet,
      );
      // Page 1 either way: the GET answer carries the same has_more (§4 rule 2: every list answer says whether another page exists).
      const [getMore, postMore] = [viaGet, viaPost].map((ex) => (isObject(ex.response.json) ? flag(envelopeField(ex.response.json, 'has_more')) : undefined));
      ensure(
        'C4.4',
        getMore !== undefined && getMore === postMore,
        `GET /artifacts.php has has_more ${asText(getMore)} but page 1 (POST /artifacts.php {}) has ${asText(postMore)}`,
        viaGet,
      );
    },
  );

  check(
    {
      id: 'PAGE-009',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title: "cursor null starts at the first id of the walk's order (the lowest, or the highest when it descends)",
      accepts: ['ascending or descending id order (the direction is not shown)'],
    },
    async (t) => {
      const { ids: all, direction } = await t.discover.collection();
      t.need(all[0], 'the collection is empty');
      // The run's shared read of this page (CAT-003 reads it too).
      const page = pageOf(await t.discover.list({ per_page: 5, cursor: null }), { per_page: 5, cursor: null });
      const expected = [...all].sort(inWalkOrder(direction)).slice(0, 5);
      ensure(
        'C4.4',
        JSON.stringify(ids(page.rows)) === JSON.stringify(expected),
        `cursor null returned ids ${ids(page.rows).join(', ')}; expected the ${direction === 'ascending' ? 'lowest' : 'highest'} ids ${expected.join(', ')}`,
        page.exchange,
      );
    },
  );

  check(
    {
      id: 'PAGE-010',
      level: 'MUST',
      sections: ['§4', '§8'],
      keptBlind: true,
      title:
        'a per_page above 200 is never honoured: at most 200 rows, a stated page size of at most 200, has_more true while items remain, and the next page follows on',
      accepts: [
        'clamping to 200, answering with the default page, or refusing (any 4xx: per_page is no filter)',
        'a page size stated under any usual name, or none stated',
      ],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      t.need(rows[0], 'the collection is empty, so page sizes cannot be observed');
      // Just past the maximum and far past it, in both modes (a lean run: far past by page, just past by cursor), read together.
      const bodies: { per_page: number; cursor?: null }[] = t.target.lean
        ? [{ per_page: 500 }, { per_page: 201, cursor: null }]
        : [{ per_page: 201 }, { per_page: 201, cursor: null }, { per_page: 500 }, { per_page: 500, cursor: null }];
      const answers = await Promise.all(bodies.map((body) => t.discover.list(body)));
      for (const [i, body] of bodies.entries()) {
        const perPage = body.per_page;
        const label = `POST /artifacts.php ${JSON.stringify(body)}`;
        const ex = answers[i]!;
        ensureNo5xx('C7.2', ex, label);
        // Refusing the size is one way not to honour it (PAGE-002 judges the refusal itself).
        if (is4xx(ex)) continue;
        const first = okRows('C8.1', ex, label);
        ensure('C8.1', first.length <= MAX_ROWS_PER_PAGE, `${label} returned ${first.length} rows; the maximum page size is ${MAX_ROWS_PER_PAGE}`, ex);
        const stated = statedPageSize(ex.response.json);
        ensure(
          'C8.1',
          stated === undefined || stated.value <= MAX_ROWS_PER_PAGE,
          `${label} states ${stated?.name} ${stated?.value}; a page size above ${MAX_ROWS_PER_PAGE} must not be honoured`,
          ex,
        );
        // Fewer rows than the collection holds: another page exists, whatever size was served (§4 rule 2).
        if (first.length > 0 && first.length < rows.length) {
          const more = flag(envelopeField(ex.response.json, 'has_more'));
          ensure(
            'C4.4',
            more === true,
            `${label} served ${first.length} of the ${rows.length} items, yet has_more is ${asText(more)}: another page exists`,
            ex,
          );
        }
        if ('cursor' in body || first.length === 0 || first.length >= rows.length) continue;
        // Served as a page of `size` rows, page 2 must be what page 2 at that size is: no item skipped or repeated.
        const size = first.length;
        const [second, expected] = await Promise.all([fetchPage(t.api, { per_page: perPage, page: 2 }), fetchPage(t.api, { per_page: size, page: 2 })]);
        ensure(
          'C8.1',
          JSON.stringify(ids(second.rows)) === JSON.stringify(ids(expected.rows)),
          `per_page ${perPage} was served ${size} rows a page, but its page 2 (${second.rows.length} rows, first ${ids(second.rows)[0] ?? 'none'}) is not page 2 at per_page ${size} (first ${ids(expected.rows)[0] ?? 'none'}): the oversized size still sets the step`,
          second.exchange,
        );
      }
    },
  );
});

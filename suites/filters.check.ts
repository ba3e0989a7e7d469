import fc from 'fast-check';
import {
  DEFAULT_ROWS_PER_PAGE,
  compareIds,
  describe,
  check,
  cursorWindow,
  ensure,
  ensureNo5xx,
  fetchPage,
  idOf,
  profiles,
  inWalkOrder,
  is2xx,
  is4xx,
  itemFlag,
  MAX_ROWS_PER_PAGE,
  mulberry32,
  okRows,
  pageOf,
  readOnce,
  rowsOf,
  sameUnordered,
  titleCollations,
  typeIdsOf,
  together,
  windowBound,
  type CheckContext,
  type Exchange,
  type Row,
  asText,
  asJson,
  summariesAgreeWithUses,
  COLLECTION_FIELDS,
  describeRow,
  differingCollectionValue,
  FILTER_FLAG_FIELDS,
  satisfies,
  tagsOf,
  type Filters,
  type FlagFilter,
  commonTitleWord,
} from '../src/harness/index.ts';

/** Cursor pages a filtered or searched answer is read for: all of it up to 600 items. */
const WINDOW_PAGES = 3;

/** A seeded word of rare letters that `unused` accepts (it occurs in no item's listed fields). */
function absentText(seed: number, unused: (text: string) => boolean): string {
  const random = mulberry32(seed);
  for (;;) {
    // An unbalanced parenthesis and an apostrophe inside: the query is any text (§4), so one that breaks a query string
    // built by pasting, or a pattern built from the text unescaped, shows. Each run of letters is five long, too long
    // for a fuzzy match to reach a real word, and no item shows any of them.
    const letters = Array.from({ length: 15 }, () => 'qxzjvkw'[Math.floor(random() * 7)]).join('');
    const runs = [letters.slice(0, 5), letters.slice(5, 10), letters.slice(10)];
    const text = `${runs[0]}(${runs[1]}'${runs[2]}`;
    if ([text, ...runs].every(unused)) return text;
  }
}

async function filtersArbitrary(t: CheckContext): Promise<fc.Arbitrary<Filters>> {
  const { rows } = await t.discover.collection();
  t.need(rows[0], 'the collection is empty, so filters cannot be observed');
  const tags = [...new Set(rows.flatMap(tagsOf))];
  const typeIds = [...new Set(rows.map((r) => r.type_id).filter((v): v is string | number => typeof v === 'number' || typeof v === 'string'))];
  const flagArb = fc.option(fc.boolean(), { nil: undefined });
  return fc
    .record(
      {
        kept: flagArb,
        physical: flagArb,
        digital: flagArb,
        secondary_collection: flagArb,
        tag: fc.option(tags.length > 0 ? fc.constantFrom(...tags) : fc.constant('conform-absent-tag'), { nil: undefined, freq: 3 }),
        // Items with no type are possible (type_id null): with none typed, the type filter is not drawn.
        type_id:
          typeIds.length === 0
            ? fc.constant(undefined)
            : fc.option(fc.oneof(fc.constantFrom(...typeIds), fc.subarray(typeIds, { minLength: 1 })), { nil: undefined, freq: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as Filters);
}

/** What a filter check accepts where the spec leaves the choice open (FILT-001, FILT-006). */
const FILTER_FREEDOMS = [
  'flags as 0/1, booleans, "0"/"1" or null; a null flag is not set: a false filter may list the item or not, a true filter must not',
  'items with no type (type and type_id null): no type filter lists them',
  'a tag filter that ignores case',
  'cursor pages in ascending or descending id order',
];

/** The letter the most titles hold (lower-cased), for a search with many answers under substring semantics. */
function commonTitleLetter(rows: readonly Row[]): string | undefined {
  const counts = new Map<string, number>();
  for (const row of rows)
    if (typeof row.Title === 'string')
      for (const letter of new Set(row.Title.toLowerCase().match(/\p{L}/gu) ?? [])) counts.set(letter, (counts.get(letter) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]?.[0];
}

/**
 * The body of the run's shared cursor window of a tag (FILT-003 and FILT-006 read the same one): half the items known
 * to carry the tag a page, so that its answer spans two cursor pages and the next_cursor of the first page (cursor
 * null with the tag) is followed (§4 rule 2: next_cursor continues the same filtered listing).
 */
function tagWindowBody(rows: readonly Row[], tag: string): { per_page: number; tag: string } {
  const carriers = rows.filter((row) => tagsOf(row).includes(tag)).length;
  return { per_page: Math.min(MAX_ROWS_PER_PAGE, Math.max(1, Math.ceil(carriers / 2))), tag };
}

/** The first item a cursor window returns on two of its pages (an item is one row of a listing, §4), with the page numbers. */
function repeatedIn(pages: readonly { rows: Row[] }[]): { id: string; first: number; again: number } | undefined {
  const seen = new Map<string, number>();
  for (const [i, page] of pages.entries())
    for (const row of page.rows) {
      const id = idOf(row.id);
      if (id === undefined) continue;
      const first = seen.get(id);
      if (first !== undefined) return { id, first: first + 1, again: i + 1 };
      seen.set(id, i);
    }
  return undefined;
}

/**
 * Where a page-mode search answer orders two of its items otherwise than the title-ordered listing `listing` (page 1 of
 * the unfiltered list) does: page paging is by title (§4: a cursor pages by id instead of by title) and query only
 * chooses the rows, so the items a search keeps come in the listing's relative order. Judged against the order the
 * target itself serves (any collation), only for titles no usual collation ties (tie order is not shown), and only
 * where the search's titles follow no usual collation either (a collation of its own for searches is then allowed).
 * Undefined when the answer keeps that order.
 */
function searchOrderProblem(found: readonly Row[], listing: readonly Row[]): string | undefined {
  const titles = found.map((r) => String(r.Title ?? ''));
  if (titleCollations.some((c) => titles.every((title, i) => i === 0 || c.compare(titles[i - 1]!, title) <= 0))) return undefined;
  const position = new Map(listing.map((r, i) => [idOf(r.id), i]));
  const placed = found.filter((r) => position.has(idOf(r.id)));
  for (const [i, before] of placed.entries())
    for (const after of placed.slice(i + 1)) {
      const [a, b] = [String(before.Title ?? ''), String(after.Title ?? '')];
      if (position.get(idOf(before.id))! > position.get(idOf(after.id))! && titleCollations.every((c) => c.compare(a, b) !== 0))
        return `lists item ${asText(before.id)} ${asJson(a)} before item ${asText(after.id)} ${asJson(b)}, which the title-ordered listing gives the other way round`;
    }
  return undefined;
}

/** Two flag filters FILT-001 always sends together: valid values that a server may wrongly take for contradictory ones. */
const UNKEPT_SECONDARY: Filters = { kept: false, secondary_collection: true };
/**
 * kept false beside secondary_collection true (UNKEPT_SECONDARY), with a type_id list beside them where the walk knows
 * unkept items of the secondary collection of two types or more: the one or two types that have the most of them, so
 * that a type filter dropped beside kept false lists the others, and a list read as its first id leaves out the second's.
 */
function unkeptSecondaryOfOneType(rows: readonly Row[]): Filters {
  const fitting = rows.filter((r) => satisfies(r, UNKEPT_SECONDARY) === 'yes' && idOf(r.type_id) !== undefined);
  const counts = new Map<string, { count: number; value: string | number }>();
  for (const r of fitting) {
    const id = idOf(r.type_id)!;
    counts.set(id, { count: (counts.get(id)?.count ?? 0) + 1, value: r.type_id as string | number });
  }
  // Two types where three or more are known (every id of the list counts, not the first only), one where two are.
  const named = [...counts.values()].sort((a, b) => b.count - a.count).slice(0, counts.size >= 3 ? 2 : 1);
  return counts.size >= 2 ? { ...UNKEPT_SECONDARY, type_id: named.map((n) => n.value) } : UNKEPT_SECONDARY;
}
/** physical true beside digital true: the items that are both (independent flags, §2), which many collections hold. */
const BOTH_FORMATS: Filters = { physical: true, digital: true };
/** FILT-001 sends the whole type list of GET /types.php where it lists this many ids (a list of a user's own types). */
const TYPE_LIST_SIZES = { min: 2, max: 20 } as const;

/**
 * The ids GET /types.php lists, as it serves them (numbers or strings), where it lists 2 to 20; undefined where fewer
 * or more, or where the answer holds no readable ids (TYPE-001 and TYPE-002 judge that answer).
 */
function listedTypeIds(types: Exchange, rows: readonly Row[]): (string | number)[] | undefined {
  const records = is2xx(types) ? (rowsOf(types.response.json) ?? []) : [];
  const used = [...new Set(rows.map((r) => idOf(r.type_id)).filter((id): id is string => id !== undefined))];
  const ids = typeIdsOf(records, used);
  if (ids === undefined || ids.size < TYPE_LIST_SIZES.min || ids.size > TYPE_LIST_SIZES.max) return undefined;
  // The field whose values are those ids, each once, read as served (a type record's fields are not shown beyond its id,
  // §2): a field of repeated values within them (a parent id) is not it.
  const key = [...new Set(records.flatMap((r) => Object.keys(r)))].find(
    (k) => records.every((r) => ids.has(idOf(r[k]) ?? '\u0000')) && new Set(records.map((r) => idOf(r[k]))).size === ids.size,
  );
  const values = key === undefined ? [] : records.map((r) => r[key]).filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  return values.length === ids.size ? values : undefined;
}

/**
 * FILT-001's case of the two formats beside every type id GET /types.php lists: physical true with digital true keeps
 * the items that are both (§2: independent flags; §4: the filters apply together), and a type_id list of the user's own
 * type ids (§4: one id or a list, ids from GET /types.php; §8 limits page sizes only) keeps every typed item. Sent
 * together where some item of the walk satisfies both, else each where it has an item (the formats) or ids (the types).
 */
function formatsBesideEveryType(rows: readonly Row[], typeIds: (string | number)[] | undefined): Filters[] {
  const everyType: Filters = typeIds ? { type_id: typeIds } : {};
  const combined = { ...BOTH_FORMATS, ...everyType };
  const fits = (filters: Filters) => rows.some((r) => satisfies(r, filters) === 'yes');
  if (fits(combined)) return [combined];
  return [...(fits(BOTH_FORMATS) ? [BOTH_FORMATS] : []), ...(typeIds ? [everyType] : [])];
}
/** digital false beside secondary_collection true: the items of the secondary collection that are not digital (independent flags, §2). */
const SECONDARY_NOT_DIGITAL: Filters = { secondary_collection: true, digital: false };

/**
 * FILT-001's case of a tag beside secondary_collection true: the label the most items of the secondary collection carry,
 * where the walk holds an item of it that does not carry it (which only the tag leaves out); with digital false beside
 * them where the walk holds a witness of each (else digital false beside secondary_collection true on its own).
 */
function tagInSecondary(rows: readonly Row[]): Filters[] {
  const fits = (filters: Filters) => rows.some((r) => satisfies(r, filters) === 'yes');
  // digital false beside secondary_collection true, where the walk holds an item of the secondary collection that is
  // not digital and one that is (which only the digital filter leaves out).
  const secondaryFlags = fits(SECONDARY_NOT_DIGITAL) && fits({ secondary_collection: true, digital: true }) ? [SECONDARY_NOT_DIGITAL] : [];
  const secondary = rows.filter((r) => satisfies(r, { secondary_collection: true }) === 'yes');
  const counts = new Map<string, number>();
  for (const r of secondary) for (const tag of new Set(tagsOf(r))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const lacking = (tag: string) => secondary.some((r) => !tagsOf(r).some((x) => x.toLowerCase() === tag.toLowerCase()));
  const byUse = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([x]) => x);
  // One request for both where the walk allows: a label beside secondary_collection true and digital false, when an item
  // of the secondary collection that is not digital lacks it (only the tag leaves it out) and a digital one carries it
  // (only digital false leaves it out).
  const carries = (r: Row, x: string) => tagsOf(r).some((y) => y.toLowerCase() === x.toLowerCase());
  const both =
    secondaryFlags.length > 0
      ? byUse.find(
          (x) =>
            secondary.some((r) => satisfies(r, { digital: false }) === 'yes' && !carries(r, x)) &&
            secondary.some((r) => satisfies(r, { digital: true }) === 'yes' && carries(r, x)),
        )
      : undefined;
  if (both !== undefined) return [{ tag: both, ...SECONDARY_NOT_DIGITAL }];
  const tag = byUse.find(lacking);
  return [...secondaryFlags, ...(tag !== undefined ? [{ tag, secondary_collection: true }] : [])];
}
/**
 * The fewest valid filters (one type id beside flags) that no item of the walk satisfies, where the walk holds such a
 * combination: valid values, so an empty answer (§4 rule 4 refuses invalid values only; rule 2: the page still says
 * whether another exists), not an error.
 */
function unmatched(rows: readonly Row[]): Filters | undefined {
  const typeIds = [...new Set(rows.map((r) => r.type_id).filter((v): v is string | number => idOf(v) !== undefined))];
  let combos: Filters[] = typeIds.map((type_id) => ({ type_id }));
  const all: Filters[] = [];
  for (const key of Object.keys(FILTER_FLAG_FIELDS) as FlagFilter[]) combos = combos.flatMap((f) => [f, { ...f, [key]: true }, { ...f, [key]: false }]);
  all.push(...combos.sort((a, b) => Object.keys(a).length - Object.keys(b).length));
  return all.find((f) => rows.every((r) => satisfies(r, f) === 'no'));
}
/** FILT-003's bound on the labels it reads in page mode beyond the ones its other requests send (the most used first). */
const OTHER_LABELS = 4;
/** Its bound in a lean (budgeted) run: the most used label only. */
const LEAN_OTHER_LABELS = 1;
/** Three flag filters sent together: an item must satisfy each (§4: each is a filter), in page mode. */
const PAGE_FLAGS: Filters = { kept: true, physical: false, digital: false };
/** A user id sent in list bodies, which §4 says is ignored (the key decides the user): a small id another user may have. */
const OTHER_USER_ID = 2;

describe('filters and search (§4 POST /artifacts.php)', () => {
  check(
    {
      id: 'FILT-001',
      level: 'MUST',
      sections: ['§4'],
      title:
        "any combination of filters returns exactly the items that satisfy all of them (always kept false beside secondary_collection true with a type_id list, physical true beside digital true with every type id /types.php lists, a tag beside secondary_collection true (and digital false where the walk holds a witness of each), and the fewest filters no item satisfies, an empty cursor page), each row with its item's flags and tags as the walk shows them",
      requires: ['list-filters', 'full-rows'],
      accepts: FILTER_FREEDOMS,
    },
    async (t) => {
      const { rows, direction } = await t.discover.collection();
      // Runs that draw the same filters read their answer once.
      const read = readOnce((filters: Filters) => cursorWindow(t.api, { per_page: MAX_ROWS_PER_PAGE, ...filters }, { maxPages: WINDOW_PAGES }));
      const judge = async (filters: Filters): Promise<void> => {
        // The first pages of the answer, judged against the matching items up to the last id they reach.
        const window = await read(filters);
        const { pages } = window;
        const got = pages.flatMap((p) => p.rows);
        const wrong = got.find((row) => satisfies(row, filters) === 'no');
        ensure(
          'C4.8',
          !wrong,
          `filters ${JSON.stringify(filters)} returned ${wrong ? describeRow(wrong) : ''}, which does not satisfy them`,
          pages[0]?.exchange,
        );
        // Each row carries its item's four flags (§4 rule 3), whatever filters chose it: the same as the item's row in the
        // walk (a flag not set, null, reads as false on either side).
        const walked = new Map(rows.map((r) => [idOf(r.id), r]));
        const flagOf = (value: unknown) => itemFlag(value) ?? false;
        const differing = got.find((r) => {
          const known = walked.get(idOf(r.id));
          return known !== undefined && Object.values(FILTER_FLAG_FIELDS).some((f) => flagOf(r[f]) !== flagOf(known[f]));
        });
        ensure(
          'C4.8',
          !differing,
          `filters ${JSON.stringify(filters)} returned ${differing ? describeRow(differing) : ''}, but the walk's row of that item is ${describeRow(walked.get(idOf(differing?.id)) ?? {})}: each row carries its item's flags (§4 rule 3)`,
          pages[0]?.exchange,
        );
        // And its item's labels (§4 rule 3: every row carries tags, the owner's labels of the item, §2), whatever filters
        // chose it: the same labels as the walk's row of the item, in any order (the spec states none).
        const labelsOf = (r: Row) => JSON.stringify([...tagsOf(r)].sort());
        const relabelled = got.find((r) => {
          const known = walked.get(idOf(r.id));
          return known !== undefined && labelsOf(r) !== labelsOf(known);
        });
        ensure(
          'C4.10',
          !relabelled,
          `filters ${JSON.stringify(filters)} returned ${relabelled ? describeRow(relabelled) : ''}, but the walk's row of that item is ${describeRow(walked.get(idOf(relabelled?.id)) ?? {})}: each row carries its item's tags (§4 rule 3)`,
          pages[0]?.exchange,
        );
        const gotIds = new Set(got.map((r) => idOf(r.id)));
        const covered = windowBound(window, (r) => idOf(r.id), direction);
        const missing = rows.filter((row) => satisfies(row, filters) === 'yes' && covered(idOf(row.id) ?? '') && !gotIds.has(idOf(row.id)));
        const scope = window.complete ? '' : ` among the ids its first ${pages.length} pages cover`;
        ensure(
          'C4.8',
          missing.length === 0,
          `filters ${JSON.stringify(filters)} left out ${missing.length} matching item(s)${scope}, e.g. ${missing[0] ? describeRow(missing[0]) : ''}`,
          pages[0]?.exchange,
        );
      };
      // FILT-008's designed combinations (each filter of them needed, in every way of asking) take most drawn runs' places:
      // one run in twelve is drawn (one at the default 15 runs). The fixed cases come on top, a lean (budgeted) run's too:
      // each finds mutants no other check finds. kept false beside secondary_collection true: valid values (independent
      // flags, §1 vocabulary, §2; each a filter taking true or false, §4 table), answered with the unkept items of the
      // secondary collection, not refused (§4 rule 4 refuses invalid values only); with a type_id list of one or two of
      // their items' types where they have two types or more (one id or a list, every id of it counts). Physical true
      // beside digital true (the items that are both) with a type_id list of every id GET /types.php lists for the key's
      // user (2 to 20; the run's shared read): valid values (§4: ids from GET /types.php; §8 limits only page sizes),
      // answered with the matching items. A tag beside secondary_collection true (and digital false where the walk allows):
      // tag keeps only the labelled items whatever filter comes with it (§4 table). Last, the fewest filters no item
      // satisfies: an empty answer on a cursor page (no row to take a cursor from), not an error.
      const empty = unmatched(rows);
      const fixed = [
        unkeptSecondaryOfOneType(rows),
        ...formatsBesideEveryType(rows, listedTypeIds(await t.discover.shared('GET /types.php'), rows)),
        ...tagInSecondary(rows),
        ...(empty ? [empty] : []),
      ];
      await t.property(await filtersArbitrary(t), judge, { runs: Math.max(1, Math.floor(t.target.runs / 12)) });
      for (const filters of fixed) await judge(filters);
    },
  );

  check(
    {
      id: 'FILT-002',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title:
        "an item's exact title as query finds that item (always one holding &, <, > or a quote, one holding a colon, *, + or a parenthesis, one beginning with The, A or An, one holding a character outside ASCII, one beginning with a capital outside ASCII, one made only of digits and the later copy of a title held twice, where known, and the longest)",
      accepts: [
        'any search semantics that finds an exact title (substring, words, case-insensitive, fuzzy); other rows may come with it',
        'cursor pages in ascending or descending id order',
      ],
    },
    async (t) => {
      const { rows, direction } = await t.discover.collection();
      const titled = rows.filter((r) => typeof r.Title === 'string' && r.Title.trim() !== '');
      t.need(titled[0], 'no item has a title');
      // Runs that draw the same item read its search once.
      const search = readOnce((row: Row) => {
        const id = idOf(row.id) ?? '';
        return cursorWindow(
          t.api,
          { per_page: MAX_ROWS_PER_PAGE, query: row.Title },
          { maxPages: WINDOW_PAGES, enough: (p) => p.rows.some((r) => idOf(r.id) === id) },
        );
      });
      const judge = async (row: Row): Promise<void> => {
        const id = idOf(row.id) ?? '';
        const window = await search(row);
        const found = window.pages.some((p) => p.rows.some((r) => idOf(r.id) === id));
        // Pages come in id order: an item past the window's last id is judged by no page read.
        if (!found && !windowBound(window, (r) => idOf(r.id), direction)(id)) return;
        ensure(
          'C4.6',
          found,
          `query ${asJson(row.Title)} (POST /artifacts.php ${JSON.stringify({ per_page: MAX_ROWS_PER_PAGE, query: row.Title })}) did not find item ${asText(row.id)} with exactly that title`,
          window.pages[0]?.exchange,
        );
      };
      // Every time, where one is known, the first title holding a character markup or a query string escapes (&, <, >,
      // quotes): the search text is the text sent (§4 query), so a server that escapes it before matching finds nothing.
      // And the first title holding a character a search syntax reads (the colon of field:value, *, +, parentheses): the
      // query is search text (§4), so a server that parses it as syntax finds nothing for a title such as "X: Deluxe".
      // And the first title that begins with an English article (The, A, An, then a space): the query is the title's own
      // text (§4), so a server that matches it against a sort title without its article finds nothing.
      // And the first title holding a character outside ASCII, a punctuation mark or symbol (a typographic dash or quote)
      // before a letter: the query is the title's own text (§4), so a server that folds such characters before matching
      // (an en dash to a hyphen, é to e) while the titles keep theirs finds nothing.
      // They take the places of drawn runs as far as one drawn run is left, so the requests stay as they were (a lean run
      // of two cases judges the first of them only).
      const markup = titled.find((r) => /[&<>"']/.test(String(r.Title)));
      const syntax = titled.find((r) => /[:*+()]/.test(String(r.Title)));
      const article = titled.find((r) => /^(the|an?)\s+\S/i.test(String(r.Title)));
      const nonAscii = titled.find((r) => /(?=[^\p{ASCII}])[\p{P}\p{S}]/u.test(String(r.Title))) ?? titled.find((r) => /[^\p{ASCII}]/u.test(String(r.Title)));
      // And a title made only of digits (a year, a number): the query is search text (§4), not an item id to look up.
      const digits = titled.find((r) => /^\d+$/.test(String(r.Title).trim()));
      // And a title that begins with a capital outside ASCII (É, Å): a search that folds case for A to Z only misses it.
      const initial = titled.find((r) => /^(?=[^\p{ASCII}])\p{Lu}/u.test(String(r.Title)));
      // And the longest title: a search that matches only a prefix of each title (an index of its first characters) misses it.
      const longest = titled.reduce((a, b) => (String(b.Title).length > String(a.Title).length ? b : a));
      // And the later copy of a title held twice: a search that serves each title once misses it.
      const laterTwin = titled.find((r, i) => titled.findIndex((o) => o.Title === r.Title) < i);
      const runs = Math.min(t.target.runs, 10);
      const fixed = [...new Set([markup, syntax, article, nonAscii, digits, initial, longest, laterTwin].filter((r): r is Row => r !== undefined))].slice(
        0,
        Math.max(1, runs - 1),
      );
      for (const row of fixed) await judge(row);
      // One title fewer than the runs in all (the run's request count stays where it was before the longest title joined).
      await t.property(fc.constantFrom(...titled), judge, { runs: runs > 1 ? Math.max(1, runs - 1 - fixed.length) : runs });
    },
  );

  check(
    {
      id: 'FILT-003',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title:
        "the tag filter returns only items labelled with that tag (also for a part of a tag, beside a query and a type_id, holding only items the same search finds without the tag, and in page mode for up to four other labels, the most used, each beside fields collection, whose added values stay the item's own), and page 3 of a tag beside digital false (with secondary_collection false where the walk allows), at a size that leaves it one or two of its items, holds them; for the second key, its most used label beside physical false lists its items labelled with it that are not physical, and no physical one",
      accepts: ['a tag filter that ignores case', 'a tag no item carries answered with no rows or refused (any 4xx)'],
    },
    async (t) => {
      // The run's shared read of what fields "collection" adds, taken now: this check overlaps kept writes (keptBlind),
      // before which shared list answers are dropped, and the values it holds the label reads to carry no kept flag.
      const fieldsOffered = profiles[t.target.profile].has('list-fields');
      const wideRead = fieldsOffered ? t.discover.list({ per_page: MAX_ROWS_PER_PAGE, fields: 'collection' }) : undefined;
      wideRead?.catch(() => {});
      const tagged = await t.discover.itemsWithTags();
      const row = t.need(tagged[0], 'no item carries a tag (tags are empty until the owner adds them)');
      const tag = tagsOf(row)[0]!;
      // The item is the lowest id to carry a tag, so the tag's window (its first cursor pages) must hold it.
      // The run's shared window of the tag (FILT-006 reads the same one), half the tag's items a page.
      const { rows: collection } = await t.discover.collection();
      const windowBody = tagWindowBody(collection, tag);
      const { pages } = await t.discover.window(windowBody, WINDOW_PAGES);
      const got = pages.flatMap((p) => p.rows);
      // Each cursor page of the tag continues after the one before (§4 rule 2: next_cursor pages the same listing by id).
      const repeated = repeatedIn(pages);
      ensure(
        'C4.4',
        !repeated,
        `tag ${asJson(tag)} by cursor: item ${repeated?.id} came on page ${repeated?.first} and again on page ${repeated?.again}, after following next_cursor ${asJson(pages[(repeated?.again ?? 2) - 2]?.nextCursor)}`,
        pages[(repeated?.again ?? 1) - 1]?.exchange,
      );
      ensure(
        'C4.7',
        got.some((r) => idOf(r.id) === idOf(row.id)),
        `tag ${JSON.stringify(tag)} did not return item ${asText(row.id)} that carries it`,
        pages[0]?.exchange,
      );
      const stranger = got.find((r) => !tagsOf(r).some((x) => x.toLowerCase() === tag.toLowerCase()));
      ensure('C4.7', !stranger, `tag ${asJson(tag)} returned item ${asText(stranger?.id)} with tags ${asJson(stranger?.tags)}`, pages[0]?.exchange);
      // Each row carries its item's own labels, not only the one filtered by (§2: tags is the owner's list of labels, which
      // every row carries, §4 rule 3 and staging rows): the same labels as the item's row in the walk, in any order.
      const walkTags = new Map(collection.map((r) => [idOf(r.id), r.tags]));
      const relabelled = got.find((r) => {
        const known = walkTags.get(idOf(r.id));
        return Array.isArray(known) && !(Array.isArray(r.tags) && sameUnordered(r.tags, known));
      });
      ensure(
        'C2.3',
        !relabelled,
        `tag ${asJson(tag)} returned item ${asText(relabelled?.id)} with tags ${asJson(relabelled?.tags)}; its row in the collection walk carries tags ${asJson(walkTags.get(idOf(relabelled?.id)))} (a row carries the item's own labels whatever filter chose it)`,
        pages[0]?.exchange,
      );
      // The tag in title paging too, in two more circumstances: a part of the tag that is no tag itself (only
      // the label matches, not text within it), and the tag beside a query naming an item without it.
      const { rows } = await t.discover.collection();
      const allTags = new Set(rows.flatMap(tagsOf).map((x) => x.toLowerCase()));
      const part = tag.slice(0, Math.max(1, Math.ceil(tag.length / 2)));
      // The untagged item is one whose title shares no word with what the tag's carriers show, where one is known: then a
      // query dropped beside the tag shows, since the answer must hold only items that the same search finds without the
      // tag (§4: query and tag apply together), read beside it; what a search matches is not shown (words may be
      // alternatives, short words may count), so the carriers are judged against that answer, not against their words.
      const carriersShow = rows
        .filter((r) => tagsOf(r).some((x) => x.toLowerCase() === tag.toLowerCase()))
        .map((r) => JSON.stringify(Object.values(r)).toLowerCase());
      const wordsOf = (title: string) => title.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
      const apart = (r: Row) => wordsOf(String(r.Title)).length > 0 && wordsOf(String(r.Title)).every((w) => !carriersShow.some((c) => c.includes(w)));
      const untitled = rows.filter((r) => tagsOf(r).length === 0 && typeof r.Title === 'string' && r.Title.trim() !== '');
      // Where type_id is offered, the untagged item's own type beside the tag: the tag must still hold when another
      // filter that the item satisfies comes with it (both filters apply, §4), not widen into either of them.
      const typeOf = (r: Row): { type_id?: unknown } =>
        profiles[t.target.profile].has('list-filters') && idOf(r.type_id) !== undefined ? { type_id: r.type_id } : {};
      // Of the items apart, preferably one whose type (where it goes beside the tag) some carrier has: a query dropped
      // beside the tag then lists that carrier, which the search alone does not find.
      const carrierTypes = new Set(rows.filter((r) => tagsOf(r).some((x) => x.toLowerCase() === tag.toLowerCase())).map((r) => idOf(r.type_id)));
      const sharesACarrierType = (r: Row) => !('type_id' in typeOf(r)) || carrierTypes.has(idOf(r.type_id));
      const untagged = untitled.find((r) => apart(r) && sharesACarrierType(r)) ?? untitled.find(apart) ?? untitled[0];
      const probes: Record<string, unknown>[] = [
        ...(allTags.has(part.toLowerCase()) ? [] : [{ tag: part }]),
        ...(untagged ? [{ tag, query: untagged.Title, ...typeOf(untagged) }] : []),
      ];
      // The same search without the tag (with the same type beside it), where the untagged item stands apart.
      const searched = probes.find((body) => body.query !== undefined && untagged !== undefined && apart(untagged));
      const alone = searched
        ? { page: 1, per_page: MAX_ROWS_PER_PAGE, ...Object.fromEntries(Object.entries(searched).filter(([name]) => name !== 'tag')) }
        : undefined;
      const sent = probes.map((body) => ({ page: 1, per_page: MAX_ROWS_PER_PAGE, ...body }));
      const answers = await together([...sent, ...(alone ? [alone] : [])].map((body) => t.api.list(body)));
      const aloneAnswer = alone ? answers[probes.length]!() : undefined;
      for (const [i, body] of probes.entries()) {
        const ex = answers[i]!();
        const label = `POST /artifacts.php ${JSON.stringify({ page: 1, per_page: MAX_ROWS_PER_PAGE, ...body })}`;
        ensureNo5xx('C7.2', ex, label);
        if (is4xx(ex) && body.tag === part) continue;
        const wanted = String(body.tag).toLowerCase();
        const got = okRows('C4.7', ex, label);
        const wrong = got.find((r) => !tagsOf(r).some((x) => x.toLowerCase() === wanted));
        ensure('C4.7', !wrong, `${label} returned item ${asText(wrong?.id)} with tags ${asJson(wrong?.tags)}`, ex);
        if (body === searched && alone && aloneAnswer) {
          const aloneLabel = `POST /artifacts.php ${JSON.stringify(alone)}`;
          ensureNo5xx('C7.2', aloneAnswer, aloneLabel);
          const page = pageOf(aloneAnswer, alone);
          // Judged where the search alone fits its page (has_more false): a row it does not hold is then one it does not find.
          const foundAlone = new Set(page.rows.map((r) => idOf(r.id)));
          const stray = page.hasMore === false ? got.filter((r) => !foundAlone.has(idOf(r.id))) : [];
          ensure(
            'C4.6',
            stray.length === 0,
            `${label} returned ${stray.length} item(s) that the same search without the tag does not find (ids ${stray
              .map((r) => asText(r.id))
              .slice(0, 6)
              .join(
                ', ',
              )}; ${aloneLabel} holds ${page.rows.length} row(s) and says has_more false): the query was not applied beside the tag (§4: query and tag apply together)`,
            ex,
          );
        }
      }
      // A later numbered page of a tag, with digital false beside it where the filters are offered: the tag whose
      // non-digital carriers are most (three at least), preferring one that digital items carry too, asked at a page size
      // that leaves page 3 the last one or two of them (§4 table: page is the page number, per_page the page size,
      // tag and digital both filter). Judged only where the count is certain: no carrier with a digital flag not set, and
      // no other label equal to the tag but for case (a tag filter may ignore case).
      // Where the walk allows, secondary_collection false beside them too (a filter that holds on every page, §4 table: page
      // selects the page of the same filtered list). Not kept: this check reads while others toggle kept values (keptBlind),
      // so a count of kept items known from the walk may be stale.
      const filtersOffered = profiles[t.target.profile].has('list-filters');
      const extras: Filters[] = filtersOffered ? [{ secondary_collection: false }, {}] : [{}];
      const caseless = (x: string) => !rows.some((r) => tagsOf(r).some((y) => y !== x && y.toLowerCase() === x.toLowerCase()));
      const labels = [...new Set(rows.flatMap(tagsOf))].filter(caseless);
      const later = extras
        .map((extra) => {
          const sent: Filters = { ...(filtersOffered ? { digital: false } : {}), ...extra };
          const flags = Object.keys(sent) as FlagFilter[];
          return labels
            .map((x) => {
              const carriers = rows.filter((r) => tagsOf(r).includes(x));
              return {
                tag: x,
                sent,
                count: carriers.filter((r) => satisfies(r, sent) === 'yes').length,
                // Every carrier's flags known, so that the count is certain (a flag not set, null, may go either way).
                certain: carriers.every((r) => flags.every((f) => typeof itemFlag(r[FILTER_FLAG_FIELDS[f]]) === 'boolean')),
                // Carriers that only one of the filters beside the tag leaves out, each one a witness of that filter.
                witnesses: flags.filter((f) => carriers.some((r) => satisfies(r, { ...sent, [f]: !sent[f] }) === 'yes')).length,
              };
            })
            .filter((c) => c.count >= 3 && c.count - 1 <= MAX_ROWS_PER_PAGE && c.certain)
            .sort((a, b) => b.witnesses - a.witnesses || b.count - a.count)[0];
        })
        .find((c) => c !== undefined);
      if (later) {
        const perPage = Math.floor((later.count - 1) / 2);
        const left = Math.min(perPage, later.count - 2 * perPage);
        const body = { tag: later.tag, ...later.sent, per_page: perPage, page: 3 };
        const label = `POST /artifacts.php ${JSON.stringify(body)}`;
        const ex = await t.api.list(body);
        const got = okRows('C4.7', ex, label);
        const wrong = got.find((r) => !tagsOf(r).includes(later.tag) || (filtersOffered && satisfies(r, later.sent) === 'no'));
        ensure('C4.7', !wrong, `${label} returned ${wrong ? describeRow(wrong) : ''}, which does not satisfy the tag and the filters beside it`, ex);
        ensure(
          'C4.5',
          got.length === left,
          `${label}: ${later.count} items carry the tag${filtersOffered ? ` and satisfy ${JSON.stringify(later.sent)}` : ''} (known from the walk), so page 3 at ${body.per_page} a page holds ${left} of them; it holds ${got.length} row(s) (ids ${got
            .map((r) => asText(r.id))
            .slice(0, 6)
            .join(', ')}): page or a filter beside the tag was not applied`,
          ex,
        );
      }
      // Each other label the collection uses, in page mode: the tag keeps only the items the owner labelled with it (§4
      // table), whatever the label says (§2: labels are the owner's free text, and tags complement the player-count and
      // time columns, they do not replace them), so that a label a server derives from other columns shows. Bounded for
      // large collections: at most OTHER_LABELS labels beyond those sent above, the most used (ties by label), one page of
      // 200 each.
      const sentLabels = new Set([...(untagged ? [tag] : []), ...(later ? [later.tag] : [])].map((x) => x.toLowerCase()));
      const uses = new Map<string, number>();
      for (const x of rows.flatMap(tagsOf)) if (!sentLabels.has(x.toLowerCase())) uses.set(x, (uses.get(x) ?? 0) + 1);
      const others = [...uses]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .slice(0, t.target.lean ? LEAN_OTHER_LABELS : OTHER_LABELS)
        .map(([x]) => x);
      // Each asks what fields "collection" adds, where offered: a label must not rewrite the item's player-count and time
      // columns either (§2), so each row's added values are the item's own, as the run's shared read of them alone gives.
      const labelBodies = others.map((x) => ({ tag: x, page: 1, per_page: MAX_ROWS_PER_PAGE, ...(fieldsOffered ? { fields: 'collection' } : {}) }));
      // Beside them, the second key's list under the label its own user's walk (the run's shared read) shows on the most
      // items, of those whose carriers (in any case) fit one page of 200: each key reads its own user's data (§4: all
      // results are scoped to the key's user; §5), so the tag keeps that user's items labelled with it (§4 tag).
      const theirs = t.target.keys.other === undefined ? [] : (await t.discover.collection('other')).rows;
      const carriersOf = (x: string, exact: boolean) => theirs.filter((r) => tagsOf(r).some((y) => (exact ? y === x : y.toLowerCase() === x.toLowerCase())));
      const theirLabel = [...new Set(theirs.flatMap(tagsOf))]
        .filter((x) => carriersOf(x, false).length <= MAX_ROWS_PER_PAGE)
        .sort((a, b) => carriersOf(b, true).length - carriersOf(a, true).length || (a < b ? -1 : a > b ? 1 : 0))[0];
      // Where the filters are offered, physical false beside it: a filter keeps the items whose own flag satisfies it, for
      // every key (§4 table: physical is a filter; §4 rule 3: every row carries is_physical), judged by the rows' flags and
      // by that user's walk (a flag not set, null, may be listed or not).
      const theirFilter: Filters = filtersOffered ? { physical: false } : {};
      const theirBody = theirLabel === undefined ? undefined : { tag: theirLabel, ...theirFilter, page: 1, per_page: MAX_ROWS_PER_PAGE };
      const [labelAnswers, theirAnswer, wide] = await Promise.all([
        together(labelBodies.map((body) => t.api.list(body))),
        theirBody === undefined ? undefined : t.api.list(theirBody, 'other'),
        labelBodies.length > 0 ? wideRead : undefined,
      ]);
      const own = new Map((wide && is2xx(wide) ? (rowsOf(wide.response.json) ?? []) : []).map((r) => [idOf(r.id), r]));
      if (theirBody && theirAnswer) {
        const label = `POST /artifacts.php ${JSON.stringify(theirBody)} with the second key`;
        ensureNo5xx('C7.2', theirAnswer, label);
        const got = okRows('C4.7', theirAnswer, label);
        const listed = new Set(got.map((r) => idOf(r.id)));
        const due = carriersOf(theirBody.tag, true).filter((r) => satisfies(r, theirFilter) === 'yes');
        const left = due.filter((r) => !listed.has(idOf(r.id)));
        ensure(
          'C4.7',
          left.length === 0,
          `${label} returned ${got.length} row(s) and left out ${left.length} of the ${due.length} item(s) the second user's walk shows labelled ${asJson(theirBody.tag)}${filtersOffered ? ' and not physical' : ''}, e.g. item ${asText(left[0]?.id)} (tags ${asJson(left[0]?.tags)}): the tag keeps the items the key's user labelled with it, for every key`,
          theirAnswer,
        );
        const wrong = got.find((r) => !tagsOf(r).some((x) => x.toLowerCase() === theirBody.tag.toLowerCase()));
        ensure('C4.7', !wrong, `${label} returned ${wrong ? describeRow(wrong) : ''}, which is not labelled ${asJson(theirBody.tag)}`, theirAnswer);
        const physical = got.find((r) => satisfies(r, theirFilter) === 'no');
        ensure(
          'C4.8',
          !physical,
          `${label} returned ${physical ? describeRow(physical) : ''}, which physical false excludes: a filter keeps only the items whose own flag satisfies it, whoever's key reads them (§4 table)`,
          theirAnswer,
        );
      }
      for (const [i, body] of labelBodies.entries()) {
        const ex = labelAnswers[i]!();
        const label = `POST /artifacts.php ${JSON.stringify(body)}`;
        ensureNo5xx('C7.2', ex, label);
        const got = okRows('C4.7', ex, label);
        const wrong = got.find((r) => !tagsOf(r).some((x) => x.toLowerCase() === body.tag.toLowerCase()));
        ensure(
          'C4.7',
          !wrong,
          `${label} returned ${wrong ? describeRow(wrong) : ''}, which the owner did not label ${asJson(body.tag)}: the tag keeps only the items labelled with it`,
          ex,
        );
        const odd = differingCollectionValue(got, own);
        ensure(
          'C2.4',
          odd === undefined,
          `${label}: row ${asJson(odd?.row.id)} shows ${odd?.field} ${asJson(odd?.row[odd.field])}, but POST /artifacts.php {"per_page":200,"fields":"collection"} shows ${asJson(odd?.itsOwn[odd.field])} for that item (§2: tags complement the player-count and time columns, they do not replace them)`,
          ex,
        );
      }
    },
  );

  check(
    {
      id: 'FILT-004',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title: 'every list row carries id, Title, type, type_id, the four flags and a tags list',
      requires: ['full-rows'],
      accepts: [
        'ids and type ids as numbers or strings',
        'flags as 0/1, booleans, "0"/"1" or null (not set)',
        'an item with no type: type and type_id null',
        'fields the spec does not list',
      ],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      t.need(rows[0], 'the collection is empty, so there are no rows to inspect');
      for (const row of rows) {
        const where = row.id === undefined ? 'a list row without an id' : `list row of item ${asText(row.id)}`;
        ensure('C4.10', idOf(row.id) !== undefined, `${where}: id is ${asJson(row.id)}, not an id`);
        ensure('C4.10', typeof row.Title === 'string', `${where}: Title is ${asJson(row.Title)}, not a string`);
        ensure(
          'C4.10',
          typeof row.type === 'string' || (row.type === null && 'type' in row),
          `${where}: type is ${asJson(row.type)}, not a type name (or null for an item with no type)`,
        );
        ensure(
          'C4.10',
          idOf(row.type_id) !== undefined || (row.type_id === null && 'type_id' in row),
          `${where}: type_id is ${asJson(row.type_id)}, not an id (or null for an item with no type)`,
        );
        for (const field of Object.values(FILTER_FLAG_FIELDS)) {
          ensure(
            'C4.10',
            field in row && itemFlag(row[field]) !== undefined,
            `${where}: ${field} is ${field in row ? JSON.stringify(row[field]) : 'missing'}, not a flag`,
          );
        }
        ensure('C2.3', Array.isArray(row.tags) && row.tags.every((x) => typeof x === 'string'), `${where}: tags is ${asJson(row.tags)}, not a list of labels`);
      }
    },
  );

  check(
    {
      id: 'FILT-005',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title:
        'a search for text that no item shows (an unbalanced parenthesis and an apostrophe inside it) returns no item (at most 1 in 100 of the collection)',
      accepts: [
        'any search semantics (substring, words, case-insensitive, fuzzy) that leaves out items showing none of the text',
        'a stray item matched through fields the list does not show: at most 1 in 100 of the collection',
        'cursor pages in ascending or descending id order',
      ],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      t.need(rows.length >= 2 ? rows : undefined, 'fewer than two items, so a search cannot be seen to narrow the list');
      const shown = rows.map((r) => JSON.stringify(Object.values(r)).toLowerCase());
      const query = absentText(t.target.seed, (text) => !shown.some((s) => s.includes(text)));
      // Text that no listed field holds can only match through fields the list does not show or a
      // loose match; either may explain a stray item, not a share of the collection (§4: query searches).
      const bound = Math.floor(rows.length / 100);
      let seen = 0;
      const window = await cursorWindow(
        t.api,
        { per_page: MAX_ROWS_PER_PAGE, query },
        { maxPages: Math.ceil((bound + 1) / MAX_ROWS_PER_PAGE), enough: (p) => (seen += p.rows.length) > bound },
      );
      const found = window.pages.flatMap((p) => p.rows);
      ensure(
        'C4.6',
        found.length <= bound,
        `query ${JSON.stringify(query)} occurs in no item's listed fields, yet ${window.complete ? '' : 'at least '}${found.length} of the ${rows.length} items came back (at most ${bound} tolerated): the search did not narrow the list`,
        window.pages[0]?.exchange,
      );
    },
  );

  check(
    {
      id: 'FILT-006',
      level: 'MUST',
      sections: ['§2', '§4'],
      title:
        "each filter on its own, with each of its values, returns exactly the items that satisfy it, each row naming its item's type as the plain row does (also under a list of three type ids; physical true and kept true (with include uses_summary), kept false (with include uses_summary, each row's plays and last_use those of its recorded uses), secondary_collection true, one type id and a tag over two cursor pages, no item on two of them; secondary_collection true and digital false with fields collection, each row carrying what it adds)",
      // list-fields: secondary_collection true and digital false are read with fields "collection".
      requires: ['list-filters', 'full-rows', 'list-fields'],
      accepts: FILTER_FREEDOMS,
    },
    async (t) => {
      // The examples FILT-001 may draw by chance, every one of them, every time.
      const { rows, direction, ids } = await t.discover.collection();
      t.need(rows[0], 'the collection is empty, so filters cannot be observed');
      const typeIds = [...new Set(rows.map((r) => r.type_id).filter((v): v is string | number => typeof v === 'number' || typeof v === 'string'))];
      const tag = rows.flatMap(tagsOf)[0];
      const ofType = (id: unknown) => rows.filter((r) => r.type_id === id).length;
      const mostCommonType = typeIds.reduce<string | number | undefined>(
        (best, id) => (best === undefined || ofType(id) > ofType(best) ? id : best),
        undefined,
      );
      const plainRows = new Map(rows.map((r) => [idOf(r.id), r]));
      const every: Filters[] = [
        ...(Object.keys(FILTER_FLAG_FIELDS) as FlagFilter[]).flatMap((name) => [{ [name]: true }, { [name]: false }]),
        // One id: the type most items have, so that the filter is judged on the most items (an item the type filter alone
        // leaves out for a reason of its own shows where it is of that type).
        ...(mostCommonType !== undefined ? [{ type_id: mostCommonType }] : []),
        // A list of ids: three of them where three types are known (each listed type's items, the last one's too, §4 table).
        ...(typeIds.length > 1 ? [{ type_id: typeIds.slice(0, 3) }] : []),
        ...(tag !== undefined ? [{ tag }] : []),
      ];
      // A lean (budgeted) run reads the examples that found the most mutants of this check's: kept true, physical true (on
      // pages of half the physical items), digital false (with fields "collection") and the tag.
      const examples = t.target.lean ? every.filter((f) => f.kept === true || f.physical === true || f.digital === false || 'tag' in f) : every;
      // physical true is read in two cursor pages (half its matching items a page): a filter holds on every page of a
      // cursor walk, those after a cursor value too (§4: cursor pages the same listing), not only on the first.
      // So are kept false, secondary_collection true and the one type id (FILT-008 reads a list of them after a cursor): the
      // page after a cursor value filters as the first page does, and the first says another page exists (§4 rule 2).
      const twoPages = (filters: Filters): boolean =>
        filters.physical === true ||
        filters.kept === false ||
        filters.secondary_collection === true ||
        (filters.type_id !== undefined && !Array.isArray(filters.type_id));
      const pageSize = (filters: Filters): number => {
        const count = rows.filter((row) => satisfies(row, filters) === 'yes').length;
        return twoPages(filters) && count >= 2 ? Math.min(MAX_ROWS_PER_PAGE, Math.ceil(count / 2)) : MAX_ROWS_PER_PAGE;
      };
      // secondary_collection true and digital false are read with fields "collection" (primary profile: list-fields): a
      // filter acts the same whatever else the body asks for (§4), so the rows are still exactly the matching items, and
      // each carries MnP..Acq (§4 table: fields "collection" adds them to each row, whatever filter comes with it).
      const withFields = (filters: Filters): boolean => filters.secondary_collection === true || filters.digital === false;
      // physical true's, kept false's and kept true's cursor pages also ask for include uses_summary where offered: include
      // only adds plays and last_use to each row (§4 table; 0 and null for an item without uses, §2), and the flag is a
      // filter whatever include asks for, so the rows are still exactly the matching items, the unused ones too; each row's
      // summary is the item's own whatever the filters (§2).
      const summarised = (filters: Filters): boolean =>
        (filters.physical === true || filters.kept !== undefined) && profiles[t.target.profile].has('list-include');
      // The examples' windows are read together and judged in order.
      // The tag's window is the run's shared one (FILT-003 reads it too).
      const windows = await together(
        examples.map((filters) =>
          'tag' in filters
            ? t.discover.window(tagWindowBody(rows, filters.tag!), WINDOW_PAGES)
            : cursorWindow(
                t.api,
                {
                  per_page: pageSize(filters),
                  ...filters,
                  ...(withFields(filters) ? { fields: 'collection' } : {}),
                  ...(summarised(filters) ? { include: ['uses_summary'] } : {}),
                },
                { maxPages: WINDOW_PAGES },
              ),
        ),
      );
      // kept false's summaries are judged against the run's shared list of every use (FIELD-003 reads it too), where that
      // window was read with include (a lean run reads no kept false window).
      const judgedSummary = (filters: Filters): boolean => filters.kept === false && summarised(filters);
      const allUses = examples.some(judgedSummary) ? await t.discover.uses() : undefined;
      for (const [i, filters] of examples.entries()) {
        const window = windows[i]!();
        const got = window.pages.flatMap((p) => p.rows);
        // Each cursor page holds at most the per_page asked for, whatever the filter beside it (§4 table: per_page is the
        // page size, up to 200; §8): a filter with a page size of its own (the default 50, say) shows here.
        const perPage = 'tag' in filters ? tagWindowBody(rows, filters.tag!).per_page : pageSize(filters);
        const oversized = window.pages.findIndex((p) => p.rows.length > perPage);
        ensure(
          'C4.3',
          oversized === -1,
          `filter ${JSON.stringify(filters)} by cursor at per_page ${perPage}: page ${oversized + 1} of its cursor walk holds ${window.pages[oversized]?.rows.length} rows, more than the ${perPage} asked for`,
          window.pages[oversized]?.exchange,
        );
        // Each cursor page continues after the one before (§4 rule 2: next_cursor pages the same filtered listing by
        // id): no item comes back on a later page, also after the first page of a tag (cursor null) and of physical true.
        const repeated = repeatedIn(window.pages);
        ensure(
          'C4.4',
          !repeated,
          `filter ${JSON.stringify(filters)} by cursor (${window.pages[0]?.rows.length ?? 0} rows on page 1): item ${repeated?.id} came on page ${repeated?.first} and again on page ${repeated?.again}, after following next_cursor ${asJson(window.pages[(repeated?.again ?? 2) - 2]?.nextCursor)}`,
          window.pages[(repeated?.again ?? 1) - 1]?.exchange,
        );
        const wrong = got.find((row) => satisfies(row, filters) === 'no');
        // The page that holds it is the one shown (a later cursor page of physical true, say), with its number.
        const wrongAt = wrong ? window.pages.findIndex((p) => p.rows.includes(wrong)) : 0;
        ensure(
          'C4.8',
          !wrong,
          `filter ${JSON.stringify(filters)}${summarised(filters) ? ' with include ["uses_summary"]' : ''} returned ${wrong ? describeRow(wrong) : ''} on page ${wrongAt + 1} of its cursor walk, which does not satisfy it${summarised(filters) ? ' (include only adds plays and last_use to each row, §4 table: the filter applies whatever include asks for)' : ''}`,
          window.pages[wrongAt]?.exchange,
        );
        // A filter chooses rows; each still names its own item's type as the item's plain row does (§2, §4 rule 3),
        // also under a list of several type ids.
        const misnamed = got.find((row) => {
          const plain = plainRows.get(idOf(row.id));
          return plain !== undefined && (asJson(row.type) !== asJson(plain.type) || String(row.type_id) !== String(plain.type_id));
        });
        const plain = plainRows.get(idOf(misnamed?.id));
        ensure(
          'C2.1',
          !misnamed,
          `filter ${JSON.stringify(filters)} returned item ${asText(idOf(misnamed?.id))} with type ${asJson(misnamed?.type)} (type_id ${asJson(misnamed?.type_id)}), but its plain row names type ${asJson(plain?.type)} (type_id ${asJson(plain?.type_id)})`,
          window.pages[0]?.exchange,
        );
        if (withFields(filters)) {
          const lacking = got.find((row) => COLLECTION_FIELDS.some((f) => !(f in row)));
          const lackingAt = lacking ? window.pages.findIndex((p) => p.rows.includes(lacking)) : 0;
          ensure(
            'C2.4',
            !lacking,
            `filter ${JSON.stringify(filters)} with fields "collection" returned item ${asText(idOf(lacking?.id))} on page ${lackingAt + 1} of its cursor walk without ${COLLECTION_FIELDS.filter((f) => lacking !== undefined && !(f in lacking)).join(', ')} (§4 table: fields "collection" adds MnP, MxP, SS, MnT, MxT, Wt, Yr, Acq to each row)`,
            window.pages[lackingAt]?.exchange,
          );
        }
        // With include uses_summary, each row's plays and last_use summarise the item's recorded uses whatever the
        // filters beside it (§2: last_use is the date of the last recorded use; §4 table: include adds them to each row).
        if (judgedSummary(filters) && allUses)
          for (const [page, p] of window.pages.entries())
            summariesAgreeWithUses(
              p.rows,
              allUses,
              ids,
              'GET /uses.php without a parameter',
              `filter ${JSON.stringify(filters)} with include ["uses_summary"], page ${page + 1} of its cursor walk`,
            );
        const gotIds = new Set(got.map((r) => idOf(r.id)));
        const covered = windowBound(window, (r) => idOf(r.id), direction);
        const missing = rows.filter((row) => satisfies(row, filters) === 'yes' && covered(idOf(row.id) ?? '') && !gotIds.has(idOf(row.id)));
        ensure(
          'C4.8',
          missing.length === 0,
          `filter ${JSON.stringify(filters)}${summarised(filters) ? ' with include ["uses_summary"]' : ''} left out ${missing.length} matching item(s), e.g. ${missing[0] ? describeRow(missing[0]) : ''}${summarised(filters) ? ' (include only adds plays and last_use to each row, §4 table: it leaves no item out, an unused one neither)' : ''}`,
          window.pages[0]?.exchange,
        );
      }
    },
  );

  check(
    {
      id: 'FILT-007',
      level: 'MUST',
      sections: ['§4'],
      title:
        'filters and search keep their meaning under both ways of paging: three flags in page mode, one type id on page 2 one row short of the items of that type holding the one left and saying has_more false, kept false with fields collection in page mode one row short of the unkept items holding only unkept items on pages 1 and 2 and saying has_more true, a search with a type filter (and include uses_summary and fields collection, holding only what the search alone finds) and with each flag (digital true where a found item is not digital), a search read by page and by two small cursor pages, a search without per_page in pages of 50, and a broad search in a page of 200, both in the order the title-ordered listing gives their items',
      requires: ['list-filters', 'full-rows'],
      accepts: [
        ...FILTER_FREEDOMS,
        "any search semantics: a search with a filter must return the search's own answer narrowed by the filter",
        'any usual title collation in page mode (as PAGE-007)',
        "a page-mode search in an order of its own under a usual collation, or in the listing's order under any collation; any order among titles a usual collation ties",
      ],
    },
    async (t) => {
      const { rows, direction } = await t.discover.collection();
      const word = t.need(commonTitleWord(rows), 'no word is shared by two titles, so no search is known to have several answers');
      const ids = (list: readonly Row[]) => list.map((r) => idOf(r.id) ?? '?');
      // Three flags in page mode, one page with room for every fitting item: exactly those (not only those among the
      // first titles), by title, and the last page (§4 rule 2).
      const fitting = rows.filter((row) => satisfies(row, PAGE_FLAGS) !== 'no');
      if (fitting.length < MAX_ROWS_PER_PAGE) {
        const body = { ...PAGE_FLAGS, per_page: fitting.length + 1, page: 1 };
        const page = await fetchPage(t.api, body);
        const label = `POST /artifacts.php ${JSON.stringify(body)}`;
        const wrong = page.rows.find((row) => satisfies(row, PAGE_FLAGS) === 'no');
        ensure(
          'C4.8',
          !wrong,
          `${label} returned ${wrong ? describeRow(wrong) : ''}, which does not satisfy every filter (§4: each one filters)`,
          page.exchange,
        );
        const got = new Set(ids(page.rows));
        const missing = fitting.filter((row) => satisfies(row, PAGE_FLAGS) === 'yes' && !got.has(idOf(row.id) ?? '?'));
        ensure(
          'C4.8',
          missing.length === 0,
          `${label} left out ${missing.length} item(s) that satisfy every filter, e.g. ${missing[0] ? describeRow(missing[0]) : ''}`,
          page.exchange,
        );
        ensure(
          'C4.4',
          page.hasMore === false,
          `${label} holds every fitting item with room to spare, yet has_more is ${asText(page.hasMore)} (§4 rule 2)`,
          page.exchange,
        );
        const titles = page.rows.map((r) => String(r.Title ?? ''));
        const ordered = titleCollations.some((c) => titles.every((title, i) => i === 0 || c.compare(titles[i - 1]!, title) <= 0));
        ensure(
          'C4.5',
          ordered,
          `${label}: page paging is by title (§4: cursor pages by id instead), but these titles follow no usual collation: ${titles
            .slice(0, 6)
            .map((x) => JSON.stringify(x))
            .join(', ')}…`,
          page.exchange,
        );
      }
      // One type id in page mode, page 2 at one row short of the items of the type the walk shows most (two at least): the
      // filter holds on every page of the filtered list (§4 table: type_id is a filter, page the page number, per_page the
      // page size), so page 2 holds the one item of that type left, judged by each row's own type_id. A lean (budgeted)
      // run leaves it out.
      const typeCounts = new Map<string, { id: string | number; count: number }>();
      for (const row of rows) {
        const id = row.type_id;
        if ((typeof id !== 'number' && typeof id !== 'string') || idOf(id) === undefined) continue;
        const seen = typeCounts.get(String(id)) ?? { id, count: 0 };
        typeCounts.set(String(id), { id: seen.id, count: seen.count + 1 });
      }
      const mostTyped = [...typeCounts.values()]
        .filter((c) => c.count >= 2 && c.count - 1 <= MAX_ROWS_PER_PAGE)
        .sort((a, b) => b.count - a.count || compareIds(String(a.id), String(b.id)))[0];
      if (mostTyped && !t.target.lean) {
        const body = { type_id: mostTyped.id, per_page: mostTyped.count - 1, page: 2 };
        const label = `POST /artifacts.php ${JSON.stringify(body)}`;
        const page = await fetchPage(t.api, body);
        const typed = new Set(rows.filter((r) => String(r.type_id) === String(mostTyped.id)).map((r) => idOf(r.id)));
        const wrong = page.rows.find((r) => satisfies(r, { type_id: mostTyped.id }) === 'no');
        ensure(
          'C4.8',
          !wrong,
          `${label} returned ${wrong ? describeRow(wrong) : ''}, which type_id ${asJson(mostTyped.id)} excludes (§4 table: type_id is a filter on every page of the filtered list, not on page 1 only)`,
          page.exchange,
        );
        const stranger = page.rows.find((r) => !typed.has(idOf(r.id)));
        ensure(
          'C4.5',
          page.rows.length === 1 && !stranger,
          `${label}: the walk shows ${mostTyped.count} items of type ${asJson(mostTyped.id)}, so page 2 at ${body.per_page} a page holds the one left; it holds ${page.rows.length} row(s) (ids ${page.rows
            .map((r) => asText(r.id))
            .slice(0, 6)
            .join(', ')})${stranger ? `, among them item ${asText(stranger.id)} the walk does not show of that type` : ''}`,
          page.exchange,
        );
        // Holding the one left, page 2 is the last page of the type: no other page exists (§4 rule 2). Not judged where
        // that page is full (a page size of 1): whether an empty page after a full one "exists" is not stated.
        ensure(
          'C4.4',
          page.hasMore !== true || Number(body.per_page) <= 1,
          `${label}: the walk shows ${mostTyped.count} items of type ${asJson(mostTyped.id)}, and page 2 at ${body.per_page} a page holds the one left, yet it says has_more ${asJson(page.hasMore)} (§4 rule 2: has_more says whether another page exists, whatever the filters)`,
          page.exchange,
        );
      }
      // kept false in page mode, one row short of the unkept items the walk knows (a flag not set, null, is not counted):
      // at least one more of them is left for page 2, so page 1 is full and says has_more true (§4 rule 2: has_more says
      // whether another page exists; §4 table: kept false is a filter, per_page the page size).
      const unkept = rows.filter((row) => satisfies(row, { kept: false }) === 'yes').length;
      // With fields "collection" beside it where offered: fields only adds columns to each row (§4 table), so kept false
      // still keeps only the items that are not kept.
      if (unkept >= 2) {
        const body = {
          kept: false,
          per_page: Math.min(MAX_ROWS_PER_PAGE, unkept - 1),
          page: 1,
          ...(profiles[t.target.profile].has('list-fields') ? { fields: 'collection' } : {}),
        };
        // Page 2 of the same body beside it: the filter holds on every page of the filtered list, not on the first only (§4
        // table). Judged by each row's own flag, which no toggle of another check between the walk and this read can stale.
        const second = { ...body, page: 2 };
        const [first, next] = await together([t.api.list(body), t.api.list(second)]);
        const page = pageOf(first!(), body);
        const label = `POST /artifacts.php ${JSON.stringify(body)}`;
        for (const [sent, read] of [
          [body, page],
          [second, pageOf(next!(), second)],
        ] as const) {
          const kept = read.rows.find((row) => satisfies(row, { kept: false }) === 'no');
          ensure(
            'C4.8',
            !kept,
            `POST /artifacts.php ${JSON.stringify(sent)} returned ${kept ? describeRow(kept) : ''}, which kept false excludes (§4 table: kept is a filter on every page; fields only adds columns)`,
            read.exchange,
          );
        }
        ensure(
          'C4.4',
          page.hasMore === true,
          `${label}: the walk shows ${unkept} unkept items, more than the ${body.per_page} a page, so another page exists, yet has_more is ${asText(page.hasMore)} (${page.rows.length} row(s) on page 1; §4 rule 2: has_more says whether another page exists)`,
          page.exchange,
        );
      }
      // The search alone, by cursor: in id order (§4: cursor pages by id).
      // The run's shared read of the search (FILT-008 reads the same one).
      const search = await t.discover.window({ per_page: MAX_ROWS_PER_PAGE, query: word }, WINDOW_PAGES);
      const found = search.pages.flatMap((p) => p.rows);
      const foundIds = ids(found);
      const outOfOrder = foundIds.findIndex((id, i) => i > 0 && inWalkOrder(direction)(foundIds[i - 1]!, id) > 0);
      ensure(
        'C4.4',
        outOfOrder === -1,
        `query ${JSON.stringify(word)} by cursor is not in id order (${direction}): ${foundIds[outOfOrder - 1]} before ${foundIds[outOfOrder]}`,
        search.pages[0]?.exchange,
      );
      // Page-mode searches keep the title order (§4: pages go by title, a cursor pages by id instead of by title; query
      // only chooses the rows): their items come as the title-ordered listing gives them, the run's shared read of page 1
      // at 200 a page (items past it are not judged).
      const listingBody = { per_page: MAX_ROWS_PER_PAGE };
      const listing = okRows('C4.5', await t.discover.list(listingBody), `POST /artifacts.php ${JSON.stringify(listingBody)}`);
      const keepsTitleOrder = (page: { rows: Row[]; exchange: Exchange }, body: Record<string, unknown>): void => {
        const problem = searchOrderProblem(page.rows, listing);
        ensure(
          'C4.5',
          problem === undefined,
          `POST /artifacts.php ${JSON.stringify(body)} (page mode) ${problem}, and its titles follow no usual collation: page paging is by title (§4: a cursor pages by id instead of by title) and query only chooses the rows`,
          page.exchange,
        );
      };
      // The search without per_page: the default page size holds for a search too (§4 table, §8: 50).
      if (search.complete) {
        const plain = await fetchPage(t.api, { query: word });
        keepsTitleOrder(plain, { query: word });
        const expected = Math.min(DEFAULT_ROWS_PER_PAGE, found.length);
        ensure(
          'C4.4',
          found.length <= DEFAULT_ROWS_PER_PAGE || plain.hasMore !== false,
          `query ${JSON.stringify(word)} finds ${found.length} items, more than the default page of ${DEFAULT_ROWS_PER_PAGE}, yet page 1 says has_more false (§4 rule 2: it says whether another page exists)`,
          plain.exchange,
        );
        // And the other way: a page 1 that holds every item the search finds has no page after it.
        ensure(
          'C4.4',
          found.length > DEFAULT_ROWS_PER_PAGE || plain.hasMore !== true,
          `query ${JSON.stringify(word)} finds ${found.length} items, which the default page of ${DEFAULT_ROWS_PER_PAGE} holds, yet page 1 says has_more true (§4 rule 2: it says whether another page exists)`,
          plain.exchange,
        );
        ensure(
          'C4.3',
          plain.rows.length === expected,
          `query ${JSON.stringify(word)} finds ${found.length} items, but without per_page it returned ${plain.rows.length} rows; the default page size is ${DEFAULT_ROWS_PER_PAGE}, so ${expected} were due`,
          plain.exchange,
        );
      }
      // A broad search (the letter most titles hold) read at the largest page size both ways: by cursor, and page 1 by
      // page number, which then holds as many of its items as the page allows (§4: per_page up to 200, §8), whatever
      // the search semantics (both read the same search).
      // A lean (budgeted) run leaves out the one-letter search: two requests that found the fewest mutants of this check's.
      const letter = t.target.lean ? undefined : commonTitleLetter(rows);
      if (letter !== undefined) {
        const cursorBody = { per_page: MAX_ROWS_PER_PAGE, query: letter, cursor: null };
        const broadBody = { query: letter, per_page: MAX_ROWS_PER_PAGE, page: 1 };
        const [byCursor, byPage] = await Promise.all([t.api.list(cursorBody), t.api.list(broadBody)]);
        // A search text of one letter may be refused (no minimum length is shown): then nothing is judged here.
        if (byCursor.response.status === 200 && byPage.response.status === 200) {
          const broad = pageOf(byCursor, cursorBody);
          const broadPage = pageOf(byPage, broadBody);
          const matches = broad.rows.length;
          keepsTitleOrder(broadPage, broadBody);
          // Known when the cursor page is the last, or full (at least a page's worth exist).
          if (broad.hasMore === false || matches === MAX_ROWS_PER_PAGE)
            ensure(
              'C4.3',
              broadPage.rows.length === matches,
              `query ${JSON.stringify(letter)} finds ${broad.hasMore === false ? '' : 'at least '}${matches} items by cursor at ${MAX_ROWS_PER_PAGE} a page, but POST /artifacts.php ${JSON.stringify(broadBody)} returned ${broadPage.rows.length} rows; a page of ${MAX_ROWS_PER_PAGE} holds ${matches}`,
              broadPage.exchange,
            );
        }
      }
      // The search beside a filter: the search's answer narrowed by the filter, nothing more or less. The type of a
      // found item, and each independent flag at the value the first found item lacks (so that a flag left unapplied shows).
      // The flag requests also carry a user id: beside a filter it is ignored as anywhere (§4), and a server that
      // honoured it would answer with items the search does not find.
      if (search.complete) {
        const type = found.map((r) => r.type_id).find((v) => idOf(v) !== undefined);
        // The type filter's search also asks for include uses_summary and fields "collection" where offered: include only
        // adds plays and last_use to each row, fields only MnP..Acq (§4 table), so the search still narrows: its rows are
        // rows of the same search's own answer without them (a search text ignored beside fields shows).
        const offered = profiles[t.target.profile];
        const additions = {
          ...(offered.has('list-include') ? { include: ['uses_summary'] } : {}),
          ...(offered.has('list-fields') ? { fields: 'collection' } : {}),
        };
        const summary = Object.keys(additions).length > 0 ? { extra: additions } : {};
        const narrowed: { filters: Filters; extra?: Record<string, unknown> }[] = [
          ...(type !== undefined ? [{ filters: { type_id: type as string | number }, ...summary }] : []),
          ...(['physical', 'digital', 'secondary_collection'] as const).map((name) => ({
            // digital true wherever a found item is not digital (it still lacks the value): a search beside digital true
            // must hold to the search as well (§4: query and the filters apply together).
            filters: {
              [name]: name === 'digital' ? found.some((r) => itemFlag(r.is_digital) !== true) : itemFlag(found[0]?.[FILTER_FLAG_FIELDS[name]]) !== true,
            },
            extra: { user_id: OTHER_USER_ID },
          })),
        ];
        const windows = await together(
          narrowed.map(({ filters, extra }) =>
            cursorWindow(t.api, { per_page: MAX_ROWS_PER_PAGE, query: word, ...filters, ...extra }, { maxPages: WINDOW_PAGES }),
          ),
        );
        const inSearch = new Set(foundIds);
        for (const [i, { filters, extra }] of narrowed.entries()) {
          const both = windows[i]!();
          const label = `POST /artifacts.php ${JSON.stringify({ per_page: MAX_ROWS_PER_PAGE, query: word, ...filters, ...extra })}`;
          const got = both.pages.flatMap((p) => p.rows);
          const stranger = got.find((r) => !inSearch.has(idOf(r.id) ?? '?'));
          ensure(
            'C4.6',
            !stranger,
            `${label} returned ${stranger ? describeRow(stranger) : ''}, which the search alone does not find: the query was not applied with the filter${extra?.user_id !== undefined ? ' (or the user id was honoured)' : extra?.include !== undefined || extra?.fields !== undefined ? ` and ${[extra.include === undefined ? '' : 'include uses_summary', extra.fields === undefined ? '' : 'fields "collection"'].filter(Boolean).join(' and ')} (they only add fields to each row, §4 table)` : ''}`,
            both.pages[0]?.exchange,
          );
          const wrong = got.find((r) => satisfies(r, filters) === 'no');
          ensure(
            'C4.8',
            !wrong,
            `${label} returned ${wrong ? describeRow(wrong) : ''}, which does not satisfy the filter beside the query`,
            both.pages[0]?.exchange,
          );
          const gotIds = new Set(ids(got));
          const left = found.filter((r) => satisfies(r, filters) === 'yes' && !gotIds.has(idOf(r.id) ?? '?'));
          ensure(
            'C4.8',
            !both.complete || left.length === 0,
            `${label} left out ${left.length} item(s) the search finds that satisfy the filter, e.g. ${left[0] ? describeRow(left[0]) : ''}`,
            both.pages[0]?.exchange,
          );
        }
      }
      // The search by page: page 2 at one row less than the search finds holds the one row left (§4: page is the
      // page number); and by cursor at that size, each step can go on (§4 rule 2) and the rows come as at 200 a page.
      t.need(
        search.complete && found.length >= 3 && found.length <= MAX_ROWS_PER_PAGE ? found : undefined,
        `query ${JSON.stringify(word)} found ${found.length} item(s), too few to page through`,
      );
      const size = found.length - 1;
      // Page 1 at that size is followed by the one row left (§4 rule 2), where page 1 of 50 did not show it already.
      const [first, second] = await Promise.all([
        found.length <= DEFAULT_ROWS_PER_PAGE ? fetchPage(t.api, { query: word, per_page: size, page: 1 }) : undefined,
        fetchPage(t.api, { query: word, per_page: size, page: 2 }),
      ]);
      if (first)
        ensure(
          'C4.4',
          first.hasMore !== false,
          `query ${JSON.stringify(word)} finds ${found.length} items, so page 1 at ${size} a page is followed by one more, yet it says has_more false (§4 rule 2)`,
          first.exchange,
        );
      const stray = second.rows.find((r) => !foundIds.includes(idOf(r.id) ?? '?'));
      ensure(
        'C4.5',
        second.rows.length === 1 && !stray,
        `query ${JSON.stringify(word)} finds ${found.length} items, so page 2 at ${size} a page holds the one left; it holds ${second.rows.length} row(s)${stray ? `, among them item ${asText(stray.id)} the search does not find` : ''}`,
        second.exchange,
      );
      // A lean (budgeted) run leaves out the cursor page at that size: the request that found the fewest mutants of this check's.
      if (!t.target.lean) {
        // Two of its pages: the second, after the first's next_cursor, goes on where the first ended (§4: the cursor pages
        // on), so together they hold the search's first items in order (a page may hold fewer than per_page rows).
        const small = await cursorWindow(t.api, { per_page: size, query: word }, { maxPages: 2 });
        const smallIds = small.pages.flatMap((p) => ids(p.rows));
        ensure(
          'C4.4',
          smallIds.every((id, i) => id === foundIds[i]),
          `query ${JSON.stringify(word)} by cursor at ${size} a page gives ${smallIds.join(', ')} over ${small.pages.length} page(s); at ${MAX_ROWS_PER_PAGE} a page it starts ${foundIds.slice(0, smallIds.length).join(', ')}`,
          small.pages.at(-1)?.exchange,
        );
      }
    },
  );
});

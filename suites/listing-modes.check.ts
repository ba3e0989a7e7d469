import {
  describe,
  badRequestWithErrors,
  check,
  ensure,
  ensureNo5xx,
  asJson,
  idOf,
  looseFieldValue,
  is4xx,
  itemFlag,
  MAX_ROWS_PER_PAGE,
  okRows,
  pageOf,
  rowsOf,
  titleCollations,
  together,
  typeIdsAreNumeric,
  typeIdsOf,
  is2xx,
  type CheckContext,
  type Exchange,
  type Row,
  COLLECTION_FIELDS,
  missingField,
  SUMMARY_FIELDS,
  differingItemState,
} from '../src/harness/index.ts';

/** Rows of a page that would fit this many rows: small, so that a later page exists in a collection of any size. */
const SMALL_PAGE = 20;

/** The flag filters and the row field each filters on (§4 table). */
const FLAG_FILTERS = { kept: 'is_kept', physical: 'is_physical', digital: 'is_digital', secondary_collection: 'is_in_secondary_collection' } as const;

/**
 * A type id the second user's GET /types.php lists and the first user's does not (nor any of the first user's items
 * carries), sent as the first user's ids are (a number where theirs are numbers): an id of the service that is no type of
 * the key's user. Undefined without a second key, or where both users' lists name the same types. Both lists and the
 * second user's walk are shared reads of the run.
 */
async function foreignTypeId(t: CheckContext, rows: readonly Row[], like: unknown): Promise<string | number | undefined> {
  if (t.target.keys.other === undefined) return undefined;
  const used = (list: readonly Row[]) => [...new Set(list.map((r) => idOf(r.type_id)).filter((id): id is string => id !== undefined))];
  const [mine, theirs, other] = await Promise.all([
    t.discover.shared('GET /types.php'),
    t.discover.shared('GET /types.php (second user)'),
    t.discover.collection('other'),
  ]);
  // Whether each list is readable is TYPE-001's and TYPE-002's to judge: here only the ids they name.
  if (!is2xx(mine) || !is2xx(theirs)) return undefined;
  const own = used(rows);
  const myIds = typeIdsOf(rowsOf(mine.response.json) ?? [], own);
  const theirIds = typeIdsOf(rowsOf(theirs.response.json) ?? [], used(other.rows));
  const id = myIds && theirIds ? [...theirIds].find((id) => !myIds.has(id) && !own.includes(id)) : undefined;
  return id !== undefined && typeof like === 'number' && /^\d+$/.test(id) ? Number(id) : id;
}

describe('global statements of the list over every listing mode (§4 rules 3 and 4)', () => {
  check(
    {
      id: 'LIST-001',
      level: 'MUST',
      sections: ['§4', '§7'],
      keptBlind: true,
      title:
        "a type_id list with one invalid entry (null included) after valid ones answers 400 with an errors list; type_id 0, a fraction of a real type id, and a list naming one type twice, is refused or lists only items of that type (each once); a list naming one of the key's types beside a type only the second user's /types.php lists is refused or lists every item of the key's type",
      requires: ['list-filters'],
      accepts: [
        'error entries of any shape',
        'string type ids: then a word is no invalid type_id',
        'type_id 0 (an id no type may have): refused with any 4xx, or a page holding only items whose type_id is 0 (none, where no type has it)',
        'a fraction of a real type id (3.5 beside type 3): refused with any 4xx, or a page holding no item of another type_id',
        'a list naming one type id twice: refused with any 4xx, or a page of items of that type, each once',
        "a list naming a type only the second user's /types.php lists beside one of the key's types: refused with any 4xx, or the key's type's items (and any of the other type)",
      ],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      const valid = [...new Set(rows.map((r) => r.type_id).filter((id) => id !== undefined && id !== null))].slice(0, 2);
      const first = t.need(valid[0], 'no row carries a type_id, so there is no valid entry to put before the invalid one');
      // Wrong kinds no reading of a type id could accept, each after valid ids (and a word, where ids are numbers).
      // null is no id either (§4 table: one id or a list of ids).
      const bad: unknown[] = [null, { id: 1 }, ...(typeIdsAreNumeric(rows) ? ['board-game'] : [])];
      const bodies = bad.map((entry, i) => ({ type_id: i % 2 === 0 ? [first, entry] : [...valid, entry] }));
      // Ids no type may have: 0, and where ids are whole numbers, half past a real one (a server that rounds it lists that type).
      const odd: number[] = [0, ...(typeof first === 'number' && Number.isInteger(first) ? [first + 0.5] : [])];
      // A list naming one type twice still names that one type: a filter keeps items, it does not repeat them (§4 table).
      const repeated = { type_id: [first, first] };
      // A list naming the first type beside a type only the second user's /types.php lists (ids come from GET /types.php,
      // §4 table): that id is invalid for the key's user (400, rule 4) or a type the user has no items of, and a list keeps
      // the items of any type it names, so the first type's items are listed either way.
      const foreign = await foreignTypeId(t, rows, first);
      const mixed = foreign === undefined ? undefined : { type_id: [first, foreign], per_page: MAX_ROWS_PER_PAGE };
      const [oddAnswers, answers, twice, mixedAnswer] = await Promise.all([
        together(odd.map((typeId) => t.api.list({ type_id: typeId }))),
        together(bodies.map((body) => t.api.list(body))),
        t.api.list(repeated),
        mixed === undefined ? undefined : t.api.list(mixed),
      ]);
      for (const [i, body] of bodies.entries()) badRequestWithErrors('C4.11', answers[i]!(), `POST /artifacts.php ${JSON.stringify(body)}`);
      // Each: an id of no type (then invalid, or matching nothing) or of one type; never another type, nor no filter at all (§4 table: type_id filters).
      for (const [i, typeId] of odd.entries()) {
        const answer = oddAnswers[i]!();
        const what = `POST /artifacts.php {"type_id":${typeId}}`;
        ensureNo5xx('C7.2', answer, what);
        if (is4xx(answer)) continue;
        const other = okRows('C4.8', answer, what).find((r) => String(r.type_id) !== String(typeId));
        ensure(
          'C4.8',
          other === undefined,
          `${what} listed item ${String(idOf(other?.id))} of type_id ${JSON.stringify(other?.type_id)}: a type filter lists only items of the type asked for`,
          answer,
        );
      }
      if (mixed !== undefined && mixedAnswer !== undefined) {
        const what = `POST /artifacts.php ${JSON.stringify(mixed)} (type ${asJson(foreign)} only the second user's GET /types.php lists)`;
        ensureNo5xx('C7.2', mixedAnswer, what);
        if (!is4xx(mixedAnswer)) {
          const listed = okRows('C4.8', mixedAnswer, what);
          const named = mixed.type_id.map(String);
          const other = listed.find((r) => !named.includes(String(r.type_id)));
          ensure('C4.8', other === undefined, `${what} listed item ${String(idOf(other?.id))} of type_id ${asJson(other?.type_id)}`, mixedAnswer);
          const ofFirst = rows.filter((r) => String(r.type_id) === String(first));
          const got = new Set(listed.map((r) => idOf(r.id)));
          const missing = ofFirst.filter((r) => !got.has(idOf(r.id)));
          ensure(
            'C4.8',
            ofFirst.length > MAX_ROWS_PER_PAGE ? listed.length === MAX_ROWS_PER_PAGE : missing.length === 0,
            `${what} answered ${mixedAnswer.response.status} with ${listed.length} row(s), leaving out ${missing.length} of the ${ofFirst.length} item(s) of type_id ${asJson(first)} (e.g. item ${String(idOf(missing[0]?.id))}): a type_id list keeps the items of every type it names, and an id that is no type of the user's is refused with 400 (rule 4), not read as matching nothing`,
            mixedAnswer,
          );
        }
      }
      const what = `POST /artifacts.php ${JSON.stringify(repeated)}`;
      ensureNo5xx('C7.2', twice, what);
      if (is4xx(twice)) return;
      const listed = okRows('C4.8', twice, what);
      const other = listed.find((r) => String(r.type_id) !== String(first));
      ensure('C4.8', other === undefined, `${what} listed item ${String(idOf(other?.id))} of type_id ${asJson(other?.type_id)}`, twice);
      const ids = listed.map((r) => idOf(r.id));
      const again = ids.find((id, i) => ids.indexOf(id) !== i);
      ensure(
        'C4.8',
        again === undefined,
        `${what} listed item ${String(again)} more than once: a type named twice is still one filter, and each item is one row`,
        twice,
      );
    },
  );

  check(
    {
      id: 'LIST-002',
      level: 'MUST',
      sections: ['§2', '§4'],
      title:
        'every row carries the fields of rule 3 in every listing mode (GET, POST {}, page, cursor, query, tag, filters, fields, include), and on a later page and on cursor pages what fields and include add; in every mode a row keeps its title, its type name, its type id, its flags, its tags and the values fields and include add, and honours the flag filters sent (on a later page too, two of them) and the tag sent; kept true beside secondary_collection true one row short of those items holds no more rows than asked for; digital true beside physical false one row short of those items says has_more; a small cursor page of secondary_collection at the value most items have says has_more, and it and the next hold no more rows than asked for; a tag beside a list of type ids on a numbered page one row short keeps title order, holds no more rows than asked for and says has_more',
      requires: ['full-rows', 'list-filters', 'list-fields', 'list-include'],
      accepts: [
        'flags as 0/1, booleans or null; extra fields in any mode',
        'tags in any order',
        'a value fields or include adds as a number or its decimal text, a date alone or at midnight, and an unknown one as null or an empty text, each mode its own way',
        'any usual title collation on a numbered page (as PAGE-007), any order among equal titles',
      ],
    },
    async (t) => {
      const { rows, pages } = await t.discover.collection();
      const item = t.need(rows[0], 'the collection is empty, so no mode lists a row');
      // A tag of an item with several labels where one has them, so that a row trimmed to the label searched for shows.
      const labelsOf = (r: Row): string[] => (Array.isArray(r.tags) ? r.tags.map(String) : []);
      const carriers = (tag: string) => rows.filter((r) => labelsOf(r).includes(tag)).length;
      // Where one is known, a label of such an item that two items carry: its numbered page is then asked one row
      // short of the items known to carry it, so page 1 must say has_more true (§4 rule 2).
      const shared = rows
        .filter((r) => labelsOf(r).length > 1)
        .flatMap(labelsOf)
        .find((tag) => carriers(tag) > 1);
      const tagged = rows.find((r) => Array.isArray(r.tags) && r.tags.length > 1) ?? rows.find((r) => Array.isArray(r.tags) && r.tags.length > 0);
      const tag = shared ?? (tagged ? String((tagged.tags as unknown[])[0]) : undefined);
      const tagPage = shared !== undefined ? { per_page: Math.min(carriers(shared) - 1, MAX_ROWS_PER_PAGE) } : {};
      // Beside the tag on its numbered page, a list of the types its carriers have (two at least: another type of the
      // collection beside a single one), so that every carrier still satisfies both filters and the page is still one
      // row short of them: a type_id list keeps the paging of page mode (by title, with has_more, §4) as one id does.
      // The type of the carrier whose title comes first is named last, so that rows served grouped by the list's
      // order instead of by title show.
      const carrierRows = shared !== undefined ? rows.filter((r) => labelsOf(r).includes(shared)) : [];
      const byTitle = [...carrierRows].sort((a, b) => titleCollations[2]!.compare(String(a.Title ?? ''), String(b.Title ?? '')));
      const carrierTypes = [...new Set(byTitle.map((r) => r.type_id).filter((v) => idOf(v) !== undefined))].reverse();
      const otherType = rows.map((r) => r.type_id).find((v) => idOf(v) !== undefined && !carrierTypes.some((c) => String(c) === String(v)));
      const typeList = carrierTypes.length >= 2 ? carrierTypes : carrierTypes.length === 1 && otherType !== undefined ? [otherType, ...carrierTypes] : [];
      const tagTypes = typeList.length >= 2 ? { type_id: typeList } : {};
      // The search is for the first item whose title holds a character markup escapes (&, <, >, quotes) where one is
      // known, so that a search that serves titles escaped for a web page shows (§2: Title is the item title).
      // The type filter beside it names the item's own type where it has one (§2 does not say every item has a type;
      // a list naming null names no type id and may be refused), so an item with a type is preferred.
      const typed = (r: Row) => idOf(r.type_id) !== undefined;
      const markup = (r: Row) => typeof r.Title === 'string' && /[&<>"']/.test(r.Title);
      const searched = rows.find((r) => markup(r) && typed(r)) ?? rows.find(markup) ?? rows.find(typed) ?? item;
      const title = String(searched.Title ?? '');
      // Each search also carries a second parameter, and fields or include, so that one request judges the
      // combinations as well (a search beside a filter, a tag on a numbered page, two filters, a filter while
      // paging by cursor; what fields and include add, under each).
      const summary = { include: ['uses_summary'] };
      // A page size one row short of `count` items (where there are two or more): another page exists.
      const oneShortOf = (count: number) => (count >= 2 ? { per_page: Math.min(MAX_ROWS_PER_PAGE, count - 1) } : {});
      const keptSecondaryCount = rows.filter((r) => itemFlag(r.is_kept) === true && itemFlag(r.is_in_secondary_collection) === true).length;
      const keptSecondary: Record<string, unknown> = {
        kept: true,
        secondary_collection: true,
        ...oneShortOf(keptSecondaryCount),
        fields: 'collection',
        ...summary,
      };
      // digital true beside physical false, one row short of the items the walk knows to be digital and not physical (where
      // it knows two or more): another page exists, so page 1 says has_more true (§4 rule 2), whatever filter chose it.
      const digitalOnlyCount = rows.filter((r) => itemFlag(r.is_digital) === true && itemFlag(r.is_physical) === false).length;
      const digitalOnly: Record<string, unknown> = {
        physical: false,
        digital: true,
        ...oneShortOf(digitalOnlyCount),
        fields: 'collection',
        ...summary,
      };
      const searches: Record<string, unknown>[] = [
        {
          query: title.slice(0, Math.max(3, Math.ceil(title.length / 2))),
          ...(typed(searched) ? { type_id: [searched.type_id] } : {}),
          fields: 'collection',
          ...summary,
        },
        ...(tag !== undefined ? [{ tag, page: 1, ...tagPage, ...tagTypes, fields: 'collection', ...summary }] : []),
        // A true secondary filter beside kept: a filter that also admits kept items outside the secondary collection shows.
        // Both filter bodies carry fields and include too: what they add describes the item, whatever filter chose its row.
        // Where the walk knows two such items or more, a per_page one short of them: per_page is the page size whatever
        // filter comes with it (§4 table), so a kept filter with a page size of its own (the default 50) shows.
        keptSecondary,
        digitalOnly,
        // The type of the first typed item (an item may have none, §2, and null is no type id to filter by).
        ...[rows.find(typed)].flatMap((r) => (r === undefined ? [] : [{ cursor: null, type_id: r.type_id, ...summary }])),
      ];
      // The later page also filters by physical, at the value some row of the unfiltered list's titles 21-40 lacks
      // (page 1 of POST {}, the run's shared read): a filter applied to page 1 only then shows (§4 table: a page of the
      // same filtered list). True where a row there lacks it, as most items are physical in most collections.
      const unfiltered = rowsOf((await t.discover.list({})).response.json) ?? [];
      const later = unfiltered.slice(SMALL_PAGE, 2 * SMALL_PAGE).map((r) => itemFlag(r.is_physical));
      const physical = later.length === 0 || later.some((value) => value !== true);
      // Beside it, secondary_collection at the value most items of the walk that satisfy that physical filter have, so that
      // page 2 under both still holds rows where the walk knows more than a page of them, and a secondary_collection
      // filter applied to page 1 only shows too: page 2 of physical alone then lists items of the other value (§4
      // table: every filter holds on every page of the same filtered list).
      const physicalRows = rows.filter((r) => (itemFlag(r.is_physical) === true) === physical);
      const secondaryOf = (r: Row) => itemFlag(r.is_in_secondary_collection) === true;
      const laterSecondary = physicalRows.filter(secondaryOf).length > physicalRows.filter((r) => !secondaryOf(r)).length;
      // The cursor pages filter by secondary_collection at the value most items of the walk have (false in most
      // collections), so that, where more items than a small page are known to have it, another page exists.
      const secondaryFlags = rows.map((r) => itemFlag(r.is_in_secondary_collection));
      const secondary = secondaryFlags.filter((v) => v === true).length > secondaryFlags.filter((v) => v === false).length;
      const cursorFilter = { secondary_collection: secondary };
      const modes: Record<string, unknown>[] = [
        // A later page carries what fields adds as page 1 does (§4 table: to each row).
        { page: 2, per_page: SMALL_PAGE, physical, secondary_collection: laterSecondary, fields: 'collection' },
        // Cursor pages also carry what fields and include add (§4 table: to each row, whatever the paging).
        { cursor: null, per_page: SMALL_PAGE, ...cursorFilter, fields: 'collection', include: ['uses_summary'] },
        // A lean (budgeted) run keeps them too: each search answers through its own code path, and one
        // request per mode is already the least that judges the mode.
        ...searches,
      ];
      // fields and include each on their own: the bodies the optional-field checks read (shared reads of the run).
      const sharedBodies: Record<string, unknown>[] = [
        { per_page: MAX_ROWS_PER_PAGE, fields: 'collection' },
        { per_page: MAX_ROWS_PER_PAGE, include: ['uses_summary'] },
      ];
      const [plain, empty, ...answers] = await together([
        t.discover.list(undefined),
        t.discover.list({}),
        ...modes.map((body) => t.api.list(body)),
        ...sharedBodies.map((body) => t.discover.list(body)),
      ]);
      // The tag's numbered page, one row short of the items known to carry the tag: another page exists (§4 rule 2).
      const tagAt = modes.findIndex((body) => body.tag !== undefined && body.per_page !== undefined);
      if (tagAt !== -1) {
        const body = modes[tagAt]!;
        const page = pageOf(answers[tagAt]!(), body);
        // Judged by the rows page 1 holds, not by per_page: page 1 holding all the carriers may say has_more false (more
        // rows than asked for fail on their own, below); fewer rows than carriers leave a page 2.
        // The carriers of a type the list names (all of them, but an item with no type).
        const named = Array.isArray(body.type_id) ? body.type_id.map(String) : undefined;
        const known = rows.filter((r) => labelsOf(r).includes(String(body.tag)) && (!named || named.includes(String(r.type_id)))).length;
        ensure(
          'C4.4',
          page.rows.length >= known || page.hasMore === true,
          `POST /artifacts.php ${JSON.stringify(body)}: ${known} items carry the tag ${asJson(body.tag)}${named ? ' and a type the list names' : ''} (known from the walk), page 1 holds ${page.rows.length} rows (${asJson(body.per_page)} asked for), yet says has_more ${asJson(page.hasMore)} (§4 rule 2: it says whether another page exists)`,
          page.exchange,
        );
        // per_page is the page size (§4 table, at most 200), beside a list of type ids as anywhere: page 1 holds no more
        // rows than asked for.
        ensure(
          'C4.3',
          typeof body.per_page !== 'number' || page.rows.length <= body.per_page,
          `POST /artifacts.php ${JSON.stringify(body)}: page 1 holds ${page.rows.length} rows, more than the ${asJson(body.per_page)} asked for (§4: per_page is the page size)`,
          page.exchange,
        );
        // Page mode pages by title (§4: cursor pages by id instead of by title), under a list of type ids too.
        const titles = page.rows.map((r) => String(r.Title ?? ''));
        ensure(
          'C4.5',
          titleCollations.some((c) => titles.every((x, i) => i === 0 || c.compare(titles[i - 1]!, x) <= 0)),
          `POST /artifacts.php ${JSON.stringify(body)}: page paging is by title (§4), but the rows come titled ${titles.map((x) => JSON.stringify(x)).join(', ')} (types ${page.rows.map((r) => asJson(r.type_id)).join(', ')}), in no usual collation's order`,
          page.exchange,
        );
      }
      const judged: { what: string; ex: () => Exchange; body?: Record<string, unknown> }[] = [
        { what: 'GET /artifacts.php', ex: plain! },
        { what: 'POST /artifacts.php {}', ex: empty! },
        ...[...modes, ...sharedBodies].map((body, i) => ({ what: `POST /artifacts.php ${JSON.stringify(body)}`, ex: answers[i]!, body })),
      ];
      // fields and include only add to each row (§4 table): a page of 200 that holds every item the walk knows has no page
      // after it, also with include uses_summary (§4 rule 2: has_more says whether another page exists, by items). Not
      // judged where the page is full (a collection of exactly 200): whether an empty page after it "exists" is not stated.
      for (const [i, body] of sharedBodies.entries()) {
        const page = pageOf(answers[modes.length + i]!(), body);
        ensure(
          'C4.4',
          page.rows.length < rows.length || page.rows.length >= MAX_ROWS_PER_PAGE || page.hasMore !== true,
          `POST /artifacts.php ${JSON.stringify(body)}: page 1 holds ${page.rows.length} rows, every item of the ${rows.length} the walk knows, yet says has_more true (§4 rule 2: it says whether another page exists)`,
          page.exchange,
        );
      }
      // The second cursor page, where the first small one has a next cursor.
      const cursorAt = judged.findIndex((j) => j.what.includes('"cursor":null'));
      const cursorPage = judged[cursorAt]!.ex();
      // Where more items than the small page are known (from the walk) to satisfy the filter, another cursor page
      // exists: has_more says so (§4 rule 2), judged by the rows page 1 holds as for the tag's page above.
      const firstCursor = judged[cursorAt]!.body!;
      const satisfying = secondaryFlags.filter((v) => v === secondary).length;
      const cursorFirst = pageOf(cursorPage, firstCursor);
      ensure(
        'C4.4',
        cursorFirst.rows.length >= satisfying || cursorFirst.hasMore === true,
        `POST /artifacts.php ${JSON.stringify(firstCursor)}: ${satisfying} items have is_in_secondary_collection ${secondary ? 'set' : 'not set'} (known from the walk), page 1 holds ${cursorFirst.rows.length} rows (${SMALL_PAGE} asked for), yet says has_more ${asJson(cursorFirst.hasMore)} (§4 rule 2: it says whether another page exists)`,
        cursorPage,
      );
      // per_page is the page size (§4 table, up to 200; §8), beside a secondary_collection filter as anywhere: each small
      // cursor page holds no more rows than asked for (a filter with a page size of its own, the default 50, shows here).
      const withinPage = (body: Record<string, unknown>, ex: Exchange, which: string): void => {
        const held = (rowsOf(ex.response.json) ?? []).length;
        ensure(
          'C4.3',
          held <= SMALL_PAGE,
          `POST /artifacts.php ${JSON.stringify(body)}: ${which} cursor page holds ${held} rows, more than the ${SMALL_PAGE} asked for (§4: per_page is the page size, whatever filter comes with it)`,
          ex,
        );
      };
      withinPage(firstCursor, cursorPage, 'the first');
      const next = (cursorPage.response.json as Record<string, unknown> | undefined)?.next_cursor;
      if (next !== null && next !== undefined && next !== '') {
        const body = { cursor: next, per_page: SMALL_PAGE, ...cursorFilter, fields: 'collection', include: ['uses_summary'] };
        const ex = await t.api.list(body);
        withinPage(body, ex, 'the second');
        judged.push({ what: `POST /artifacts.php ${JSON.stringify(body)}`, ex: () => ex, body });
      }
      // The kept body one row short of the kept items of the secondary collection holds no more rows than asked for (§4
      // table: per_page is the page size, up to 200), with kept true beside it as anywhere.
      const keptAt = judged.findIndex((j) => j.body === keptSecondary);
      if (keptAt !== -1 && typeof keptSecondary.per_page === 'number') {
        const ex = judged[keptAt]!.ex();
        const held = okRows('C4.3', ex, judged[keptAt]!.what).length;
        ensure(
          'C4.3',
          held <= keptSecondary.per_page,
          `${judged[keptAt]!.what}: ${keptSecondaryCount} items are kept and in the secondary collection (known from the walk), and the page holds ${held} rows, more than the ${keptSecondary.per_page} asked for (§4: per_page is the page size, whatever filter comes with it)`,
          ex,
        );
      }
      const digitalAt = judged.findIndex((j) => j.body === digitalOnly);
      if (digitalAt !== -1 && typeof digitalOnly.per_page === 'number') {
        const page = pageOf(judged[digitalAt]!.ex(), digitalOnly);
        // Judged by the rows page 1 holds, as for the tag's page above: fewer rows than the items known leave a page 2.
        ensure(
          'C4.4',
          page.rows.length >= digitalOnlyCount || page.hasMore === true,
          `${judged[digitalAt]!.what}: ${digitalOnlyCount} items are digital and not physical (known from the walk), page 1 holds ${page.rows.length} rows (${digitalOnly.per_page} asked for), yet says has_more ${asJson(page.hasMore)} (§4 rule 2: it says whether another page exists)`,
          page.exchange,
        );
      }
      const titles = new Map(rows.map((r) => [idOf(r.id), r.Title]));
      const plainRows = new Map(rows.map((r) => [idOf(r.id), r]));
      // What fields "collection" adds, per item, as the shared read of it without other parameters gives it: one item,
      // one year, one acquisition … (§2), whatever the listing mode (a search, a filter, a later page) that lists it.
      const collectionRead = judged.find((j) => j.body === sharedBodies[0])?.ex();
      const collectionValues = new Map(
        (collectionRead && collectionRead.response.status === 200 ? (rowsOf(collectionRead.response.json) ?? []) : []).map((r) => [idOf(r.id), r]),
      );
      // Likewise what include uses_summary adds, per item, as the shared read of it alone gives it: one item, one count
      // of its recorded uses and one latest use (§2), whatever the mode, filter or paging that lists it.
      const summaryRead = judged.find((j) => j.body === sharedBodies[1])?.ex();
      const summaryValues = new Map(
        (summaryRead && summaryRead.response.status === 200 ? (rowsOf(summaryRead.response.json) ?? []) : []).map((r) => [idOf(r.id), r]),
      );
      // Compared loosely (looseFieldValue): types are not shown, §2.
      const looseValue = looseFieldValue;
      const labels = new Map(rows.map((r) => [idOf(r.id), r.tags]));
      const sameLabels = (a: unknown[], b: unknown[]) => JSON.stringify(a.map(String).sort()) === JSON.stringify(b.map(String).sort());
      for (const { what, ex, body } of judged) {
        for (const row of okRows('C4.10', ex(), what)) {
          const id = idOf(row.id);
          const missing = missingField(row, body);
          ensure('C4.10', missing === undefined, `${what}: row ${String(id ?? JSON.stringify(row).slice(0, 80))} lacks ${missing}`, ex());
          // One item, one title (§2): fields and include add fields to the row, they do not rewrite the title.
          const title = titles.get(id);
          if (typeof title === 'string')
            ensure(
              'C2.1',
              row.Title === title,
              `${what}: row ${String(id)} has Title ${asJson(row.Title)}, the item's title is ${asJson(title)} in its plain row`,
              ex(),
            );
          // One item, one type and one set of flags (§2; §4 rule 3): a mode, a search, fields or include choose the rows,
          // they do not change what a row says of its item. Where the walk's row names no type, no mode names one either:
          // the walk (cursor paging) blanked it, or this mode made one up.
          const walked = plainRows.get(id);
          const unlike = walked && differingItemState(row, walked);
          ensure(
            'C4.10',
            unlike === undefined,
            `${what}: row ${String(id)} has ${unlike} ${asJson(row[unlike ?? ''])}, the item's row of the collection walk (cursor paging) has ${asJson(walked?.[unlike ?? ''])}`,
            ex(),
          );
          const reference = collectionValues.get(id);
          if (body?.fields === 'collection' && body !== sharedBodies[0] && reference !== undefined) {
            const differs = COLLECTION_FIELDS.find((field) => field in row && looseValue(row[field]) !== looseValue(reference[field]));
            ensure(
              'C2.4',
              differs === undefined,
              `${what}: row ${String(id)} has ${differs} ${asJson(row[differs ?? ''])}, but the item's row under fields "collection" alone has ${asJson(reference[differs ?? ''])}`,
              ex(),
            );
          }
          const summarised = summaryValues.get(id);
          if (Array.isArray(body?.include) && body.include.includes('uses_summary') && body !== sharedBodies[1] && summarised !== undefined) {
            const differs = SUMMARY_FIELDS.find((field) => field in row && field in summarised && looseValue(row[field]) !== looseValue(summarised[field]));
            ensure(
              'C2.6',
              differs === undefined,
              `${what}: row ${String(id)} has ${differs} ${asJson(row[differs ?? ''])}, but the item's row under include uses_summary alone has ${asJson(summarised[differs ?? ''])}`,
              ex(),
            );
          }
          // One item, one list of labels (§2): a tag filter chooses rows, it does not trim their tags (in any order).
          const tags = labels.get(id);
          if (Array.isArray(tags) && Array.isArray(row.tags))
            ensure(
              'C2.1',
              sameLabels(row.tags, tags),
              `${what}: row ${String(id)} has tags ${asJson(row.tags)}, the item's tags are ${asJson(tags)} in its plain row`,
              ex(),
            );
          // A tag beside fields and include still keeps only the items the owner labelled with it (§4 table: tag keeps
          // only those items; include and fields only add fields to each row): the row or the walk's row of the item
          // carries the tag (a tag filter may ignore case).
          if (typeof body?.tag === 'string') {
            const wanted = body.tag.toLowerCase();
            const carried = [...(Array.isArray(row.tags) ? row.tags : []), ...(Array.isArray(tags) ? tags : [])].map((x) => String(x).toLowerCase());
            ensure(
              'C4.7',
              carried.includes(wanted),
              `${what}: row ${String(id)} has tags ${asJson(row.tags)} (its plain row ${asJson(tags)}), without the tag ${asJson(body.tag)} the body filters by: tag keeps only the items labelled with it, whatever fields, include or type_id come with it`,
              ex(),
            );
          }
          // A flag filter beside fields or include still filters (§4 table): no row contradicts it (null reads as not set).
          const contrary = Object.entries(FLAG_FILTERS).find(([filter, field]) => {
            const wanted = body?.[filter];
            const value = itemFlag(row[field]);
            return typeof wanted === 'boolean' && (wanted ? value !== true : value === true);
          });
          ensure(
            'C4.8',
            contrary === undefined,
            `${what}: row ${String(id)} has ${contrary?.[1]} ${asJson(row[contrary?.[1] ?? ''])}, which the filter ${contrary?.[0]}: ${asJson(body?.[contrary?.[0] ?? ''])} excludes`,
            ex(),
          );
        }
      }
      // The walk's cursor pages (the run's shared read) are judged too: they cost nothing more.
      for (const [i, page] of pages.entries())
        for (const row of page.rows) {
          const missing = missingField(row);
          ensure('C4.10', missing === undefined, `cursor page ${i + 1} of the collection walk: row ${String(idOf(row.id))} lacks ${missing}`);
        }
    },
  );
});

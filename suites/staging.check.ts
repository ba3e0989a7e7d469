import {
  DEFAULT_ROWS_PER_PAGE,
  together,
  asText,
  describe,
  catalogPathFor,
  check,
  claimsOpenApi,
  ensure,
  ensureNo5xx,
  fingerprints,
  idOf,
  is2xx,
  is4xx,
  isObject,
  isSet,
  itemFlag,
  MAX_ROWS_PER_PAGE,
  namedPaths,
  okJson,
  okRows,
  operationOf,
  pageOf,
  resolvePointer,
  rowsOf,
  sameUnordered,
  typeIdKeyOf,
  typeIdsOf,
  shapeOf,
  userDataIn,
  type CheckContext,
  type ClauseId,
  type Exchange,
  type Row,
  asJson,
} from '../src/harness/index.ts';

/** What a staging list row carries (§2, §4). */
const STAGING_ROW_FIELDS = ['Title', 'id', 'tags'];
/** List body fields only primary offers (§4). */
const PRIMARY_ONLY_LIST_FIELDS = ['kept', 'physical', 'digital', 'secondary_collection', 'type_id', 'fields', 'include'];
/** The rest of the record the staging single read still returns (§2). */
const FULL_RECORD_FLAGS = ['is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection'];

/** An omitted parameter is conforming when refused (any 4xx) or ignored (same rows as without it). */
function notHonoured(clause: ClauseId, label: string, baseline: Exchange, probe: Exchange): void {
  ensureNo5xx('C7.2', probe, label);
  if (is4xx(probe)) return;
  ensure(clause, is2xx(probe), `${label}: expected a 4xx or the answer without it, got ${probe.response.status}`, probe);
  // Tags have no stated order: the same rows with their tags in another order are the same answer.
  const same = sameUnordered(rowsOf(probe.response.json), rowsOf(baseline.response.json));
  ensure(clause, same, `${label} is a primary-only feature but changed the answer on staging (it was honoured)`, probe);
}

function rowProblem(row: Row): string | undefined {
  const fields = Object.keys(row).sort();
  const extra = fields.filter((f) => !STAGING_ROW_FIELDS.includes(f));
  const missing = STAGING_ROW_FIELDS.filter((f) => !fields.includes(f));
  const which =
    row.id !== undefined
      ? `the staging list row of item ${asText(row.id)}`
      : row.Title !== undefined
        ? `the staging list row titled ${asJson(row.Title)}`
        : 'a staging list row with neither id nor Title';
  if (extra.length > 0) return `${which} carries ${extra.join(', ')}, which staging omits (rows carry exactly id, Title and tags)`;
  if (missing.length > 0) return `${which} lacks ${missing.join(', ')} (rows carry exactly id, Title and tags)`;
  if (idOf(row.id) === undefined) return `a staging list row has id ${asJson(row.id)}`;
  if (typeof row.Title !== 'string') return `${which}: Title is ${asJson(row.Title)}, not a string`;
  if (!Array.isArray(row.tags) || !row.tags.every((x) => typeof x === 'string')) return `${which}: tags is ${asJson(row.tags)}, not a list of labels`;
  return undefined;
}

/**
 * Parameter names and request-body property names a catalog offers for one operation (path-level
 * parameters included), following local $refs: what an agent reading the catalog would try to send.
 */
function offeredNames(doc: unknown, path: string, method: string): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 40) return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string') {
      if (seen.has(node.$ref)) return;
      seen.add(node.$ref);
      visit(resolvePointer(doc, node.$ref), depth + 1);
    }
    if (typeof node.name === 'string' && typeof node.in === 'string' && !['header', 'body', 'cookie'].includes(node.in)) names.add(node.name);
    if (isObject(node.properties)) for (const name of Object.keys(node.properties)) names.add(name);
    for (const [key, value] of Object.entries(node)) if (key !== '$ref' && key !== 'example' && key !== 'examples') visit(value, depth + 1);
  };
  const key = catalogPathFor(doc, path);
  const paths = isObject(doc) && isObject(doc.paths) ? doc.paths : {};
  const item = key === undefined ? undefined : paths[key];
  const pathParameters = isObject(item) ? item.parameters : undefined;
  const operation = operationOf(doc, path, method);
  visit([pathParameters, operation?.parameters, operation?.requestBody], 0);
  return names;
}

/** What the catalog names is not shown (§1), so its description of the subset is advice. */
const CATALOG_ADVICE = "advice (the catalog's content is not shown, §1): ";

/** How many records beside the first STAGE-006 reads to see the collection's types (staging rows carry none). */
const TYPE_SAMPLE = 12;

/** A record's type_id, where it has one, is listed by GET /types.php read with the same key (§2), the run's shared read. */
async function typeListed(t: CheckContext, record: Row, what: string, user: 'primary' | 'other'): Promise<void> {
  const typeId = idOf(record.type_id);
  if (typeId === undefined) return;
  const read = user === 'primary' ? 'GET /types.php' : 'GET /types.php (second user)';
  const ex = await t.discover.shared(read);
  const listed = typeIdsOf(okRows('C4.22', ex, read), [typeId]) ?? new Set<string>();
  ensure('C2.2', listed.has(typeId), `${what}: type_id ${asJson(record.type_id)} is not listed by ${read} (ids ${[...listed].slice(0, 12).join(', ')})`, ex);
  // Where the type record carries the record's type name in another letter case or Unicode form, and nowhere as given, one
  // of the two misspells the type's name (§2: type is the item type's name; a type record's fields are not shown, so a
  // record naming it nowhere is not judged).
  const types = okRows('C4.22', ex, read);
  const key = typeIdKeyOf(types, [typeId]);
  const type = key === undefined ? undefined : types.find((r) => idOf(r[key]) === typeId);
  const name = typeof record.type === 'string' ? record.type : undefined;
  if (!type || name === undefined) return;
  const fold = (v: string) => v.normalize('NFC').toLowerCase();
  const names = Object.values(type).filter((v): v is string => typeof v === 'string');
  const alike = names.find((v) => fold(v) === fold(name));
  ensure(
    'C2.2',
    alike === undefined || names.includes(name),
    `${what}: type ${asJson(name)}, but ${read} names type ${typeId} ${asJson(alike)}: the record carries the type's name as its type lists it`,
    ex,
  );
}

/**
 * Only records show an item's type on staging, so a type missing from /types.php shows only on a record of that type: the
 * records of items spread over the user's collection (every n-th of the walk, read together) show more types than one.
 */
async function typesOfSpreadRecords(t: CheckContext, user: 'primary' | 'other', skip: string | undefined): Promise<void> {
  const { rows } = await t.discover.collection(user);
  const step = Math.max(1, Math.floor(rows.length / TYPE_SAMPLE));
  const spread = rows.filter((r, i) => i % step === 0 && idOf(r.id) !== undefined && idOf(r.id) !== skip).slice(0, TYPE_SAMPLE);
  const reads = await Promise.all(spread.map((r) => t.discover.item(idOf(r.id)!, user)));
  const records = reads.map((read, i) => t.discover.recordIn(read, idOf(spread[i]!.id)!, user));
  const key = user === 'other' ? ' with the second key' : '';
  for (const [i, record] of records.entries()) {
    const row = spread[i]!;
    const what = `GET /artifact.php?id=${asText(row.id)}${key}`;
    // The record's labels are the item's own, as its row in the walk carries them (§4: the single read returns the item
    // record with its tags; staging rows carry the owner's tags): any order.
    ensure(
      'C4.14',
      !Array.isArray(row.tags) || (Array.isArray(record.tags) && sameUnordered(record.tags, row.tags)),
      `${what} on staging: tags ${asJson(record.tags)}; the item's row in the collection walk carries tags ${asJson(row.tags)} (the single read returns the item record with its tags)`,
      reads[i],
    );
    // And its title, as its row carries it (§2: Title is the item title; staging rows carry id, Title and tags).
    ensure(
      'C4.14',
      typeof row.Title !== 'string' || typeof record.Title !== 'string' || record.Title === row.Title,
      `${what} on staging: Title ${asJson(record.Title)}; the item's row in the collection walk carries Title ${asJson(row.Title)} (one item, one title)`,
      reads[i],
    );
    await typeListed(t, record, what, user);
  }
}

describe('staging subset (§2, §4, §9)', () => {
  const staging = { appliesTo: ['staging'] as const };

  check(
    {
      id: 'STAGE-001',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title:
        "staging list rows carry exactly id, Title and tags, the item's own tags also in a search and the label filtered for in the second key's list under a tag, a label two items carry says has_more at one row a page, and a search honours per_page (and says has_more where a title two items share finds both), holds on page 2 only items it finds and without per_page holds the default 50",
      ...staging,
      accepts: [
        'ids as numbers or strings',
        'any envelope key for the rows',
        "a tag filter that ignores case; the second user's list under the first user's label empty (labels are free-form), or refused (any 4xx) where no item of the second user carries that label",
      ],
    },
    async (t) => {
      // The whole collection comes from the run's shared cursor walk (200 a page).
      const { pages: walk } = await t.discover.collection();
      // Page 1 named: the same rows judge the numbered-page mode too.
      const byTitle = await t.api.list({ per_page: MAX_ROWS_PER_PAGE, page: 1 });
      const plain = await t.api.list();
      const pages: { rows: Row[]; exchange: Exchange }[] = [
        ...walk,
        { rows: okRows('C2.8', byTitle, 'POST /artifacts.php'), exchange: byTitle },
        { rows: okRows('C2.8', plain, 'GET /artifacts.php'), exchange: plain },
      ];
      t.need(pages[0]!.rows[0], 'the collection is empty, so there are no rows to inspect');
      for (const { rows, exchange } of pages) {
        for (const row of rows) {
          const problem = rowProblem(row);
          ensure('C2.8', problem === undefined, problem!, exchange);
        }
      }
      // A search's rows carry the item's own tags, as the walk shows them (§2: the owner's labels; §4 Staging: rows carry tags).
      const tagged = (await t.discover.itemsWithTags()).find((r) => typeof r.Title === 'string' && r.Title.trim() !== '');
      if (tagged) {
        // The search also names one of the item's tags, which keeps it listed: its rows judge both modes.
        const body = { query: tagged.Title, tag: String((tagged.tags as unknown[])[0]), per_page: MAX_ROWS_PER_PAGE };
        const searched = await t.api.list(body);
        const rows = okRows('C2.8', searched, `POST /artifacts.php ${JSON.stringify(body)}`);
        for (const row of rows) {
          const problem = rowProblem(row);
          ensure('C2.8', problem === undefined, `POST /artifacts.php ${JSON.stringify(body)}: ${problem}`, searched);
        }
        const found = rows.find((r) => idOf(r.id) === idOf(tagged.id));
        ensure(
          'C2.8',
          found === undefined || sameUnordered(found.tags, tagged.tags),
          `the search for its title lists item ${asText(tagged.id)} with tags ${asJson(found?.tags)}; the collection shows ${asJson(tagged.tags)}`,
          searched,
        );
      }
      // The second key's list under the label most of the first user's items carry (a tag the run knows; labels are free-form,
      // §2, so the second user may use it or not): every row it lists carries that label, as the item's owner labelled it
      // (§4 tag: only items the owner labelled with that tag; §4 Staging: rows carry tags, the owner's labels, §2).
      const labels = new Map<string, number>();
      for (const row of await t.discover.itemsWithTags()) for (const tag of (row.tags as unknown[]).map(String)) labels.set(tag, (labels.get(tag) ?? 0) + 1);
      const label = [...labels].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]?.[0];
      if (label !== undefined && t.target.keys.other !== undefined) {
        const body = { tag: label, per_page: MAX_ROWS_PER_PAGE };
        const what = `POST /artifacts.php ${JSON.stringify(body)} with the second key`;
        const ex = await t.api.list(body, 'other');
        if (is4xx(ex)) {
          // A label no item of the key's user carries may be refused (any 4xx, as FILT-003 accepts): only where the second
          // user's own walk (the run's shared read) shows an item labelled with it exactly is a refusal wrong.
          const carrier = (await t.discover.collection('other')).rows.find((r) => Array.isArray(r.tags) && r.tags.some((x) => String(x) === label));
          ensure(
            'C2.8',
            carrier === undefined,
            `${what} answered ${ex.response.status}, but the second user's item ${asText(carrier?.id)} carries that label (tags ${asJson(carrier?.tags)}): a tag filter keeps the items the owner labelled with it`,
            ex,
          );
        } else {
          const rows = okRows('C2.8', ex, what);
          // A tag filter may ignore case (FILT-003 accepts it): the label is then carried in any case.
          const unlabelled = rows.find((r) => !(Array.isArray(r.tags) && r.tags.some((x) => String(x).toLowerCase() === label.toLowerCase())));
          ensure(
            'C2.8',
            unlabelled === undefined,
            `${what} lists item ${asText(unlabelled?.id)} with tags ${asJson(unlabelled?.tags)}: an item the tag filter keeps is labelled with that tag, and its row carries the owner's labels`,
            ex,
          );
        }
      }
      // The same label at one row a page: where two items or more of the walk carry it, page 1 is followed by another
      // (§4 rule 2: has_more says whether another page exists; §4 Staging: tag and per_page are offered). A tag filter that
      // ignores case keeps those items too.
      if (label !== undefined && (labels.get(label) ?? 0) >= 2) {
        const body = { tag: label, per_page: 1 };
        const what = `POST /artifacts.php ${JSON.stringify(body)}`;
        const ex = await t.api.list(body);
        const rows = okRows('C4.3', ex, what);
        ensure(
          'C4.3',
          rows.length === 1,
          `${what}: ${labels.get(label)} items of the collection carry that label; page 1 at per_page 1 holds ${rows.length} rows`,
          ex,
        );
        const { hasMore } = pageOf(ex, body);
        ensure(
          'C4.4',
          hasMore === true,
          `${what}: ${labels.get(label)} items of the collection carry that label, so another page follows page 1; has_more is ${asJson(hasMore)}`,
          ex,
        );
      }
      // A search at per_page 1 for the word most titles share (three letters or more, in two titles or more): staging
      // offers per_page with a search too (§4 Staging: page, per_page, query, cursor and tag), so page 1 holds at most one row.
      const counts = new Map<string, number>();
      for (const { rows } of walk)
        for (const row of rows)
          if (typeof row.Title === 'string')
            for (const word of new Set(row.Title.toLowerCase().match(/\p{L}{3,}/gu) ?? [])) counts.set(word, (counts.get(word) ?? 0) + 1);
      const word = [...counts].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]?.[0];
      // Where two items share a title, that title instead: a search finds an item by its exact title (FILT-002), so it
      // finds both, and page 1 at per_page 1 is followed by another page (§4 rule 2: has_more says whether one exists).
      // Two items: two ids (a row the walk showed twice is one item).
      const idsByTitle = new Map<string, Set<string>>();
      for (const { rows } of walk)
        for (const r of rows)
          if (typeof r.Title === 'string' && r.Title.trim() !== '' && idOf(r.id) !== undefined)
            idsByTitle.set(r.Title, (idsByTitle.get(r.Title) ?? new Set()).add(idOf(r.id)!));
      const twin = [...idsByTitle].find(([, ids]) => ids.size >= 2)?.[0];
      const text = twin ?? word;
      if (text !== undefined) {
        const body = { query: text, per_page: 1, page: 1 };
        const label = `POST /artifacts.php ${JSON.stringify(body)}`;
        const ex = await t.api.list(body);
        const rows = okRows('C4.3', ex, label);
        const held = twin === undefined ? `${counts.get(text)} titles hold the word` : 'two items carry that exact title';
        ensure('C4.3', rows.length <= 1, `${label}: ${held}; page 1 at per_page 1 holds ${rows.length} rows`, ex);
        if (twin !== undefined) {
          const { hasMore } = pageOf(ex, body);
          ensure('C4.4', hasMore === true, `${label}: ${held}, so the search finds both and another page follows page 1; has_more is ${asJson(hasMore)}`, ex);
        }
      }
      // The word most titles share, searched in one page of 200 and then, at half its rows a page, page 2: every page of a
      // search holds items the search finds (§4 Staging: page, per_page and query are body fields, and the query searches
      // whatever the page). What a search matches is not shown, so page 2 is judged against the same search's answer in
      // one page. A lean (budgeted) run leaves it out.
      if (word !== undefined && !t.target.lean) {
        const whole = { query: word, per_page: MAX_ROWS_PER_PAGE };
        const all = await t.api.list(whole);
        const found = okRows('C4.6', all, `POST /artifacts.php ${JSON.stringify(whole)}`);
        const perPage = Math.floor(found.length / 2);
        if (perPage >= 1 && found.length < MAX_ROWS_PER_PAGE) {
          const ids = new Set(found.map((r) => idOf(r.id)));
          const body = { query: word, per_page: perPage, page: 2 };
          const label = `POST /artifacts.php ${JSON.stringify(body)}`;
          // Beside it, the same search without per_page: page 1 at the default size, 50 on staging too (§4 Staging, §8),
          // holds as many of the items it finds as that size allows.
          const plainBody = { query: word };
          const [second, plain] = await together([t.api.list(body), t.api.list(plainBody)]);
          const ex = second!();
          const plainRows = okRows('C4.3', plain!(), `POST /artifacts.php ${JSON.stringify(plainBody)}`);
          const due = Math.min(DEFAULT_ROWS_PER_PAGE, found.length);
          ensure(
            'C4.3',
            plainRows.length === due,
            `POST /artifacts.php ${JSON.stringify(plainBody)} holds ${plainRows.length} rows; the same search in one page of ${MAX_ROWS_PER_PAGE} finds ${found.length} items and the default page size is ${DEFAULT_ROWS_PER_PAGE} (§4 Staging), so ${due} were due`,
            plain!(),
          );
          const rows = okRows('C4.6', ex, label);
          const stray = rows.find((r) => !ids.has(idOf(r.id)));
          ensure(
            'C4.6',
            rows.length > 0 && stray === undefined,
            stray === undefined
              ? `${label}: page 2 is empty, though the same search in one page of ${MAX_ROWS_PER_PAGE} finds ${found.length} items (two pages of ${perPage})`
              : `${label}: page 2 lists item ${asText(stray.id)} ${asJson(stray.Title)}, which the same search in one page of ${MAX_ROWS_PER_PAGE} does not find (it finds ${found.length} items): every page of a search holds items it finds`,
            ex,
          );
        }
      }
    },
  );

  check(
    {
      id: 'STAGE-002',
      level: 'MUST',
      sections: ['§4', '§9'],
      title: 'staging does not honour the primary-only filters, fields or include',
      ...staging,
      accepts: ['each one refused (any 4xx) or ignored (the same rows as without it)'],
    },
    async (t) => {
      const baseline = await t.api.list({ per_page: MAX_ROWS_PER_PAGE });
      const rows = okRows('C4.13', baseline, 'POST /artifacts.php');
      t.need(rows[0], 'the collection is empty, so a filter could not change anything');
      const record = await t.discover.record(String(rows[0]!.id));
      const typeId = record.type_id ?? 1;
      const probes: Record<string, unknown>[] = [
        { kept: !isSet(record.is_kept) },
        { kept: isSet(record.is_kept) },
        { physical: true },
        { physical: false },
        { digital: true },
        { digital: false },
        { secondary_collection: true },
        { secondary_collection: false },
        { type_id: typeId },
        { type_id: [typeId] },
        { fields: 'collection' },
        { include: ['uses_summary'] },
      ];
      for (const extra of probes) {
        notHonoured('C4.13', `POST /artifacts.php ${JSON.stringify(extra)}`, baseline, await t.api.list({ per_page: MAX_ROWS_PER_PAGE, ...extra }));
      }
    },
  );

  check(
    {
      id: 'STAGE-003',
      level: 'MUST',
      sections: ['§4', '§9'],
      keptBlind: true,
      title: 'staging has no players endpoint',
      ...staging,
      accepts: ['any 4xx for /players.php', "a 2xx catch-all page that holds no records and none of the user's data (unknown paths answered 200)"],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      const ex = await t.api.players();
      ensureNo5xx('C7.2', ex, 'GET /players.php');
      if (is4xx(ex)) return;
      const leak = userDataIn(ex, fingerprints(rows));
      ensure(
        'C9.1',
        is2xx(ex) && leak === undefined,
        `GET /players.php answered ${ex.response.status} on staging, which has no players endpoint${leak ? `, and ${leak}` : ' (expected a 4xx or a catch-all page)'}`,
        ex,
      );
    },
  );

  check(
    {
      id: 'STAGE-004',
      level: 'MUST',
      sections: ['§4', '§9'],
      keptBlind: true,
      title: 'staging does not honour player_id on /uses.php',
      ...staging,
      accepts: ['player_id refused (any 4xx) or ignored (the same uses as without it)', 'any envelope or a bare list'],
    },
    async (t) => {
      const baseline = await t.api.uses({});
      const uses = okRows('C4.16', baseline, 'GET /uses.php');
      const playerIds = [...new Set(uses.flatMap((u) => (Array.isArray(u.players) ? u.players : [])).map((p) => idOf(p)))];
      const playerId = t.need(
        playerIds.find((p) => p !== undefined),
        'no use names a player, so a player filter could not change anything',
      );
      notHonoured('C4.16', `GET /uses.php?player_id=${playerId}`, baseline, await t.api.uses({ player_id: playerId }));
    },
  );

  check(
    {
      id: 'STAGE-005',
      level: 'SHOULD',
      sections: ['§9'],
      keptBlind: true,
      title: 'the staging catalog describes the staging subset (advice)',
      ...staging,
      accepts: [
        'a catalog in any JSON format: it must name no players endpoint; what it offers as list and uses parameters is read from an OpenAPI catalog only',
      ],
    },
    async (t) => {
      const ex = await t.api.catalog();
      const catalog = okJson('C1.4', ex, 'GET /api-docs?format=json');
      const paths = [...namedPaths(catalog)];
      ensure('C9.2', paths.length > 0, `${CATALOG_ADVICE}the catalog names no path at all (found ${shapeOf(catalog)})`, ex);
      const players = paths.filter((p) => /(^|\/)players(\.php)?\/?$/.test(p));
      ensure('C9.2', players.length === 0, `${CATALOG_ADVICE}the staging catalog names a players endpoint (${players.join(', ')})`, ex);
      if (!claimsOpenApi(catalog)) return;
      for (const method of ['post', 'get']) {
        const offered = offeredNames(catalog, '/artifacts.php', method);
        const extra = PRIMARY_ONLY_LIST_FIELDS.filter((f) => offered.has(f));
        ensure(
          'C9.2',
          extra.length === 0,
          `${CATALOG_ADVICE}the staging catalog offers the primary-only list parameter(s) ${extra.join(', ')} on ${method.toUpperCase()} /artifacts.php`,
          ex,
        );
      }
      ensure(
        'C9.2',
        !offeredNames(catalog, '/uses.php', 'get').has('player_id'),
        `${CATALOG_ADVICE}the staging catalog offers player_id on GET /uses.php, which staging does not`,
        ex,
      );
    },
  );

  check(
    {
      id: 'STAGE-006',
      level: 'MUST',
      sections: ['§2'],
      keptBlind: true,
      title:
        "the staging single-item read returns the full record, and the second key's record of an item its list row shows labelled carries the same tags; each record of thirteen items spread over each user's collection carries its row's tags, and its type_id is one GET /types.php lists for the same key, and its type is spelt as that type's record spells it where the record holds it in another case or form",
      ...staging,
      accepts: [
        'the record bare or inside an envelope',
        'flags as 0/1, booleans, "0"/"1" or null (not set)',
        'type and type_id null for an item with no type',
        'fields the spec does not list',
        "tags in another order than the list row's; the second key's part left out where no second key is configured, where none of its rows carries a label, and in a lean run",
      ],
    },
    async (t) => {
      const item = t.need(await t.discover.anyItem(), 'the collection is empty, so there is no item to read');
      const record = await t.discover.record(String(item.id));
      for (const field of ['id', 'Title', 'type', 'type_id', ...FULL_RECORD_FLAGS, 'tags']) {
        ensure('C2.8', field in record, `GET /artifact.php on staging lacks ${field}; the single read carries the full record (found ${shapeOf(record)})`);
      }
      for (const field of FULL_RECORD_FLAGS) {
        ensure('C4.14', itemFlag(record[field]) !== undefined, `GET /artifact.php: ${field} is ${asJson(record[field])}, not a flag`);
      }
      ensure('C4.14', Array.isArray(record.tags), `GET /artifact.php: tags is ${asJson(record.tags)}, not a list`);
      // Its type_id, where it has one, is an id GET /types.php lists (§2: type ids come from it), read with the same key (the
      // run's shared read): only records show an item's type on staging.
      await typeListed(t, record, `GET /artifact.php?id=${asText(item.id)}`, 'primary');
      if (!t.target.lean) await typesOfSpreadRecords(t, 'primary', idOf(item.id));
      // The second key's item whose row (the run's walk with the second key) carries labels: its record, read with that key,
      // carries the same labels (§4 GET /artifact.php: the item record with its tags; §2 Staging: the single read returns the
      // rest of the record; rows carry the owner's tags). Where no second key is configured, that part is left out, and in a
      // lean (budgeted) run too (it reads the second key's walk and one record).
      if (t.target.keys.other === undefined || t.target.lean) return;
      const labelled = (await t.discover.collection('other')).rows.find((r) => Array.isArray(r.tags) && r.tags.length > 0 && idOf(r.id) !== undefined);
      if (labelled === undefined) return;
      const id = idOf(labelled.id)!;
      const read = await t.discover.item(id, 'other');
      const theirs = t.discover.recordIn(read, id, 'other');
      ensure(
        'C4.14',
        Array.isArray(theirs.tags) && sameUnordered(theirs.tags, labelled.tags),
        `GET /artifact.php?id=${id} with the second key on staging: tags ${asJson(theirs.tags)}; that key's list row of the item carries tags ${asJson(labelled.tags)} (the single read returns the item record with its tags)`,
        read,
      );
      await typeListed(t, theirs, `GET /artifact.php?id=${id} with the second key`, 'other');
      // And, as for the first key, the records of the second user's items spread over that user's collection.
      await typesOfSpreadRecords(t, 'other', id);
    },
  );
});

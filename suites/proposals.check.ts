import {
  describe,
  check,
  ensure,
  ensureNo5xx,
  idOf,
  is2xx,
  is4xx,
  isSet,
  itemFieldOf,
  itemRefOf,
  okRows,
  rowsOf,
  shapeOf,
  titleCollations,
  together,
  type CheckContext,
  type ClauseId,
  type Exchange,
  type Query,
  type Row,
  asJson,
  asText,
  countFieldOf,
} from '../src/harness/index.ts';

/** Field names of a proposal row are not shown (§2): find them by what they hold. */
interface ProposalFields {
  item: string;
  name?: string;
  declines: string;
  elsewhere: string;
}

function fieldsOf(rows: readonly Row[], itemIds: ReadonlySet<string>, titles: ReadonlySet<string>): ProposalFields | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const keys = Object.keys(first);
  const item = itemFieldOf(rows, itemIds);
  const name = keys.find((k) => k === 'item_name') ?? keys.find((k) => rows.every((r) => typeof r[k] === 'string' && titles.has(r[k] as string)));
  const declines = countFieldOf(rows, /declin/i);
  const elsewhere = countFieldOf(rows, /else|other/i);
  return item && declines && elsewhere ? { item, declines, elsewhere, ...(name ? { name } : {}) } : undefined;
}

/** Whether two answers hold the same items with the same counts, in any order. */
function sameRows(a: readonly Row[], b: readonly Row[], fields: ProposalFields): boolean {
  const key = (r: Row) => `${itemRefOf(r[fields.item])}:${Number(r[fields.declines])}:${Number(r[fields.elsewhere])}`;
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.length === right.length && left.every((k, i) => k === right[i]);
}

/** Whether an item's row puts it in the default coverage of the proposal outcomes (§4): kept or in the secondary collection. */
function coveredByDefault(item: Row): boolean {
  return isSet(item.is_kept) || isSet(item.is_in_secondary_collection);
}

/** The latest leap year before the given one (Gregorian rules). */
function leapYearBefore(year: number): number {
  let y = year - 1;
  while (!(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) y--;
  return y;
}

/** The freedoms every proposal check accepts: the row's field names are not shown (§2). */
const ROW_FREEDOMS = [
  'any envelope or a bare list',
  "any names for the row's fields: the item reference (an id or a nested item), its name and the two counts are found by what they hold",
];

async function proposals(clause: ClauseId, t: CheckContext, query: Query): Promise<{ rows: Row[]; exchange: Exchange }> {
  // The default answer and the one sorted by the default key are the run's shared reads; others are asked for.
  const keys = Object.keys(query);
  const exchange = await (keys.length === 0
    ? t.discover.shared('GET /proposals.php')
    : keys.length === 1 && query.sort === 'explicit_declines'
      ? t.discover.shared('GET /proposals.php?sort=explicit_declines')
      : t.api.proposals(query));
  return { rows: okRows(clause, exchange, `GET /proposals.php?${new URLSearchParams(query as Record<string, string>).toString()}`), exchange };
}

async function discover(t: CheckContext): Promise<{ fields: ProposalFields; all: Row[]; collection: Row[] }> {
  const [{ rows: collection, ids }, wide] = await Promise.all([t.discover.collection(), t.discover.shared('GET /proposals.php?include_other=1')]);
  const all = okRows('C4.18', wide, 'GET /proposals.php?include_other=1');
  t.need(all[0], 'no proposal outcome is recorded');
  const fields = t.need(
    fieldsOf(all, new Set(ids), new Set(collection.map((r) => String(r.Title)))),
    `the proposal rows' item, declines and chose-something-else fields could not be recognised (a row: ${shapeOf(all[0])})`,
  );
  return { fields, all, collection };
}

describe('proposal outcomes (§2, §4 GET /proposals.php)', () => {
  check(
    {
      id: 'PROP-001',
      level: 'MUST',
      sections: ['§4'],
      title:
        'by default (and with include_other=0) only kept and secondary-collection items are covered, also when a sort is given and within a start/end window, and a window around every outcome date and include_other=0 with sort=chose_something_else leave out no item the default answer counts outcomes for; each answer lists an item once',
      requires: ['full-rows'],
      accepts: [...ROW_FREEDOMS, 'flags served as null read as not set', 'include_other=0 refused (any 4xx): only the value 1 is named'],
    },
    async (t) => {
      const { fields, collection } = await discover(t);
      const byId = new Map(collection.map((r) => [idOf(r.id), r]));
      // Without include_other the coverage is the default one, whether a sort is asked for or not, and whatever the dates
      // (a window only bounds the outcomes counted, §4 start/end); only include_other=1 adds the other items (§4): 0 covers
      // what the default covers, or is refused. The window holds every plausible outcome date, so that an item outside the
      // default coverage has outcomes in it wherever it has any.
      const window = { start: '1900-01-01', end: '2999-12-31' };
      const [byDefault, sorted, zero, windowed] = await Promise.all([
        proposals('C4.18', t, {}),
        proposals('C4.18', t, { sort: 'explicit_declines' } as Query),
        // A lean (budgeted) run leaves out include_other=0: the request that found the fewest mutants of this check's.
        // It goes with sort=chose_something_else: a sort only orders the rows, so with it the coverage is still the default.
        t.target.lean ? undefined : t.api.proposals({ include_other: 0, sort: 'chose_something_else' }),
        proposals('C4.18', t, window),
      ]);
      const zeroLabel = 'GET /proposals.php?include_other=0&sort=chose_something_else';
      if (zero) ensureNo5xx('C7.2', zero, zeroLabel);
      const answers = [
        { ...byDefault, label: 'the default proposal outcomes' },
        { ...sorted, label: 'the proposal outcomes with sort=explicit_declines (no include_other)' },
        { ...windowed, label: `the proposal outcomes within start=${window.start}&end=${window.end} (no include_other)` },
      ];
      if (zero && !is4xx(zero))
        answers.push({ rows: okRows('C4.18', zero, zeroLabel), exchange: zero, label: 'the outcomes with include_other=0&sort=chose_something_else' });
      for (const { rows, exchange, label } of answers) {
        // One row per item (§2: counts per item), whatever the parameters.
        const refs = rows.map((r) => itemRefOf(r[fields.item]));
        const twice = refs.find((ref, i) => ref !== undefined && refs.indexOf(ref) !== i);
        ensure('C2.13', twice === undefined, `${label} list item ${asText(twice)} in more than one row: the outcome counts are per item`, exchange);
        for (const row of rows) {
          const item = byId.get(itemRefOf(row[fields.item]));
          const covered = item && coveredByDefault(item);
          ensure('C4.18', covered, `${label} cover item ${asText(row[fields.item])}, which is neither kept nor in the secondary collection`, exchange);
        }
      }
      // Nor does a window narrow the coverage: an item the default answer counts outcomes for keeps its row within the window
      // around every plausible outcome date (§4: by default kept items and the secondary collection are covered; start and
      // end only bound the outcomes counted, and this window bounds none). Items with no outcome may be listed or not.
      // Nor does a sort (the answer with include_other=0 and sort=chose_something_else, where it is not refused).
      if (zero && !is4xx(zero)) {
        const sortedIn = new Set(okRows('C4.18', zero, zeroLabel).map((r) => itemRefOf(r[fields.item])));
        const left = byDefault.rows.find(
          (r) => (Number(r[fields.declines]) > 0 || Number(r[fields.elsewhere]) > 0) && !sortedIn.has(itemRefOf(r[fields.item])),
        );
        ensure(
          'C4.18',
          left === undefined,
          `${zeroLabel} leaves out item ${asText(left?.[fields.item])}, which GET /proposals.php lists with ${Number(left?.[fields.declines])} explicit declines and ${Number(left?.[fields.elsewhere])} chose-something-else: a sort only orders the rows, and include_other=0 adds nothing`,
          zero,
        );
      }
      const inWindow = new Set(windowed.rows.map((r) => itemRefOf(r[fields.item])));
      const dropped = byDefault.rows.find(
        (r) => (Number(r[fields.declines]) > 0 || Number(r[fields.elsewhere]) > 0) && !inWindow.has(itemRefOf(r[fields.item])),
      );
      ensure(
        'C4.18',
        !dropped,
        `GET /proposals.php?start=${window.start}&end=${window.end} (no include_other) leaves out item ${asText(dropped?.[fields.item])}, which GET /proposals.php lists with ${Number(dropped?.[fields.declines])} explicit declines and ${Number(dropped?.[fields.elsewhere])} chose-something-else: a window around every outcome date keeps the default coverage`,
        windowed.exchange,
      );
    },
  );

  check(
    {
      id: 'PROP-002',
      level: 'MUST',
      sections: ['§4'],
      title: 'include_other=1 gives a superset of the default rows, with the same counts',
      accepts: ROW_FREEDOMS,
    },
    async (t) => {
      const { fields, all } = await discover(t);
      const { rows, exchange } = await proposals('C4.18', t, {});
      const wide = new Map(all.map((r) => [itemRefOf(r[fields.item]), r]));
      // Counts per item (§2, §4): one row for each item in either answer.
      for (const [answer, label] of [
        [all, 'include_other=1'],
        [rows, 'the default answer'],
      ] as const) {
        const refs = answer.map((r) => itemRefOf(r[fields.item]));
        const twice = refs.find((ref, i) => refs.indexOf(ref) !== i);
        ensure('C1.1', twice === undefined, `${label} holds more than one row for item ${asText(twice)}: the counts are per item`, exchange);
      }
      for (const row of rows) {
        const match = wide.get(itemRefOf(row[fields.item]));
        ensure('C4.18', match, `item ${asText(row[fields.item])} is in the default rows but missing with include_other=1`, exchange);
        ensure(
          'C4.18',
          Number(match[fields.declines]) === Number(row[fields.declines]) && Number(match[fields.elsewhere]) === Number(row[fields.elsewhere]),
          `item ${asText(row[fields.item])} has different counts with include_other=1`,
          exchange,
        );
      }
      ensure('C4.18', all.length >= rows.length, `include_other=1 gave ${all.length} rows, fewer than the default ${rows.length}`, exchange);
    },
  );

  check(
    {
      id: 'PROP-003',
      level: 'MUST',
      sections: ['§2', '§4'],
      title:
        'each sort key orders the rows in both directions without changing any count or leaving out an item; the default is explicit_declines descending, also when that sort is named without a direction; the default order and item_name descending hold for the second key too',
      accepts: [
        ...ROW_FREEDOMS,
        'direction=asc refused (any 4xx) or ignored (the desc order), under some sorts or all: values other than desc are not shown, nor said to be the same for every sort',
        'any usual collation for item_name (natural number order and ignoring punctuation included); any order among equal keys',
      ],
    },
    async (t) => {
      const { fields, all } = await discover(t);
      const whole = new Map(all.map((r) => [itemRefOf(r[fields.item]), r]));
      const key = { explicit_declines: fields.declines, chose_something_else: fields.elsewhere, item_name: fields.name } as const;
      const ordered = (rows: Row[], field: string, dir: 'asc' | 'desc'): boolean => {
        if (field === fields.name) {
          const titles = rows.map((r) => String(r[field]));
          const seq = dir === 'asc' ? titles : [...titles].reverse();
          return titleCollations.some((c) => seq.every((s, i) => i === 0 || c.compare(seq[i - 1]!, s) <= 0));
        }
        return rows.every(
          (r, i) => i === 0 || (dir === 'asc' ? Number(rows[i - 1]![field]) <= Number(r[field]) : Number(rows[i - 1]![field]) >= Number(r[field])),
        );
      };
      const byDefault = await proposals('C4.19', t, {});
      ensure(
        'C4.19',
        ordered(byDefault.rows, fields.declines, 'desc'),
        'without sort or direction, rows are not ordered by explicit declines descending',
        byDefault.exchange,
      );
      // The default key named without a direction keeps the default direction (§4: with the default sort, descending).
      const named = await proposals('C4.19', t, { sort: 'explicit_declines' } as Query);
      ensure(
        'C4.19',
        ordered(named.rows, fields.declines, 'desc'),
        'with sort=explicit_declines (the default sort) and no direction, rows are not ordered by explicit declines descending',
        named.exchange,
      );
      const sorts = Object.entries(key).filter((entry): entry is [string, string] => entry[1] !== undefined);
      const queries = sorts.flatMap(([sort, field]) => (['asc', 'desc'] as const).map((direction) => ({ sort, field, direction })));
      const answers = await Promise.all(queries.map(({ sort, direction }) => t.api.proposals({ include_other: 1, sort, direction })));
      queries.forEach(({ sort, field, direction }, i) => {
        const exchange = answers[i]!;
        const label = `GET /proposals.php?include_other=1&sort=${sort}&direction=${direction}`;
        ensureNo5xx('C7.2', exchange, label);
        // Directions other than desc are not shown (§4): an implementation may refuse asc, or ignore it.
        if (direction === 'asc' && is4xx(exchange)) return;
        const rows = okRows('C4.19', exchange, label);
        // A sort only orders the rows (§4): each item keeps the counts the unsorted answer gives it (§2).
        const recounted = rows.find((r) => {
          const same = whole.get(itemRefOf(r[fields.item]));
          return same !== undefined && [fields.declines, fields.elsewhere].some((f) => Number(r[f]) !== Number(same[f]));
        });
        const unsorted = whole.get(itemRefOf(recounted?.[fields.item]));
        ensure(
          'C2.13',
          !recounted,
          `${label}: item ${asText(recounted?.[fields.item])} counts ${Number(recounted?.[fields.declines])} explicit declines and ${Number(recounted?.[fields.elsewhere])} chose-something-else, but ${Number(unsorted?.[fields.declines])} and ${Number(unsorted?.[fields.elsewhere])} with include_other=1 and no sort: a sort only orders the rows`,
          exchange,
        );
        // Nor does it choose them: every item include_other=1 counts outcomes for without a sort is still there (§4:
        // include_other=1 adds the other items, whatever the sort). Items with no outcome may be listed or not.
        const present = new Set(rows.map((r) => itemRefOf(r[fields.item])));
        const dropped = all.find((r) => (Number(r[fields.declines]) > 0 || Number(r[fields.elsewhere]) > 0) && !present.has(itemRefOf(r[fields.item])));
        ensure(
          'C4.18',
          !dropped,
          `${label}: item ${asText(dropped?.[fields.item])} has outcomes with include_other=1 and no sort (${Number(dropped?.[fields.declines])} explicit declines, ${Number(dropped?.[fields.elsewhere])} chose-something-else) but no row here: a sort only orders the rows`,
          exchange,
        );
        if (direction === 'asc' && ordered(rows, field, 'desc') && !ordered(rows, field, 'asc')) {
          const desc = answers[queries.findIndex((q) => q.sort === sort && q.direction === 'desc')]!;
          // Ignored, as it may be where asc is not offered: the allowed values are not shown (§4), nor said to be the
          // same for every sort, so asc may order item_name and be ignored under a count sort (blind round 13).
          if (is2xx(desc) && sameRows(rows, rowsOf(desc.response.json) ?? [], fields)) return;
        }
        ensure('C4.19', ordered(rows, field, direction), `${label}: rows are not in that order`, exchange);
      });
      // The second user's default order (its include_other=1 answer, the run's shared read PROP-006 judges the coverage of):
      // without sort or direction, explicit declines descending whatever the key (§4: default sort explicit_declines,
      // descending with the default sort; include_other only adds items). Any order among equal counts.
      if (t.target.keys.other !== undefined) {
        const wide = await t.discover.shared('GET /proposals.php?include_other=1 (second user)');
        const wideLabel = 'GET /proposals.php?include_other=1 with the second key (no sort or direction)';
        ensureNo5xx('C7.2', wide, wideLabel);
        const rise = firstRise(okRows('C4.19', wide, wideLabel), fields.declines);
        const [before, after] = rise ?? [undefined, undefined];
        ensure(
          'C4.19',
          rise === undefined,
          `${wideLabel}: row ${(before?.j ?? 0) + 1} (item ${asText(before?.r[fields.item])}) counts ${before?.n} explicit declines and row ${(after?.j ?? 0) + 1} after it (item ${asText(after?.r[fields.item])}) ${after?.n}: the default order is explicit declines descending, for every key`,
          wide,
        );
      }
      // The second user's outcomes by item name, descending (the run's shared read, PROP-006 judges its coverage): a
      // direction holds whatever the key (§4: direction is the sort direction; desc is allowed), where that key is given.
      if (t.target.keys.other === undefined || fields.name === undefined) return;
      const theirs = await t.discover.shared('GET /proposals.php?sort=item_name&direction=desc (second user)');
      const theirLabel = 'GET /proposals.php?sort=item_name&direction=desc with the second key';
      ensureNo5xx('C7.2', theirs, theirLabel);
      const theirRows = okRows('C4.19', theirs, theirLabel);
      const names = theirRows.map((r) => String(r[fields.name!]));
      ensure(
        'C4.19',
        ordered(theirRows, fields.name, 'desc'),
        `${theirLabel}: item names are not in descending order under any usual collation (they run ${names
          .slice(0, 4)
          .map((n) => JSON.stringify(n))
          .join(', ')}…)`,
        theirs,
      );
    },
  );

  check(
    {
      id: 'PROP-004',
      level: 'MUST',
      sections: ['§4'],
      title:
        'a start/end window narrows the counts (both of them), two windows that share no day count together no more than no window and two that leave no day out no less, a start alone reaches the months after it and an end alone the months before it, one past every outcome counts none (for the default items too) and, without include_other, lists only kept and secondary-collection items, a 29 February is a date, one around every outcome date keeps them all, and windowed rows keep the default order (or, sorted by chose_something_else or item_name descending, that order)',
      accepts: [
        ...ROW_FREEDOMS,
        'bounds read as inclusive or exclusive',
        'any order among rows with equal explicit declines (or, sorted by chose_something_else, equal chose-something-else counts)',
        'any usual collation for item_name (natural number order and ignoring punctuation included)',
        'windowed rows without a count (null) anywhere in the order',
        'a start or an end alone reaching only some months from it (a year, say), as far as the half year of the 29 February window',
      ],
    },
    async (t) => {
      const { fields, all, collection } = await discover(t);
      const full = new Map(all.map((r) => [itemRefOf(r[fields.item]), r]));
      const year = new Date().getUTCFullYear();
      // The latest leap year before this one: its 29 February is a date like any other (§4: YYYY-MM-DD).
      const leap = leapYearBefore(year);
      // The first, a start alone on 30 December before that year, sorted by item_name, descending. The second ends on 5
      // January of that year from 1900 and the fifth starts on 30 December up to 30 June 2999: the two meet around 1 January
      // and leave no day of the window around every outcome out, whether a bound counts its own day or not (they share a
      // week); each has both bounds, as a lone bound may reach only some months (§4 says nothing of one bound without the
      // other). The second's end is a day of 12 or less in another month, and the fifth runs from a later day of the year
      // to an earlier one of a later year: a date is YYYY-MM-DD (§4), read as such whatever its day and month. The third starts on its
      // 29 February, after the second's end (no day lies in both, whether a bound counts its own day or not) and after
      // the first's start, and ends on 30 June of that year: an end near the start, so that even a service whose lone
      // start reaches only some months ahead holds it; it is sorted by item_name, descending (a sort that dropped the start
      // would count the second's outcomes again). The fourth, an end alone on the third's end: it holds every day of
      // the third (a lone end reaching only some months back too, as a lone start only some months ahead). The second is
      // sorted by chose_something_else, descending: a sort only orders the rows (§4: end bounds the outcomes counted
      // whatever the sort), so its end still bounds them, and its rows are judged in that order as the last window's. The
      // fifth is sorted by item_name, descending: its start bounds the counts whatever the sort, and its rows are judged by name.
      const windows: Query[] = [
        { start: `${leap - 1}-12-30`, sort: 'item_name', direction: 'desc' },
        { start: '1900-01-01', end: `${leap}-01-05`, sort: 'chose_something_else', direction: 'desc' },
        { start: `${leap}-02-29`, end: `${leap}-06-30`, sort: 'item_name', direction: 'desc' },
        { end: `${leap}-06-30` },
        { start: `${leap - 1}-12-30`, end: '2999-06-30', sort: 'item_name', direction: 'desc' },
      ];
      // One bound past every recorded outcome on either side: each bound must act on its own, with a sort and a direction
      // too (§4: sort and direction only order the rows; desc is a direction), the start beside sort=explicit_declines
      // with direction=desc named, the end beside sort=item_name (a sort name, §2, §4). Their order is not judged. The start
      // goes without include_other: the dates bound the outcomes counted for the kept and secondary items too (§4).
      // The start falls on 8 August (a day and a month written 08, which is no octal numeral) and the second key's on 9 September.
      const beyond: Query[] = [
        { start: '2999-08-08', sort: 'explicit_declines', direction: 'desc' },
        { end: '1900-01-01', sort: 'item_name' },
      ];
      // A window around every plausible outcome date counts what no window counts (§4: the dates bound the outcomes counted).
      // It is sorted by chose_something_else, descending: a sort orders the rows whatever the window (§4: sort names
      // chose_something_else, desc is a direction), judged below as PROP-003 judges the sorts without a window. It goes
      // with the second key where one is configured (not in a lean run): a sort and a window hold whatever the key (§4:
      // all results are scoped to the key's user; sort names chose_something_else for every key), and its counts are
      // judged against that user's include_other=1 answer (the run's shared read PROP-003 and PROP-006 judge too). The
      // second window judges the same sort in the first user's rows.
      const around: Query = { start: '1900-01-01', end: '2999-12-31', sort: 'chose_something_else', direction: 'desc' };
      const aroundTheirs = t.target.keys.other !== undefined && !t.target.lean;
      const aroundKey = aroundTheirs ? ' with the second key' : '';
      // The start past every outcome with the second key too, sorted by chose_something_else: a start bounds the outcomes
      // counted whatever the key and the sort (§4: all results are scoped to the key's user; a sort only orders the rows).
      // Where a second key is configured; a lean (budgeted) run leaves it out.
      const theirBeyond: Query = { include_other: 1, start: '2999-09-09', sort: 'chose_something_else' };
      const [theirAnswer, theirWhole, ...answers] = await Promise.all([
        t.target.keys.other === undefined || t.target.lean ? undefined : t.api.proposals(theirBeyond, 'other'),
        aroundTheirs ? t.discover.shared('GET /proposals.php?include_other=1 (second user)') : undefined,
        ...[...windows, ...beyond].map((w) => proposals('C4.20', t, w === beyond[0] ? w : { include_other: 1, ...w })),
        aroundTheirs
          ? t.api.proposals({ include_other: 1, ...around }, 'other').then((exchange) => ({
              rows: okRows(
                'C4.20',
                exchange,
                `GET /proposals.php?${new URLSearchParams({ include_other: '1', ...around } as Record<string, string>).toString()}${aroundKey}`,
              ),
              exchange,
            }))
          : proposals('C4.20', t, { include_other: 1, ...around }),
      ]);
      // A window only narrows the counts: without sort or direction the rows keep the default order, explicit declines
      // descending (§4: default sort explicit_declines, descending with the default sort), whatever the window. Only rows
      // that carry a count are ordered: a windowed row may give none (null, where the window holds none of its outcomes),
      // and the spec does not say where such rows sort (PostgreSQL puts nulls first when descending, MySQL last).
      [...windows, ...beyond, around].forEach((w, i) => {
        if ('sort' in w || 'direction' in w) return;
        const { rows, exchange } = answers[i]!;
        const rise = firstRise(rows, fields.declines);
        const [before, after] = rise ?? [undefined, undefined];
        ensure(
          'C4.19',
          rise === undefined,
          `GET /proposals.php?${new URLSearchParams({ include_other: '1', ...w } as Record<string, string>).toString()} (no sort or direction): row ${(before?.j ?? 0) + 1} (item ${asText(before?.r[fields.item])}) counts ${before?.n} explicit declines and row ${(after?.j ?? 0) + 1} after it (item ${asText(after?.r[fields.item])}) ${after?.n}: the default order is explicit declines descending, with a window too`,
          exchange,
        );
      });
      // The second window, sorted by chose_something_else descending, is in that order among the rows that carry a count
      // (§4: sort names chose_something_else, desc is a direction); any order among equal counts, nulls anywhere.
      {
        const { rows, exchange } = answers[1]!;
        const rise = firstRise(rows, fields.elsewhere);
        const [above, below] = rise ?? [undefined, undefined];
        ensure(
          'C4.19',
          rise === undefined,
          `GET /proposals.php?${new URLSearchParams({ include_other: '1', ...windows[1] } as Record<string, string>).toString()}: row ${(above?.j ?? 0) + 1} (item ${asText(above?.r[fields.item])}) counts ${above?.n} chose-something-else and row ${(below?.j ?? 0) + 1} after it (item ${asText(below?.r[fields.item])}) ${below?.n}: sort=chose_something_else with direction=desc orders the rows by that count, descending, with a window too`,
          exchange,
        );
      }
      // The first, third and fifth windows, sorted by item_name descending, are in that order (§4: sort orders the rows whatever the window;
      // item_name is a sort name, desc a direction), under any usual collation as PROP-003 judges item_name. Only rows that
      // carry a count are ordered: where a windowed row without one (null) sorts is not shown, as above.
      for (const at of fields.name === undefined ? [] : [0, 2, 4]) {
        const { rows, exchange } = answers[at]!;
        const counted = (r: Row) => [fields.declines, fields.elsewhere].some((f) => r[f] !== null && r[f] !== undefined && r[f] !== '');
        const shown = rows.filter(counted).map((r) => String(r[fields.name!]));
        const names = [...shown].reverse();
        ensure(
          'C4.19',
          titleCollations.some((c) => names.every((n, k) => k === 0 || c.compare(names[k - 1]!, n) <= 0)),
          `GET /proposals.php?${new URLSearchParams({ include_other: '1', ...windows[at] } as Record<string, string>).toString()}: item names are not in descending order under any usual collation (the rows with a count run ${shown
            .slice(0, 4)
            .map((n) => JSON.stringify(n))
            .join(', ')}…): sort=item_name with direction=desc orders the rows by item name, with a window too`,
          exchange,
        );
      }
      windows.forEach((w, i) => {
        const { rows, exchange } = answers[i]!;
        for (const row of rows) {
          const whole = full.get(itemRefOf(row[fields.item]));
          const within = (field: string) => Number(row[field]) <= Number(whole?.[field] ?? 0);
          ensure(
            'C4.20',
            within(fields.declines) && within(fields.elsewhere),
            `item ${asText(row[fields.item])} counts more outcomes within ${JSON.stringify(w)} than without a window`,
            exchange,
          );
        }
      });
      const count = (row: Row | undefined, field: string) => Number(row?.[field] ?? 0);
      const byItem = (rows: readonly Row[]) => new Map(rows.map((r) => [itemRefOf(r[fields.item]), r]));
      const [from, until, inside, upTo, later] = answers.slice(0, windows.length).map(({ rows }) => byItem(rows)) as [
        Map<string | undefined, Row>,
        Map<string | undefined, Row>,
        Map<string | undefined, Row>,
        Map<string | undefined, Row>,
        Map<string | undefined, Row>,
      ];
      // Two windows that share no day count no outcome twice: together at most the counts without a window.
      const doubled = all.find((r) => {
        const ref = itemRefOf(r[fields.item]);
        return [fields.declines, fields.elsewhere].some((f) => count(inside.get(ref), f) + count(until.get(ref), f) > count(r, f));
      });
      const ref = itemRefOf(doubled?.[fields.item]);
      ensure(
        'C4.20',
        !doubled,
        `item ${asText(doubled?.[fields.item])} counts ${count(inside.get(ref), fields.declines)} explicit declines and ${count(inside.get(ref), fields.elsewhere)} chose-something-else within ${JSON.stringify(windows[2])} and ${count(until.get(ref), fields.declines)} and ${count(until.get(ref), fields.elsewhere)} within ${JSON.stringify(windows[1])}, more together than the ${count(doubled, fields.declines)} and ${count(doubled, fields.elsewhere)} without a window, though the two windows share no day: each bound must narrow both counts`,
        answers[2]!.exchange,
      );
      // Two windows that leave no day of 1900-2999 out count every outcome: together at least the counts without a
      // window (§2: an item's counts are its outcomes; a window keeps those of its days, so an outcome lies in one of the
      // two; the window around every outcome date keeps them all, judged below).
      const lost = all.find((r) => {
        const key = itemRefOf(r[fields.item]);
        return [fields.declines, fields.elsewhere].some((f) => count(later.get(key), f) + count(until.get(key), f) < count(r, f));
      });
      const lostRef = itemRefOf(lost?.[fields.item]);
      ensure(
        'C4.20',
        !lost,
        `item ${asText(lost?.[fields.item])} counts ${count(later.get(lostRef), fields.declines)} explicit declines and ${count(later.get(lostRef), fields.elsewhere)} chose-something-else within ${JSON.stringify(windows[4])} and ${count(until.get(lostRef), fields.declines)} and ${count(until.get(lostRef), fields.elsewhere)} within ${JSON.stringify(windows[1])}, fewer together than the ${count(lost, fields.declines)} and ${count(lost, fields.elsewhere)} without a window, though the two windows leave no day out (whether a bound counts its own day or not): every outcome lies in one of them`,
        answers[4]!.exchange,
      );
      // A window inside another counts no more than it: a later start and an added end only narrow (whatever the
      // bounds' reading, the same in both requests), so a start alone reaches the months after it.
      const wider = [...inside].find(([key, row]) => [fields.declines, fields.elsewhere].some((f) => count(row, f) > count(from.get(key), f)));
      ensure(
        'C4.20',
        !wider,
        `item ${asText(wider?.[1][fields.item])} counts ${count(wider?.[1], fields.declines)} explicit declines and ${count(wider?.[1], fields.elsewhere)} chose-something-else within ${JSON.stringify(windows[2])}, but only ${count(from.get(wider?.[0]), fields.declines)} and ${count(from.get(wider?.[0]), fields.elsewhere)} within ${JSON.stringify(windows[0])}, which holds every day of it: a start without an end counts the outcomes of the days after it`,
        answers[2]!.exchange,
      );
      // Likewise an end without a start counts the outcomes of the days before it: the fourth window holds the third.
      const beyondEnd = [...inside].find(([key, row]) => [fields.declines, fields.elsewhere].some((f) => count(row, f) > count(upTo.get(key), f)));
      ensure(
        'C4.20',
        !beyondEnd,
        `item ${asText(beyondEnd?.[1][fields.item])} counts ${count(beyondEnd?.[1], fields.declines)} explicit declines and ${count(beyondEnd?.[1], fields.elsewhere)} chose-something-else within ${JSON.stringify(windows[2])}, but only ${count(upTo.get(beyondEnd?.[0]), fields.declines)} and ${count(upTo.get(beyondEnd?.[0]), fields.elsewhere)} within ${JSON.stringify(windows[3])}, which holds every day of it: an end without a start counts the outcomes of the days before it`,
        answers[3]!.exchange,
      );
      // The start past every outcome goes without include_other: whatever rows it lists (a row without counts, null, for
      // an item whose outcomes all lie outside the window is accepted), they are of the default coverage, kept or
      // secondary-collection items (§4: a window only bounds the outcomes counted). Judged where the walk's rows carry flags.
      const flagsOf = new Map(collection.filter((r) => 'is_kept' in r).map((r) => [idOf(r.id), r]));
      const uncovered = answers[windows.length]!.rows.find((r) => {
        const item = flagsOf.get(itemRefOf(r[fields.item]));
        return item !== undefined && !coveredByDefault(item);
      });
      ensure(
        'C4.18',
        uncovered === undefined,
        `the window ${JSON.stringify(beyond[0])} (without include_other) lists item ${asText(uncovered?.[fields.item])}, which is neither kept nor in the secondary collection: without include_other=1 only those are covered, whatever the window`,
        answers[windows.length]!.exchange,
      );
      beyond.forEach((w, i) => {
        const { rows, exchange } = answers[windows.length + i]!;
        const counted = rows.filter((r) => Number(r[fields.declines]) > 0 || Number(r[fields.elsewhere]) > 0);
        ensure(
          'C4.20',
          counted.length === 0,
          `the window ${JSON.stringify(w)}${i === 0 ? ' (without include_other: the kept and secondary items)' : ' with include_other=1'} lies outside every plausible outcome date but still counts outcomes for ${counted.length} item(s)`,
          exchange,
        );
      });
      if (theirAnswer !== undefined) {
        const label = `GET /proposals.php?${new URLSearchParams(theirBeyond as Record<string, string>).toString()} with the second key`;
        ensureNo5xx('C7.2', theirAnswer, label);
        const counted = okRows('C4.20', theirAnswer, label).filter((r) => Number(r[fields.declines]) > 0 || Number(r[fields.elsewhere]) > 0);
        ensure(
          'C4.20',
          counted.length === 0,
          `${label}: the start lies after every plausible outcome date but outcomes are still counted for ${counted.length} item(s), e.g. item ${asText(counted[0]?.[fields.item])} with ${Number(counted[0]?.[fields.declines])} explicit declines and ${Number(counted[0]?.[fields.elsewhere])} chose-something-else: start bounds the outcomes counted, whatever the key and the sort`,
          theirAnswer,
        );
      }
      const { rows: whole, exchange } = answers.at(-1)!;
      // The counts without a window of the key the window went with.
      const wholeOfKey = theirWhole === undefined ? all : okRows('C4.18', theirWhole, 'GET /proposals.php?include_other=1 with the second key');
      // Sorted by the chose-something-else counts, descending, among the rows that carry a count (a windowed row may give
      // none, null, and where such rows sort is not shown); any order among equal counts.
      const rise = firstRise(whole, fields.elsewhere);
      const [above, below] = rise ?? [undefined, undefined];
      ensure(
        'C4.19',
        rise === undefined,
        `GET /proposals.php?${new URLSearchParams({ include_other: '1', ...around } as Record<string, string>).toString()}${aroundKey}: row ${(above?.j ?? 0) + 1} (item ${asText(above?.r[fields.item])}) counts ${above?.n} chose-something-else and row ${(below?.j ?? 0) + 1} after it (item ${asText(below?.r[fields.item])}) ${below?.n}: sort=chose_something_else with direction=desc orders the rows by that count, descending, with a window too`,
        exchange,
      );
      const inWindow = new Map(whole.map((r) => [itemRefOf(r[fields.item]), r]));
      const differs = wholeOfKey.find((r) =>
        [fields.declines, fields.elsewhere].some((f) => count(r, f) !== count(inWindow.get(itemRefOf(r[fields.item])), f)),
      );
      ensure(
        'C4.20',
        !differs,
        `the window ${JSON.stringify(around)}${aroundKey} holds every plausible outcome date, yet item ${asText(differs?.[fields.item])} counts ${count(inWindow.get(itemRefOf(differs?.[fields.item])), fields.declines)} declines and ${count(inWindow.get(itemRefOf(differs?.[fields.item])), fields.elsewhere)} chose-something-else in it, ${count(differs, fields.declines)} and ${count(differs, fields.elsewhere)} without a window`,
        exchange,
      );
    },
  );

  check(
    {
      id: 'PROP-005',
      level: 'MUST',
      sections: ['§4', '§7'],
      title: 'an invalid sort, direction or date never causes a 5xx, and an answer to it still follows the spec',
      accepts: [
        'any 4xx refusal (the statuses for invalid query values are not shown, §7)',
        'the value ignored: a 2xx answer with the same rows and counts as without it (an invalid sort or direction)',
        'a date read leniently: a 2xx answer whose counts are within the counts without a window',
      ],
    },
    async (t) => {
      const { fields, all } = await discover(t);
      const full = new Map(all.map((r) => [itemRefOf(r[fields.item]), r]));
      const invalid: Query[] = [{ sort: 'popularity' }, { direction: 'sideways' }, { start: '2024-13-45' }, { end: 'yesterday' }];
      const answers = await together(invalid.map((query) => t.api.proposals({ include_other: 1, ...query })));
      for (const [i, query] of invalid.entries()) {
        const ex = answers[i]!();
        const label = `GET /proposals.php?include_other=1&${new URLSearchParams(query as Record<string, string>).toString()}`;
        ensureNo5xx('C7.2', ex, label);
        if (!is2xx(ex)) continue;
        const rows = okRows('C4.19', ex, label);
        if (query.sort !== undefined || query.direction !== undefined) {
          ensure(
            'C4.19',
            sameRows(rows, all, fields),
            `${label} was answered (${ex.response.status}) with other rows or counts than without it: sort and direction only order the rows`,
            ex,
          );
          continue;
        }
        const over = rows.find((row) =>
          ['declines', 'elsewhere'].some(
            (k) =>
              Number(row[fields[k as 'declines' | 'elsewhere']]) > Number(full.get(itemRefOf(row[fields.item]))?.[fields[k as 'declines' | 'elsewhere']] ?? 0),
          ),
        );
        ensure(
          'C4.20',
          !over,
          `${label} was answered (${ex.response.status}) with more outcomes for item ${asText(over?.[fields.item])} than without a window: a date bound can only narrow the counts`,
          ex,
        );
      }
    },
  );

  check(
    {
      id: 'PROP-006',
      level: 'MUST',
      sections: ['§4'],
      title: 'by default every kept or secondary-collection item with outcomes is covered, for the second user too (read sorted by item_name)',
      requires: ['full-rows'],
      accepts: [...ROW_FREEDOMS, 'flags served as null read as not set', 'items with no outcome listed or not'],
    },
    async (t) => {
      const { fields, all, collection } = await discover(t);
      const judge = (user: string, wide: readonly Row[], items: readonly Row[], rows: readonly Row[], exchange: Exchange): void => {
        const byId = new Map(items.map((r) => [idOf(r.id), r]));
        const listed = new Set(rows.map((r) => itemRefOf(r[fields.item])));
        // Rows of items with no outcome at all may be listed or not: only counted outcomes must show.
        const missing = wide.filter((r) => {
          const item = byId.get(itemRefOf(r[fields.item]));
          const counted = Number(r[fields.declines]) > 0 || Number(r[fields.elsewhere]) > 0;
          return counted && item && coveredByDefault(item) && !listed.has(itemRefOf(r[fields.item]));
        });
        const first = missing[0];
        const flags = byId.get(itemRefOf(first?.[fields.item]));
        ensure(
          'C4.18',
          missing.length === 0,
          `the default proposal outcomes${user} leave out ${missing.length} kept or secondary-collection item(s) that include_other=1 shows with outcomes, e.g. item ${asText(first?.[fields.item])} (is_kept ${asJson(flags?.is_kept)}, is_in_secondary_collection ${asJson(flags?.is_in_secondary_collection)} in its list row; ${Number(first?.[fields.declines])} explicit declines, ${Number(first?.[fields.elsewhere])} chose-something-else with include_other=1)`,
          exchange,
        );
      };
      const { rows, exchange } = await proposals('C4.18', t, {});
      judge('', all, collection, rows, exchange);
      // The second user's too, where its key is given: its items are another sample of what the default covers
      // (an item marked to get rid of, a setting no row shows, is still kept or in the secondary collection).
      if (t.target.keys.other === undefined) return;
      const [{ rows: theirs }, wide, narrow] = await Promise.all([
        t.discover.collection('other'),
        // The second user's include_other=1 answer is the run's shared read (SCOPE-007 searches it too).
        t.discover.shared('GET /proposals.php?include_other=1 (second user)'),
        // Without include_other, sorted by item name (the run's shared read: PROP-003 judges its order): a sort only
        // orders the rows, so the coverage is the default one (§4; PROP-001 holds it with a sort too).
        t.discover.shared('GET /proposals.php?sort=item_name&direction=desc (second user)'),
      ]);
      judge(
        ' of the second user (read with sort=item_name&direction=desc)',
        okRows('C4.18', wide, 'GET /proposals.php?include_other=1 (second user)'),
        theirs,
        okRows('C4.18', narrow, 'GET /proposals.php?sort=item_name&direction=desc (second user)'),
        narrow,
      );
    },
  );
});

/**
 * The first two rows, among those that carry a count in `field` (null or empty is none), whose counts rise: where an
 * order by that count, descending, is broken; undefined where it holds. `j` is the row's place in the answer.
 */
function firstRise(rows: readonly Row[], field: string): [{ r: Row; j: number; n: number }, { r: Row; j: number; n: number }] | undefined {
  const counted = rows.map((r, j) => ({ r, j, n: r[field] === null || r[field] === '' ? Number.NaN : Number(r[field]) })).filter(({ n }) => Number.isFinite(n));
  const at = counted.findIndex(({ n }, k) => k > 0 && counted[k - 1]!.n < n);
  return at < 0 ? undefined : [counted[at - 1]!, counted[at]!];
}

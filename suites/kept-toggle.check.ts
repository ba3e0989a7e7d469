import {
  describe,
  check,
  ensure,
  endpoints,
  ensureNo5xx,
  idOf,
  is2xx,
  keptIn,
  is4xx,
  isModificationStamp,
  sameUnordered,
  looseFieldValue,
  isObject,
  isSet,
  itemFlag,
  ROW_FIELDS,
  MAX_ROWS_PER_PAGE,
  okRows,
  profiles,
  readKept,
  recordOf,
  rowsOf,
  succeeded,
  caught,
  titleCollations,
  together,
  type CheckContext,
  type ClauseId,
  type Exchange,
  type Row,
  asText,
  asJson,
  labelSet,
  typeIdsCarried,
  typeIdsOf,
  isKeptStateField,
} from '../src/harness/index.ts';

/**
 * The item whose record has the most independent flags and tags set: the toggle's best witness.
 * Chosen among the first rows by id, so that it and its neighbours lie in the first cursor pages,
 * which a bounded re-read covers (KEPT-005); never one of the items set apart for KEPT-006.
 */
async function richestItem(t: CheckContext): Promise<Row> {
  const rows = (await t.discover.toggleRows()).slice(0, MAX_ROWS_PER_PAGE - 1);
  if (rows.length === 0) t.skip('the collection is empty, so there is no item to toggle');
  return byRichness(rows)[0]!;
}

/** The id of the row with the highest id, where every row's id is a number (or a numeric string); otherwise none. */
function newestId(rows: readonly Row[]): string | undefined {
  const ids = rows.map((r) => idOf(r.id));
  if (ids.length === 0 || ids.some((id) => id === undefined || !/^\d+$/.test(id))) return undefined;
  return ids.reduce((a, b) => (Number(b) > Number(a) ? b : a));
}

/** Rows with the most independent flags and tags set first. */
function byRichness(rows: readonly Row[]): Row[] {
  const score = (r: Row) =>
    [r.is_physical, r.is_digital, r.is_in_secondary_collection].filter(isSet).length + (Array.isArray(r.tags) && r.tags.length > 0 ? 2 : 0);
  return [...rows].sort((a, b) => score(b) - score(a));
}

/** At most this many full records are read to choose the witnesses of KEPT-002: the first items by id. */
const RECORD_SAMPLE = 100;
/** Full records read at once while choosing the witnesses of KEPT-002. */
const RECORD_BATCH = 10;
/**
 * In a lean (budgeted) run, KEPT-002 reads this many records only, of the richest rows (most flags and tags
 * set), and toggles at most LEAN_WITNESSES of them.
 */
const LEAN_RECORD_BATCH = 3;
const LEAN_WITNESSES = 2;

/**
 * A record read (before any toggle of this check) agrees with its item's row in the collection walk: the same labels, as
 * a set (§4: the single read returns the item's tags), and the same title, type and flags where the row shows them.
 */
function sameAsWalkRow(rows: readonly Row[], id: string, record: Record<string, unknown>, exchange: Exchange): void {
  const row = rows.find((r) => (idOf(r.id) ?? String(r.id)) === id);
  if (row === undefined) return;
  if (Array.isArray(row.tags) && Array.isArray(record.tags))
    ensure(
      'C4.14',
      labelSet(record.tags) === labelSet(row.tags),
      `GET /artifact.php?id=${id} holds tags ${asJson(record.tags)}, but the item's row in the collection walk carries ${asJson(row.tags)}: the single read returns the item's own labels (§4)`,
      exchange,
    );
  // And the rest of the row: the record carries the list row's fields (§2), of the same item, so where the row shows a
  // title, type or flag the record agrees (flags read as set or not; null as not set).
  const differs = ROW_FIELDS.filter((name) => name !== 'tags' && name !== 'id' && name in record && row[name] !== undefined && row[name] !== null).find(
    (name) => (name.startsWith('is_') ? (itemFlag(record[name]) ?? false) !== (itemFlag(row[name]) ?? false) : String(record[name]) !== String(row[name])),
  );
  ensure(
    'C4.14',
    differs === undefined,
    `GET /artifact.php?id=${id} holds ${differs} ${asJson(record[differs ?? ''])}, but the item's row in the collection walk carries ${asJson(row[differs ?? ''])}: the single read returns the item the list row shows (§2, §4)`,
    exchange,
  );
}

/** A value that shows nothing: what a toggle that reset the field would leave behind. */
function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === '' || itemFlag(value) === false) return true;
  return Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0;
}

/** The fields a toggle could be seen to change: all but the kept state and modification stamps (§3). */
const watchedField = (name: string) => !isKeptStateField(name) && !isModificationStamp(name);

/**
 * Witnesses of KEPT-002, chosen by the data: full records (single reads) of the first items, from
 * which a few are picked that together hold a non-blank value in every field any of them shows, and
 * each independent flag both set and not set. A toggle that resets a field (to 0, null, an empty list)
 * or sets a flag then changes some witness visibly.
 */
const INDEPENDENT_FLAGS = ['is_physical', 'is_digital', 'is_in_secondary_collection'] as const;

async function witnesses(t: CheckContext): Promise<{ id: string; record: Record<string, unknown> }[]> {
  const rows = await t.discover.toggleRows();
  if (rows.length === 0) t.skip('the collection is empty, so there is no item to toggle');
  const sample = (t.target.lean ? byRichness(rows).slice(0, LEAN_RECORD_BATCH) : rows.slice(0, RECORD_SAMPLE)).map((r) => idOf(r.id) ?? String(r.id));
  type Read = { id: string; record: Record<string, unknown> };
  const shown = (r: Read) => Object.keys(r.record).filter((f) => watchedField(f) && !isBlank(r.record[f]));
  // Records are read a batch at a time until every watched field any of them holds shows a value in one
  // of them (a field most items leave blank needs more records to witness it), or the sample is read.
  const records: Read[] = [];
  const blankSoFar = () => {
    const named = new Set(records.flatMap((r) => Object.keys(r.record).filter(watchedField)));
    for (const f of records.flatMap(shown)) named.delete(f);
    return named.size;
  };
  while (records.length < sample.length && (records.length === 0 || blankSoFar() > 0)) {
    const batch = sample.slice(records.length, records.length + RECORD_BATCH);
    const read = await Promise.all(batch.map(async (id) => ({ id, exchange: await t.discover.item(id) })));
    for (const { id, exchange } of read) {
      const record = t.discover.recordIn(exchange, id);
      sameAsWalkRow(rows, id, record, exchange);
      records.push({ id, record });
    }
  }
  // An independent flag is witnessed set and not set where the records read show both: a toggle that sets
  // it shows only on an item without it, one that clears it only on an item with it.
  const traits = (r: Read) => [...shown(r), ...INDEPENDENT_FLAGS.filter((f) => f in r.record).map((f) => `${f}=${isSet(r.record[f]) ? 1 : 0}`)];
  // The item with the highest id among the rows (where every id is a number) is a witness too: the toggle applies to any
  // item of the key's collection (§3, §4), the newest one too, whatever bound a server puts on ids. Its record is read
  // where the sample did not reach it; it is preferred among records that show as much, and added where none shows less.
  const newest = t.target.lean ? undefined : newestId(rows);
  if (newest !== undefined && !records.some((r) => r.id === newest)) records.push({ id: newest, record: await t.discover.record(newest) });
  const uncovered = new Set(records.flatMap(traits));
  const chosen: typeof records = [];
  while (uncovered.size > 0 && !(t.target.lean && chosen.length >= LEAN_WITNESSES)) {
    const gain = (r: Read) => traits(r).filter((f) => uncovered.has(f)).length;
    const best = records.reduce((a, b) => (gain(b) > gain(a) || (gain(b) === gain(a) && b.id === newest) ? b : a));
    chosen.push(best);
    for (const f of traits(best)) uncovered.delete(f);
  }
  // A witness is then swapped for another record where the witnesses still show all they showed and, besides, more of
  // what a toggle that writes a field would change: a field blank here that another record fills (a toggle that fills
  // it in, such as a date stamped on keeping, shows only on such an item), and a title beginning with a lower-case
  // letter (a toggle that saves the title capitalised shows only there). The witnesses stay as many.
  const filled = new Set(records.flatMap(shown));
  const alsoShows = (r: Read) => [
    ...Object.keys(r.record)
      .filter((f) => watchedField(f) && filled.has(f) && isBlank(r.record[f]) && itemFlag(r.record[f]) !== false)
      .map((f) => `${f} blank`),
    ...(typeof r.record.Title === 'string' && /^\p{Ll}/u.test(r.record.Title) ? ['Title lower-case'] : []),
  ];
  const shownBy = (set: readonly Read[], of: (r: Read) => string[]) => new Set(set.flatMap(of));
  // At equal showing, the witnesses cover more item types: keeping or unkeeping an item may run code of its type (a hook
  // that sets a flag, refuses, or drops the write for some types), which only a witness of that type shows; every witness
  // goes both ways.
  const witnessTypes = (r: Read) => (idOf(r.record.type_id) === undefined ? [] : [`type ${idOf(r.record.type_id)}`]);
  // Then more of the owner's labels, on a kept witness and on an unkept one: a toggle that drops or adds one label (an
  // automatic label of a view), or clears them on keeping or unkeeping, shows only on an item that carries them.
  const witnessLabels = (r: Read) =>
    Array.isArray(r.record.tags) && r.record.tags.length > 0
      ? [...r.record.tags.map((label) => `label ${String(label)}`), `labelled while is_kept=${isSet(r.record.is_kept) ? 1 : 0}`]
      : [];
  const score = (set: readonly Read[]) => [shownBy(set, alsoShows).size, shownBy(set, witnessTypes).size, shownBy(set, witnessLabels).size] as const;
  const needed = shownBy(chosen, traits);
  for (let i = 0; i < chosen.length; i++)
    for (const other of records) {
      if (chosen.includes(other)) continue;
      const swapped = chosen.map((r, j) => (j === i ? other : r));
      const keeps = [...needed].every((f) => shownBy(swapped, traits).has(f));
      const [now, then] = [score(swapped), score(chosen)];
      const better = now[0] - then[0] || now[1] - then[1] || now[2] - then[2];
      if (keeps && better > 0) chosen[i] = other;
    }
  const newestRead = records.find((r) => r.id === newest);
  if (newestRead && !chosen.includes(newestRead)) chosen.push(newestRead);
  return chosen.length > 0 ? chosen : [records[0]!];
}

/** Every type the collection's items carry that GET /types.php listed before the toggles of `toggled` is listed after them. */
async function typeListKept(t: CheckContext, after: Exchange, toggled: readonly string[]): Promise<void> {
  const [{ rows }, before] = await Promise.all([t.discover.collection(), t.discover.shared('GET /types.php')]);
  if (!is2xx(before)) return;
  const used = typeIdsCarried(rows);
  const listedBefore = typeIdsOf(rowsOf(before.response.json) ?? [], used) ?? new Set<string>();
  const listedAfter = typeIdsOf(okRows('C4.22', after, 'GET /types.php'), used) ?? new Set<string>();
  const gone = used.filter((id) => listedBefore.has(id) && !listedAfter.has(id));
  ensure(
    'C3.2',
    gone.length === 0,
    `after toggling item(s) ${toggled.join(', ')}, GET /types.php no longer lists type_id(s) ${gone.join(', ')}, which the collection's items carry and which it listed before: the toggle changes only is_kept (§3), and the user's types are listed (§4)`,
    after,
  );
}

function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => !isKeptStateField(name) && !isModificationStamp(name) && !sameUnordered(before[name], after[name]));
}

/** Two readings of one row field the same: a flag in any of its forms (null as not set), other values read loosely (lists in any order). */
function sameValue(field: string, a: unknown, b: unknown): boolean {
  if ((INDEPENDENT_FLAGS as readonly string[]).includes(field)) return isSet(a) === isSet(b);
  return looseFieldValue(a) === looseFieldValue(b);
}

/** The row of item `id` in the list searched by its title, with the exchange that listed it (the evidence of a failure). */
async function listedRow(t: CheckContext, title: string, id: string, filters: Record<string, unknown> = {}): Promise<{ row?: Row; exchange: Exchange }> {
  const ex = await t.api.list({ query: title, per_page: MAX_ROWS_PER_PAGE, ...filters });
  const row = okRows('C3.4', ex, `POST /artifacts.php ${JSON.stringify({ query: title, ...filters })}`).find((r) => idOf(r.id) === id);
  return { ...(row ? { row } : {}), exchange: ex };
}

/** The item's plays and last_use in the run's first page with include (`ex`), or undefined where that page does not hold it. */
function usesSummaryIn(ex: Exchange, id: string): Pick<Row, 'plays' | 'last_use'> | undefined {
  const row = is2xx(ex) ? rowsOf(ex.response.json)?.find((r) => idOf(r.id) === id) : undefined;
  return row && 'plays' in row ? { plays: row.plays, last_use: row.last_use } : undefined;
}

/**
 * Where item `id` sits otherwise in `after` than in `before`, two reads of one title-ordered page (page mode orders by
 * title, §4), relative to the items whose titles no usual collation ties with its own (tie order is not shown), or
 * undefined where it keeps its place: still after every such item it came after, and before every one it came before
 * (also when that item is on the page and it is not). Judged against the order the target itself served before, so
 * any collation.
 */
function placeProblem(before: readonly Row[], after: readonly Row[], id: string): string | undefined {
  const at = (rows: readonly Row[], x: string | undefined) => rows.findIndex((r) => idOf(r.id) === x);
  const was = at(before, id);
  if (was < 0) return undefined;
  const now = at(after, id);
  const title = String(before[was]!.Title ?? '');
  for (const [i, other] of before.entries()) {
    const theirs = String(other.Title ?? '');
    if (i === was || !titleCollations.every((c) => c.compare(theirs, title) !== 0)) continue;
    const j = at(after, idOf(other.id));
    if (j < 0) continue;
    const earlier = i < was;
    if (now < 0 && earlier) continue;
    if (now < 0 || earlier !== j < now)
      return `item ${asText(other.id)} ${asJson(theirs)}, which the same page listed ${earlier ? 'before' : 'after'} it before the toggle, is now ${now < 0 ? 'on the page without it' : earlier ? 'after it' : 'before it'}`;
  }
  return undefined;
}

/** What the toggle checks accept where the spec is silent (§4: its answer is not shown). */
const TOGGLE_FREEDOMS = [
  'any 2xx for a successful toggle (200, 204 …), with any body',
  'the single-item read bare or inside an envelope',
  'is_kept as 0/1, a boolean or null (not set)',
];

/**
 * Items KEPT-003's probes are spread over: each costs a read of its start value, each probe a read-back, and
 * each round of probes (one per item) two round trips on the run's longest chain.
 */
const PROBE_ITEMS = 2;

/**
 * The empty string is sent to an item the rows show kept, so that a server that reads it as 0 (an integer cast) shows the
 * change (§4: is_kept is the integer 0 or 1, other values are invalid; §3: the transition only for 0 or 1).
 */
const INVALID_VALUES: readonly unknown[] = [2, -1, 0.5, true, false, '1', '0', '', 'yes', null, [], { value: 1 }, [1]];
/** A lean (budgeted) run's KEPT-003: one invalid value of each kind (a number, a boolean, a string, null), over two items. */
const LEAN_INVALID_VALUES: readonly unknown[] = [2, true, '1', null];
const LEAN_PROBE_ITEMS = 2;
/**
 * Invalid values sent right after another to the same item and judged by the same read-back: after 2 (on an item the
 * rows show not kept), 10, an integer whose first digit is 1, which a server that checks the first character alone takes
 * for 1, "on", a checkbox's value, which a server that reads form values takes for 1, and 257, which a server that
 * stores the value in a byte takes for 1.
 */
const SENT_AFTER: ReadonlyMap<unknown, readonly unknown[]> = new Map([[2, [10, 'on', 257]]]);

/**
 * KEPT-007 where the rows show an item of each kept value: each is sent the value it has (0 to the one, 1 to
 * the other), both at once, then both are read back at once. Both values are tried, nothing changes, and no
 * write follows the reads, so the restore reads nothing. False where there is no such pair, or where the
 * single reads do not bear the rows out (the check then takes one item to the other value and back).
 */
async function eachValueAsItHas(t: CheckContext): Promise<boolean> {
  const rows = (await t.discover.toggleRows()).slice(0, MAX_ROWS_PER_PAGE - 1);
  // Of each kept value, the item whose row shows the most (independent flags set, labels): sending the value an item has
  // changes nothing else either (§3, §4), which shows only on a field that holds something.
  const shows = (r: Row) => INDEPENDENT_FLAGS.filter((f) => isSet(r[f])).length + (Array.isArray(r.tags) && r.tags.length > 0 ? 1 : 0);
  const richest = (list: readonly Row[]) => list.reduce<Row | undefined>((a, b) => (a === undefined || shows(b) > shows(a) ? b : a), undefined);
  const unkept = richest(rows.filter((r) => 'is_kept' in r && !isSet(r.is_kept)));
  const kept = richest(rows.filter((r) => isSet(r.is_kept)));
  if (!unkept || !kept) return false;
  const ids = [String(unkept.id), String(kept.id)];
  const starts = await together(ids.map((id) => readKept(t.api, id)));
  const values = starts.map((start) => start().value);
  if (values[0] !== 0 || values[1] !== 1) return false;
  t.kept.remember(ids);
  const sent = await together(ids.map((id, value) => t.kept.set(id, value)));
  const now = await together(ids.map((id) => readKept(t.api, id)));
  ids.forEach((id, value) => {
    const again = sent[value]!();
    ensureNo5xx('C7.2', again, `POST /artifact-kept.php {is_kept: ${value}} on item ${id}, which is already ${value}`);
    const read = now[value]!();
    ensure('C3.1', read.value === value, `item ${id} was is_kept=${value}; sending is_kept=${value} made it ${read.value}`, again);
    const before = recordOf(starts[value]!().exchange.response.json, id) ?? {};
    const after = recordOf(read.exchange.response.json, id) ?? {};
    const changed = changedFields(before, after);
    ensure(
      'C3.2',
      changed.length === 0,
      `sending is_kept=${value} to item ${id}, which already had it, also changed: ${changed.map((f) => `${f} ${asJson(before[f])} → ${asJson(after[f])}`).join(', ')}`,
      again,
    );
  });
  return true;
}

/** Two requests sent at once, handed back as together() hands them: each getter returns or throws where it is called. */
async function pair<A, B>(a: Promise<A>, b: Promise<B> | B): Promise<[() => A, () => B]> {
  const [first, second] = await together<unknown>([a, Promise.resolve(b)]);
  return [first as () => A, second as () => B];
}

/**
 * A toggle for an id no item has (a current value, so even a broken target that applied it changes no
 * data): any answer but a 5xx, and if it was accepted, no item with that id may appear.
 */
async function absentIdProbe(t: CheckContext, value: 0 | 1): Promise<void> {
  const absentId = await t.discover.unusedId();
  const absent = await t.api.setKept({ id: absentId, is_kept: value });
  ensureNo5xx('C7.2', absent, 'POST /artifact-kept.php with an id no item has');
  if (is2xx(absent)) {
    const read = await t.api.item(String(absentId));
    const made = is2xx(read) ? recordOf(read.response.json, String(absentId)) : undefined;
    ensure(
      'C1.2',
      idOf(made?.id) !== String(absentId),
      `POST /artifact-kept.php with an id no item has (${asText(absentId)}) was accepted, and an item with that id can now be read`,
      read,
    );
  }
}

/**
 * Reads item `id` back with a single-item read that also carries is_kept=`value` in its query, journaled as a
 * change (a server that wrongly writes it is put back by the kept writer); undefined where the answer holds no
 * readable record (a target may refuse a parameter it does not know).
 */
async function readBackCarryingKept(t: CheckContext, id: string, value: 0 | 1): Promise<ReturnType<typeof keptIn> | undefined> {
  const ex = await t.kept.sendOther(id, `GET ${endpoints.item} is_kept=${value}`, () => t.api.item(id, 'primary', { is_kept: value }));
  if (!is2xx(ex)) return undefined;
  try {
    return keptIn(ex, id);
  } catch {
    return undefined;
  }
}

describe('kept toggle (§3, §4 POST /artifact-kept.php)', () => {
  check(
    {
      id: 'KEPT-001',
      level: 'MUST',
      sections: ['§3', '§4'],
      title:
        'the toggle sets is_kept to exactly the value sent, in both directions (the first as JSON laid out over several lines, the second with is_kept before id), as the single read and the GET listing show',
      toggles: true,
      lane: 'own-items',
      accepts: TOGGLE_FREEDOMS,
    },
    async (t) => {
      // The richest item among those the GET listing (page 1, §4) holds, where any does: after the first toggle that page
      // is read again, and the item's row there carries the value set (§4 rule 3, §3), as every other row does.
      const [share, viaGet] = await Promise.all([t.discover.toggleRows(), t.discover.list(undefined, { usesKeptState: false })]);
      const onGet = new Set(is2xx(viaGet) ? (rowsOf(viaGet.response.json) ?? []).map((r) => idOf(r.id)) : []);
      const near = share.slice(0, MAX_ROWS_PER_PAGE - 1);
      const item = byRichness(near.filter((r) => onGet.has(idOf(r.id))))[0] ?? (await richestItem(t));
      const id = String(item.id);
      const first = await readKept(t.api, id);
      // The record read must be the item asked for: its id may be a number or a string, never another item's.
      ensure(
        'C4.14',
        idOf(first.servedId) === idOf(item.id),
        `GET /artifact.php for item ${id} served the record of item ${asJson(first.servedId)}`,
        first.exchange,
      );
      const start = first.value;
      for (const value of [start === 1 ? 0 : 1, start]) {
        // The first toggle goes as JSON laid out over several lines, the second with is_kept before id: any valid JSON body with
        // id and is_kept is the toggle (§4), and the members of a JSON object have no order.
        const ex = await t.kept.set(id, value, value !== start ? { pretty: true } : { body: { is_kept: value, id: item.id } });
        ensure(
          'C3.1',
          is2xx(ex),
          `POST /artifact-kept.php {is_kept: ${value}} on item ${id}${value !== start ? ' (JSON laid out over several lines)' : ' (is_kept before id in the body)'}: expected success, got ${ex.response.status}`,
          ex,
        );
        const [now, listed] = await Promise.all([readKept(t.api, id), value !== start && onGet.has(id) ? t.api.list(undefined) : undefined]);
        ensure('C3.1', now.value === value, `after setting is_kept=${value} on item ${id}, a single read shows ${now.value}`, now.exchange);
        // Only where the page still lists the item (ties of titles may reorder it, §4 states no tie order) with its kept flag
        // (staging rows carry id, Title and tags only, §4).
        const row = listed && is2xx(listed) ? rowsOf(listed.response.json)?.find((r) => idOf(r.id) === id) : undefined;
        if (row && 'is_kept' in row)
          ensure(
            'C3.4',
            value === 1 ? itemFlag(row.is_kept) === true : itemFlag(row.is_kept) !== true,
            `after setting is_kept=${value} on item ${id}, GET /artifacts.php (page 1) lists it with is_kept=${asJson(row.is_kept)}: every row carries the item's kept flag (§4 rule 3), which the toggle set (§3)`,
            listed,
          );
      }
    },
  );

  check(
    {
      id: 'KEPT-002',
      level: 'MUST',
      sections: ['§3', '§4'],
      title:
        'the toggle leaves every other field of the full record unchanged (the item with the highest id among its witnesses); each record read to choose them holds the tags of its row in the collection walk',
      toggles: true,
      accepts: [
        ...TOGGLE_FREEDOMS,
        'a modification stamp of the record in any naming style (updated_at, lastModified, version, revision …) that moves',
        'a stamp of the kept state itself (kept_at, keptAt, kept_since and the like) that moves',
        'tags and other lists in another order after the toggle (lists are compared as sets)',
      ],
    },
    async (t) => {
      // Each witness goes both ways (0 → 1 and 1 → 0), compared with its record before each time. The
      // witnesses are distinct items and go in step: every witness's toggle at once, then every witness's read
      // at once, twice, so that no write follows the last reads and the restore reads nothing. A witness stops
      // at its first failure; the first failure in the order of the witnesses is reported.
      const chosen = await witnesses(t);
      // The records read are the witnesses' values before their first toggles, though another witness's toggle goes out first.
      t.kept.remember(chosen.map(({ id }) => id));
      const outcomes: (() => void)[] = chosen.map(() => () => {});
      let typesAfter: Promise<Exchange> | undefined;
      for (const back of [false, true]) {
        const playing = chosen.filter((_, i) => succeeded(outcomes[i]!));
        const valueSent = ({ record }: (typeof chosen)[number]) => (isSet(record.is_kept) === back ? 1 : 0);
        const sent = await together(
          playing.map(async (witness) => {
            const value = valueSent(witness);
            const ex = await t.kept.set(witness.id, value);
            ensure('C3.1', is2xx(ex), `POST /artifact-kept.php {is_kept: ${value}} on item ${witness.id}: expected success, got ${ex.response.status}`, ex);
            return ex;
          }),
        );
        // After the last toggles, the type list beside the records (a full run): the toggle changes no item's type (§3), so
        // every type the items carry is listed as before (§4: GET /types.php lists the user's types).
        if (back && !t.target.lean) typesAfter = t.api.types();
        const judged = await together(
          playing.map(async (witness, j) => {
            const ex = sent[j]!();
            const { id, record: before } = witness;
            // The witness's record was read before the toggle: after a toggle that succeeded, the item is still there to read
            // (§3: the toggle changes the kept flag and nothing else; an item gone from the single read changed more).
            const read = await t.discover.item(id);
            ensure(
              'C3.2',
              is2xx(read),
              `POST /artifact-kept.php {is_kept: ${valueSent(witness)}} on item ${id} answered ${ex.response.status}, and then GET /artifact.php?id=${id}, which served the item's record before the toggle, answered ${read.response.status}: the toggle changes the kept flag and nothing else`,
              read,
            );
            const after = t.discover.recordIn(read, id);
            // And the value sent is the one the record shows (§3: is_kept equals the sent value), for every witness.
            const shown = itemFlag(after.is_kept);
            ensure(
              'C3.1',
              shown === undefined || (valueSent(witness) === 1 ? shown === true : shown !== true),
              `POST /artifact-kept.php {is_kept: ${valueSent(witness)}} on item ${id} answered ${ex.response.status}, and then GET /artifact.php?id=${id} shows is_kept ${asJson(after.is_kept)}: after the toggle is_kept equals the value sent`,
              read,
            );
            const changed = changedFields(before, after);
            ensure(
              'C3.2',
              changed.length === 0,
              `setting is_kept=${valueSent(witness)} on item ${id} also changed: ${changed.map((f) => `${f} ${asJson(before[f])} → ${asJson(after[f])}`).join(', ')}`,
              ex,
            );
          }),
        );
        playing.forEach((witness, j) => {
          outcomes[chosen.indexOf(witness)] = judged[j]!;
        });
      }
      for (const outcome of outcomes) outcome();
      if (typesAfter)
        await typeListKept(
          t,
          await typesAfter,
          chosen.map(({ id }) => id),
        );
    },
  );

  check(
    {
      id: 'KEPT-003',
      level: 'MUST',
      sections: ['§4', '§7'],
      title:
        'is_kept values other than the integers 0 and 1 are refused with a 4xx and change nothing, and a GET or a HEAD of the toggle path with id and is_kept in its query changes nothing',
      toggles: true,
      lane: 'own-items',
      accepts: [
        'any 4xx for an invalid is_kept or a missing one (the status is not stated, §7); a body without is_kept is missing it whatever else the body carries; is_kept in the query string is not probed (§4 does not speak of it; frameworks merge query and body input)',
        'any answer but a 5xx to malformed JSON or to an id no item has, provided nothing changes (their statuses are not shown, §7)',
        'any answer but a 5xx to a GET or a HEAD of the toggle path with id and is_kept in the query, provided nothing changes (the toggle is a POST, §1)',
        'the single-item read with is_kept in its query answered as a plain read, or refused (then a plain read follows): it must change nothing',
      ],
    },
    async (t) => {
      const rows = await t.discover.toggleRows();
      t.need(rows[0], 'the collection is empty, so there is no item to toggle');
      // Refused (a 4xx) and no change: invalid values and a missing one (C7.3). Malformed JSON: any answer but
      // a 5xx (its status is not shown), no change (C4.24); it sends the value the item does not have.
      type Send = (item: Row, start: 0 | 1) => Promise<Exchange>;
      const sendValue =
        (value: unknown): Send =>
        (item) =>
          t.kept.set(String(item.id), value, { body: { id: item.id, is_kept: value } });
      // A probe may have requests sent right after it to the same item, one after another (`followedBy`), each judged as it
      // is and all by the same read-back.
      type Followed = { sentAs: string; label: string; send: Send };
      const probes: { label: string; refused: boolean; clause?: ClauseId; send: Send; followedBy?: readonly Followed[] }[] = [
        ...(t.target.lean ? LEAN_INVALID_VALUES : INVALID_VALUES).map((value) => {
          const after = SENT_AFTER.get(value);
          return {
            label: `is_kept ${JSON.stringify(value)}`,
            refused: true,
            send: sendValue(value),
            ...(after === undefined
              ? {}
              : { followedBy: after.map((v) => ({ sentAs: `POST ${endpoints.kept}`, label: `is_kept ${JSON.stringify(v)}`, send: sendValue(v) })) }),
          };
        }),
        // is_kept is a required field of the JSON body (§4): a body without it is refused, even one that carries the
        // value under the list filter's name (kept). It carries the value the item has, so a server that wrongly
        // reads it changes nothing. Not probed: is_kept in the query string beside such a body, which a server whose
        // framework merges query and body input (Rails params, Laravel input()) takes; §4 does not speak of the query.
        {
          label: 'no is_kept in the body (kept instead)',
          refused: true,
          send: (item: Row, start: 0 | 1) => t.kept.sendOther(String(item.id), `kept ${start}`, () => t.api.setKept({ id: item.id, kept: start })),
        },
        {
          label: 'malformed JSON',
          refused: false,
          send: (item: Row, start: 0 | 1) => t.kept.setRaw(String(item.id), `{"id": ${JSON.stringify(item.id)}, "is_kept": ${start === 1 ? 0 : 1}`),
        },
        {
          // The toggle is a POST (§1): a GET naming an item and a new value is a read, whatever it answers.
          label: 'id and is_kept in the query',
          refused: false,
          clause: 'C1.2',
          send: (item: Row, start: 0 | 1) =>
            t.kept.sendOther(String(item.id), `GET is_kept=${1 - start}`, () => t.api.get(endpoints.kept, { id: String(item.id), is_kept: 1 - start })),
          // Then a HEAD of the same (§1: a read method; a server that routes HEAD to its GET handler, or writes before it
          // looks at the method, shows the change).
          followedBy: [
            {
              sentAs: `HEAD ${endpoints.kept}`,
              label: 'id and is_kept in the query',
              send: (item: Row, start: 0 | 1) =>
                t.kept.sendOther(String(item.id), `HEAD is_kept=${1 - start}`, () =>
                  t.api.probe('HEAD', endpoints.kept, { query: { id: String(item.id), is_kept: 1 - start } }),
                ),
            },
          ],
        },
      ];
      // The probes are spread over several items (one after another, each item's in turn) and go out in rounds: in each round
      // every item still in play gets its next probe, all at once, and once every probe of the round has its
      // answer, every item is read back, all at once. A read-back is the item's next probe's "before", and no
      // write of the check follows the last round's read-backs, so the restore trusts them and reads nothing.
      // An item stops at its first failure. Failures are reported in the order of the probes.
      const count = t.target.lean ? LEAN_PROBE_ITEMS : PROBE_ITEMS;
      const items = rows.slice(0, count);
      // Where the probes do not fill every round, the first round is the one left short: every item plays in the last.
      const rounds = Math.ceil(probes.length / items.length);
      const short = rounds * items.length - probes.length;
      const itemOf = (index: number) => (index + short) % items.length;
      // Puts at `at` an item that shows `shows`, where the item there does not: another of the items (not the one at `keep`),
      // else one beyond them.
      const placeAt = (at: number, shows: (r: Row) => boolean, keep?: number) => {
        if (!items[at] || shows(items[at]!)) return;
        const within = items.findIndex((r, k) => k !== keep && shows(r));
        const outside = rows.slice(count).find(shows);
        if (within !== -1) [items[at], items[within]] = [items[within]!, items[at]!];
        else if (outside) items[at] = outside;
      };
      // The first probe (is_kept 2, an integer beyond 1) goes to an item the rows show not kept where there is one,
      // so that a server that refuses it but stores it as 1 (kept) shows the change (§4, §7: refused, nothing changes).
      const firstAt = itemOf(0);
      placeAt(firstAt, (r) => 'is_kept' in r && !isSet(r.is_kept));
      // The empty string goes to an item the rows show kept where there is one, so that a server that reads it as 0 shows the change.
      const emptyProbe = (t.target.lean ? LEAN_INVALID_VALUES : INVALID_VALUES).indexOf('');
      const emptyAt = emptyProbe < 0 ? -1 : itemOf(emptyProbe);
      if (emptyAt >= 0 && emptyAt !== firstAt) placeAt(emptyAt, (r) => isSet(r.is_kept), firstAt);
      const starts = await together(items.map((item) => readKept(t.api, String(item.id))));
      // These reads are the items' values before their first probes, though another item's probe goes out first.
      t.kept.remember(items.map((item) => String(item.id)));
      /** Sends one probe to an item; returns what reads the item back and judges the probe by it. */
      const probe = async (index: number, k: number): Promise<() => Promise<void>> => {
        const { label, refused, clause, send, followedBy } = probes[index]!;
        const start = starts[k]!().value;
        const id = String(items[k]!.id);
        const sentAs = clause === 'C1.2' ? `GET ${endpoints.kept}` : `POST ${endpoints.kept}`;
        const judgeAnswer = (ex: Exchange, what: string, method: string) => {
          ensureNo5xx('C7.2', ex, `${method} with ${what}`);
          if (refused) ensure('C7.3', is4xx(ex), `${method} with ${what}: expected a 4xx refusal, got ${ex.response.status}`, ex);
        };
        const ex = await send(items[k]!, start);
        judgeAnswer(ex, label, sentAs);
        let sentAll = `${sentAs} with ${label}${refused ? '' : ` (${ex.response.status})`}`;
        for (const next of followedBy ?? []) {
          const answer = await next.send(items[k]!, start);
          judgeAnswer(answer, next.label, next.sentAs);
          sentAll += `, then ${next.sentAs} with ${next.label}${refused ? '' : ` (${answer.response.status})`}`;
        }
        return async () => {
          // After the GET of the toggle's path the read-back itself carries the new value in its query (§1: the single
          // read writes nothing either), journaled like a toggle; where it is no readable record, a plain read follows.
          const carried = clause === 'C1.2' ? await readBackCarryingKept(t, id, start === 1 ? 0 : 1) : undefined;
          const now = carried ?? (await readKept(t.api, id));
          const changed = `${sentAll} changed is_kept of item ${id} from ${start} to ${now.value}`;
          if (refused) ensure('C7.3', now.value === start, changed, ex);
          else if (clause === 'C1.2')
            ensure(
              'C1.2',
              now.value === start,
              carried
                ? `${sentAll} and the read-back GET ${endpoints.item}, each with id ${id} and is_kept=${1 - start} in the query, left is_kept of item ${id} at ${now.value}, not ${start}: none may write (§1: the only write is the POST toggle). All were journaled; the check puts the value back with the toggle and verifies it by a read`
                : `${changed}; it was journaled, and the check puts the value back with the toggle and verifies it by a read`,
              carried?.exchange ?? ex,
            );
          else ensure('C4.24', now.value === start, changed, ex);
        };
      };
      const outcomes: (() => void)[] = new Array(probes.length);
      const stopped = new Set<number>();
      let absent: (() => void) | undefined;
      for (let round = 0; round < rounds; round++) {
        const playing = items.map((_, k) => round * items.length + k - short).filter((index, k) => index >= 0 && index < probes.length && !stopped.has(k));
        // The probe of an id no item has goes out with the first round, so that no write follows the last read-backs.
        const [absentOutcome, ...sent] = await together<unknown>([
          round === 0 ? (async () => absentIdProbe(t, starts[0]!().value))() : Promise.resolve(),
          ...playing.map((index) => probe(index, itemOf(index))),
        ]);
        if (round === 0) absent = absentOutcome as () => void;
        const judged = await together(
          playing.map((_, i) => {
            if (!succeeded(sent[i]!)) return Promise.reject(caught(sent[i]!));
            return (sent[i]!() as () => Promise<void>)();
          }),
        );
        playing.forEach((index, i) => {
          outcomes[index] = judged[i]!;
          if (!succeeded(judged[i]!)) stopped.add(itemOf(index));
        });
      }
      for (const outcome of outcomes) outcome?.();
      absent!();
    },
  );

  check(
    {
      id: 'KEPT-004',
      level: 'MUST',
      sections: ['§3', '§4'],
      title:
        'a new kept value shows in list rows (also with fields "collection", and under kept true beside the item\'s own type_id) and in the kept filter (searched by the title and label, holding only rows the search without kept lists; kept true by cursor too), the item is still found by its title and one of its labels, and it keeps its place in the title order of page 1, its row\'s other fields as they were',
      requires: ['full-rows', 'list-filters'],
      toggles: true,
      lane: 'own-items',
      accepts: [
        ...TOGGLE_FREEDOMS,
        'a row showing 0 as null: then kept=false may leave it out',
        'any collation and any order among equal titles (the place is judged against the order served before the toggle)',
      ],
    },
    async (t) => {
      // The uses summary of the item before any toggle, where the run's page with include holds it: a toggle records no
      // use (§3: it changes nothing else), so plays and last_use must read the same in the rows after each toggle.
      // The same page (the run's title page 1 of 200, with the summary where include is offered) also gives the item's
      // place in the title order before any toggle: page mode orders by title (§4) and the toggle changes nothing else
      // (§3), so after the first toggle the page read again lists the item among the same neighbours.
      const summarised = profiles[t.target.profile].has('list-include');
      const pageBody = { per_page: MAX_ROWS_PER_PAGE, ...(summarised ? { include: ['uses_summary'] } : {}) };
      const pageBefore = await t.discover.list(pageBody, { usesKeptState: false });
      // The richest item of the share that page shows used (plays above 0): a toggle that resets the summary shows only there.
      const used = new Set(is2xx(pageBefore) ? (rowsOf(pageBefore.response.json) ?? []).filter((r) => Number(r.plays) > 0).map((r) => idOf(r.id)) : []);
      const share = (await t.discover.toggleRows()).slice(0, MAX_ROWS_PER_PAGE - 1);
      if (share.length === 0) t.skip('the collection is empty, so there is no item to toggle');
      const item = byRichness(share.filter((r) => used.has(idOf(r.id))))[0] ?? byRichness(share)[0]!;
      const id = String(item.id);
      const title = String(item.Title);
      const { value: start } = await readKept(t.api, id);
      const before = summarised ? usesSummaryIn(pageBefore, id) : undefined;
      // The search by title also names one of the item's labels, where it has one: the toggle leaves tags unchanged (§3), so
      // the tag filter still lists the item after each toggle (§4: tag keeps the items the owner labelled with it).
      const label = Array.isArray(item.tags) ? item.tags.find((x): x is string => typeof x === 'string' && x !== '') : undefined;
      // And it asks for fields "collection" where offered: those rows carry is_kept too (§4 rule 3), the toggled value (§3).
      const search = {
        ...(summarised ? { include: ['uses_summary'] } : {}),
        ...(profiles[t.target.profile].has('list-fields') ? { fields: 'collection' } : {}),
        ...(label !== undefined ? { tag: label } : {}),
      };
      // The kept filters are searched with the label too: each answer then holds only rows the same search without kept
      // lists (kept narrows the search, §4), which the search above reads, so a search dropped beside kept shows.
      const tagged = label !== undefined ? { tag: label } : {};
      // kept true also names the item's own type, where it has one: the item's row there carries the kept value the toggle
      // set (§4 rule 3, §3), under a type filter too; kept false stays as wide as the search.
      const typed = idOf(item.type_id) !== undefined ? { type_id: item.type_id } : {};
      const keptBody = (kept: boolean) => ({ kept, ...tagged, ...(kept ? typed : {}) });
      for (const value of [start === 1 ? 0 : 1, start]) {
        const ex = await t.kept.set(id, value);
        ensure('C3.1', is2xx(ex), `POST /artifact-kept.php {is_kept: ${value}} on item ${id}: expected success, got ${ex.response.status}`, ex);
        // After the last toggle, the item is read beside the lists: the restore verifies by that read instead of one of its
        // own (where it fails, the restore reads again). After the first, the title page is read again beside them.
        const pageAgain = value === start ? [] : [t.api.list(pageBody).then((exchange) => ({ exchange }) as { row?: Row; exchange: Exchange })];
        // And kept true once by cursor (§4: the filters hold whichever way the list pages): after the first toggle, where a
        // kept flag read from anywhere but the item itself would still show the value before.
        const cursorBody = { ...keptBody(true), cursor: null };
        const byCursor = value === start ? [] : [listedRow(t, title, id, cursorBody)];
        const [lists] = await pair(
          together([
            listedRow(t, title, id, search),
            listedRow(t, title, id, keptBody(value === 1)),
            listedRow(t, title, id, keptBody(value !== 1)),
            ...pageAgain,
            ...byCursor,
          ]),
          value === start ? readKept(t.api, id) : undefined,
        );
        if (pageAgain.length > 0 && is2xx(pageBefore)) {
          const again = lists()[3]!().exchange;
          const label = `POST /artifacts.php ${JSON.stringify(pageBody)}`;
          const problem = placeProblem(rowsOf(pageBefore.response.json) ?? [], okRows('C4.5', again, label), id);
          ensure(
            'C4.5',
            problem === undefined,
            `after setting is_kept=${value} on item ${id} (${asJson(title)}), ${label} lists it out of its place in the title order: ${problem} (page mode orders by title, §4, and the toggle changes nothing but is_kept, §3)`,
            again,
          );
        }
        if (byCursor.length > 0) {
          const inCursor = lists()[4]!();
          const what = `POST /artifacts.php ${JSON.stringify({ query: title, per_page: MAX_ROWS_PER_PAGE, ...cursorBody })}`;
          ensure(
            'C3.4',
            value === 1 ? itemFlag(inCursor.row?.is_kept) === true : inCursor.row === undefined,
            value === 1
              ? `after setting is_kept=1 on item ${id}, ${what} ${inCursor.row ? `lists it with is_kept=${asJson(inCursor.row.is_kept)}` : 'does not list it'}: kept true keeps the kept items in cursor paging too (§4), and the item is kept now (§3)`
              : `after setting is_kept=0 on item ${id}, ${what} still lists it (is_kept=${asJson(inCursor.row?.is_kept)}): the item is no longer kept (§3), and kept true keeps only kept items in cursor paging too (§4)`,
            inCursor.exchange,
          );
        }
        const searched = lists()[0]!();
        const row = searched.row;
        // With a label, a missing row is a toggle that changed what the tag filter finds (§3); without one, the search (§4).
        if (label !== undefined)
          ensure(
            'C3.2',
            row,
            `after setting is_kept=${value}, item ${id} ("${title}") is missing from the list searched by its title with its label ${asJson(label)} as tag (the toggle leaves tags unchanged, §3)`,
            searched.exchange,
          );
        else ensure('C4.6', row, `after setting is_kept=${value}, item ${id} ("${title}") is missing from the list searched by its title`, searched.exchange);
        if (before) {
          const moved = (['plays', 'last_use'] as const).filter((f) => f in row && !sameUnordered(before[f], row[f]));
          ensure(
            'C3.2',
            moved.length === 0,
            `after setting is_kept=${value} on item ${id}, its uses summary moved: ${moved.map((f) => `${f} ${asJson(before[f])} → ${asJson(row[f])}`).join(', ')} (a toggle records no use)`,
            searched.exchange,
          );
        }
        // And the row's other fields of rule 3 are those the title page showed before any toggle (§3: the toggle changes
        // nothing else; tags in any order, flags and values in any of their forms).
        const rowBefore = is2xx(pageBefore) ? rowsOf(pageBefore.response.json)?.find((r) => idOf(r.id) === id) : undefined;
        const moved = rowBefore
          ? ROW_FIELDS.filter((f) => f !== 'id' && f !== 'is_kept' && f in rowBefore && f in row && !sameValue(f, rowBefore[f], row[f]))
          : [];
        ensure(
          'C3.2',
          moved.length === 0,
          `after setting is_kept=${value} on item ${id}, its row ${JSON.stringify({ query: title, ...search })} shows ${moved.map((f) => `${f} ${asJson(row[f])}`).join(', ')}, where POST /artifacts.php ${JSON.stringify(pageBody)} showed ${moved.map((f) => asJson(rowBefore?.[f])).join(', ')} before any toggle (§3: the toggle changes nothing but is_kept)`,
          searched.exchange,
        );
        const shown = itemFlag(row.is_kept);
        ensure(
          'C3.4',
          value === 1 ? shown === true : shown === false || shown === null,
          `after setting is_kept=${value}, the list row of item ${id} shows is_kept=${'is_kept' in row ? JSON.stringify(row.is_kept) : 'absent'}`,
          searched.exchange,
        );
        // Only where the search's answer is whole (fewer rows than a page of 200): kept then lists none beyond it.
        const searchRows = label !== undefined && is2xx(searched.exchange) ? (rowsOf(searched.exchange.response.json) ?? []) : [];
        if (label !== undefined && searchRows.length > 0 && searchRows.length < MAX_ROWS_PER_PAGE) {
          const found = new Set(searchRows.map((r) => idOf(r.id)));
          for (const listed of [lists()[1]!(), lists()[2]!()]) {
            const extra =
              listed.exchange && is2xx(listed.exchange) ? (rowsOf(listed.exchange.response.json) ?? []).find((r) => !found.has(idOf(r.id))) : undefined;
            ensure(
              'C4.8',
              !extra,
              `after setting is_kept=${value} on item ${id}, the list searched by its title ${asJson(title)} with its label ${asJson(label)} and a kept filter lists item ${asText(extra?.id)} (${asJson(extra?.Title)}), which the same search without kept does not (kept is a filter: it narrows the search, §4)`,
              listed.exchange,
            );
          }
        }
        const inMatching = lists()[1]!();
        ensure(
          'C3.4',
          inMatching.row || shown === null,
          `after setting is_kept=${value}, item ${id} is missing from the list filtered by kept=${value === 1}`,
          inMatching.exchange,
        );
        const shownThere = inMatching.row ? itemFlag(inMatching.row.is_kept) : undefined;
        ensure(
          'C3.4',
          !inMatching.row || (value === 1 ? shownThere === true : shownThere === false || shownThere === null),
          `after setting is_kept=${value}, the row of item ${id} in the list ${JSON.stringify({ query: title, ...keptBody(value === 1) })} shows is_kept=${asJson(inMatching.row?.is_kept)}`,
          inMatching.exchange,
        );
        const inOpposite = lists()[2]!();
        ensure(
          'C3.4',
          !inOpposite.row,
          `after setting is_kept=${value}, item ${id} still appears in the list filtered by kept=${value !== 1}`,
          inOpposite.exchange,
        );
      }
    },
  );

  check(
    {
      id: 'KEPT-005',
      level: 'MUST',
      sections: ['§3'],
      title:
        'toggling one item changes no other item, not even one with the same title, and nothing of the item but is_kept (its flags and labels as its rows show them)',
      toggles: true,
      accepts: TOGGLE_FREEDOMS,
    },
    async (t) => {
      const rows = await t.discover.toggleRows();
      if (rows.length < 2) t.skip('fewer than two items, so there is no other item to watch');
      // An item sharing its title with another watched one, where there is such a pair: a toggle keyed on the title
      // rather than the id then shows on the namesake (§3: the item named, nothing else).
      const near = rows.slice(0, MAX_ROWS_PER_PAGE - 1);
      const titled = (r: Row) => typeof r.Title === 'string' && r.Title !== '';
      // The later copy by id (the first rows' order where ids are not numbers): a toggle that resolves the item through
      // its title reaches the first copy, so the copy sent must not be the first.
      const later = (r: Row, o: Row) => {
        const [a, b] = [Number(idOf(r.id)), Number(idOf(o.id))];
        return Number.isFinite(a) && Number.isFinite(b) ? a > b : near.indexOf(r) > near.indexOf(o);
      };
      const namesake = near.find((r) => titled(r) && near.some((o) => o !== r && o.Title === r.Title && later(r, o)));
      const item = namesake ?? (await richestItem(t));
      const id = String(item.id);
      const witnesses = rows.filter((r) => idOf(r.id) !== id).slice(0, 199);
      // The items set apart for KEPT-006 change beside this check: they are not watched.
      const apart = new Set((await t.discover.setApart()).map((r) => idOf(r.id)));
      // The toggled item's row, where the first cursor pages list it: its flags and labels as each read shows them.
      const rowsSeen: (Row | undefined)[] = [];
      const keptOf = async (): Promise<Map<string, unknown>> => {
        if (profiles[t.target.profile].has('full-rows')) {
          // The first two cursor pages: the toggled item and every item near it by id.
          const fresh = (await t.discover.freshWindow(2)).pages.flatMap((p) => p.rows).filter((r) => !apart.has(idOf(r.id)));
          rowsSeen.push(fresh.find((r) => idOf(r.id) === id));
          return new Map(fresh.map((r) => [idOf(r.id) ?? '', itemFlag(r.is_kept) ?? false]));
        }
        const sample = witnesses.slice(0, 10);
        const values = await Promise.all(sample.map(async (r) => (await readKept(t.api, String(r.id))).value));
        return new Map(sample.map((r, i) => [idOf(r.id) ?? '', values[i]]));
      };
      // The witnesses and the item are read together; a failure is reported in the order they were read before.
      const [witnessed, read] = await pair(keptOf(), readKept(t.api, id));
      const before = witnessed();
      const start = read().value;
      for (const value of [start === 1 ? 0 : 1, start]) {
        const ex = await t.kept.set(id, value);
        ensure('C3.1', is2xx(ex), `POST /artifact-kept.php on item ${id}: expected success, got ${ex.response.status}`, ex);
        // After the last toggle, the item is read beside the witnesses: that read, made after the check's last write,
        // is what its restore verifies, so the restore needs no read of its own (where it fails, the restore reads again).
        const [witnessedAfter] = await pair(keptOf(), value === start ? readKept(t.api, id) : undefined);
        const after = witnessedAfter();
        const moved = [...before].filter(([other, was]) => other !== id && after.has(other) && after.get(other) !== was).map(([other]) => other);
        ensure('C3.3', moved.length === 0, `setting is_kept=${value} on item ${id} also changed is_kept of item(s) ${moved.join(', ')}`, ex);
        // Cursor pages go by id, which the toggle leaves as it was: the items those pages listed are listed there still,
        // in the same order.
        ensure(
          'C3.3',
          !before.has(id) || after.has(id),
          `after setting is_kept=${value} on item ${id}, the first cursor pages read afresh no longer list it, though they did before the toggle: cursor pages go by id (§4) and the toggle changes nothing but is_kept (§3)`,
          ex,
        );
        // Nor does the item itself change but for is_kept: its independent flags and labels are as before the toggles
        // (§3: they are unchanged), whatever copy of a title it is.
        const [rowBefore, rowAfter] = [rowsSeen[0], rowsSeen.at(-1)];
        const labelsMoved = (a: Row, b: Row) => Array.isArray(a.tags) && Array.isArray(b.tags) && labelSet(a.tags) !== labelSet(b.tags);
        const itself =
          rowBefore && rowAfter
            ? [
                ...INDEPENDENT_FLAGS.filter((f) => f in rowBefore && f in rowAfter && !sameValue(f, rowBefore[f], rowAfter[f])),
                ...(labelsMoved(rowBefore, rowAfter) ? ['tags'] : []),
              ]
            : [];
        ensure(
          'C3.2',
          itself.length === 0,
          `after setting is_kept=${value} on item ${id}, the first cursor pages read afresh list it with ${itself.map((f) => `${f} ${asJson(rowAfter?.[f])}`).join(', ')}, before the toggles ${itself.map((f) => asJson(rowBefore?.[f])).join(', ')}: the toggle changes nothing but is_kept (§3)`,
          ex,
        );
        const reordered = firstReordering(before, after);
        ensure(
          'C3.3',
          reordered === undefined,
          `after setting is_kept=${value} on item ${id}, the first cursor pages read afresh list the items in another order than before the toggle (${reordered}): cursor pages go by id (§4), which the toggle does not change (§3)`,
          ex,
        );
        // And the item itself, where those pages list it, carries the value set (§4 rule 3: every row carries is_kept; §3).
        ensure(
          'C3.4',
          !after.has(id) || Boolean(after.get(id)) === (value === 1),
          `after setting is_kept=${value} on item ${id}, the first cursor pages read afresh list it with is_kept ${after.get(id) ? 'set' : 'not set'}: every row carries the item's kept flag, which the toggle set`,
          ex,
        );
      }
    },
  );

  check(
    {
      id: 'KEPT-007',
      level: 'MUST',
      sections: ['§3', '§4'],
      title: 'sending the value an item already has leaves it unchanged, for 0 and for 1',
      toggles: true,
      lane: 'own-items',
      accepts: [...TOGGLE_FREEDOMS, 'any answer but a 5xx to a toggle that changes nothing'],
    },
    async (t) => {
      if (await eachValueAsItHas(t)) return;
      const item = await richestItem(t);
      const id = String(item.id);
      const start = (await readKept(t.api, id)).value;
      // The other value first, then back: the item ends as it began, so the restore has nothing to write.
      for (const value of [start === 1 ? 0 : 1, start]) {
        const change = await t.kept.set(id, value);
        ensure('C3.1', is2xx(change), `POST /artifact-kept.php {is_kept: ${value}} on item ${id}: expected success, got ${change.response.status}`, change);
        // The next state is the value sent (§3), whatever the state was: sending it again is no flip.
        const again = await t.kept.set(id, value);
        ensureNo5xx('C7.2', again, `POST /artifact-kept.php {is_kept: ${value}} on item ${id}, which is already ${value}`);
        const now = await readKept(t.api, id);
        ensure('C3.1', now.value === value, `item ${id} was is_kept=${value}; sending is_kept=${value} again made it ${now.value}`, again);
      }
    },
  );

  check(
    {
      id: 'KEPT-008',
      level: 'MUST',
      sections: ['§3', '§4', '§7'],
      title: 'a toggle without an id is refused with a 4xx and changes no item; one whose id is a list of two items changes at most one of them',
      toggles: true,
      accepts: [
        'any 4xx (the status is not stated, §7), with any body',
        'is_kept as 0/1, a boolean or null (not set)',
        'a list of ids in id refused with any status, ignored, or read as one of its ids (the first or the last)',
      ],
    },
    async (t) => {
      const rows = await t.discover.toggleRows();
      const first = t.need(rows[0], 'the collection is empty, so there is no item whose kept flag could be watched');
      const watched = rows.slice(0, 10).map((r) => idOf(r.id) ?? String(r.id));
      // Where list rows carry is_kept, one cursor page shows the flags of the watched items (the first by
      // id) and of the items after them; otherwise each watched item is read alone. Items set apart for
      // KEPT-006 change beside this check: they are not watched.
      const apart = new Set((await t.discover.setApart()).map((r) => idOf(r.id)));
      const keptOf = async (): Promise<Map<string, unknown>> => {
        if (!profiles[t.target.profile].has('full-rows'))
          return new Map(await Promise.all(watched.map(async (id) => [id, (await readKept(t.api, id)).value] as const)));
        const listed = (await t.discover.freshWindow(1)).pages.flatMap((p) => p.rows).filter((r) => !apart.has(idOf(r.id)));
        return new Map(listed.map((r) => [idOf(r.id) ?? String(r.id), itemFlag(r.is_kept) ?? false]));
      };
      // The first item's value is read beside the flags, before the toggles (its journal entry needs it) and after
      // them (what its restore verifies): neither costs a round trip of its own. Without full rows, keptOf reads it.
      const firstId = String(first.id);
      const readFirst = () => (profiles[t.target.profile].has('full-rows') ? readKept(t.api, firstId) : undefined);
      const [beforeFlags, beforeRead] = await pair(keptOf(), readFirst());
      const before = beforeFlags();
      beforeRead();
      // One after the other, 0 then 1: a server that wrongly applied both to one item leaves it at 1 whatever order
      // they were sent in by the client, so the outcome does not depend on which landed first.
      for (const value of [0, 1]) {
        // id is required (§4): the body names no item. The first item is journaled, as for any toggle.
        const ex = await t.kept.set(firstId, value, { body: { is_kept: value } });
        ensureNo5xx('C7.2', ex, `POST /artifact-kept.php {"is_kept": ${value}} without an id`);
        ensure('C4.24', is4xx(ex), `POST /artifact-kept.php {"is_kept": ${value}} without an id: expected a 4xx refusal, got ${ex.response.status}`, ex);
      }
      // id is one item id (§4): a list [X, Y] names no item. X and Y both have the value other than the one sent, so a server
      // that reads the list as its first or its last id changes one of them (the spec does not say what an id of the wrong
      // kind does), and one that applies the value to every id of the list changes both: two items from one toggle (§1: the
      // flag of an item). X, Y and an item whose id is 1 (a PHP-style cast of a list to a number names it) are journaled
      // before it is sent, so whatever such a server changed is put back.
      const served = new Map(rows.map((r) => [idOf(r.id) ?? String(r.id), r.id]));
      const known = [...before].filter(([id, was]) => id !== firstId && served.has(id) && was !== null && was !== undefined);
      const asBit = (was: unknown): 0 | 1 => (was === true || was === 1 ? 1 : 0);
      const x = known[0];
      const y = x ? known.find(([id, was]) => id !== x[0] && asBit(was) === asBit(x[1])) : undefined;
      let listProbe: { body: unknown; ids: string[]; ex: Exchange } | undefined;
      if (x && y) {
        const value = asBit(x[1]) === 1 ? 0 : 1;
        const body = { id: [served.get(x[0]), served.get(y[0])], is_kept: value };
        const castTo = served.has('1') && ![firstId, x[0], y[0]].includes('1') ? ['1'] : [];
        await Promise.all([x[0], ...castTo].map((id) => t.kept.atRisk(id, body)));
        const ex = await t.kept.set(y[0], value, { body });
        ensureNo5xx('C7.2', ex, `POST /artifact-kept.php ${JSON.stringify(body)}`);
        listProbe = { body, ids: [x[0], y[0]], ex };
      }
      // The read after the toggles only serves the restore: where it fails, the restore reads again.
      const [afterFlags] = await pair(keptOf(), readFirst());
      const after = afterFlags();
      const changed = (id: string) => after.has(id) && after.get(id) !== before.get(id);
      if (listProbe)
        ensure(
          'C3.3',
          !listProbe.ids.every(changed),
          `POST /artifact-kept.php ${JSON.stringify(listProbe.body)} (a list, not an item id) changed is_kept of both items ${listProbe.ids.join(' and ')}: one toggle changes at most the one item it names`,
          listProbe.ex,
        );
      const named = new Set(listProbe?.ids ?? []);
      const moved = [...before].filter(([id]) => !named.has(id) && changed(id)).map(([id]) => id);
      ensure(
        'C4.24',
        moved.length === 0,
        `toggles without an id${listProbe ? ' or with a list as id' : ''} changed is_kept of item(s) ${moved.join(', ')}, which no toggle named`,
      );
    },
  );
});

/** Where two reads of the same pages list the items they share in another order: the first position that differs. */
function firstReordering(before: ReadonlyMap<string, unknown>, after: ReadonlyMap<string, unknown>): string | undefined {
  const was = [...before.keys()].filter((k) => after.has(k));
  const now = [...after.keys()].filter((k) => before.has(k));
  const at = was.findIndex((k, i) => now[i] !== k);
  return at < 0 ? undefined : `position ${at + 1} of the items listed both times: item ${was[at]} before, item ${now[at]} after`;
}

import {
  asJson,
  describe,
  check,
  ensure,
  foreignTyped,
  idOf,
  is2xx,
  is4xx,
  ensureNo5xx,
  recordOf,
  itemFieldOf,
  itemFlag,
  itemRefOf,
  MAX_ROWS_PER_PAGE,
  okRows,
  profiles,
  type CheckContext,
  type Row,
  COLLECTION_FIELDS,
  knownFieldValue,
} from '../src/harness/index.ts';

const FLAGS = ['is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection'] as const;
/** The list row's other fields: the record carries more than the row (§2), so these as well. */
const ROW_FIELDS = ['id', 'Title', 'type', 'type_id'] as const;

/**
 * Player counts that fields "collection" adds to a row (§2): counts have no unit, so where the full record carries a
 * field of the same name it is the same item's same count.
 */
const COUNT_FIELDS = ['MnP', 'MxP', 'SS'] as const;
/**
 * The year fields "collection" adds to a row (§2: Yr, year): a year is a year in any number form, so where the full
 * record carries a known Yr as a number too, it is the same item's same year (a row that took it from elsewhere, such
 * as a number ending the title, shows against it).
 */
const YEAR_FIELDS = ['Yr'] as const;
/** A title ending in a four-digit number (an edition such as "… 1849"): the sample holds such an item where one is known. */
const YEAR_TITLED = /\b\d{4}$/;

/** Items read at most: enough for the kinds of rows a small collection holds, bounded for a large one. */
const SAMPLE = 10;

/**
 * Items whose list rows differ in kind: one of each combination of the four flags and of having tags,
 * where the collection holds it, so that a read that confuses two flags or drops tags in one case shows
 * it (the first rows when the rows do not carry the flags). Of each kind, a title twin (read anyway), else the first
 * item whose title one of the second key's items carries too (where a second key is configured and fields "collection"
 * is offered), else the first item: a service that finds an item's fields "collection" values by its title across users
 * serves the other user's values for it, which its own record shows (§4: results are scoped to the key's user; §2: the
 * row's fields are the item's).
 */
async function sample(t: CheckContext): Promise<Row[]> {
  const acrossUsers = t.target.keys.other !== undefined && profiles[t.target.profile].has('list-fields');
  const [{ rows }, theirs] = await Promise.all([
    t.discover.collection(),
    acrossUsers ? t.discover.collection('other').then(({ rows: other }) => other) : undefined,
  ]);
  const shared = new Set<unknown>((theirs ?? []).map((r) => r.Title).filter((title) => typeof title === 'string'));
  const kind = (r: Row) => JSON.stringify([...FLAGS.map((name) => itemFlag(r[name]) ?? false), Array.isArray(r.tags) && r.tags.length > 0]);
  // The title twins are read whatever their kinds: a twin shows its kind as well as any item of it, so it is that kind's
  // item (no second read for the kind); else an item whose title the second key's items carry; else the first.
  const twins = titleTwins(rows);
  const twinIds = new Set(twins.map((r) => idOf(r.id)));
  const rank = (r: Row) => (twinIds.has(idOf(r.id)) ? 2 : shared.has(r.Title) ? 1 : 0);
  // At equal rank, an item with more than two tags is preferred: a record that serves only some of the item's tags (§4
  // GET /artifact.php: the record carries the tags; §2: tags is the list of the owner's labels) shows on such an item.
  const manyTags = (r: Row) => Array.isArray(r.tags) && r.tags.length > 2;
  const first = new Map<string, Row>();
  const chosen = new Map<string, Row>();
  for (const row of rows) {
    const held = chosen.get(kind(row));
    if (!held) first.set(kind(row), row);
    if (!held || rank(row) > rank(held) || (rank(row) === rank(held) && manyTags(row) && !manyTags(held))) chosen.set(kind(row), row);
  }
  const kindKeys = [...chosen.keys()].slice(0, SAMPLE);
  const kinds = kindKeys.map((key) => chosen.get(key)!);
  // A preferred item costs no trait the kinds' first items show (several tags, a kept item's tags): where the items
  // read miss one, the kind whose first item shows it is read through that first item again.
  for (const [i, key] of kindKeys.entries()) {
    const shown = new Set([...kinds, ...twins].flatMap(traitsOf));
    if (traitsOf(first.get(key)!).some((trait) => !shown.has(trait))) kinds[i] = first.get(key)!;
  }
  // Where fields "collection" is offered and no item of the sample has a title ending in a four-digit number, the first
  // such item takes the last place (or one more where the sample is not full): its row must carry its own Yr (§2).
  const yearTitled = (r: Row) => typeof r.Title === 'string' && YEAR_TITLED.test(r.Title);
  const edition = rows.find(yearTitled);
  if (!t.target.lean && profiles[t.target.profile].has('list-fields') && edition && !kinds.some(yearTitled))
    kinds.splice(Math.min(kinds.length, SAMPLE - 1), 1, edition);
  // Where no item read carries more than two tags, a kind read that holds such an item is read through its first one
  // (of those kinds, the one whose preferred item ranks lowest; neither a twin nor the edition is given up).
  if (![...kinds, ...twins].some(manyTags)) {
    const swap = kindKeys
      .map((key, i) => ({ i, row: rows.find((r) => kind(r) === key && manyTags(r)) }))
      .filter(({ i, row }) => row !== undefined && kinds[i] !== edition && !twinIds.has(idOf(kinds[i]!.id)))
      .sort((a, b) => rank(kinds[a.i]!) - rank(kinds[b.i]!))[0];
    if (swap) kinds[swap.i] = swap.row!;
  }
  // Likewise where no item read has a title holding a character beyond Latin-1 (such as a typographic dash), else beyond
  // ASCII (an accented letter), where the data holds one: it is read too where the sample is not full, else a kind read
  // that holds such an item is read through it (the record carries the item's own title, §4 GET /artifact.php; a
  // conversion to a narrower character set shows there; neither a twin nor the edition is given up).
  const titled = (pattern: RegExp) => (r: Row) => typeof r.Title === 'string' && pattern.test(r.Title);
  const beyondAscii = rows.some(titled(/[^\u0000-\u00ff]/)) ? titled(/[^\u0000-\u00ff]/) : titled(/[^\u0000-\u007f]/);
  // Only where the items read still show every trait they showed (a title beginning in lower case among them).
  const shows = (r: Row) => [...traitsOf(r), ...(typeof r.Title === 'string' && /^\p{Ll}/u.test(r.Title) ? ['lower-case title'] : [])];
  const keepsTraits = (i: number, row: Row) => {
    const before = new Set([...kinds, ...twins].flatMap(shows));
    const after = new Set([...kinds.map((k, j) => (j === i ? row : k)), ...twins].flatMap(shows));
    return [...before].every((trait) => after.has(trait));
  };
  const extra = rows.find(beyondAscii);
  if (![...kinds, ...twins].some(beyondAscii) && extra && kinds.length < SAMPLE) kinds.push(extra);
  else if (![...kinds, ...twins].some(beyondAscii)) {
    const swap = kindKeys
      .map((key, i) => ({ i, row: rows.find((r) => kind(r) === key && beyondAscii(r)) }))
      .filter(({ i, row }) => row !== undefined && kinds[i] !== edition && !twinIds.has(idOf(kinds[i]!.id)) && keepsTraits(i, row))
      .sort((a, b) => rank(kinds[a.i]!) - rank(kinds[b.i]!))[0];
    if (swap) kinds[swap.i] = swap.row!;
  }
  // A lean (budgeted) run reads the row that shows the most traits (beside the title twins): the others found no mutant of their own.
  const picked = t.target.lean ? fewestCovering(kinds).slice(0, 1) : kinds;
  const ids = new Set(picked.map((r) => idOf(r.id)));
  return [...picked, ...twins.filter((r) => !ids.has(idOf(r.id)))];
}

/**
 * Both items of the first title two items share, where the collection holds one: a read that finds the item
 * by its title instead of its id answers one copy's record for the other (§4: the read is by id).
 */
function titleTwins(rows: readonly Row[]): Row[] {
  const seen = new Map<string, Row>();
  for (const row of rows) {
    if (typeof row.Title !== 'string') continue;
    const first = seen.get(row.Title);
    if (first) return [first, row];
    seen.set(row.Title, row);
  }
  return [];
}

/** What a row shows that a read could get wrong: each flag set and not set, tags, several tags, a kept item's tags. */
function traitsOf(row: Row): string[] {
  const tags = Array.isArray(row.tags) ? row.tags.length : 0;
  return [
    ...FLAGS.map((name) => `${name}=${itemFlag(row[name]) ?? false}`),
    ...(tags > 0 ? ['tags'] : []),
    ...(tags > 1 ? ['several tags'] : []),
    ...(tags > 0 && itemFlag(row.is_kept) ? ['kept with tags'] : []),
  ];
}

/** A lean (budgeted) run reads fewer records: the fewest rows that together show every trait the sample shows. */
function fewestCovering(rows: Row[]): Row[] {
  const uncovered = new Set(rows.flatMap(traitsOf));
  const chosen: Row[] = [];
  while (uncovered.size > 0) {
    const gain = (r: Row) => traitsOf(r).filter((x) => uncovered.has(x)).length;
    const best = rows.reduce((a, b) => (gain(b) > gain(a) ? b : a));
    chosen.push(best);
    for (const x of traitsOf(best)) uncovered.delete(x);
  }
  return chosen.length > 0 ? chosen : rows.slice(0, 1);
}

/**
 * The second key's first item of a type only that user's items have (the first such item that carries tags, where one
 * does), where a second key is configured and such a type exists: the first user's records never show that type's name, so a list that names it otherwise shows only
 * against this item's own record (read with its owner's key, §5).
 */
/**
 * An id no item of either user has, between two ids of the users' items (where every id is a number) and below the first
 * user's highest: a read that looks an unknown id up as the next one up serves another item's record for it.
 */
async function gapId(t: CheckContext): Promise<number | undefined> {
  const [{ ids: mine }, theirs] = await Promise.all([
    t.discover.collection(),
    t.target.keys.other !== undefined ? t.discover.collection('other').then(({ ids }) => ids) : [],
  ]);
  const numbers = [...mine, ...theirs].map(Number);
  if (mine.length === 0 || !numbers.every(Number.isSafeInteger)) return undefined;
  const highest = Math.max(...mine.map(Number));
  const taken = new Set(numbers);
  const sorted = [...taken].sort((a, b) => a - b);
  const below = sorted.find((id, i) => i + 1 < sorted.length && sorted[i + 1]! > id + 1 && id + 1 < highest);
  return below === undefined || taken.has(below + 1) ? undefined : below + 1;
}

describe('the single-item read (§4 GET /artifact.php)', () => {
  check(
    {
      id: 'READ-001',
      level: 'MUST',
      sections: ['§2', '§4'],
      title:
        'the single read returns the list row\'s fields, is_kept, the three independent flags and tags, agreeing with the list row (and with its row under fields "collection" on the player counts and the year both carry and on which of the eight fields are known), also for both items of a title two items share and for one whose title holds a character beyond Latin-1 (else beyond ASCII), and for the second key\'s item of a type only its items have (one with tags where one is known); an item a record read marks to get rid of still lists its recorded uses under artifact_id; an id between the items ids that no item has is not answered with another item record, nor an id with another item id beside it as artifact_id',
      accepts: [
        'flags as 0/1, booleans or null (not set)',
        'the record bare or inside an envelope',
        'tags in any order',
        'ids as numbers or strings',
        'fields beyond the list row',
        'MnP, MxP and SS absent from the record (its full field list is not shown), null, or not a number in either answer: then not compared',
        'Yr absent from the record, unknown (null, zero, empty), or not a number (a date) in either answer: then not compared',
        'any type and unit for the eight fields of fields "collection": only whether a value is known (not null, an empty text, absent or zero, such as 0 or the zero date 0000-00-00) is compared with the record, where both carry the field',
        'the get-rid-of setting under any name, or absent from the record (its name is not shown): uses are judged only where a record field named for it (get…rid) is set and the list of every use names uses of that item; any order and envelope of the uses',
      ],
    },
    async (t) => {
      const rows = await sample(t);
      t.need(rows[0], 'the collection is empty, so there is no item to read');
      const collectionBody = { per_page: MAX_ROWS_PER_PAGE, fields: 'collection' };
      // The run's shared read of the first page with fields "collection" (FIELD-001 and LIST-002 read it too).
      // The first item read once more with another item's id beside it as artifact_id (the uses' parameter, §4), not in a
      // lean run: the read is by id, so the answer is the first item's record (or the other's, where artifact_id is read as its alias), or a refusal of the parameter (a 4xx).
      const besideIt = rows.find((r) => r.Title !== rows[0]!.Title && idOf(r.id) !== undefined);
      const paired = t.target.lean || !besideIt ? undefined : { row: rows[0]!, other: idOf(besideIt.id)!, otherTitle: besideIt.Title };
      const [records, withCollection, foreign, gap, pairedRead] = await Promise.all([
        Promise.all(rows.map((row) => t.discover.record(idOf(row.id)!))),
        profiles[t.target.profile].has('list-fields') ? t.discover.list(collectionBody) : undefined,
        foreignTyped(t).then(async (row) => (row ? { row, record: await t.discover.record(idOf(row.id)!, 'other') } : undefined)),
        t.target.lean ? undefined : gapId(t).then(async (id) => (id === undefined ? undefined : { id, exchange: await t.api.item(id) })),
        paired ? t.api.item(idOf(paired.row.id)!, 'primary', { artifact_id: paired.other }) : undefined,
      ]);
      if (paired && pairedRead) {
        const id = idOf(paired.row.id)!;
        const what = `GET /artifact.php?id=${id}&artifact_id=${paired.other}`;
        ensureNo5xx('C7.2', pairedRead, what);
        // A server that reads artifact_id as another name of the item id (the uses' parameter) may answer for it: the key's
        // own item either way (§4 names id only; a parameter it does not name is not stated to be ignored).
        const record = is4xx(pairedRead) ? undefined : (recordOf(pairedRead.response.json, id) ?? recordOf(pairedRead.response.json, paired.other));
        ensure(
          'C4.14',
          is4xx(pairedRead) || record?.Title === paired.row.Title || record?.Title === paired.otherTitle,
          `${what} answered ${pairedRead.response.status} with ${record ? `the record titled ${asJson(record.Title)}` : 'no record'}, neither item ${id}'s (${asJson(paired.row.Title)}) nor item ${paired.other}'s: the read is by id (§4)`,
          pairedRead,
        );
      }
      const collectionRows = withCollection ? okRows('C2.4', withCollection, `POST /artifacts.php ${JSON.stringify(collectionBody)}`) : [];
      const collectionRow = new Map(collectionRows.map((r) => [idOf(r.id), r]));
      const judged: { row: Row; record: Row; what: string; own?: true }[] = [
        ...rows.map((row, i) => ({ row, record: records[i]!, what: `GET /artifact.php?id=${idOf(row.id)}`, own: true as const })),
        ...(foreign
          ? [
              {
                row: foreign.row,
                record: foreign.record,
                what: `GET /artifact.php?id=${idOf(foreign.row.id)} with the second key (its item, of a type only its items have)`,
              },
            ]
          : []),
      ];
      for (const { row, record, what, own } of judged) {
        for (const name of ROW_FIELDS) {
          ensure('C2.1', record[name] !== undefined, `${what}: the record must carry ${name}, as the list row does; it has no ${name}`);
          if (row[name] !== undefined && row[name] !== null)
            ensure('C2.1', String(record[name]) === String(row[name]), `${what}: ${name} is ${asJson(record[name])}, its list row shows ${asJson(row[name])}`);
        }
        for (const name of FLAGS) {
          const value = itemFlag(record[name]);
          ensure('C4.14', value !== undefined, `${what}: the record must carry ${name} as a flag; it carries ${asJson(record[name])}`);
          // The list row and the record are the same item: where the row shows the flag, they agree (null reads as not set).
          if (name in row && itemFlag(row[name]) !== undefined)
            ensure(
              'C4.14',
              (itemFlag(row[name]) ?? false) === (value ?? false),
              `${what}: ${name} is ${asJson(record[name])}, its list row shows ${asJson(row[name])}`,
            );
        }
        // The row with fields "collection" and the record are the same item: a count both carry as a number (in any
        // number form) agrees. Counts written otherwise ("2+", a range) are not compared: their types are not shown (§2).
        const extended = own ? collectionRow.get(idOf(row.id)) : undefined;
        const count = (value: unknown) => (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? Number(value) : Number.NaN);
        for (const name of COUNT_FIELDS)
          if (extended && Number.isFinite(count(record[name])) && Number.isFinite(count(extended[name])))
            ensure(
              'C2.4',
              count(record[name]) === count(extended[name]),
              `${what}: ${name} is ${asJson(record[name])}, its row with fields "collection" shows ${asJson(extended[name])}`,
              withCollection,
            );
        // The year likewise: where both carry Yr as a known number (in any number form), it is the same item's year (§2, §4:
        // fields "collection" adds the item's own Yr to its row). A year written otherwise (a date) is not compared.
        for (const name of YEAR_FIELDS)
          if (
            extended &&
            knownFieldValue(record[name]) &&
            knownFieldValue(extended[name]) &&
            Number.isFinite(count(record[name])) &&
            Number.isFinite(count(extended[name]))
          )
            ensure(
              'C2.4',
              count(record[name]) === count(extended[name]),
              `${what}: ${name} is ${asJson(record[name])}, its row with fields "collection" shows ${asJson(extended[name])}`,
              withCollection,
            );
        // Where both carry one of the eight fields, the record and the row with fields "collection" agree on whether the
        // item's value is known: a row that serves a value the record gives as unknown (null), or none where it gives one,
        // misreports the same item (§4: fields "collection" adds the item's own MnP … Acq to each row).
        const unlike = extended
          ? COLLECTION_FIELDS.filter((name) => name in record && name in extended && knownFieldValue(record[name]) !== knownFieldValue(extended[name]))
          : [];
        ensure(
          'C2.4',
          unlike.length === 0,
          `${what}: ${unlike.map((name) => `${name} is ${asJson(record[name])}`).join(', ')}, its row with fields "collection" shows ${unlike.map((name) => `${name} ${asJson(extended?.[name])}`).join(', ')}: the same item's value known in one and not in the other`,
          withCollection,
        );
        ensure('C4.14', Array.isArray(record.tags), `${what}: the record must carry tags as a list (empty when none); it carries ${asJson(record.tags)}`);
        if (Array.isArray(row.tags)) {
          const same = JSON.stringify([...row.tags].map(String).sort()) === JSON.stringify([...(record.tags as unknown[])].map(String).sort());
          ensure('C4.14', same, `${what}: tags are ${asJson(record.tags)}, its list row shows ${asJson(row.tags)}`);
        }
      }
      // An id between the items' ids that no item has: whatever the status (not shown, §7), no other item's record answers
      // it (§4: the read is of one item, by its id).
      const served = gap && is2xx(gap.exchange) ? recordOf(gap.exchange.response.json) : undefined;
      ensure(
        'C4.14',
        served === undefined || idOf(served.id) === undefined || idOf(served.id) === String(gap?.id),
        `GET /artifact.php?id=${gap?.id}, an id between the items' ids that no item of either user has, served the record of item ${asJson(served?.id)} (${asJson(served?.Title)}): the single read reads the item of the id asked for, whatever it answers for an id no item has`,
        gap?.exchange,
      );
      // An item the records read mark to get rid of (a setting only the record shows, §3; its field's name is not shown,
      // so a field named for it, set), where the run's list of every use names uses of it: GET /uses.php?artifact_id= lists
      // those recorded uses (§4: artifact_id lists the uses of that item; the setting is the item's, not a reason to hide
      // them). Not in a lean (budgeted) run: its one read of the uses of an item is beyond that run's.
      if (t.target.lean) return;
      const [{ rows: uses }, { ids }] = await Promise.all([t.discover.uses(), t.discover.collection()]);
      const useField = itemFieldOf(uses, new Set(ids), { ownId: true });
      if (useField === undefined) return;
      const usesOf = (id: string | undefined) => uses.filter((u) => itemRefOf(u[useField]) === id);
      const marked = judged.find(
        ({ row, record, own }) =>
          own && Object.keys(record).some((k) => /get.?rid/i.test(k) && itemFlag(record[k]) === true) && usesOf(idOf(row.id)).length > 0,
      );
      if (!marked) return;
      const id = idOf(marked.row.id)!;
      const label = `GET /uses.php?artifact_id=${id}`;
      const answer = await t.discover.usesOf(id);
      const got = okRows('C4.15', answer, label);
      const expected = usesOf(id).length;
      const stranger = got.find((u) => useField in u && itemRefOf(u[useField]) !== id);
      ensure(
        'C4.15',
        got.length === expected && !stranger,
        `${label} returned ${got.length} use(s)${stranger ? `, one of item ${asJson(stranger[useField])}` : ''}; GET /uses.php (every use) names item ${id} in ${expected}, and ${marked.what} marks it to get rid of: artifact_id lists that item's recorded uses (§4), whatever its settings`,
        answer,
      );
    },
  );
});

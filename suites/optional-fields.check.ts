import {
  describe,
  check,
  ensure,
  idOf,
  is2xx,
  rowsOf,
  looseFieldValue,
  isIsoDate,
  useDateFieldOf,
  MAX_ROWS_PER_PAGE,
  okRows,
  type CheckContext,
  type ClauseId,
  type Exchange,
  type Row,
  asText,
  asJson,
  cursorStepProblem,
  pageOf,
  COLLECTION_FIELDS,
  summariesAgreeWithUses,
} from '../src/harness/index.ts';

const SAMPLE = 10;
/** FIELD-003's sample in a lean (budgeted) run. */
const LEAN_SAMPLE = 2;

/** The first page with `extra`: the run's shared answer, so a failure names the exchange it judged. */
async function firstPage(clause: ClauseId, t: CheckContext, extra: Record<string, unknown>): Promise<{ rows: Row[]; exchange: Exchange }> {
  const body = { per_page: MAX_ROWS_PER_PAGE, ...extra };
  const exchange = await t.discover.list(body);
  const rows = okRows(clause, exchange, `POST /artifacts.php ${JSON.stringify(body)}`);
  t.need(rows[0], 'the collection is empty, so there are no rows to inspect');
  return { rows, exchange };
}

/** One value of a collection field read twice: the same value, read loosely (looseFieldValue: §2 shows no types). */
function sameFieldValue(a: unknown, b: unknown): boolean {
  return looseFieldValue(a) === looseFieldValue(b);
}

describe('optional row fields (§2, §4 fields and include)', () => {
  check(
    {
      id: 'FIELD-001',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title: 'fields "collection" adds MnP, MxP, SS, MnT, MxT, Wt, Yr and Acq to every row of a page of the size asked for',
      requires: ['list-fields'],
      accepts: ['any type, unit or null for each of the eight fields (their meaning beyond the names is not shown, §2)'],
    },
    async (t) => {
      const [{ rows, exchange }, collection] = await Promise.all([firstPage('C2.4', t, { fields: 'collection' }), t.discover.collection()]);
      // The heavier rows keep the page size asked for (§4 table, §8: per_page up to 200).
      const expected = Math.min(MAX_ROWS_PER_PAGE, collection.rows.length);
      ensure(
        'C4.3',
        rows.length === expected,
        `POST /artifacts.php {"per_page":${MAX_ROWS_PER_PAGE},"fields":"collection"} returned ${rows.length} rows; the collection has ${collection.rows.length}, so ${expected} fit the page`,
        exchange,
      );
      for (const row of rows) {
        const absent = COLLECTION_FIELDS.filter((f) => !(f in row));
        ensure('C2.4', absent.length === 0, `with fields "collection", the row of item ${asText(row.id)} lacks ${absent.join(', ')}`, exchange);
      }
    },
  );

  check(
    {
      id: 'FIELD-002',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title: 'include uses_summary adds plays (a count) and last_use (YYYY-MM-DD or null) to every row of a page of the size asked for',
      requires: ['list-include'],
      accepts: ['plays as a number or a numeric string', 'last_use set while plays is 0 (uses recorded before the service counted them)'],
    },
    async (t) => {
      const [{ rows, exchange }, collection] = await Promise.all([firstPage('C2.6', t, { include: ['uses_summary'] }), t.discover.collection()]);
      // The summarised rows keep the page size asked for, as FIELD-001's do (§4 table, §8: per_page up to 200).
      const expected = Math.min(MAX_ROWS_PER_PAGE, collection.rows.length);
      ensure(
        'C4.3',
        rows.length === expected,
        `POST /artifacts.php {"per_page":${MAX_ROWS_PER_PAGE},"include":["uses_summary"]} returned ${rows.length} rows; the collection has ${collection.rows.length}, so ${expected} fit the page`,
        exchange,
      );
      for (const row of rows) {
        const where = `with include uses_summary, the row of item ${asText(row.id)}`;
        ensure(
          'C2.6',
          Number.isInteger(Number(row.plays)) && Number(row.plays) >= 0 && row.plays !== null && row.plays !== '' && typeof row.plays !== 'boolean',
          `${where} has plays ${asJson(row.plays)}, not a count`,
          exchange,
        );
        ensure(
          'C2.6',
          'last_use' in row && (row.last_use === null || isIsoDate(row.last_use)),
          `${where} has last_use ${'last_use' in row ? JSON.stringify(row.last_use) : 'missing'}, not YYYY-MM-DD or null`,
          exchange,
        );
        ensure('C2.6', Number(row.plays) === 0 || row.last_use !== null, `${where} counts ${asText(row.plays)} use(s) but has no last_use`, exchange);
      }
    },
  );

  check(
    {
      id: 'FIELD-003',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title:
        "plays and last_use agree with the uses recorded for the item, on every row, on a later title page, with uses_summary named twice and on the second key's first cursor page of half its items, which names the next cursor",
      requires: ['list-include'],
      accepts: [
        "a use's date under any name, as a date or a date-time (its fields are not shown, §2)",
        'last_use set for an item with no recorded use (not judged)',
      ],
    },
    async (t) => {
      const { rows } = await firstPage('C2.6', t, { include: ['uses_summary'] });
      // The most played items (most likely to show a wrong last_use), ties by id: the items USES-003 reads the uses of
      // too, so that the run reads each once. A lean (budgeted) run reads one.
      const played = rows
        .filter((r) => Number(r.plays) > 0)
        .sort((a, b) => Number(b.plays) - Number(a.plays) || String(idOf(a.id)).localeCompare(String(idOf(b.id)), 'en', { numeric: true }));
      // Beside them, a full run reads the least played item too (a summary fault may show only on one use).
      const least = played.length > SAMPLE - 1 ? played.slice(-1) : [];
      const playedSample = t.target.lean ? played.slice(0, LEAN_SAMPLE - 1) : [...played.slice(0, SAMPLE - 1 - least.length), ...least];
      // The unplayed item of least id: the item without uses USES-003 reads too.
      const unplayed = rows
        .filter((r) => Number(r.plays) === 0)
        .sort((a, b) => String(idOf(a.id)).localeCompare(String(idOf(b.id)), 'en', { numeric: true }))
        .slice(0, 1);
      const sample = [...playedSample, ...unplayed];
      // The second title page of half that size: its rows are rows of the first answer, summarised alike (§4: include adds
      // plays and last_use to each row, on every page).
      const half = Math.ceil(Math.min(rows.length, MAX_ROWS_PER_PAGE) / 2);
      const secondBody = { per_page: half, page: 2, include: ['uses_summary'] };
      // include naming uses_summary twice asks for the same summary: served, each row counts its uses once (§2); a 4xx
      // refusal of the repeated entry is accepted, and so is an answer without the summary (a repeated entry read as an
      // invalid value and ignored: §4 states nothing of it); rows that carry plays are judged. A lean run leaves it out.
      const twiceBody = { per_page: MAX_ROWS_PER_PAGE, include: ['uses_summary', 'uses_summary'] };
      const other = t.target.keys.other !== undefined && !t.target.lean;
      // The second key's first cursor page holds half that user's items (its walk, the run's shared read), so that another
      // page exists and the page must say how to reach it (§4 rule 2: has_more and next_cursor for cursor paging).
      const theirWalk = other ? await t.discover.collection('other').catch(() => undefined) : undefined;
      const theirSize = Math.max(1, Math.min(MAX_ROWS_PER_PAGE, Math.ceil((theirWalk?.rows.length ?? 2 * MAX_ROWS_PER_PAGE) / 2)));
      const theirBody = { cursor: null, per_page: theirSize, include: ['uses_summary'] };
      const [answers, every, { ids }, second, twice, theirs, theirUses, theirCollection] = await Promise.all([
        Promise.all(
          sample.map((row) => {
            const id = idOf(row.id);
            return id === undefined ? t.api.uses({}) : t.discover.usesOf(id);
          }),
        ),
        t.discover.uses(),
        t.discover.collection(),
        rows.length >= 2 ? t.discover.list(secondBody) : undefined,
        t.target.lean ? undefined : t.api.list(twiceBody),
        other ? t.api.list(theirBody, 'other') : undefined,
        other ? t.discover.uses('other').catch(() => undefined) : undefined,
        theirWalk,
      ]);
      if (twice && is2xx(twice)) {
        const byId = new Map(rows.map((r) => [idOf(r.id), r]));
        const differs = (rowsOf(twice.response.json) ?? []).find((r) => {
          const first = byId.get(idOf(r.id));
          return first !== undefined && r.plays !== undefined && Number(first.plays) !== Number(r.plays);
        });
        ensure(
          'C2.6',
          !differs,
          `POST /artifacts.php ${JSON.stringify(twiceBody)}: item ${asText(differs?.id)} has plays ${asJson(differs?.plays)}, but ${asJson(byId.get(idOf(differs?.id))?.plays)} with uses_summary named once: plays counts the item's recorded uses, however often include names the summary`,
          twice,
        );
      }
      if (second) {
        const label = `POST /artifacts.php ${JSON.stringify(secondBody)}`;
        const byId = new Map(rows.map((r) => [idOf(r.id), r]));
        const differs = okRows('C2.6', second, label).find((r) => {
          const first = byId.get(idOf(r.id));
          return first !== undefined && (Number(first.plays) !== Number(r.plays) || JSON.stringify(first.last_use) !== JSON.stringify(r.last_use));
        });
        const first = byId.get(idOf(differs?.id));
        ensure(
          'C2.6',
          !differs,
          `${label}: item ${asText(differs?.id)} has plays ${asJson(differs?.plays)} and last_use ${asJson(differs?.last_use)}, but plays ${asJson(first?.plays)} and last_use ${asJson(first?.last_use)} on the first page of ${MAX_ROWS_PER_PAGE}: an item's summary is the same on every page`,
          second,
        );
      }
      // Every row of the page against the unfiltered list, where the uses name their item (USES-003 reads them so):
      // plays counts the item's recorded uses and last_use is the latest of their dates (§2).
      summariesAgreeWithUses(rows, every, ids, 'GET /uses.php without a parameter');
      // The second user's key too, where it is given, by cursor: its first cursor page with include uses_summary against
      // the list of every use of that user the run reads anyway (§2: plays and last_use summarise the item's recorded
      // uses, whoever's key reads them and in either paging mode; §4: include adds them to each row). A failed read of
      // that user's uses is the scoping checks' to judge, not this one's.
      if (theirs && theirUses && theirCollection) {
        const label = `POST /artifacts.php ${JSON.stringify(theirBody)} with the second user's key`;
        const theirRows = okRows('C2.6', theirs, label);
        summariesAgreeWithUses(theirRows, theirUses, theirCollection.ids, "the second user's GET /uses.php without a parameter", label);
        // Where that user's walk holds more items than the page asked for, the page says so and names the next cursor (§4
        // rule 2), for every key: a page with has_more true and no next_cursor leaves that user no way on.
        if (theirCollection.rows.length > theirSize) {
          const problem = cursorStepProblem(pageOf(theirs, theirBody));
          ensure(
            'C4.4',
            problem === undefined,
            `${label}: the second user's cursor walk holds ${theirCollection.rows.length} items, more than the ${theirSize} asked for, and cursor paging cannot go on: ${problem} (§4 rule 2: the response carries has_more and next_cursor for cursor paging)`,
            theirs,
          );
        }
      }
      // A page that holds the whole collection: its plays add up to the uses of its items, and GET /uses.php without a
      // parameter lists every use (§4), so at least that many (a use may name an item no longer listed).
      if (rows.length < MAX_ROWS_PER_PAGE) {
        const plays = rows.reduce((sum, r) => sum + (Number.isInteger(Number(r.plays)) ? Number(r.plays) : 0), 0);
        ensure(
          'C4.15',
          every.rows.length >= plays,
          `GET /uses.php without a parameter lists ${every.rows.length} use(s), but the plays of the whole collection add up to ${plays}: without a parameter every use is listed`,
          every.exchange,
        );
      }
      sample.forEach((row, i) => {
        const uses = okRows('C4.15', answers[i]!, `GET /uses.php?artifact_id=${asText(row.id)}`);
        ensure(
          'C2.6',
          Number(row.plays) === uses.length,
          `item ${asText(row.id)}: plays is ${asText(row.plays)} but /uses.php lists ${uses.length} use(s)`,
          answers[i],
        );
        const dateField = useDateFieldOf(uses);
        if (dateField && uses.length > 0) {
          const latest = uses
            .map((u) => String(u[dateField]).slice(0, 10))
            .sort()
            .at(-1);
          ensure('C2.6', row.last_use === latest, `item ${asText(row.id)}: last_use is ${asJson(row.last_use)} but its latest use is on ${latest}`, answers[i]);
        }
      });
    },
  );

  check(
    {
      id: 'FIELD-004',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title:
        'fields and include combine in one request, also when paging by cursor (a full page naming its next cursor, last_use still YYYY-MM-DD or null, the eight fields as with fields alone)',
      requires: ['list-fields', 'list-include'],
      accepts: [
        'any value of the ten fields',
        'cursor pages in ascending or descending id order',
        'a value as a number or its decimal text, a date alone or at midnight, and an unknown one as null or an empty text, each mode its own way',
      ],
    },
    async (t) => {
      // Read by cursor: FIELD-001 and FIELD-002 read title pages, so both paging modes are met (§4: fields and include add to each row).
      // Beside it, the shared title page with fields alone (FIELD-001's): an item's eight fields hold the same values
      // whatever else the body holds (cursor, include), as they describe the item (§2, §4: fields adds them to each row).
      // The cursor page asks for about half the collection (known from the run's shared walk), so that another page
      // exists: the page must then hold the rows asked for, unused items too (§4 table: include adds plays and
      // last_use to each row, it filters nothing; §2: last_use null when unused), and name a next_cursor (§4 rule 2).
      const collection = await t.discover.collection();
      const size = Math.max(1, Math.min(MAX_ROWS_PER_PAGE, Math.floor(collection.rows.length / 2)));
      const body = { cursor: null, per_page: size, fields: 'collection', include: ['uses_summary'] };
      const [{ rows, exchange }, alone] = await Promise.all([firstPage('C2.6', t, body), firstPage('C2.4', t, { fields: 'collection' })]);
      const sent = `POST /artifacts.php ${JSON.stringify(body)}`;
      const expected = Math.min(size, collection.rows.length);
      ensure(
        'C4.3',
        rows.length === expected,
        `${sent} returned ${rows.length} rows; the collection has ${collection.rows.length}, so ${expected} fit the page (include adds fields to each row, it leaves none out)`,
        exchange,
      );
      const step = cursorStepProblem(pageOf(exchange, body));
      ensure('C4.4', step === undefined, `${sent}: ${step} (§4 rule 2: the response carries next_cursor for cursor paging)`, exchange);
      const aloneById = new Map(alone.rows.map((r) => [idOf(r.id), r]));
      for (const row of rows) {
        const plain = aloneById.get(idOf(row.id));
        const differs = plain ? COLLECTION_FIELDS.filter((f) => f in row && f in plain && !sameFieldValue(row[f], plain[f])) : [];
        ensure(
          'C2.4',
          differs.length === 0,
          `by cursor with include, the row of item ${asText(row.id)} has ${differs.map((f) => `${f} ${asJson(row[f])}`).join(', ')}, but with fields "collection" alone ${differs.map((f) => `${f} ${asJson(plain?.[f])}`).join(', ')}: the same item's fields differ with the body`,
          exchange,
        );
        const absent = [...COLLECTION_FIELDS, 'plays', 'last_use'].filter((f) => !(f in row));
        ensure('C2.6', absent.length === 0, `with both fields and include, the row of item ${asText(row.id)} lacks ${absent.join(', ')}`, exchange);
        // last_use keeps its form on cursor pages too (§2: a date YYYY-MM-DD, or null).
        ensure(
          'C2.6',
          row.last_use === null || isIsoDate(row.last_use),
          `with both fields and include, by cursor, the row of item ${asText(row.id)} has last_use ${asJson(row.last_use)}, not YYYY-MM-DD or null`,
          exchange,
        );
      }
    },
  );
});

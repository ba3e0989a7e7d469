import fc from 'fast-check';
import {
  describe,
  badRequestWithErrors,
  check,
  endpoints,
  ensure,
  ensureNo5xx,
  FLAG_FILTERS,
  is2xx,
  MALFORMED_LIST_BODIES,
  rowsOf,
  sharedStateSnapshot,
  stateSnapshot,
  together,
  typeIdsAreNumeric,
  WRONG_KIND_FILTER_BODIES,
  commonTitleWord,
  LIST_BODY_FIELDS,
  MAX_ROWS_PER_PAGE,
  readOnce,
} from '../src/harness/index.ts';

const notAnObjectOrList = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { minKeys: 1, maxKeys: 2 }),
  fc.array(fc.integer(), { minLength: 1, maxLength: 2 }),
);
const nonNumericString = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/^\s*-?\d+(\.\d+)?\s*$/.test(s) && !/^(true|false|null)$/i.test(s.trim()));
const notABoolean = fc.oneof(
  nonNumericString.filter((s) => s.trim() !== ''),
  fc.integer().filter((n) => n !== 0 && n !== 1),
  notAnObjectOrList,
);

/**
 * The list fields the spec names as filters (§4 body table), with values no reading of them could accept.
 * Only their invalid values must be refused with 400 (§4 rule 4, §7); type ids are strings where the
 * collection serves them so, and then only a string that is no id at all would be invalid.
 */
function invalidFilters(numericTypeIds: boolean): { field: string; values: fc.Arbitrary<unknown> }[] {
  const notAnId = fc.oneof(fc.boolean(), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { minKeys: 1, maxKeys: 2 }));
  const badTypeIds = numericTypeIds
    ? fc.oneof(nonNumericString, notAnId, fc.array(fc.oneof(nonNumericString, notAnId), { minLength: 1, maxLength: 2 }))
    : fc.oneof(notAnId, fc.array(notAnId, { minLength: 1, maxLength: 2 }));
  return [
    { field: 'kept', values: notABoolean },
    { field: 'physical', values: notABoolean },
    { field: 'digital', values: notABoolean },
    { field: 'secondary_collection', values: notABoolean },
    { field: 'type_id', values: badTypeIds },
  ];
}

/**
 * A lean (budgeted) run's ERR-004: one wrong-kind value per filter, each in another mode (kept's word in cursor mode,
 * physical's object in cursor mode, digital's number beside a valid flag, secondary_collection's word alone, type_id's
 * boolean beside fields "collection" and, where type ids are numeric, a word): the bodies that found the most
 * self-test mutants per request in the budget table's lean run.
 */
/**
 * What one flag's invalid value goes beside besides a tag, a type and a search: kept's page 2, secondary_collection's a
 * page size, physical's fields "collection" and a valid secondary_collection filter (false), digital's a valid physical
 * filter and fields "collection". Paging only cuts the answer, fields only adds to each row and another filter only
 * narrows it: none makes an invalid value valid (§4 rule 4).
 */
const BESIDE_INVALID_FLAG: Readonly<Record<(typeof FLAG_FILTERS)[number], Record<string, unknown>>> = {
  kept: { page: 2 },
  physical: { fields: 'collection', secondary_collection: false },
  digital: { physical: true, fields: 'collection' },
  secondary_collection: { per_page: 20 },
};

function leanWrongKindBodies(numericTypeIds: boolean): Record<string, unknown>[] {
  return [
    { kept: 'maybe', cursor: null },
    { physical: { on: true }, cursor: null },
    { digital: 7, kept: true },
    { secondary_collection: 'maybe', per_page: 20 },
    { type_id: true, fields: 'collection' },
    ...(numericTypeIds ? [{ type_id: 'board-game' }] : []),
  ];
}

/**
 * Runs of ERR-001's property: in the self-test its mutants die within 4 runs under every seed (ERR-004
 * sends every filter its examples of a wrong kind besides).
 */
const ERR_001_RUNS = 5;
/** Runs of ERR-003's body property: in the self-test its mutant dies within 7 runs under every seed (within 4 under some only). */
const ERR_003_RUNS = 7;
/** Runs of ERR-003's query property: one fewer than the body's, which paid for SCOPE-006's digit-string toggle (its mutant is a body's). */
const ERR_003_QUERY_RUNS = 6;

describe('invalid requests (§4 rule 4, §7)', () => {
  check(
    {
      id: 'ERR-001',
      level: 'MUST',
      sections: ['§4', '§7'],
      title:
        'an invalid value of a list filter (kept, physical, digital, secondary_collection, type_id) gives 400 with a non-empty errors list and changes nothing',
      requires: ['list-filters'],
      accepts: [
        'error entries of any shape (strings, objects of any keys)',
        'the errors list at the top level of the 400 body or nested in one object ({"error": {"errors": [...]}})',
        'string type ids: then a string is no invalid type_id',
        'invalid values of the fields that are not filters (page, per_page, cursor, query, tag, fields, include) are judged by ERR-003 only: 400 or a page',
      ],
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      const numericTypeIds = typeIdsAreNumeric(rows);
      // A refused list request could at most have written the items it filters: the collection is compared.
      const before = await sharedStateSnapshot(t.api, t.discover, t.target.profile, {}, 'collection');
      const arbitrary = fc.constantFrom(...invalidFilters(numericTypeIds)).chain((f) => f.values.map((value) => ({ [f.field]: value })));
      await t.property(
        arbitrary,
        async (body) => {
          badRequestWithErrors('C4.11', await t.api.list(body), `POST /artifacts.php ${JSON.stringify(body)}`);
        },
        { runs: Math.min(t.target.runs, ERR_001_RUNS) },
      );
      const after = await stateSnapshot(t.api, 'primary', t.target.profile, {}, 'collection');
      ensure('C1.2', after === before, 'the collection changed while invalid list requests were sent');
    },
  );

  check(
    {
      id: 'ERR-002',
      level: 'MUST',
      sections: ['§7'],
      keptBlind: true,
      title: 'malformed JSON and bodies that are not JSON objects never cause a 5xx or a page over 200 rows',
      accepts: ['any 4xx refusal (the status for malformed JSON is not shown, §7)', 'a 2xx answer, such as the default page (the body read as empty)'],
    },
    async (t) => {
      const bodies = MALFORMED_LIST_BODIES;
      const answers = await together(bodies.map((raw) => t.api.listRaw(raw)));
      for (const [i, raw] of bodies.entries()) {
        const ex = answers[i]!();
        ensureNo5xx('C7.2', ex, `POST /artifacts.php with body ${raw}`);
        if (is2xx(ex)) ensure('C8.1', (rowsOf(ex.response.json) ?? []).length <= 200, `POST /artifacts.php with body ${raw} returned more than 200 rows`, ex);
      }
    },
  );

  check(
    {
      id: 'ERR-003',
      level: 'MUST',
      sections: ['§7', '§8'],
      keptBlind: true,
      title: 'no request body or query string a client sends causes a 5xx or a page over 200 rows',
      accepts: ['any 4xx or 2xx answer to any body or query: refused, ignored, clamped or read another way'],
    },
    async (t) => {
      const known = [...LIST_BODY_FIELDS, 'user_id'];
      const body = fc.dictionary(fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      // Runs that draw the same body or query (an empty one, often) send it once.
      // The empty body is the run's shared read of page 1.
      const list = readOnce((value: Record<string, unknown>) => (Object.keys(value).length === 0 ? t.discover.list({}) : t.api.list(value)));
      const get = readOnce(({ path, query }: { path: string; query: Record<string, string> }) => t.api.get(path, query));
      await t.property(
        body,
        async (value) => {
          const ex = await list(value);
          ensureNo5xx('C7.2', ex, `POST /artifacts.php ${JSON.stringify(value)}`);
          if (is2xx(ex))
            ensure(
              'C8.1',
              (rowsOf(ex.response.json) ?? []).length <= MAX_ROWS_PER_PAGE,
              `POST /artifacts.php ${JSON.stringify(value)} returned more than ${MAX_ROWS_PER_PAGE} rows`,
              ex,
            );
        },
        { runs: Math.min(t.target.runs, ERR_003_RUNS) },
      );
      const params = ['id', 'artifact_id', 'player_id', 'start', 'end', 'sort', 'direction', 'include_other', 'format'];
      const paths = [endpoints.item, endpoints.uses, endpoints.proposals, endpoints.types, endpoints.upcoming];
      const query = fc.record({
        path: fc.constantFrom(...paths),
        query: fc.dictionary(
          fc.constantFrom(...params),
          fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constantFrom('-1', '0', '1e309', '2024-13-45', 'DESC', '[]')),
          { maxKeys: 3 },
        ),
      });
      // Uses and proposal outcomes have no paging: without a generated artifact_id (start) they are
      // asked about one real item (a window past every outcome), so that answers stay small at any size.
      // The item of the latest use (USES-003 and CAT-003 read its uses too).
      const item = await t.discover.usesSampleItem();
      await t.property(
        query,
        async ({ path, query: generated }) => {
          const bound: Record<string, string> =
            path === endpoints.uses && item !== undefined ? { artifact_id: item } : path === endpoints.proposals ? { start: '2999-01-01' } : {};
          const q = Object.keys(bound).every((k) => !(k in generated)) ? { ...bound, ...generated } : generated;
          // The real item's uses alone are the run's shared read of them.
          const ex =
            path === endpoints.uses && item !== undefined && Object.keys(generated).length === 0
              ? await t.discover.usesOf(item)
              : await get({ path, query: q });
          ensureNo5xx('C7.2', ex, `GET ${path}?${new URLSearchParams(q).toString()}`);
        },
        { runs: Math.min(t.target.runs, ERR_003_QUERY_RUNS) },
      );
    },
  );

  check(
    {
      id: 'ERR-004',
      level: 'MUST',
      sections: ['§4', '§7'],
      keptBlind: true,
      title:
        'each list filter (kept, physical, digital, secondary_collection, type_id) given a value of the wrong kind answers 400 with a non-empty errors list, in page and in cursor mode, beside a tag and a type filter (the digital one a list of type ids), each with a search too (kept on page 2, secondary_collection with a page size, physical with fields "collection" and secondary_collection false, digital with a valid physical filter and fields "collection"), beside fields "collection", each flag beside include uses_summary, the kept one beside another invalid value, physical the empty string; a type_id list holding a list is such a value',
      requires: ['list-filters'],
      accepts: [
        'error entries of any shape (strings, objects of any keys)',
        'the errors list at the top level of the 400 body or nested in one object ({"error": {"errors": [...]}})',
        'string type ids: then a string is no invalid type_id',
        'invalid values of the fields that are not filters (tag, query, paging …) are not judged here (ERR-003 does: 400 or a page)',
      ],
    },
    async (t) => {
      // Example values no reading of the filter could accept, for every filter: no value is left to chance.
      const { rows } = await t.discover.collection();
      const numericTypes = typeIdsAreNumeric(rows);
      // A label some item carries, from the walk: a wrong-kind flag beside a tag is refused like one alone.
      const tag = rows.flatMap((r) => (Array.isArray(r.tags) ? r.tags : [])).find((label): label is string => typeof label === 'string' && label !== '');
      const typeId = rows.find((r) => r.type_id !== null && r.type_id !== undefined)?.type_id;
      // Up to three type ids the walk's items carry: a valid type_id list (§4 table: one id or a list of ids).
      const typeIds = [...new Set(rows.map((r) => r.type_id).filter((v): v is string | number => typeof v === 'number' || typeof v === 'string'))].slice(0, 3);
      const word = commonTitleWord(rows);
      const bodies: Record<string, unknown>[] = t.target.lean
        ? leanWrongKindBodies(numericTypes)
        : [
            ...WRONG_KIND_FILTER_BODIES,
            // A number other than 0 and 1 beside a label some item carries: refused like one alone. Beside a valid type filter
            // too (digital's a list of the walk's type ids, the others one id): rule 4 refuses the invalid value whatever valid
            // filter comes with it (§4 table: type_id is one id or a list).
            // Each beside a search as well (a word of a title): the search chooses among the items, it makes no invalid value valid.
            ...FLAG_FILTERS.map((f) => ({
              [f]: 7,
              ...(tag !== undefined ? { tag } : {}),
              ...(f === 'digital' && typeIds.length > 0 ? { type_id: typeIds } : f !== 'digital' && typeId !== undefined ? { type_id: typeId } : {}),
              ...(word !== undefined ? { query: word } : {}),
              ...BESIDE_INVALID_FLAG[f],
            })),
            // Type ids are numeric here, so a word cannot be one (§2: ids come from GET /types.php); the word goes beside a label
            // some item carries too, and the list of one such word beside a valid kept filter, which make no invalid value valid.
            ...(numericTypes
              ? [{ type_id: 'board-game' }, { type_id: 'board-game', ...(tag !== undefined ? { tag } : {}) }, { type_id: ['board-game'], kept: true }]
              : []),
            // A list holding a list of a real id is neither one id nor a list of ids, whatever the kind of the ids (§4 table); asked
            // at the largest page size, which changes nothing of that.
            ...(typeId !== undefined ? [{ type_id: [[typeId]], per_page: MAX_ROWS_PER_PAGE }] : []),
          ];
      const answers = await together(bodies.map((body) => t.api.list(body)));
      for (const [i, body] of bodies.entries()) badRequestWithErrors('C4.11', answers[i]!(), `POST /artifacts.php ${JSON.stringify(body)}`);
    },
  );
});

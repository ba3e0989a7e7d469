import fc from 'fast-check';
import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { badRequestWithErrors, ensure, ensureNo5xx, is2xx, is4xx } from '../src/expect.ts';
import { endpoints } from '../src/http/api.ts';
import { rowsOf } from '../src/lenient.ts';
import { stateSnapshot } from '../src/probes.ts';
import { profiles, type Capability } from '../src/profiles.ts';

/** Values no reasonable reading of a field could accept, by field (§4 body table). */
const notAnObjectOrList = fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { minKeys: 1, maxKeys: 2 }), fc.array(fc.integer(), { minLength: 1, maxLength: 2 }));
const nonNumericString = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/^\s*-?\d+(\.\d+)?\s*$/.test(s) && !/^(true|false|null)$/i.test(s.trim()));
const notAnInteger = fc.oneof(nonNumericString, fc.boolean(), notAnObjectOrList, fc.double({ min: 1.1, max: 99.9, noInteger: true }));
const notAString = fc.oneof(fc.integer(), fc.boolean(), notAnObjectOrList);
const notABoolean = fc.oneof(
  nonNumericString.filter((s) => s.trim() !== ''),
  fc.integer().filter((n) => n !== 0 && n !== 1),
  notAnObjectOrList,
);

const invalidByField: { field: string; values: fc.Arbitrary<unknown>; requires?: Capability }[] = [
  { field: 'page', values: notAnInteger },
  { field: 'per_page', values: notAnInteger },
  { field: 'cursor', values: fc.oneof(fc.boolean(), notAnObjectOrList) },
  { field: 'query', values: notAString },
  { field: 'tag', values: notAString },
  { field: 'kept', values: notABoolean, requires: 'list-filters' },
  { field: 'physical', values: notABoolean, requires: 'list-filters' },
  { field: 'digital', values: notABoolean, requires: 'list-filters' },
  { field: 'secondary_collection', values: notABoolean, requires: 'list-filters' },
  { field: 'type_id', values: fc.oneof(nonNumericString, fc.boolean(), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { minKeys: 1, maxKeys: 2 }), fc.array(nonNumericString, { minLength: 1, maxLength: 2 })), requires: 'list-filters' },
  { field: 'fields', values: fc.oneof(fc.string({ maxLength: 12 }).filter((s) => s !== 'collection'), fc.integer(), fc.boolean(), notAnObjectOrList), requires: 'list-fields' },
  { field: 'include', values: fc.oneof(fc.array(fc.string({ maxLength: 12 }).filter((s) => s !== 'uses_summary'), { minLength: 1, maxLength: 2 }), fc.integer(), fc.boolean(), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { minKeys: 1, maxKeys: 2 })), requires: 'list-include' },
];

function offered(t: CheckContext) {
  return invalidByField.filter((f) => f.requires === undefined || profiles[t.target.profile].has(f.requires));
}

describe('invalid requests (§4 rule 4, §7)', () => {
  check(
    { id: 'ERR-001', level: 'MUST', section: '§4, §7', title: 'an invalid value of any list body field gives 400 with a non-empty errors list and changes nothing' },
    async (t) => {
      const fields = offered(t);
      const before = await stateSnapshot(t.api, 'primary', t.target.profile);
      const arbitrary = fc.constantFrom(...fields).chain((f) => f.values.map((value) => ({ [f.field]: value })));
      await t.property(arbitrary, async (body) => {
        badRequestWithErrors(await t.api.list(body), `POST /artifacts.php ${JSON.stringify(body)}`);
      });
      const after = await stateSnapshot(t.api, 'primary', t.target.profile);
      ensure(after === before, 'the collection changed while invalid list requests were sent');
    },
  );

  check(
    { id: 'ERR-002', level: 'MUST', section: '§7', title: 'malformed JSON and bodies that are not JSON objects give a 4xx' },
    async (t) => {
      const bodies = ['{', '{"page": }', '[1, 2]', '"text"', '42', 'true', 'not json at all'];
      for (const raw of bodies) {
        const ex = await t.api.listRaw(raw);
        ensureNo5xx(ex, `POST /artifacts.php with body ${raw}`);
        ensure(is4xx(ex), `POST /artifacts.php with body ${raw}: expected a 4xx, got ${ex.response.status}`, ex);
      }
    },
  );

  check(
    { id: 'ERR-003', level: 'MUST', section: '§7, §8', title: 'no request body or query string a client sends causes a 5xx or a page over 200 rows' },
    async (t) => {
      const known = ['page', 'per_page', 'cursor', 'query', 'tag', 'kept', 'physical', 'digital', 'secondary_collection', 'type_id', 'fields', 'include', 'user_id'];
      const body = fc.dictionary(fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      await t.property(body, async (value) => {
        const ex = await t.api.list(value);
        ensureNo5xx(ex, `POST /artifacts.php ${JSON.stringify(value)}`);
        if (is2xx(ex)) ensure((rowsOf(ex.response.json) ?? []).length <= 200, `POST /artifacts.php ${JSON.stringify(value)} returned more than 200 rows`, ex);
      });
      const params = ['id', 'artifact_id', 'player_id', 'start', 'end', 'sort', 'direction', 'include_other', 'format'];
      const paths = [endpoints.item, endpoints.uses, endpoints.proposals, endpoints.types, endpoints.upcoming];
      const query = fc.record({
        path: fc.constantFrom(...paths),
        query: fc.dictionary(fc.constantFrom(...params), fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constantFrom('-1', '0', '1e309', '2024-13-45', 'DESC', '[]')), { maxKeys: 3 }),
      });
      // Uses and proposal outcomes have no paging: without a generated artifact_id (start) they are
      // asked about one real item (a window past every outcome), so that answers stay small at any size.
      const item = await t.discover.anyItem();
      await t.property(query, async ({ path, query: generated }) => {
        const bound: Record<string, string> = path === endpoints.uses && item ? { artifact_id: String(item.id) } : path === endpoints.proposals ? { start: '2999-01-01' } : {};
        const q = Object.keys(bound).every((k) => !(k in generated)) ? { ...bound, ...generated } : generated;
        ensureNo5xx(await t.api.get(path, q), `GET ${path}?${new URLSearchParams(q).toString()}`);
      });
    },
  );

  check(
    { id: 'ERR-004', level: 'MUST', section: '§4, §7', title: 'each list filter given a value of the wrong kind answers 400 with a non-empty errors list', requires: ['list-filters'] },
    async (t) => {
      // Example values no reading of the filter could accept, for every filter: no value is left to chance.
      const { rows } = await t.discover.collection();
      const typeIds = rows.map((r) => r.type_id).filter((v) => v !== null && v !== undefined);
      const numericTypes = typeIds.length > 0 && typeIds.every((v) => /^\d+$/.test(String(v)));
      const bodies: Record<string, unknown>[] = [
        ...['kept', 'physical', 'digital', 'secondary_collection'].flatMap((f) => [{ [f]: 'maybe' }, { [f]: 7 }, { [f]: { on: true } }]),
        { type_id: true },
        { type_id: { id: 1 } },
        // Type ids are numeric here, so a word cannot be one (§2: ids come from GET /types.php).
        ...(numericTypes ? [{ type_id: 'board-game' }, { type_id: ['board-game'] }] : []),
        { tag: { label: 'portable' } },
      ];
      for (const body of bodies) badRequestWithErrors(await t.api.list(body), `POST /artifacts.php ${JSON.stringify(body)}`);
    },
  );
});

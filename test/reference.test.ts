import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildDataset, type Dataset, type Item } from '../fixtures/dataset.ts';
import { createHandler } from '../fixtures/reference/handler.ts';
import { buildCatalog, buildCustomCatalog } from '../fixtures/reference/openapi.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { Store } from '../fixtures/reference/store.ts';
import { defaultVariant, type ApiRequest, type ApiResponse, type Handler, type Profile, type Variant } from '../fixtures/reference/types.ts';
import { variants } from '../fixtures/variants.ts';

// ---------------------------------------------------------------------------------------------
// Helpers

type Json = Record<string, unknown>;
type Row = Json;

interface Setup {
  dataset: Dataset;
  store: Store;
  handler: Handler;
  variant: Variant;
  profile: Profile;
  key: { primary: string; other: string; empty: string };
}

function setup(opts: { profile?: Profile; variant?: Partial<Variant>; itemsPerUser?: number } = {}): Setup {
  const dataset = buildDataset(opts.itemsPerUser === undefined ? {} : { itemsPerUser: opts.itemsPerUser });
  const store = new Store(dataset);
  const variant = { ...defaultVariant, ...opts.variant };
  const profile = opts.profile ?? 'primary';
  const [u1, u2, , u4] = dataset.users;
  return { dataset, store, variant, profile, handler: createHandler(store, { profile, variant }), key: { primary: u1!.key, other: u2!.key, empty: u4!.key } };
}

interface CallOptions {
  key?: string | null;
  authorization?: string;
  body?: unknown;
  raw?: string;
  query?: Record<string, string | number>;
}

async function call(s: Setup, method: string, path: string, o: CallOptions = {}): Promise<ApiResponse & { json: Json }> {
  const headers: Record<string, string | undefined> = {};
  if (o.authorization !== undefined) headers.authorization = o.authorization;
  else if (o.key !== null) headers.authorization = `Bearer ${o.key ?? s.key.primary}`;
  const query = new URLSearchParams(Object.entries(o.query ?? {}).map(([k, v]) => [k, String(v)]));
  const bodyText = o.raw ?? (o.body === undefined ? '' : JSON.stringify(o.body));
  const req: ApiRequest = { method, path, query, headers, bodyText };
  const res = await s.handler(req);
  // Round-trip as the server would, so tests see exactly the JSON a client gets.
  const json = res.body === undefined ? {} : (JSON.parse(JSON.stringify(res.body)) as Json);
  return { ...res, json };
}

const list = (s: Setup, body: unknown, o: CallOptions = {}) => call(s, 'POST', '/artifacts.php', { ...o, body });
const rowsOf = (r: { json: Json }, key = 'items') => r.json[key] as Row[];
const own = (s: Setup, userId = 1): Item[] => s.dataset.items.filter((i) => i.user_id === userId);
const baseOrder = new Intl.Collator('en', { sensitivity: 'base' }).compare;
const stamps = (d: Dataset) => JSON.stringify(d).replace(/"updated_at":"[^"]*"/g, '');

// ---------------------------------------------------------------------------------------------

describe('dataset', () => {
  const d = buildDataset();

  it('is deterministic for a seed and differs between seeds', () => {
    expect(JSON.stringify(buildDataset())).toBe(JSON.stringify(d));
    expect(JSON.stringify(buildDataset({ seed: 1, itemsPerUser: 120 }))).toBe(JSON.stringify(d));
    expect(JSON.stringify(buildDataset({ seed: 2 }))).not.toBe(JSON.stringify(d));
  });

  it('has four users, the fourth with an empty collection and one player', () => {
    expect(d.users.map((u) => u.id)).toEqual([1, 2, 3, 4]);
    for (const u of d.users) expect(u.key).toMatch(new RegExp(`^ref-key-u${u.id}-[0-9a-f]{24}$`));
    expect(new Set(d.users.map((u) => u.key)).size).toBe(4);
    for (const id of [1, 2, 3]) expect(own({ dataset: d } as Setup, id)).toHaveLength(120);
    expect(d.items.filter((i) => i.user_id === 4)).toEqual([]);
    expect(d.uses.filter((u) => u.user_id === 4)).toEqual([]);
    expect(d.proposals.filter((p) => p.user_id === 4)).toEqual([]);
    expect(d.players.filter((p) => p.user_id === 4)).toMatchObject([{ represents_user_id: 4 }]);
  });

  it('interleaves globally unique item ids with gaps', () => {
    const ids = d.items.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(d.items.slice(0, 3).map((i) => i.user_id)).toEqual([1, 2, 3]);
    const mine = own({ dataset: d } as Setup).map((i) => i.id);
    expect(mine.some((id, k) => k > 0 && id - mine[k - 1]! > 1)).toBe(true);
  });

  it('has consistent, varied item fields', () => {
    for (const i of d.items) {
      expect(i.MnP).toBeLessThanOrEqual(i.SS);
      expect(i.SS).toBeLessThanOrEqual(i.MxP);
      expect(i.MnT).toBeLessThanOrEqual(i.MxT);
      expect(i.Acq === null || /^\d{4}-\d{2}-\d{2}$/.test(i.Acq)).toBe(true);
      expect(Date.parse(i.updated_at)).toBeGreaterThanOrEqual(Date.parse(i.added_at));
      expect(new Set(i.tags).size).toBe(i.tags.length);
    }
    const share = (f: (i: Item) => boolean) => d.items.filter(f).length / d.items.length;
    expect(share((i) => i.is_kept === 1)).toBeGreaterThan(0.3);
    expect(share((i) => i.is_kept === 1)).toBeLessThan(0.55);
    expect(share((i) => i.is_in_secondary_collection === 1)).toBeGreaterThan(0.1);
    expect(share((i) => i.tags.length > 0)).toBeGreaterThan(0.1);
    expect(share((i) => i.tags.length > 0)).toBeLessThan(0.35);
    for (const id of [1, 2, 3]) {
      const titles = own({ dataset: d } as Setup, id).map((i) => i.Title);
      expect(
        titles.some((t) => /^[a-zà-ÿ]/.test(t)),
        'a title starting in lower case',
      ).toBe(true);
      expect(
        titles.some((t) => /[À-ÿ]/.test(t)),
        'an accented title',
      ).toBe(true);
      expect(
        titles.some((t) => /\d/.test(t)),
        'a title with digits',
      ).toBe(true);
      expect(new Set(titles).size, 'duplicate titles').toBeLessThan(titles.length);
      expect(new Set(own({ dataset: d } as Setup, id).map((i) => i.type_id)).size).toBeGreaterThanOrEqual(3);
    }
  });

  it('records uses within the household, with a repeated participant, and both proposal outcomes', () => {
    expect(d.uses.length / d.items.length).toBeGreaterThan(2);
    expect(d.uses.length / d.items.length).toBeLessThan(3);
    expect(d.proposals.length / d.items.length).toBeGreaterThan(1.2);
    expect(d.proposals.length / d.items.length).toBeLessThan(1.8);
    for (const id of [1, 2, 3]) {
      const household = new Set(d.players.filter((p) => p.user_id === id).map((p) => p.id));
      expect(household.size).toBeGreaterThanOrEqual(3);
      expect(household.size).toBeLessThanOrEqual(6);
      const uses = d.uses.filter((u) => u.user_id === id);
      for (const u of uses) for (const p of u.participants) expect(household.has(p)).toBe(true);
      expect(uses.some((u) => new Set(u.participants).size < u.participants.length)).toBe(true);
      const proposals = d.proposals.filter((p) => p.user_id === id);
      expect(new Set(proposals.map((p) => p.outcome))).toEqual(new Set(['explicit_decline', 'chose_something_else']));
      const plain = new Set(d.items.filter((i) => i.user_id === id && !i.is_kept && !i.is_in_secondary_collection).map((i) => i.id));
      expect(proposals.some((p) => plain.has(p.artifact_id))).toBe(true);
      expect(d.players.filter((p) => p.user_id === id && p.represents_user_id === id)).toHaveLength(1);
    }
  });

  it('is not changed by the store', async () => {
    const s = setup();
    const before = JSON.stringify(s.dataset);
    const item = own(s)[0]!;
    const r = await call(s, 'POST', '/artifact-kept.php', { body: { id: item.id, is_kept: item.is_kept ? 0 : 1 } });
    expect(r.status).toBe(200);
    expect(JSON.stringify(s.dataset)).toBe(before);
    expect(JSON.stringify(s.store.snapshot())).not.toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------

describe('authentication and the write firewall (§5, §1, §7)', () => {
  const s = setup();

  it('refuses a missing, malformed or unknown key with 401 and no data', async () => {
    const bad: CallOptions[] = [
      { key: null },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `Bearer  ${s.key.primary}` },
      { authorization: `Basic ${s.key.primary}` },
      { authorization: s.key.primary },
      { authorization: 'Bearer ref-key-u1-000000000000000000000000' },
    ];
    for (const o of bad) {
      for (const [method, path] of [
        ['GET', '/artifacts.php'],
        ['POST', '/artifacts.php'],
        ['GET', '/uses.php'],
        ['POST', '/artifact-kept.php'],
        ['DELETE', '/artifact.php'],
        ['GET', '/nowhere'],
      ] as const) {
        const r = await call(s, method, path, { ...o, body: {} });
        expect(r.status, `${method} ${path} ${JSON.stringify(o)}`).toBe(401);
        expect(Object.keys(r.json)).toEqual(['errors']);
        expect(JSON.stringify(r.json)).not.toContain(own(s)[0]!.Title);
      }
    }
  });

  it('accepts the scheme in any case, and 403 is the variant for a bad key', async () => {
    expect((await call(s, 'GET', '/types.php', { authorization: `bearer ${s.key.primary}` })).status).toBe(200);
    expect((await call(s, 'GET', '/types.php', { authorization: `BEARER ${s.key.primary}` })).status).toBe(200);
    const v = setup({ variant: { authFailureStatus: 403 } });
    expect((await call(v, 'GET', '/types.php', { key: 'nope' })).status).toBe(403);
  });

  it('serves the catalog without a key', async () => {
    const r = await call(s, 'GET', '/api-docs', { key: null, query: { format: 'json' } });
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    expect((await call(s, 'GET', '/api-docs', { key: null })).status).toBe(200);
  });

  it('answers 403 to every write but the two POSTs, before any other check, and changes nothing', async () => {
    const before = JSON.stringify(s.store.snapshot());
    const paths = [
      '/artifacts.php',
      '/artifact-kept.php',
      '/artifact.php',
      '/uses.php',
      '/players.php',
      '/proposals.php',
      '/types.php',
      '/upcoming-interactions.php',
      '/api-docs',
      '/nowhere',
    ];
    const item = own(s)[0]!;
    for (const path of paths) {
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        for (const id of [item.id, 99_999_999]) {
          const r = await call(s, method, path, { query: { id }, body: { id, is_kept: 0, Title: 'x' } });
          expect(r.status, `${method} ${path}`).toBe(403);
          expect(r.json.errors).toBeInstanceOf(Array);
        }
      }
      if (path !== '/artifacts.php' && path !== '/artifact-kept.php') {
        expect((await call(s, 'POST', path, { raw: 'not json' })).status, `POST ${path}`).toBe(403);
      }
    }
    expect(JSON.stringify(s.store.snapshot())).toBe(before);
  });

  it('refuses user enumeration with 403 whatever the method', async () => {
    for (const path of ['/users.php', '/user.php', '/users', '/api/users.php']) {
      for (const method of ['GET', 'POST', 'DELETE']) expect((await call(s, method, path, { query: { all: 1 } })).status).toBe(403);
    }
  });

  it('answers 404 to unknown paths, 204 to OPTIONS, 405 to a GET of the toggle', async () => {
    const unknown = await call(s, 'GET', '/artifacts');
    expect(unknown.status).toBe(404);
    expect(unknown.json.errors).toBeInstanceOf(Array);
    const options = await call(s, 'OPTIONS', '/artifacts.php');
    expect(options.status).toBe(204);
    expect(options.headers?.allow).toContain('POST');
    const get = await call(s, 'GET', '/artifact-kept.php');
    expect(get.status).toBe(405);
    expect(get.headers?.allow).toBe('POST, OPTIONS');
    expect((await call(s, 'HEAD', '/types.php')).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------

describe('POST /artifacts.php paging (§4, §8)', () => {
  it('lists page 1 with 50 rows by default, for GET and for an empty body', async () => {
    const s = setup();
    for (const r of [await call(s, 'GET', '/artifacts.php'), await list(s, undefined), await call(s, 'POST', '/artifacts.php', { raw: '  ' })]) {
      expect(r.status).toBe(200);
      expect(r.headers?.['content-type']).toBe('application/json; charset=utf-8');
      expect(rowsOf(r)).toHaveLength(50);
      expect(r.json).toMatchObject({ page: 1, per_page: 50, has_more: true, next_cursor: null });
    }
  });

  it('orders pages by title (base collation, ties by id) and covers the collection once', async () => {
    const s = setup();
    const seen: Row[] = [];
    for (let page = 1; ; page++) {
      const r = await list(s, { page, per_page: 37 });
      seen.push(...rowsOf(r));
      if (!r.json.has_more) break;
    }
    const expected = [...own(s)].sort((a, b) => baseOrder(a.Title, b.Title) || a.id - b.id).map((i) => i.id);
    expect(seen.map((r) => r.id)).toEqual(expected);
  });

  it('says has_more false on an exactly full last page, and serves an empty page past the end', async () => {
    const s = setup({ itemsPerUser: 100 });
    expect((await list(s, { page: 1, per_page: 50 })).json.has_more).toBe(true);
    const last = await list(s, { page: 2, per_page: 50 });
    expect(rowsOf(last)).toHaveLength(50);
    expect(last.json.has_more).toBe(false);
    const past = await list(s, { page: 3, per_page: 50 });
    expect(rowsOf(past)).toEqual([]);
    expect(past.json.has_more).toBe(false);
    const all = await list(s, { per_page: 100 });
    expect(rowsOf(all)).toHaveLength(100);
    expect(all.json.has_more).toBe(false);
  });

  it('walks by cursor in id order, ending with has_more false and no cursor on an exactly full page', async () => {
    const s = setup({ itemsPerUser: 100 });
    const ids: number[] = [];
    const cursors: unknown[] = [];
    let cursor: unknown = null;
    for (let n = 0; n < 10; n++) {
      const r = await list(s, { cursor, per_page: 25, page: 3 });
      expect(r.status).toBe(200);
      ids.push(...rowsOf(r).map((row) => row.id as number));
      cursors.push(r.json.next_cursor);
      expect(r.json.page).toBeNull();
      if (!r.json.has_more) break;
      cursor = r.json.next_cursor;
    }
    expect(ids).toEqual(
      own(s)
        .map((i) => i.id)
        .sort((a, b) => a - b),
    );
    expect(cursors).toHaveLength(4);
    expect(cursors.at(-1)).toBeNull();
    expect(cursors.slice(0, 3).every((c) => typeof c === 'string' && !/^\d+$/.test(c))).toBe(true);
  });

  it('uses the id itself as cursor in the id variant', async () => {
    const s = setup({ variant: { cursorEncoding: 'id' } });
    const first = await list(s, { cursor: null, per_page: 3 });
    const third = rowsOf(first)[2]!;
    expect(first.json.next_cursor).toBe(String(third.id));
    const next = await list(s, { cursor: first.json.next_cursor, per_page: 1 });
    expect((rowsOf(next)[0]!.id as number) > (third.id as number)).toBe(true);
  });

  it('clamps per_page above 200, or refuses it in the reject variant', async () => {
    const s = setup({ itemsPerUser: 250 });
    const r = await list(s, { per_page: 500 });
    expect(rowsOf(r)).toHaveLength(200);
    expect(r.json.per_page).toBe(200);
    const v = setup({ itemsPerUser: 250, variant: { oversizedPage: 'reject' } });
    expect((await list(v, { per_page: 201 })).status).toBe(400);
    expect(rowsOf(await list(v, { per_page: 200 }))).toHaveLength(200);
  });

  it('puts rows under the listKey of the variant', async () => {
    const v = setup({ variant: { listKey: 'rows' } });
    const r = await list(v, {});
    expect(rowsOf(r, 'rows')).toHaveLength(50);
    expect(r.json.items).toBeUndefined();
  });
});

describe('POST /artifacts.php filters, fields and validation (§4)', () => {
  const s = setup();
  const all = async (body: Json) => rowsOf(await list(s, { ...body, cursor: null, per_page: 200 }));

  it('carries the nine row fields, with 0/1 flags (or booleans in that variant)', async () => {
    const [row] = rowsOf(await list(s, { per_page: 1 }));
    expect(Object.keys(row!).sort()).toEqual(
      ['Title', 'id', 'is_digital', 'is_in_secondary_collection', 'is_kept', 'is_physical', 'tags', 'type', 'type_id'].sort(),
    );
    const item = s.dataset.items.find((i) => i.id === row!.id)!;
    expect(row).toMatchObject({ Title: item.Title, type_id: item.type_id, is_kept: item.is_kept, tags: item.tags });
    expect(row!.type).toBe(s.dataset.types.find((t) => t.id === item.type_id)!.name);
    const [boolRow] = rowsOf(await list(setup({ variant: { flagEncoding: 'bool' } }), { per_page: 1 }));
    expect(typeof boolRow!.is_kept).toBe('boolean');
  });

  it('filters by query (case-insensitive part of the title), tag, flags and type ids, combined with AND', async () => {
    const mine = own(s);
    const accented = mine.find((i) => /[À-ÿ]/.test(i.Title))!;
    const needle = accented.Title.slice(0, 4).toUpperCase();
    expect((await all({ query: needle })).map((r) => r.id)).toEqual(mine.filter((i) => i.Title.toLowerCase().includes(needle.toLowerCase())).map((i) => i.id));
    expect((await all({ tag: 'portable' })).map((r) => r.id)).toEqual(mine.filter((i) => i.tags.includes('portable')).map((i) => i.id));
    expect(await all({ tag: 'Portable' })).toEqual([]);
    const keptPhysical = await all({ kept: true, physical: false });
    expect(keptPhysical.map((r) => r.id)).toEqual(mine.filter((i) => i.is_kept === 1 && i.is_physical === 0).map((i) => i.id));
    const digitalSecondary = await all({ digital: true, secondary_collection: true });
    expect(digitalSecondary.map((r) => r.id)).toEqual(mine.filter((i) => i.is_digital === 1 && i.is_in_secondary_collection === 1).map((i) => i.id));
    const [t1, t2] = [...new Set(mine.map((i) => i.type_id))];
    expect((await all({ type_id: t1 })).every((r) => r.type_id === t1)).toBe(true);
    expect((await all({ type_id: [t1, t2] })).length).toBe(mine.filter((i) => i.type_id === t1 || i.type_id === t2).length);
    expect(await all({ type_id: 999 })).toEqual([]);
  });

  it('ignores a user id and unknown keys in the body', async () => {
    const plain = await list(s, { per_page: 10 });
    const other = await list(s, { per_page: 10, user_id: 2, all_users: true, whatever: [1] });
    expect(other.json).toEqual(plain.json);
  });

  it('adds the collection fields and the uses summary on request', async () => {
    const rows = await all({ fields: 'collection', include: ['uses_summary'] });
    for (const row of rows) {
      const item = s.dataset.items.find((i) => i.id === row.id)!;
      expect(row).toMatchObject({ MnP: item.MnP, MxP: item.MxP, SS: item.SS, MnT: item.MnT, MxT: item.MxT, Wt: item.Wt, Yr: item.Yr, Acq: item.Acq });
      const uses = s.dataset.uses.filter((u) => u.artifact_id === item.id);
      expect(row.plays).toBe(uses.length);
      expect(row.last_use).toBe(
        uses.length === 0
          ? null
          : uses
              .map((u) => u.date)
              .sort()
              .at(-1),
      );
    }
    expect(rows.some((r) => r.last_use === null)).toBe(true);
  });

  it('answers 400 listing every invalid field', async () => {
    const r = await list(s, {
      page: 0,
      per_page: '10',
      cursor: 12,
      query: 5,
      tag: ['x'],
      kept: 1,
      physical: 'true',
      digital: null,
      secondary_collection: 0,
      type_id: [],
      fields: 'all',
      include: ['plays'],
    });
    expect(r.status).toBe(400);
    const fields = (r.json.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual([
      'page',
      'per_page',
      'cursor',
      'query',
      'tag',
      'kept',
      'physical',
      'digital',
      'secondary_collection',
      'type_id',
      'fields',
      'include',
    ]);
    for (const body of [
      { page: 1.5 },
      { per_page: -1 },
      { cursor: 'not a cursor!' },
      { cursor: 'eyJ4IjoxfQ' },
      { type_id: [1, 'a'] },
      { type_id: 0 },
      { include: 'uses_summary' },
    ]) {
      expect((await list(s, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 400 to malformed JSON and to JSON that is not an object', async () => {
    for (const raw of ['{', '{"page": 1,}', '[]', '"x"', '3', 'null', 'true']) {
      const r = await call(s, 'POST', '/artifacts.php', { raw });
      expect(r.status, raw).toBe(400);
      expect(r.json.errors).toBeInstanceOf(Array);
    }
  });

  it('writes error entries as strings in that variant', async () => {
    const r = await list(setup({ variant: { errorShape: 'strings' } }), { kept: 'yes' });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([expect.stringContaining('kept')]);
  });

  it('orders titles by code unit in the binary variant', async () => {
    const v = setup({ variant: { titleCollation: 'binary' } });
    const titles = rowsOf(await list(v, { per_page: 200 })).map((r) => r.Title as string);
    expect(titles).toEqual([...titles].sort());
    expect(titles).not.toEqual([...titles].sort(baseOrder));
  });
});

describe('staging profile (§2, §4, §9)', () => {
  const s = setup({ profile: 'staging' });

  it('serves rows of id, Title and tags only and ignores the primary-only fields', async () => {
    const r = await list(s, { per_page: 5, kept: true, fields: 'collection', include: ['uses_summary'], type_id: 'x' });
    expect(r.status).toBe(200);
    for (const row of rowsOf(r)) expect(Object.keys(row)).toEqual(['id', 'Title', 'tags']);
    expect(rowsOf(r).map((x) => x.id)).toEqual(rowsOf(await list(s, { per_page: 5 })).map((x) => x.id));
  });

  it('refuses the primary-only fields in the reject variant, but not user_id', async () => {
    const v = setup({ profile: 'staging', variant: { stagingExtraFilters: 'reject' } });
    const r = await list(v, { kept: true, include: [] });
    expect(r.status).toBe(400);
    expect((r.json.errors as { field: string }[]).map((e) => e.field)).toEqual(['kept', 'include']);
    expect((await list(v, { user_id: 2, query: 'a' })).status).toBe(200);
  });

  it('has no players endpoint, ignores player_id, and serves the full single record', async () => {
    expect((await call(s, 'GET', '/players.php')).status).toBe(404);
    const all = await call(s, 'GET', '/uses.php');
    expect((await call(s, 'GET', '/uses.php', { query: { player_id: 'abc' } })).json).toEqual(all.json);
    const item = own(s)[0]!;
    const r = await call(s, 'GET', '/artifact.php', { query: { id: item.id } });
    expect(r.json).toMatchObject({
      id: item.id,
      is_kept: item.is_kept,
      is_physical: item.is_physical,
      is_in_secondary_collection: item.is_in_secondary_collection,
      tags: item.tags,
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('read endpoints (§4)', () => {
  const s = setup();

  it("GET /artifact.php reads one of the key's items; 400 for a malformed id, 404 for another user's", async () => {
    const item = own(s)[0]!;
    const r = await call(s, 'GET', '/artifact.php', { query: { id: item.id } });
    expect(r.status).toBe(200);
    const { user_id: _u, ...rest } = item;
    expect(r.json).toEqual({ ...rest, type: s.dataset.types.find((t) => t.id === item.type_id)!.name });
    for (const id of ['', 'abc', '-1', '1.5']) expect((await call(s, 'GET', '/artifact.php', { query: { id } })).status).toBe(400);
    expect((await call(s, 'GET', '/artifact.php')).status).toBe(400);
    const foreign = own(s, 2)[0]!;
    const refused = await call(s, 'GET', '/artifact.php', { query: { id: foreign.id } });
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.json)).not.toContain(foreign.Title);
    expect((await call(setup({ variant: { unknownIdStatus: 403 } }), 'GET', '/artifact.php', { query: { id: foreign.id } })).status).toBe(403);
  });

  it('GET /uses.php gives deduplicated players and every participant, latest first, with filters', async () => {
    const r = await call(s, 'GET', '/uses.php');
    const uses = r.json.uses as { id: number; artifact_id: number; date: string; players: number[]; participants: { id: number; FirstName: string }[] }[];
    expect(uses).toHaveLength(s.dataset.uses.filter((u) => u.user_id === 1).length);
    for (let k = 1; k < uses.length; k++) {
      const [a, b] = [uses[k - 1]!, uses[k]!];
      expect(a.date > b.date || (a.date === b.date && a.id > b.id)).toBe(true);
    }
    const repeat = uses.find((u) => u.participants.length > u.players.length)!;
    expect(repeat.players).toEqual([...new Set(repeat.participants.map((p) => p.id))]);
    expect(repeat.participants[0]!.FirstName).toBe(s.dataset.players.find((p) => p.id === repeat.participants[0]!.id)!.FirstName);
    const item = own(s)[0]!;
    const byItem = (await call(s, 'GET', '/uses.php', { query: { artifact_id: item.id } })).json.uses as { artifact_id: number }[];
    expect(byItem.length).toBe(s.dataset.uses.filter((u) => u.artifact_id === item.id).length);
    expect((await call(s, 'GET', '/uses.php', { query: { artifact_id: own(s, 2)[0]!.id } })).json.uses).toEqual([]);
    const player = repeat.players[1] ?? repeat.players[0]!;
    const byPlayer = (await call(s, 'GET', '/uses.php', { query: { player_id: player } })).json.uses as { players: number[] }[];
    expect(byPlayer.length).toBeGreaterThan(0);
    expect(byPlayer.every((u) => u.players.includes(player))).toBe(true);
    expect((await call(s, 'GET', '/uses.php', { query: { artifact_id: 'x' } })).status).toBe(400);
    expect((await call(s, 'GET', '/uses.php', { query: { player_id: '' } })).status).toBe(400);
  });

  it('GET /players.php lists the household with its fields', async () => {
    const players = (await call(s, 'GET', '/players.php')).json.players as Json[];
    expect(players.length).toBe(s.dataset.players.filter((p) => p.user_id === 1).length);
    expect(Object.keys(players[0]!).sort()).toEqual(['FirstName', 'LastName', 'birth_year', 'id', 'name', 'represents_user_id']);
    expect(players.filter((p) => p.represents_user_id === 1)).toHaveLength(1);
  });

  it('GET /proposals.php counts per item, kept and secondary by default, sorted and windowed', async () => {
    type P = { artifact_id: number; item_name: string; explicit_declines: number; chose_something_else: number };
    const get = async (query: Record<string, string | number>) => (await call(s, 'GET', '/proposals.php', { query })).json.proposals as P[];
    const byId = new Map(own(s).map((i) => [i.id, i]));
    const def = await get({});
    expect(def.length).toBeGreaterThan(0);
    for (const row of def) {
      const item = byId.get(row.artifact_id)!;
      expect(item.is_kept === 1 || item.is_in_secondary_collection === 1).toBe(true);
      const mine = s.dataset.proposals.filter((p) => p.artifact_id === row.artifact_id);
      expect(row.explicit_declines).toBe(mine.filter((p) => p.outcome === 'explicit_decline').length);
      expect(row.chose_something_else).toBe(mine.filter((p) => p.outcome === 'chose_something_else').length);
    }
    for (let k = 1; k < def.length; k++) expect(def[k - 1]!.explicit_declines).toBeGreaterThanOrEqual(def[k]!.explicit_declines);
    const everything = await get({ include_other: 1 });
    expect(everything.length).toBe(new Set(s.dataset.proposals.filter((p) => p.user_id === 1).map((p) => p.artifact_id)).size);
    const names = (await get({ include_other: 1, sort: 'item_name' })).map((r) => r.item_name);
    expect(names).toEqual([...names].sort(baseOrder));
    const cse = await get({ include_other: 1, sort: 'chose_something_else', direction: 'ASC' });
    for (let k = 1; k < cse.length; k++) expect(cse[k - 1]!.chose_something_else).toBeLessThanOrEqual(cse[k]!.chose_something_else);
    const day = s.dataset.proposals.find((p) => p.user_id === 1)!.date;
    const one = await get({ include_other: 1, start: day, end: day });
    const expected = s.dataset.proposals.filter((p) => p.user_id === 1 && p.date === day).length;
    expect(one.reduce((n, r) => n + r.explicit_declines + r.chose_something_else, 0)).toBe(expected);
    const invalid: Record<string, string | number>[] = [
      { start: '2025-02-30' },
      { end: '2025-1-01' },
      { start: '2025-02-01', end: '2025-01-01' },
      { include_other: 2 },
      { sort: 'plays' },
      { direction: 'up' },
    ];
    for (const query of invalid) {
      expect((await call(s, 'GET', '/proposals.php', { query })).status, JSON.stringify(query)).toBe(400);
    }
  });

  it('GET /proposals.php with exclusive bounds leaves the start and end days out', async () => {
    const x = setup({ variant: { proposalBounds: 'exclusive' } });
    type P = { explicit_declines: number; chose_something_else: number };
    const total = async (query: Record<string, string>) =>
      ((await call(x, 'GET', '/proposals.php', { query: { include_other: '1', ...query } })).json.proposals as P[]).reduce(
        (n, r) => n + r.explicit_declines + r.chose_something_else,
        0,
      );
    const mine = x.dataset.proposals.filter((p) => p.user_id === 1);
    const day = mine[0]!.date;
    const on = (d: string) => mine.filter((p) => p.date === d).length;
    expect(on(day)).toBeGreaterThan(0);
    expect(await total({ start: day, end: day })).toBe(0);
    expect(await total({ start: day })).toBe(mine.filter((p) => p.date > day).length);
    expect(await total({ end: day })).toBe(mine.filter((p) => p.date < day).length);
  });

  it("GET /types.php lists the types the user's items use; the empty user gets none", async () => {
    const types = (await call(s, 'GET', '/types.php')).json.types as { id: number; name: string }[];
    expect(new Set(types.map((t) => t.id))).toEqual(new Set(own(s).map((i) => i.type_id)));
    expect((await call(s, 'GET', '/types.php', { key: s.key.empty })).json).toEqual({ types: [] });
  });

  it('GET /upcoming-interactions.php gives kept items with a use, 90 days after the last use', async () => {
    const rows = (await call(s, 'GET', '/upcoming-interactions.php')).json.upcoming as { artifact_id: number; last_use: string; interact_by: string }[];
    const kept = own(s).filter((i) => i.is_kept === 1 && s.dataset.uses.some((u) => u.artifact_id === i.id));
    expect(rows.map((r) => r.artifact_id).sort()).toEqual(kept.map((i) => i.id).sort());
    for (const r of rows) {
      expect(r.last_use).toBe(
        s.dataset.uses
          .filter((u) => u.artifact_id === r.artifact_id)
          .map((u) => u.date)
          .sort()
          .at(-1),
      );
      expect((Date.parse(r.interact_by) - Date.parse(r.last_use)) / 86_400_000).toBe(90);
    }
    for (let k = 1; k < rows.length; k++) expect(rows[k - 1]!.interact_by <= rows[k]!.interact_by).toBe(true);
  });

  it('gives the empty user empty lists everywhere', async () => {
    const o = { key: s.key.empty };
    expect(rowsOf(await list(s, {}, o))).toEqual([]);
    expect((await list(s, {}, o)).json.has_more).toBe(false);
    expect((await call(s, 'GET', '/uses.php', o)).json.uses).toEqual([]);
    expect((await call(s, 'GET', '/proposals.php', { ...o, query: { include_other: 1 } })).json.proposals).toEqual([]);
    expect((await call(s, 'GET', '/upcoming-interactions.php', o)).json.upcoming).toEqual([]);
  });
});

describe('POST /artifact-kept.php (§3, §4)', () => {
  it('sets is_kept and updated_at only', async () => {
    const s = setup();
    const item = own(s).find((i) => i.is_kept === 0)!;
    const before = s.store.snapshot();
    const r = await call(s, 'POST', '/artifact-kept.php', { body: { id: item.id, is_kept: 1 } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: item.id, is_kept: 1 });
    const after = s.store.snapshot();
    const changed = after.items.find((i) => i.id === item.id)!;
    expect(changed.is_kept).toBe(1);
    expect(changed.updated_at).not.toBe(item.updated_at);
    changed.is_kept = 0;
    expect(stamps(after)).toBe(stamps(before));
    const read = await call(s, 'GET', '/artifact.php', { query: { id: item.id } });
    expect(read.json.is_kept).toBe(1);
    // Setting the same value again is fine.
    expect((await call(s, 'POST', '/artifact-kept.php', { body: { id: item.id, is_kept: 1 } })).status).toBe(200);
  });

  it('refuses invalid values with 400 and changes nothing', async () => {
    const s = setup();
    const item = own(s)[0]!;
    const before = JSON.stringify(s.store.snapshot());
    for (const is_kept of [true, false, '1', '0', 2, -1, 0.5, null, [1], {}]) {
      const r = await call(s, 'POST', '/artifact-kept.php', { body: { id: item.id, is_kept } });
      expect(r.status, JSON.stringify(is_kept)).toBe(400);
      expect((r.json.errors as { field: string }[])[0]!.field).toBe('is_kept');
    }
    for (const body of [{ id: item.id }, { is_kept: 1 }, { id: String(item.id), is_kept: 1 }, { id: 1.5, is_kept: 0 }, {}]) {
      expect((await call(s, 'POST', '/artifact-kept.php', { body })).status, JSON.stringify(body)).toBe(400);
    }
    const both = await call(s, 'POST', '/artifact-kept.php', { body: { id: 'x', is_kept: 'y' } });
    expect((both.json.errors as { field: string }[]).map((e) => e.field)).toEqual(['id', 'is_kept']);
    for (const raw of ['{', '[1]', '']) expect((await call(s, 'POST', '/artifact-kept.php', { raw })).status, raw).toBe(400);
    expect(JSON.stringify(s.store.snapshot())).toBe(before);
  });

  it("answers the unknown-id status for another user's item or an unknown id", async () => {
    const s = setup();
    const before = JSON.stringify(s.store.snapshot());
    const foreign = own(s, 2)[0]!;
    expect((await call(s, 'POST', '/artifact-kept.php', { body: { id: foreign.id, is_kept: foreign.is_kept ? 0 : 1 } })).status).toBe(404);
    expect((await call(s, 'POST', '/artifact-kept.php', { body: { id: 99_999_999, is_kept: 0 } })).status).toBe(404);
    expect((await call(s, 'POST', '/artifact-kept.php', { body: { id: -3, is_kept: 0 } })).status).toBe(404);
    expect(JSON.stringify(s.store.snapshot())).toBe(before);
    const v = setup({ variant: { unknownIdStatus: 400, flagEncoding: 'bool' } });
    expect((await call(v, 'POST', '/artifact-kept.php', { body: { id: foreign.id, is_kept: 0 } })).status).toBe(400);
    const ok = await call(v, 'POST', '/artifact-kept.php', { body: { id: own(v)[0]!.id, is_kept: 0 } });
    expect(ok.json.is_kept).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------

describe('the other choice wherever the spec leaves one open (issue 12)', () => {
  const item = (s: Setup) => own(s).find((i) => i.id % 2 === 1 && i.id % 7 !== 0)!;

  it('wraps the single read in an envelope with a volatile meta, also around null for an unknown id', async () => {
    const s = setup({ variant: { itemEnvelope: 'named', unknownItemRead: 'null' } });
    const r = await call(s, 'GET', '/artifact.php', { query: { id: item(s).id } });
    expect(r.json.artifact).toMatchObject({ id: item(s).id, Title: item(s).Title });
    expect(r.json.meta).toHaveProperty('served_at');
    expect((await call(s, 'GET', '/artifact.php', { query: { id: own(s, 2)[0]!.id } })).json.artifact).toBeNull();
  });

  it('serves the unset flags of even ids as null, reads them as 0 in filters, and serves a new 0 as null there too', async () => {
    const s = setup({ variant: { unsetFlags: 'null', flagEncoding: 'bool' } });
    const legacy = own(s).find((i) => i.id % 2 === 0 && i.is_kept === 1)!;
    const byId = async (id: number) => rowsOf(await list(s, { per_page: 200, cursor: null })).find((r) => r.id === id)!;
    expect((await byId(legacy.id)).is_kept).toBe(true);
    expect((await call(s, 'POST', '/artifact-kept.php', { body: { id: legacy.id, is_kept: 0 } })).status).toBe(200);
    expect((await byId(legacy.id)).is_kept).toBeNull();
    const unkept = rowsOf(await list(s, { per_page: 200, kept: false }));
    expect(unkept.some((r) => r.is_kept === null) && unkept.every((r) => r.is_kept !== true)).toBe(true);
    expect(rowsOf(await list(s, { per_page: 200, kept: true })).every((r) => r.is_kept === true)).toBe(true);
  });

  it('leaves every seventh item untyped: no type filter matches it and /types.php lists only the types in use', async () => {
    const s = setup({ variant: { untypedItems: 'some' } });
    const rows = rowsOf(await list(s, { per_page: 200, cursor: null }));
    const untyped = rows.filter((r) => r.type_id === null);
    expect(untyped.length).toBeGreaterThan(0);
    expect(untyped.every((r) => r.type === null && (r.id as number) % 7 === 0)).toBe(true);
    const typeIds = [...new Set(rows.map((r) => r.type_id).filter((t) => t !== null))];
    expect(rowsOf(await list(s, { per_page: 200, type_id: typeIds })).some((r) => r.type_id === null)).toBe(false);
    const listed = ((await call(s, 'GET', '/types.php')).json.types as Json[]).map((t) => t.id);
    expect(listed.sort()).toEqual([...typeIds].sort());
  });

  it('answers paths it does not serve with a catch-all page, and keeps /users.php a refused enumeration endpoint', async () => {
    const s = setup({ variant: { unknownPaths: 'catch-all' } });
    const page = await call(s, 'GET', '/users');
    expect(page.status).toBe(200);
    expect(page.rawBody).toContain('<html>');
    expect((await call(s, 'GET', '/users.php')).status).toBe(403);
    expect((await call(setup({ profile: 'staging', variant: { unknownPaths: 'catch-all' } }), 'GET', '/players.php')).status).toBe(200);
  });

  it('answers a write to a path it does not serve as a read of it where the router comes first, with a fresh token on each catch-all page', async () => {
    const s = setup({ variant: { unknownPaths: 'catch-all', unknownPathWrites: 'not-served', catchAllPage: 'token' } });
    const [first, second] = [await call(s, 'POST', '/tags.php', { body: { artifact_id: 1, tag: 'x' } }), await call(s, 'POST', '/tags.php')];
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.rawBody).toContain('csrf-token');
    expect(first.rawBody).not.toBe(second.rawBody);
    expect((await call(s, 'POST', '/types.php')).status).toBe(403);
    expect((await call(s, 'POST', '/users.php')).status).toBe(403);
    expect((await call(setup({ variant: { unknownPathWrites: 'not-served' } }), 'DELETE', '/tags.php')).status).toBe(404);
  });

  it('lists every type for every user and refuses a type_id list naming one id twice, in that variant', async () => {
    const s = setup({ variant: { typeList: 'all', typeIdDuplicates: 'refuse' } });
    const all = ((await call(s, 'GET', '/types.php')).json.types as Json[]).map((t) => t.id);
    const used = ((await call(setup(), 'GET', '/types.php')).json.types as Json[]).map((t) => t.id);
    expect(all.length).toBeGreaterThan(used.length);
    expect((await call(s, 'POST', '/artifacts.php', { body: { type_id: [used[0], used[0]] } })).status).toBe(400);
    expect((await call(s, 'POST', '/artifacts.php', { body: { type_id: [used[0]] } })).status).toBe(200);
  });

  it('matches paths whatever their letter case, in that variant', async () => {
    const s = setup({ variant: { pathCase: 'insensitive', unknownPaths: 'catch-all' } });
    expect((await call(s, 'GET', '/Users.php')).status).toBe(403);
    expect((await call(s, 'GET', '/Types.php')).status).toBe(200);
    expect((await call(setup(), 'GET', '/Types.php')).status).toBe(404);
  });

  it('reads malformed JSON as no body, ignores invalid non-filter fields, and still refuses invalid filters', async () => {
    const s = setup({ variant: { malformedListBody: 'default-page', nonFilterFields: 'ignore' } });
    const malformed = await call(s, 'POST', '/artifacts.php', { raw: '{"page": ' });
    expect(malformed.status).toBe(200);
    expect(rowsOf(malformed)).toHaveLength(50);
    for (const body of [{ page: 'x' }, { per_page: -5 }, { cursor: 17 }, { query: 3 }, { fields: 'all' }, { include: ['x'] }]) {
      expect((await list(s, body)).status, JSON.stringify(body)).toBe(200);
    }
    expect((await list(s, { kept: 'yes' })).status).toBe(400);
  });

  it('ignores a malformed artifact_id on /uses.php (every use) and invalid proposal parameters', async () => {
    const s = setup({ variant: { usesMalformedId: 'ignore', proposalQuery: 'ignore' } });
    const all = (await call(s, 'GET', '/uses.php')).json.uses as Json[];
    expect(((await call(s, 'GET', '/uses.php', { query: { artifact_id: 'not-an-id' } })).json.uses as Json[]).length).toBe(all.length);
    const plain = await call(s, 'GET', '/proposals.php', { query: { include_other: 1 } });
    for (const query of [{ sort: 'popularity' }, { direction: 'sideways' }, { start: '2024-13-45' }] as Record<string, string>[]) {
      const r = await call(s, 'GET', '/proposals.php', { query: { include_other: 1, ...query } });
      expect(r.status).toBe(200);
      expect(r.json).toEqual(plain.json);
    }
  });

  it('serves opaque string ids, pages them by cursor in descending code-unit order, and takes them back in the toggle', async () => {
    const s = setup({ variant: { idType: 'string', cursorOrder: 'descending', cursorEncoding: 'id', toggleAnswer: 'no-content' } });
    const ids: string[] = [];
    let cursor: unknown = null;
    do {
      const r = await list(s, { per_page: 50, cursor });
      ids.push(...rowsOf(r).map((row) => row.id as string));
      cursor = r.json.next_cursor;
    } while (cursor !== null);
    expect(ids).toHaveLength(own(s).length);
    expect(ids.every((id) => id.startsWith('itm-'))).toBe(true);
    expect(ids).toEqual([...ids].sort().reverse());
    const target = ids[3]!;
    expect((await call(s, 'POST', '/artifact-kept.php', { body: { id: target, is_kept: 1 } })).status).toBe(204);
    expect((await call(s, 'GET', '/artifact.php', { query: { id: target } })).json.is_kept).toBe(1);
    expect((await call(s, 'POST', '/artifact-kept.php', { body: { id: Number(target.slice(4)), is_kept: 1 } })).status).toBe(400);
  });

  it('adds a reminder date (null on odd ids) to upcoming rows, and a legacy last_use to some unused items', async () => {
    const s = setup({ variant: { upcomingDates: 'several', legacyLastUse: 'some' } });
    const upcoming = (await call(s, 'GET', '/upcoming-interactions.php')).json.upcoming as Json[];
    expect(upcoming.some((r) => r.next_reminder === null) && upcoming.some((r) => typeof r.next_reminder === 'string')).toBe(true);
    const rows = rowsOf(await list(s, { per_page: 200, include: ['uses_summary'] }));
    expect(rows.some((r) => r.plays === 0 && typeof r.last_use === 'string')).toBe(true);
  });

  it('writes error entries as pointers, and serves reads as { data, meta }', async () => {
    const s = setup({ variant: { errorShape: 'pointers', readEnvelope: 'data' } });
    expect((await list(s, { kept: 'yes' })).json.errors).toEqual([{ code: 'invalid', detail: 'must be true or false', source: { pointer: '/kept' } }]);
    const types = await call(s, 'GET', '/types.php');
    expect(Object.keys(types.json).sort()).toEqual(['data', 'meta']);
  });

  it("serves a catalog of its own format that names the profile's endpoints", async () => {
    const s = setup({ profile: 'staging', variant: { catalogFormat: 'custom' } });
    const doc = (await call(s, 'GET', '/api-docs', { key: null })).json;
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildCustomCatalog('staging', s.variant))));
    expect(doc).not.toHaveProperty('openapi');
    expect(JSON.stringify(doc)).not.toContain('/players.php');
  });
});

describe('catalog (/api-docs)', () => {
  const formats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

  /** The declared response schema, self-contained: component references rewritten into $defs. */
  function declared(doc: Json, path: string, method: string, status: number): Json | undefined {
    const op = ((doc.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
    const response = (op?.responses as Json | undefined)?.[String(status)] as Json | undefined;
    const schema = ((response?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
    if (!schema) return undefined;
    const defs = (doc.components as Json).schemas as Json;
    return JSON.parse(JSON.stringify({ ...schema, $defs: defs }).replaceAll('#/components/schemas/', '#/$defs/')) as Json;
  }

  // Compiling the OpenAPI meta-schema and the response schemas is the slow part: do each once.
  const openApi = new Validator();
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  formats(ajv);
  const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
  const compile = (schema: Json) => {
    const text = JSON.stringify(schema);
    let validate = compiled.get(text);
    if (!validate) compiled.set(text, (validate = ajv.compile(schema)));
    return validate;
  };

  const variantOf = (id: string): Partial<Variant> => variants.find((v) => v.id === id)!.variant;
  const configs: { profile: Profile; variant: Partial<Variant> }[] = [
    { profile: 'primary', variant: {} },
    { profile: 'staging', variant: {} },
    { profile: 'primary', variant: variantOf('alternative-choices') },
    { profile: 'primary', variant: variantOf('envelope-data-403-ids') },
    { profile: 'staging', variant: { stagingExtraFilters: 'reject', listKey: 'results', flagEncoding: 'bool', errorShape: 'strings' } },
    // Every other choice of the other-choices variant, with an OpenAPI catalog that describes them.
    { profile: 'primary', variant: { ...variantOf('other-choices-everywhere'), catalogFormat: 'openapi' } },
  ];

  for (const config of configs) {
    it(`is valid OpenAPI and validates every sampled answer (${config.profile} ${JSON.stringify(config.variant)})`, async () => {
      const s = setup(config);
      const doc = (await call(s, 'GET', '/api-docs', { key: null, query: { format: 'json' } })).json;
      expect(doc).toEqual(JSON.parse(JSON.stringify(buildCatalog(s.profile, s.variant))));
      const check = await openApi.validate(structuredClone(doc) as Parameters<Validator['validate']>[0]);
      expect(check.errors ?? []).toEqual([]);
      expect(check.valid).toBe(true);
      const listOps = (doc.paths as Json)['/artifacts.php'] as Json;
      expect(Object.keys(listOps).sort()).toEqual(['get', 'post']);
      expect(Object.keys(doc.paths as Json).includes('/players.php')).toBe(s.profile === 'primary');

      const item = own(s)[0]!;
      const foreign = own(s, 2)[0]!;
      const samples: [string, string, CallOptions][] = [
        ['GET', '/artifacts.php', {}],
        ['POST', '/artifacts.php', { body: {} }],
        ['POST', '/artifacts.php', { body: { per_page: 3, cursor: null } }],
        ['POST', '/artifacts.php', { body: { per_page: 200, fields: 'collection', include: ['uses_summary'] } }],
        ['POST', '/artifacts.php', { body: { per_page: 999 } }],
        ['POST', '/artifacts.php', { body: { page: 'x', kept: 3 } }],
        ['POST', '/artifacts.php', { raw: '{' }],
        ['POST', '/artifacts.php', { key: 'wrong' }],
        ['GET', '/artifact.php', { query: { id: item.id } }],
        ['GET', '/artifact.php', { query: { id: foreign.id } }],
        ['GET', '/artifact.php', { query: { id: 'x' } }],
        ['GET', '/uses.php', {}],
        ['GET', '/uses.php', { query: { artifact_id: item.id } }],
        ['GET', '/uses.php', { query: { artifact_id: 'x' } }],
        ['GET', '/proposals.php', { query: { include_other: 1 } }],
        ['GET', '/proposals.php', { query: { sort: 'x' } }],
        ['GET', '/types.php', {}],
        ['GET', '/types.php', { key: null }],
        ['GET', '/upcoming-interactions.php', {}],
        ['GET', '/players.php', {}],
        ['POST', '/artifact-kept.php', { body: { id: item.id, is_kept: item.is_kept } }],
        ['POST', '/artifact-kept.php', { body: { id: item.id, is_kept: 7 } }],
        ['POST', '/artifact-kept.php', { body: { id: foreign.id, is_kept: 0 } }],
        ['GET', '/api-docs', { key: null }],
      ];
      let validated = 0;
      for (const [method, path, o] of samples) {
        const r = await call(s, method, path, o);
        const schema = declared(doc, path, method, r.status);
        if (path === '/players.php' && s.profile === 'staging') {
          expect(r.status).toBe(404);
          continue;
        }
        if (r.status === 204) {
          expect(((doc.paths as Json)[path] as Json)[method.toLowerCase()]).toHaveProperty(['responses', '204']);
          continue;
        }
        expect(schema, `${method} ${path} → ${r.status} has a declared schema`).toBeDefined();
        const validate = compile(schema!);
        expect(validate(r.json), `${method} ${path} → ${r.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        validated++;
      }
      expect(validated).toBeGreaterThan(20);
    });
  }
});

// ---------------------------------------------------------------------------------------------

describe('server', () => {
  function raw(
    url: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Buffer,
  ): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('serves the handler over HTTP, refuses bodies over 1 MiB, and closes promptly with keep-alive sockets open', async () => {
    const ref = await startReference({ dataset: buildDataset({ itemsPerUser: 10 }) });
    try {
      expect(ref.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const auth = { authorization: `Bearer ${ref.keys.primary}` };
      const ok = await fetch(`${ref.url}/artifacts.php`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ per_page: 3 }),
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(((await ok.json()) as Json).items).toHaveLength(3);
      const empty = await fetch(`${ref.url}/artifacts.php`, { headers: { authorization: `Bearer ${ref.keys.empty}` } });
      expect(((await empty.json()) as Json).items).toEqual([]);
      const head = await raw(ref.url, 'HEAD', '/types.php', auth);
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      const big = await raw(ref.url, 'POST', '/artifacts.php', { ...auth, 'content-type': 'application/json' }, Buffer.alloc(1024 * 1024 + 10, 32));
      expect(big.status).toBe(413);
      expect(JSON.parse(big.text)).toHaveProperty('errors');
      const bad = await fetch(`${ref.url}/uses.php`);
      expect(bad.status).toBe(401);
      expect(ref.keys.other).toBe(ref.store.userById(2)!.key);
    } finally {
      const started = Date.now();
      await ref.close();
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it('lets a wrapper replace behaviour', async () => {
    const ref = await startReference({
      profile: 'staging',
      wrap: (inner, ctx) => (req) => (req.path === '/types.php' ? { status: 418, body: { users: ctx.dataset.users.length } } : inner(req)),
    });
    try {
      const r = await fetch(`${ref.url}/types.php`, { headers: { authorization: `Bearer ${ref.keys.primary}` } });
      expect(r.status).toBe(418);
      expect(await r.json()).toEqual({ users: 4 });
      expect((await fetch(`${ref.url}/players.php`, { headers: { authorization: `Bearer ${ref.keys.primary}` } })).status).toBe(404);
    } finally {
      await ref.close();
    }
  });
});

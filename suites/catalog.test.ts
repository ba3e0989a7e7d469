import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { responseSchema, schemaErrors, validateOpenApi } from '../src/catalog.ts';
import { ensure, okObject } from '../src/expect.ts';
import { endpoints } from '../src/http/api.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { isObject } from '../src/lenient.ts';
import { profiles } from '../src/profiles.ts';

async function catalog(t: CheckContext): Promise<{ document: Record<string, unknown>; exchange: Exchange }> {
  const exchange = await t.api.catalog();
  return { document: okObject(exchange, 'GET /api-docs?format=json'), exchange };
}

function profilePaths(t: CheckContext): string[] {
  const all = [endpoints.list, endpoints.item, endpoints.uses, endpoints.proposals, endpoints.types, endpoints.upcoming, endpoints.kept];
  return profiles[t.target.profile].has('players') ? [...all, endpoints.players] : all;
}

describe('catalog (§1, §9 /api-docs?format=json)', () => {
  check(
    { id: 'CAT-001', level: 'MUST', section: '§1, §9', title: 'the catalog is JSON and a valid OpenAPI document' },
    async (t) => {
      const { document, exchange } = await catalog(t);
      const result = await validateOpenApi(document);
      ensure(result.valid, `the catalog is not a valid OpenAPI document: ${result.errors.slice(0, 3).join('; ')}`, exchange);
    },
  );

  check(
    { id: 'CAT-002', level: 'MUST', section: '§9', title: 'the catalog lists every endpoint of the profile' },
    async (t) => {
      const { document, exchange } = await catalog(t);
      const listed = isObject(document.paths) ? Object.keys(document.paths).map((p) => p.replace(/\/+$/, '')) : [];
      const absent = profilePaths(t).filter((p) => !listed.some((l) => l === p || l.endsWith(p)));
      ensure(absent.length === 0, `the catalog does not list ${absent.join(', ')}`, exchange);
    },
  );

  check(
    { id: 'CAT-003', level: 'MUST', section: '§9', title: 'responses validate against the schemas the catalog declares for them' },
    async (t) => {
      const { document } = await catalog(t);
      const result = await validateOpenApi(document);
      const resolved = t.need(result.resolved, 'the catalog is not a valid OpenAPI document (see CAT-001)');
      const item = await t.discover.anyItem();
      const samples: Promise<Exchange>[] = [
        t.api.list({}),
        t.api.list({ per_page: 5, cursor: null }),
        t.api.list({ page: 'not-a-number' }),
        t.api.uses({}),
        t.api.proposals({ include_other: 1 }),
        t.api.types(),
        t.api.upcoming(),
      ];
      if (item) samples.push(t.api.item(String(item.id)));
      if (profiles[t.target.profile].has('players')) samples.push(t.api.players());
      let declared = 0;
      for (const ex of await Promise.all(samples)) {
        const url = new URL(ex.request.url);
        const path = url.pathname.slice(url.pathname.lastIndexOf('/'));
        const schema = responseSchema(resolved, path, ex.request.method, ex.response.status);
        if (schema === undefined) continue;
        declared++;
        const errors = schemaErrors(schema, ex.response.json);
        ensure(errors.length === 0, `${ex.request.method} ${path} (${ex.response.status}) does not match the schema the catalog declares: ${errors.join('; ')}`, ex);
      }
      t.need(declared > 0 ? declared : undefined, 'the catalog declares no response schema for the responses sampled');
    },
  );
});

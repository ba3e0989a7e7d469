import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { missingOperations, responseSchema, schemaErrors, validateOpenApi } from '../src/catalog.ts';
import { ensure, okObject } from '../src/expect.ts';
import { endpoints } from '../src/http/api.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { profiles } from '../src/profiles.ts';

async function catalog(t: CheckContext): Promise<{ document: Record<string, unknown>; exchange: Exchange }> {
  const exchange = await t.api.catalog();
  return { document: okObject(exchange, 'GET /api-docs?format=json'), exchange };
}

/** The operations of the profile (§4): staging has all but the players endpoint (§9). */
function profileOperations(t: CheckContext): { method: string; path: string }[] {
  const all = [
    { method: 'POST', path: endpoints.list },
    { method: 'GET', path: endpoints.item },
    { method: 'GET', path: endpoints.uses },
    { method: 'GET', path: endpoints.proposals },
    { method: 'GET', path: endpoints.types },
    { method: 'GET', path: endpoints.upcoming },
    { method: 'POST', path: endpoints.kept },
  ];
  return profiles[t.target.profile].has('players') ? [...all, { method: 'GET', path: endpoints.players }] : all;
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
      const absent = missingOperations(document, profileOperations(t));
      ensure(absent.length === 0, `the catalog does not describe ${absent.join(', ')}`, exchange);
    },
  );

  check(
    { id: 'CAT-003', level: 'MUST', section: '§9', title: 'responses validate against the schemas the catalog declares for them' },
    async (t) => {
      const { document } = await catalog(t);
      const result = await validateOpenApi(document);
      t.need(result.valid ? true : undefined, 'the catalog is not a valid OpenAPI document (see CAT-001)');
      const item = await t.discover.anyItem();
      const samples: Promise<Exchange>[] = [
        t.api.list({}),
        t.api.list({ per_page: 5, cursor: null }),
        t.api.list({ page: 'not-a-number' }),
        // One item's uses: the same schema as the whole history, at a size that does not grow with it.
        t.api.uses(item ? { artifact_id: String(item.id) } : {}),
        t.discover.shared('GET /proposals.php?include_other=1'),
        t.api.types(),
        t.discover.shared('GET /upcoming-interactions.php'),
      ];
      if (item) samples.push(t.api.item(String(item.id)));
      // Rows with every optional field: nullable ones (Acq, last_use) included.
      if (profiles[t.target.profile].has('list-fields') && profiles[t.target.profile].has('list-include')) samples.push(t.api.list({ per_page: 200, fields: 'collection', include: ['uses_summary'] }));
      if (profiles[t.target.profile].has('players')) samples.push(t.api.players());
      let declared = 0;
      const mismatches: { message: string; exchange: Exchange }[] = [];
      for (const ex of await Promise.all(samples)) {
        const url = new URL(ex.request.url);
        const path = url.pathname.slice(url.pathname.lastIndexOf('/'));
        const schema = responseSchema(document, path, ex.request.method, ex.response.status);
        if (schema === undefined) continue;
        const label = `${ex.request.method} ${path} (${ex.response.status})`;
        if (ex.response.json === undefined) {
          mismatches.push({ message: `${label}: the body is not JSON, but the catalog declares a JSON schema for it`, exchange: ex });
          continue;
        }
        const errors = schemaErrors(schema, ex.response.json);
        if (errors === undefined) continue; // a schema this suite cannot compile (e.g. an external reference): nothing to judge
        declared++;
        if (errors.length > 0) mismatches.push({ message: `${label} does not match the schema the catalog declares: ${errors.slice(0, 5).join('; ')}`, exchange: ex });
      }
      ensure(mismatches.length === 0, mismatches.map((m) => m.message).join('\n'), mismatches[0]?.exchange);
      t.need(declared > 0 ? declared : undefined, 'the catalog declares no response schema for the responses sampled');
    },
  );
});

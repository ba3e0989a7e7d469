import {
  describe,
  check,
  claimsOpenApi,
  endpoints,
  ensure,
  MAX_ROWS_PER_PAGE,
  okJson,
  profiles,
  responseSchema,
  schemaErrors,
  unnamedPaths,
  validateOpenApi,
  type CheckContext,
  type Exchange,
} from '../src/harness/index.ts';

async function catalog(t: CheckContext): Promise<{ document: unknown; exchange: Exchange }> {
  const exchange = await t.discover.shared('GET /api-docs?format=json');
  return { document: okJson('C1.4', exchange, 'GET /api-docs?format=json'), exchange };
}

/** The endpoint paths of the profile (§4): staging has all but the players endpoint (§9). */
function profilePaths(t: CheckContext): string[] {
  const all = [endpoints.list, endpoints.item, endpoints.uses, endpoints.proposals, endpoints.types, endpoints.upcoming, endpoints.kept];
  return profiles[t.target.profile].has('players') ? [...all, endpoints.players] : all;
}

/** The catalog's content is not shown (§1): its format is free, so what follows from OpenAPI is advice. */
const ANY_FORMAT = 'a catalog in any JSON format: OpenAPI 2.0/3.x or another one';

describe('catalog (§1, §9 /api-docs?format=json)', () => {
  check({ id: 'CAT-001', level: 'MUST', sections: ['§1', '§9'], keptBlind: true, title: 'the catalog is served as JSON', accepts: [ANY_FORMAT] }, async (t) => {
    await catalog(t);
  });

  check(
    {
      id: 'CAT-002',
      level: 'SHOULD',
      sections: ['§1', '§9'],
      keptBlind: true,
      title: 'the catalog names every endpoint of the profile (advice)',
      accepts: [ANY_FORMAT, 'an endpoint named anywhere in the document: as a key or a value, a path, a URL or "METHOD /path", under a prefix of its own'],
    },
    async (t) => {
      const { document, exchange } = await catalog(t);
      const absent = unnamedPaths(document, profilePaths(t));
      ensure(
        'C9.2',
        absent.length === 0,
        `advice (the catalog's content is not shown, §1): it names nowhere ${absent.join(', ')} (looked for keys and values that read as a path, a URL or "METHOD /path")`,
        exchange,
      );
    },
  );

  check(
    {
      id: 'CAT-003',
      level: 'SHOULD',
      sections: ['§1', '§9'],
      keptBlind: true,
      title: 'responses agree with the schemas an OpenAPI catalog declares for them (advice)',
      accepts: [`${ANY_FORMAT}: only an OpenAPI catalog is read for schemas, and the check skips otherwise`, 'schemas the suite cannot compile (not judged)'],
    },
    async (t) => {
      const { document } = await catalog(t);
      t.need(
        claimsOpenApi(document) ? true : undefined,
        'the catalog is not an OpenAPI document, so it declares no schemas to compare with (its format is not shown)',
      );
      const result = await validateOpenApi(document);
      t.need(result.valid ? true : undefined, 'the catalog is not a valid OpenAPI document (see CAT-004)');
      const item = await t.discover.anyItem();
      const used = await t.discover.usesSampleItem();
      const samples: Promise<Exchange>[] = [
        t.discover.list({}),
        t.discover.list({ per_page: 5, cursor: null }),
        t.api.list({ page: 'not-a-number' }),
        // One item's uses (the item of the latest use, which USES-003 reads too): the same schema as the whole history,
        // at a size that does not grow with it.
        used !== undefined ? t.discover.usesOf(used) : t.api.uses({}),
        t.discover.shared('GET /proposals.php?include_other=1'),
        t.discover.shared('GET /types.php'),
        t.discover.shared('GET /upcoming-interactions.php'),
      ];
      if (item) samples.push(t.discover.item(String(item.id)));
      // Rows with every optional field: nullable ones (Acq, last_use) included.
      if (profiles[t.target.profile].has('list-fields') && profiles[t.target.profile].has('list-include'))
        samples.push(t.discover.list({ per_page: MAX_ROWS_PER_PAGE, fields: 'collection', include: ['uses_summary'] }));
      if (profiles[t.target.profile].has('players')) samples.push(t.discover.shared('GET /players.php'));
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
        if (errors.length > 0)
          mismatches.push({ message: `${label} does not match the schema the catalog declares: ${errors.slice(0, 5).join('; ')}`, exchange: ex });
      }
      ensure(
        'C9.2',
        mismatches.length === 0,
        `advice (the catalog's content is not shown, §1): ${mismatches.map((m) => m.message).join('\n')}`,
        mismatches[0]?.exchange,
      );
      t.need(declared > 0 ? declared : undefined, 'the catalog declares no response schema for the responses sampled');
    },
  );

  check(
    {
      id: 'CAT-004',
      level: 'SHOULD',
      sections: ['§1', '§9'],
      keptBlind: true,
      title: 'a catalog that declares an OpenAPI version is a valid OpenAPI document (advice)',
      accepts: [`${ANY_FORMAT}: a catalog that declares no OpenAPI or Swagger version is not judged`],
    },
    async (t) => {
      const { document, exchange } = await catalog(t);
      t.need(claimsOpenApi(document) ? true : undefined, 'the catalog declares no OpenAPI or Swagger version (its format is not shown)');
      const result = await validateOpenApi(document);
      ensure(
        'C9.2',
        result.valid,
        `advice (the catalog's format is not shown, §1): it declares OpenAPI but is not a valid OpenAPI document: ${result.errors.slice(0, 3).join('; ')}`,
        exchange,
      );
    },
  );
});

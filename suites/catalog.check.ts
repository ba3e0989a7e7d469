import {
  describe,
  appliedSecurity,
  bearerInHeader,
  check,
  claimsOpenApi,
  DEFAULT_ROWS_PER_PAGE,
  declaredDefault,
  declaredProperties,
  declaredRequestSchema,
  endpoints,
  ensure,
  LIST_BODY_FIELDS,
  MAX_ROWS_PER_PAGE,
  okJson,
  operationOf,
  profiles,
  dialectOf,
  queryParameterSchema,
  queryReadings,
  requiredQueryParameters,
  requestSchema,
  responseSchema,
  schemaErrors,
  unnamedPaths,
  validateOpenApi,
  type CheckContext,
  type Exchange,
  type Schema,
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

  check(
    {
      id: 'CAT-005',
      level: 'SHOULD',
      sections: ['§1', '§4', '§5', '§9'],
      keptBlind: true,
      title:
        'what an OpenAPI catalog declares of requests agrees with the spec: list bodies, toggles and query parameters the spec allows fit what it declares, the list body names the fields §4 offers, a toggle without id or is_kept does not fit, no read requires a parameter §4 leaves out or is declared keyless, the list and toggle paths have their POST, per_page defaults to 50, and the key goes in the Authorization header as a bearer token (advice)',
      accepts: [
        `${ANY_FORMAT}: only an OpenAPI catalog is read, and the check skips otherwise`,
        'request schemas the suite cannot compile (not judged)',
        'no request schema, no named body fields, no default for per_page or no security declared: nothing to compare',
        'body fields named in any alternative of a composition',
        'an alternative without any scheme beside one that sends the key as a bearer token',
        'OAuth 2 and OpenID Connect schemes (their tokens travel as bearer tokens in the Authorization header)',
      ],
    },
    async (t) => {
      const { document, exchange } = await catalog(t);
      t.need(
        claimsOpenApi(document) ? true : undefined,
        'the catalog is not an OpenAPI document, so it declares no requests to compare (its format is not shown)',
      );
      const result = await validateOpenApi(document);
      t.need(result.valid ? true : undefined, 'the catalog is not a valid OpenAPI document (see CAT-004)');
      const profile = profiles[t.target.profile];
      // Bodies §4 allows on the profile, each field with a value the spec names for it.
      const listBodies: Record<string, unknown>[] = [
        { page: 1, per_page: MAX_ROWS_PER_PAGE },
        // A null cursor where the catalog can write null (OpenAPI 2.0 cannot, bar an extension).
        dialectOf(document) === '2.0' ? { per_page: 10 } : { per_page: 10, cursor: null },
        { query: 'a', tag: 'b' },
        ...(profile.has('list-filters') ? [{ kept: true, physical: false, digital: true, secondary_collection: false }] : []),
        ...(profile.has('list-fields') && profile.has('list-include') ? [{ fields: 'collection', include: ['uses_summary'] }] : []),
      ];
      const item = await t.discover.anyItem();
      // The id as the list serves it, and in its other form (a number written as text, or the text of a number): the spec
      // shows no id type, so a toggle body fits where either does.
      const idForms = item === undefined ? [] : [...new Set([item.id, String(item.id), ...(Number.isFinite(Number(item.id)) ? [Number(item.id)] : [])])];
      const toggles = item === undefined ? [] : [0, 1].map((value) => idForms.map((id) => ({ id, is_kept: value })));
      const problems: string[] = [];
      let judged = 0;
      for (const [path, bodies] of [
        [endpoints.list, listBodies.map((body) => [body])],
        [endpoints.kept, toggles],
      ] as const) {
        const schema = requestSchema(document, path, 'POST');
        for (const forms of schema === undefined ? [] : bodies) {
          const errors = fitErrors(schema!, forms);
          if (errors === undefined) continue;
          judged++;
          if (errors.length > 0)
            problems.push(
              `POST ${path} ${JSON.stringify(forms[0])}, a body §4 allows, does not fit the request schema the catalog declares: ${errors.slice(0, 3).join('; ')}`,
            );
        }
        const applied = appliedSecurity(document, path, 'POST');
        if (applied === undefined) continue;
        judged++;
        if (!applied.some((alternative) => alternative.every(bearerInHeader)))
          problems.push(
            `POST ${path}: the catalog has the key sent as ${applied.map((a) => a.map((s) => JSON.stringify(s)).join(' with ')).join(' or ')}, where §5 sends it in the Authorization header as Bearer <key>`,
          );
      }
      // Query parameters §4 names, each with a value it allows.
      const queries: [string, Record<string, string>][] = [
        [endpoints.proposals, { include_other: '1', sort: 'item_name', direction: 'desc', start: '2024-01-01', end: '2024-12-31' }],
        // The two other sort names §4 gives.
        [endpoints.proposals, { sort: 'explicit_declines' }],
        [endpoints.proposals, { sort: 'chose_something_else' }],
        ...(item === undefined ? [] : [[endpoints.uses, { artifact_id: String(item.id) }] as [string, Record<string, string>]]),
      ];
      for (const [path, values] of queries)
        for (const [name, text] of Object.entries(values)) {
          const schema = queryParameterSchema(document, path, 'GET', name);
          const errors = schema === undefined ? undefined : fitErrors(schema, queryReadings(text));
          if (errors === undefined) continue;
          judged++;
          if (errors.length > 0)
            problems.push(`GET ${path}?${name}=${text}, a value §4 allows, does not fit the parameter the catalog declares: ${errors.slice(0, 3).join('; ')}`);
        }
      const perPage = declaredDefault(document, declaredRequestSchema(document, endpoints.list, 'POST'), 'per_page');
      if (perPage !== undefined) {
        judged++;
        if (Number(perPage) !== DEFAULT_ROWS_PER_PAGE)
          problems.push(`POST ${endpoints.list}: the catalog gives per_page the default ${JSON.stringify(perPage)}, where §4 states ${DEFAULT_ROWS_PER_PAGE}`);
      }
      // The toggle's id and is_kept are both required (§4): a body without one of them should not fit what the catalog declares.
      const toggleSchema = requestSchema(document, endpoints.kept, 'POST');
      if (toggleSchema !== undefined && item !== undefined)
        for (const [missing, body] of [
          ['id', { is_kept: 1 }],
          ['is_kept', { id: item.id }],
        ] as const) {
          const errors = schemaErrors(toggleSchema, body);
          if (errors === undefined) continue;
          judged++;
          if (errors.length === 0)
            problems.push(`POST ${endpoints.kept} ${JSON.stringify(body)} fits the request schema the catalog declares, though §4 requires ${missing}`);
        }
      // Where the catalog names the list path or the toggle path, it describes their POST (§4: the list is a POST, the toggle
      // the one write); and no operation §4 puts behind the key is declared keyless (an empty security list, §5).
      for (const path of [endpoints.list, endpoints.kept].filter((p) => unnamedPaths(document, [p]).length === 0)) {
        judged++;
        if (operationOf(document, path, 'POST') === undefined)
          problems.push(`${path}: the catalog names the path but describes no POST, the method §4 gives it`);
      }
      const guarded: [string, string][] = [
        ['POST', endpoints.list],
        ['POST', endpoints.kept],
        ...[
          endpoints.list,
          endpoints.item,
          endpoints.uses,
          endpoints.proposals,
          endpoints.types,
          endpoints.upcoming,
          ...(profile.has('players') ? [endpoints.players] : []),
        ].map((path): [string, string] => ['GET', path]),
      ];
      for (const [method, path] of guarded) {
        const operation = operationOf(document, path, method);
        if (operation === undefined) continue;
        judged++;
        if (Array.isArray(operation.security) && operation.security.length === 0)
          problems.push(`${method} ${path}: the catalog declares it with an empty security list (no key), where §4 and §5 require the Authorization header`);
      }
      // Where the catalog names the list body's fields, each field §4 offers on the profile should be among them.
      const declared = declaredProperties(document, declaredRequestSchema(document, endpoints.list, 'POST'));
      if (declared.length > 0) {
        judged++;
        const missing = listFieldsOn(profile).filter((name) => !declared.includes(name));
        if (missing.length > 0)
          problems.push(`POST ${endpoints.list}: the catalog names the body's fields ${declared.join(', ')} but not ${missing.join(', ')}, which §4 offers`);
      }
      // §4 makes every query parameter of these reads optional (or takes none): a catalog should require none.
      const reads = [
        endpoints.list,
        endpoints.uses,
        endpoints.proposals,
        endpoints.types,
        endpoints.upcoming,
        ...(profile.has('players') ? [endpoints.players] : []),
      ];
      for (const path of reads) {
        if (operationOf(document, path, 'GET') === undefined) continue;
        judged++;
        const required = requiredQueryParameters(document, path, 'GET');
        if (required.length > 0) problems.push(`GET ${path}: the catalog requires ${required.join(', ')}, where §4 serves the read without it`);
      }
      ensure('C9.2', problems.length === 0, `advice (the catalog's content is not shown, §1): ${problems.join('\n')}`, exchange);
      t.need(judged > 0 ? judged : undefined, 'the catalog declares no request schema, per_page default or security for the list and the toggle');
    },
  );
});

/** The list body's fields §4 offers on a profile. */
function listFieldsOn(profile: (typeof profiles)[keyof typeof profiles]): string[] {
  const needs: Record<string, 'list-filters' | 'list-fields' | 'list-include'> = {
    kept: 'list-filters',
    physical: 'list-filters',
    digital: 'list-filters',
    secondary_collection: 'list-filters',
    type_id: 'list-filters',
    fields: 'list-fields',
    include: 'list-include',
  };
  return LIST_BODY_FIELDS.filter((name) => needs[name] === undefined || profile.has(needs[name]));
}

/** [] where one of the forms fits the schema, else the first form's problems; undefined where the schema cannot be compiled. */
function fitErrors(schema: Schema, forms: readonly unknown[]): string[] | undefined {
  let first: string[] | undefined;
  for (const form of forms) {
    const errors = schemaErrors(schema, form);
    if (errors === undefined) return undefined;
    if (errors.length === 0) return [];
    first ??= errors;
  }
  return first ?? [];
}

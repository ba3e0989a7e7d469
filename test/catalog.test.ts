import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../fixtures/reference/openapi.ts';
import { defaultVariant } from '../fixtures/reference/types.ts';
import {
  appliedSecurity,
  bearerInHeader,
  catalogPathFor,
  declaredDefault,
  declaredProperties,
  declaredRequestSchema,
  declaredSchema,
  dialectOf,
  queryParameterSchema,
  requiredQueryParameters,
  queryReadings,
  missingOperations,
  responseOf,
  requestSchema,
  responseSchema,
  schemaErrors,
  validateOpenApi,
} from '../src/spec/catalog.ts';

type Doc = Record<string, unknown>;

const info = { title: 'catalog under test', version: '1.0.0' };
const json = (schema: unknown, media = 'application/json') => ({ [media]: { schema } });
const answer = (schema: unknown, media?: string) => ({ description: 'an answer', content: json(schema, media) });

/** A document with one GET operation per path, answering 200 with the given schema. */
function doc(openapi: string, paths: Record<string, unknown>, schemas: Record<string, unknown> = {}, extra: Doc = {}): Doc {
  const ops = Object.fromEntries(Object.entries(paths).map(([path, schema]) => [path, { get: { responses: { '200': answer(schema) } } }]));
  return { openapi, info, paths: ops, components: { schemas }, ...extra };
}

/** The 3.0 idioms the brief names: nullable, boolean exclusive bounds, a self-referencing schema. */
const tree30 = doc(
  '3.0.3',
  { '/tree': { $ref: '#/components/schemas/Node' } },
  {
    Node: {
      type: 'object',
      required: ['id', 'children'],
      properties: {
        id: { type: 'integer', minimum: 0, exclusiveMinimum: true },
        label: { type: 'string', nullable: true },
        weight: { type: 'number', maximum: 10, exclusiveMaximum: true },
        children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
      },
      additionalProperties: false,
    },
  },
);

/** Problems of `body` against the schema the document declares for GET `path` with `status`. */
function problems(document: unknown, path: string, body: unknown, status = 200, method = 'GET'): string[] | undefined {
  const schema = responseSchema(document, path, method, status);
  expect(schema, `a schema is declared for ${method} ${path} ${status}`).toBeDefined();
  return schemaErrors(schema!, body);
}

describe('validateOpenApi', () => {
  it('accepts a 3.0 document with nullable, boolean exclusive bounds and a $ref cycle', async () => {
    const result = await validateOpenApi(tree30);
    expect(result).toEqual({ valid: true, errors: [], version: '3.0' });
  });

  it('accepts a 3.1 document', async () => {
    const result = await validateOpenApi(doc('3.1.0', { '/n': { type: ['integer', 'null'], exclusiveMinimum: 0 } }));
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.1');
  });

  it('accepts the reference catalogs in both versions', async () => {
    for (const catalogVersion of ['3.1', '3.0'] as const) {
      const catalog = buildCatalog('primary', { ...defaultVariant, catalogVersion, catalogResponses: 'grouped' });
      expect(dialectOf(catalog)).toBe(catalogVersion);
      expect((await validateOpenApi(catalog)).errors).toEqual([]);
    }
  });

  it('names the place and the rule when a required field is missing', async () => {
    const result = await validateOpenApi({ openapi: '3.0.3', info: { title: 'no version' }, paths: {} });
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/\/info must have required property 'version'/);
    expect(result.errors.join('\n')).not.toMatch(/instancePath|schemaPath/);
  });

  it('rejects a version that does not exist, saying which', async () => {
    const result = await validateOpenApi({ openapi: '9.9.9', info, paths: {} });
    expect(result).toMatchObject({ valid: false });
    expect(result.errors).toEqual([expect.stringContaining('"9.9.9"')]);
    expect((await validateOpenApi({ info, paths: {} })).errors[0]).toMatch(/neither an openapi nor a swagger version/);
  });

  it('rejects a reference to a schema the document does not have', async () => {
    const result = await validateOpenApi(doc('3.0.3', { '/x': { $ref: '#/components/schemas/Missing' } }));
    expect(result.valid).toBe(false);
    expect(result.errors.join(' ')).toMatch(/Missing/);
  });

  it('refuses anything but a JSON object without throwing (a string is never read as a file name)', async () => {
    for (const [value, shape] of [
      [null, 'null'],
      [[1], 'an array'],
      ['/etc/hostname', 'a string'],
      [42, 'a number'],
    ] as const) {
      const result = await validateOpenApi(value);
      expect(result.valid).toBe(false);
      expect(result.errors).toEqual([`the catalog is ${shape}, not a JSON object`]);
    }
  });
});

describe('responseOf, declaredSchema and responseSchema', () => {
  const error = { type: 'object', required: ['errors'], properties: { errors: { type: 'array' } } };
  const ops: Doc = {
    openapi: '3.0.3',
    info,
    paths: {
      '/v1/uses.php': { $ref: '#/components/pathItems/Uses' },
      '/types.php': {
        get: {
          responses: {
            '200': answer({ type: 'array', items: { type: 'object' } }, 'application/json; charset=utf-8'),
            '4xx': { $ref: '#/components/responses/Refusal' },
            default: answer({ type: 'string' }, 'application/problem+json'),
          },
        },
      },
      '/players.php': {
        get: { responses: { '200': { description: 'any', content: { 'text/html': { schema: { type: 'string' } }, '*/*': { schema: { type: 'array' } } } } } },
      },
      '/proposals.php': {
        get: {
          responses: {
            '200': { description: 'both', content: { 'application/xml': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
      '/upcoming-interactions.php': { get: { responses: { '200': { description: 'html only', content: { 'text/html': { schema: { type: 'string' } } } } } } },
    },
    components: {
      responses: { Refusal: answer(error) },
      pathItems: { Uses: { get: { responses: { '200': answer({ type: 'object', required: ['uses'] }) } } } },
    },
  };

  it('finds the catalog path written under a prefix, and reports operations it lacks', () => {
    expect(catalogPathFor(ops, '/uses.php')).toBe('/v1/uses.php');
    expect(
      missingOperations(ops, [
        { method: 'GET', path: '/uses.php' },
        { method: 'POST', path: '/uses.php' },
        { method: 'GET', path: '/artifact.php' },
      ]),
    ).toEqual(['POST /uses.php', 'GET /artifact.php']);
  });

  it('takes the exact status first, then its class, then default, following $refs', () => {
    expect(declaredSchema(ops, '/types.php', 'GET', 200)).toEqual({ type: 'array', items: { type: 'object' } });
    expect(declaredSchema(ops, '/types.php', 'get', 404)).toEqual(error);
    expect(declaredSchema(ops, '/types.php', 'GET', 500)).toEqual({ type: 'string' });
    expect(declaredSchema(ops, '/uses.php', 'GET', 200)).toEqual({ type: 'object', required: ['uses'] });
    expect(responseOf(ops, '/uses.php', 'GET', 401)).toBeUndefined();
    expect(responseSchema(ops, '/uses.php', 'GET', 401)).toBeUndefined();
    expect(responseSchema(ops, '/artifact.php', 'GET', 200)).toBeUndefined();
  });

  it('reads JSON under any spelling of its media type, preferring application/json', () => {
    expect(declaredSchema(ops, '/proposals.php', 'GET', 200)).toEqual({ type: 'object' });
    expect(declaredSchema(ops, '/players.php', 'GET', 200)).toEqual({ type: 'array' });
    expect(declaredSchema(ops, '/upcoming-interactions.php', 'GET', 200)).toBeUndefined();
    expect(problems(ops, '/types.php', 'a string', 500)).toEqual([]);
    expect(problems(ops, '/types.php', { no: 'errors' }, 400)).toEqual([expect.stringContaining("must have required property 'errors'")]);
  });

  it('reads OpenAPI 2.0 responses and definitions', () => {
    const swagger = {
      swagger: '2.0',
      info,
      paths: { '/types.php': { get: { responses: { '200': { description: 'types', schema: { $ref: '#/definitions/Type' } } } } } },
      definitions: { Type: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string', 'x-nullable': true } } } },
    };
    expect(problems(swagger, '/types.php', { id: 3, name: null })).toEqual([]);
    expect(problems(swagger, '/types.php', { id: 'three' })).toEqual([expect.stringContaining('/id must be integer')]);
  });
});

describe('schemaErrors', () => {
  it('flags a wrong type, naming where', () => {
    expect(problems(tree30, '/tree', { id: 'seven', children: [] })).toEqual([expect.stringMatching(/^\/id must be integer/)]);
    expect(problems(doc('3.1.0', { '/n': { type: 'object', properties: { n: { type: 'integer' } } } }), '/n', { n: 1.5 })).toEqual([
      expect.stringMatching(/^\/n must be integer/),
    ]);
  });

  it('accepts null where 3.0 says nullable, and only there', () => {
    expect(problems(tree30, '/tree', { id: 1, label: null, children: [] })).toEqual([]);
    const strict = doc('3.0.3', { '/s': { type: 'object', properties: { label: { type: 'string' } } } });
    expect(problems(strict, '/s', { label: null })).toEqual([expect.stringMatching(/^\/label must be string/)]);
  });

  it('admits null on a nullable $ref, enum or composition in 3.0, but keeps their other constraints', () => {
    const d = doc(
      '3.0.3',
      {
        '/x': {
          type: 'object',
          properties: {
            ref: { $ref: '#/components/schemas/Id', nullable: true },
            choice: { type: 'string', enum: ['a', 'b'], nullable: true },
            both: { allOf: [{ $ref: '#/components/schemas/Id' }], nullable: true },
          },
        },
      },
      { Id: { type: 'integer' } },
    );
    expect(problems(d, '/x', { ref: null, choice: null, both: null })).toEqual([]);
    expect(problems(d, '/x', { ref: 2, choice: 'b', both: 3 })).toEqual([]);
    expect(problems(d, '/x', { ref: 'x', choice: 'c', both: 'y' })?.map((e) => e.split(' ')[0])).toEqual(expect.arrayContaining(['/ref', '/choice', '/both']));
  });

  it('reads boolean exclusiveMinimum and exclusiveMaximum as strict bounds', () => {
    expect(problems(tree30, '/tree', { id: 0, children: [] })).toEqual([expect.stringMatching(/^\/id must be > 0/)]);
    expect(problems(tree30, '/tree', { id: 1, weight: 10, children: [] })).toEqual([expect.stringMatching(/^\/weight must be < 10/)]);
    expect(problems(tree30, '/tree', { id: 1, weight: 9.5, children: [] })).toEqual([]);
    const inclusive = doc('3.0.3', { '/n': { type: 'integer', minimum: 0, exclusiveMinimum: false } });
    expect(problems(inclusive, '/n', 0)).toEqual([]);
    expect(problems(inclusive, '/n', -1)).toEqual([expect.stringContaining('must be >= 0')]);
  });

  it('follows a self-referencing component to any depth', () => {
    const deep = { id: 1, children: [{ id: 2, children: [{ id: 3, children: [] }] }] };
    expect(problems(tree30, '/tree', deep)).toEqual([]);
    const broken = structuredClone(deep);
    broken.children[0]!.children[0]!.id = -3;
    expect(problems(tree30, '/tree', broken)).toEqual([expect.stringMatching(/^\/children\/0\/children\/0\/id must be > 0/)]);
  });

  it('follows cycles through references that are not whole components, and mutual recursion', () => {
    const d = doc(
      '3.0.3',
      { '/a': { $ref: '#/components/schemas/A' }, '/folder': { $ref: '#/components/schemas/Drive/properties/root' } },
      {
        A: { type: 'object', required: ['b'], properties: { b: { $ref: '#/components/schemas/B' } } },
        B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A', nullable: true } } },
        Drive: {
          type: 'object',
          properties: {
            root: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, sub: { type: 'array', items: { $ref: '#/components/schemas/Drive/properties/root' } } },
            },
          },
        },
      },
    );
    expect(problems(d, '/a', { b: { a: { b: { a: null } } } })).toEqual([]);
    expect(problems(d, '/a', { b: { a: { b: 5 } } })).toContainEqual(expect.stringMatching(/^\/b\/a\/b must be object/));
    expect(problems(d, '/folder', { name: 'r', sub: [{ name: 's', sub: [{ name: 't' }] }] })).toEqual([]);
    expect(problems(d, '/folder', { name: 'r', sub: [{ name: 's', sub: [{}] }] })).toEqual([
      expect.stringMatching(/^\/sub\/0\/sub\/0 must have required property 'name'/),
    ]);
  });

  it('lets the discriminator pick a oneOf branch, and does not require writeOnly properties in answers', () => {
    const d = doc(
      '3.0.3',
      {
        '/pet': {
          oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
          discriminator: { propertyName: 'kind' },
        },
        '/user': { type: 'object', required: ['name', 'password'], properties: { name: { type: 'string' }, password: { type: 'string', writeOnly: true } } },
      },
      {
        Cat: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
        Dog: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
      },
    );
    expect(problems(d, '/pet', { kind: 'Cat' })).toEqual([]);
    expect(problems(d, '/pet', { name: 'no kind' })?.length).toBeGreaterThan(0);
    expect(problems(d, '/user', { name: 'ann' })).toEqual([]);
    expect(problems(d, '/user', {})).toEqual([expect.stringContaining("must have required property 'name'")]);
  });

  it('reads 3.1 null types and $ref siblings', () => {
    const d = doc(
      '3.1.0',
      { '/x': { type: 'object', properties: { n: { type: ['integer', 'null'] }, id: { $ref: '#/components/schemas/Id', minimum: 5 } } } },
      { Id: { type: 'integer' } },
    );
    expect(problems(d, '/x', { n: null, id: 6 })).toEqual([]);
    expect(
      problems(d, '/x', { n: 'one', id: 4 })
        ?.map((e) => e.split(' ')[0])
        .sort(),
    ).toEqual(['/id', '/n']);
  });

  it('judges nothing when a schema points into another document', () => {
    const d = doc('3.0.3', { '/x': { $ref: 'other.yaml#/components/schemas/X' } });
    expect(problems(d, '/x', { any: 'thing' })).toBeUndefined();
  });

  it('validates answers of the reference against its 3.0 catalog', () => {
    const catalog = buildCatalog('primary', { ...defaultVariant, catalogVersion: '3.0' });
    const page = { items: [], page: null, per_page: 5, has_more: false, next_cursor: null };
    expect(problems(catalog, '/artifacts.php', page, 200, 'POST')).toEqual([]);
    expect(problems(catalog, '/artifacts.php', { ...page, page: 0 }, 200, 'POST')).toEqual([expect.stringMatching(/^\/page /)]);
    expect(problems(catalog, '/artifacts.php', { errors: [{ message: 'bad', causes: [{ message: 'worse', causes: [] }] }] }, 400, 'POST')).toEqual([]);
    expect(problems(catalog, '/artifacts.php', { errors: [{ message: 'bad', causes: [{ field: 'no message' }] }] }, 400, 'POST')).toEqual([
      expect.stringMatching(/^\/errors\/0\/causes\/0 must have required property 'message'/),
    ]);
  });
});

describe('request schemas, defaults and security a catalog declares', () => {
  const listRequest = { type: 'object', properties: { per_page: { type: 'integer', default: 50, maximum: 200 }, kept: { type: 'boolean' } } };
  const v3 = {
    openapi: '3.0.3',
    info,
    security: [{ key: [] }],
    components: {
      schemas: { ListRequest: listRequest },
      securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' }, bearer: { type: 'http', scheme: 'Bearer' } },
    },
    paths: {
      '/artifacts.php': {
        post: {
          requestBody: { content: json({ allOf: [{ $ref: '#/components/schemas/ListRequest' }] }) },
          responses: { '200': answer({ type: 'object' }) },
        },
      },
      '/artifact-kept.php': { post: { security: [{ bearer: [] }, {}], responses: { '200': answer({ type: 'object' }) } } },
    },
  };
  const v2 = {
    swagger: '2.0',
    info,
    securityDefinitions: { auth: { type: 'apiKey', in: 'header', name: 'Authorization' } },
    security: [{ auth: [] }],
    paths: { '/artifacts.php': { post: { parameters: [{ in: 'body', name: 'body', schema: listRequest }], responses: { '200': { description: 'rows' } } } } },
  };

  it('reads the request body of 3.x (through $ref and allOf) and of 2.0 (the body parameter)', () => {
    for (const doc of [v3, v2]) {
      const schema = requestSchema(doc, '/artifacts.php', 'POST')!;
      expect(schemaErrors(schema, { per_page: 200, kept: true })).toEqual([]);
      expect(schemaErrors(schema, { kept: 1 })!.join()).toMatch(/kept/);
      expect(declaredDefault(doc, declaredRequestSchema(doc, '/artifacts.php', 'POST'), 'per_page')).toBe(50);
    }
    expect(requestSchema(v3, '/artifact-kept.php', 'POST')).toBeUndefined();
  });

  it('names the body fields a schema declares, through $ref and its compositions', () => {
    const declared = declaredRequestSchema(v3, '/artifacts.php', 'POST');
    expect(declaredProperties(v3, declared)).toEqual(['per_page', 'kept']);
    const alternatives = { oneOf: [{ properties: { page: {} } }, { $ref: '#/components/schemas/ListRequest' }], properties: { query: {} } };
    expect(declaredProperties(v3, alternatives).sort()).toEqual(['kept', 'page', 'per_page', 'query']);
    expect(declaredProperties(v3, { type: 'object' })).toEqual([]);
    // 3.1 keeps what is written beside a $ref; conditional subschemas may add names too.
    // biome-ignore lint/suspicious/noThenProperty: then is a JSON Schema keyword here, not a promise's
    const beside = { $ref: '#/components/schemas/ListRequest', properties: { include: {} }, if: {}, then: { properties: { cursor: {} } } };
    expect(declaredProperties(v3, beside).sort()).toEqual(['cursor', 'include', 'kept', 'per_page']);
  });

  it("applies an operation's own security before the document's, each alternative as its schemes", () => {
    expect(appliedSecurity(v3, '/artifacts.php', 'POST')).toEqual([[{ type: 'apiKey', in: 'query', name: 'api_key' }]]);
    expect(appliedSecurity(v3, '/artifact-kept.php', 'POST')).toEqual([[{ type: 'http', scheme: 'Bearer' }], []]);
    expect(appliedSecurity(v2, '/artifacts.php', 'POST')).toEqual([[{ type: 'apiKey', in: 'header', name: 'Authorization' }]]);
    expect(appliedSecurity({ ...v3, security: [{ missing: [] }] }, '/artifacts.php', 'POST')).toEqual([[{}]]);
    expect(appliedSecurity({ ...v3, security: undefined }, '/artifacts.php', 'POST')).toBeUndefined();
  });

  it('takes a bearer token in the Authorization header, and nothing else, as the way §5 sends the key', () => {
    expect(bearerInHeader({ type: 'http', scheme: 'bearer' })).toBe(true);
    expect(bearerInHeader({ type: 'apiKey', in: 'header', name: 'authorization' })).toBe(true);
    expect(bearerInHeader({ type: 'oauth2' })).toBe(true);
    expect(bearerInHeader({ type: 'apiKey', in: 'query', name: 'Authorization' })).toBe(false);
    expect(bearerInHeader({ type: 'http', scheme: 'basic' })).toBe(false);
    expect(bearerInHeader({})).toBe(false);
  });
});

describe('query parameters a catalog declares', () => {
  const v3 = {
    openapi: '3.0.3',
    info,
    paths: {
      '/proposals.php': {
        parameters: [{ in: 'query', name: 'sort', schema: { type: 'string', enum: ['item_name', 'explicit_declines'] } }],
        get: { parameters: [{ in: 'query', name: 'include_other', schema: { type: 'boolean' } }], responses: { '200': answer({ type: 'array' }) } },
      },
    },
  };
  const v2 = {
    swagger: '2.0',
    info,
    paths: {
      '/proposals.php': {
        get: { parameters: [{ in: 'query', name: 'include_other', type: 'integer', enum: [0, 1] }], responses: { '200': { description: 'rows' } } },
      },
    },
  };

  const fits = (schema: Record<string, unknown>, text: string) => queryReadings(text).some((v) => schemaErrors(schema, v)!.length === 0);

  it("reads an operation's parameter, its path's, and 2.0 keywords kept on the parameter", () => {
    const sort = queryParameterSchema(v3, '/proposals.php', 'GET', 'sort')!;
    expect(fits(sort, 'item_name')).toBe(true);
    expect(fits(sort, 'other')).toBe(false);
    const flag = queryParameterSchema(v2, '/proposals.php', 'GET', 'include_other')!;
    expect(fits(flag, '1')).toBe(true);
    expect(queryParameterSchema(v2, '/proposals.php', 'GET', 'start')).toBeUndefined();
  });

  it('reads the text as itself, as the number it writes, or as true or false, so a boolean takes the words but not 1', () => {
    const flag = queryParameterSchema(v3, '/proposals.php', 'GET', 'include_other')!;
    expect(fits(flag, 'true')).toBe(true);
    expect(fits(flag, '1')).toBe(false);
    expect(queryReadings('12')).toEqual(['12', 12]);
    expect(queryReadings('')).toEqual(['']);
  });

  it('finds the type behind a $ref: a referenced integer takes digits', () => {
    const doc = {
      ...v3,
      components: { schemas: { Id: { type: 'integer' } } },
      paths: { '/uses.php': { get: { parameters: [{ in: 'query', name: 'artifact_id', schema: { $ref: '#/components/schemas/Id' } }], responses: {} } } },
    };
    expect(fits(queryParameterSchema(doc, '/uses.php', 'GET', 'artifact_id')!, '17')).toBe(true);
  });

  it("takes a required parameter from the operation before its path's, in both versions", () => {
    const doc = {
      ...v3,
      paths: {
        '/uses.php': {
          parameters: [
            { in: 'query', name: 'artifact_id', required: true, schema: { type: 'integer' } },
            { in: 'query', name: 'player_id', required: true, schema: { type: 'integer' } },
          ],
          get: { parameters: [{ in: 'query', name: 'artifact_id', required: false, schema: { type: 'integer' } }], responses: {} },
        },
      },
    };
    expect(requiredQueryParameters(doc, '/uses.php', 'GET')).toEqual(['player_id']);
    expect(requiredQueryParameters(v3, '/proposals.php', 'GET')).toEqual([]);
    const required2 = { ...v2, paths: { '/uses.php': { get: { parameters: [{ in: 'query', name: 'artifact_id', type: 'integer', required: true }] } } } };
    expect(requiredQueryParameters(required2, '/uses.php', 'GET')).toEqual(['artifact_id']);
  });

  it('does not require readOnly properties in a request body', () => {
    const doc = {
      ...v3,
      components: {
        schemas: { Item: { type: 'object', required: ['id', 'Title'], properties: { id: { type: 'integer' }, Title: { type: 'string', readOnly: true } } } },
      },
      paths: { '/artifact-kept.php': { post: { requestBody: { content: json({ $ref: '#/components/schemas/Item' }) }, responses: {} } } },
    };
    expect(schemaErrors(requestSchema(doc, '/artifact-kept.php', 'POST')!, { id: 3 })).toEqual([]);
    expect(
      schemaErrors(
        responseSchema({ ...doc, paths: { '/x': { get: { responses: { '200': answer({ $ref: '#/components/schemas/Item' }) } } } } }, '/x', 'GET', 200)!,
        { id: 3 },
      )!.length,
    ).toBeGreaterThan(0);
  });
});

/**
 * Reading the machine-readable catalog (§1, §9): is it a valid OpenAPI document, which operations does it
 * describe, and what schema does it declare for an answer. Pure functions over parsed JSON apart from the
 * OpenAPI validator, so each can be unit-tested on a literal document.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { isObject } from './lenient.ts';

export interface CatalogCheck {
  valid: boolean;
  errors: string[];
  version?: string;
}

/** Validates an OpenAPI document with a maintained validator (2.0, 3.0, 3.1 and 3.2). */
export async function validateOpenApi(document: unknown): Promise<CatalogCheck> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
  if (!result.valid) {
    const errors = Array.isArray(result.errors) ? result.errors.map((e) => JSON.stringify(e)) : [String(result.errors)];
    return { valid: false, errors };
  }
  return { valid: true, errors: [], version: validator.version };
}

export type Schema = Record<string, unknown>;
/** OpenAPI 3.2 schemas are JSON Schema 2020-12 like 3.1's, so they are read the same way. */
export type Dialect = '2.0' | '3.0' | '3.1';

export function dialectOf(doc: unknown): Dialect | undefined {
  if (!isObject(doc)) return undefined;
  if (doc.swagger === '2.0') return '2.0';
  if (typeof doc.openapi !== 'string') return undefined;
  if (doc.openapi.startsWith('3.0')) return '3.0';
  if (/^3\.[12]\b/.test(doc.openapi)) return '3.1';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Paths and operations

/** Follows a local JSON pointer (`#/a/b~1c`) inside the document. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node)) node = node[part];
    else return undefined;
  }
  return node;
}

/** An object that may be a `$ref` to a component (responses, path items): the referenced object. */
function deref(doc: unknown, value: unknown, depth = 0): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.$ref === 'string' && depth < 10) return deref(doc, resolvePointer(doc, value.$ref), depth + 1);
  return value;
}

function pathsOf(doc: unknown): Record<string, unknown> {
  return isObject(doc) && isObject(doc.paths) ? doc.paths : {};
}

/**
 * The catalog's path key that describes an endpoint: the same path, or the path under a prefix the
 * catalog chose to write into its keys (e.g. `/v1/uses.php`, with the base in `servers`).
 */
export function catalogPathFor(doc: unknown, path: string): string | undefined {
  const keys = Object.keys(pathsOf(doc));
  return keys.find((k) => k === path) ?? keys.find((k) => k.endsWith(path));
}

export function operationOf(doc: unknown, path: string, method: string): Record<string, unknown> | undefined {
  const key = catalogPathFor(doc, path);
  const item = key === undefined ? undefined : deref(doc, pathsOf(doc)[key]);
  return deref(doc, item?.[method.toLowerCase()]);
}

/** The endpoints (as "METHOD /path") that the catalog does not describe. */
export function missingOperations(doc: unknown, wanted: readonly { method: string; path: string }[]): string[] {
  return wanted.filter(({ method, path }) => operationOf(doc, path, method) === undefined).map(({ method, path }) => `${method} ${path}`);
}

/** The declared response for a status: exact code, then its class (`4XX`), then `default`. */
export function responseOf(doc: unknown, path: string, method: string, status: number): Record<string, unknown> | undefined {
  const responses = deref(doc, operationOf(doc, path, method)?.responses);
  if (!responses) return undefined;
  const byClass = Object.keys(responses).find((k) => k.toUpperCase() === `${Math.floor(status / 100)}XX`);
  return deref(doc, responses[String(status)] ?? (byClass !== undefined ? responses[byClass] : undefined) ?? responses.default);
}

/** The raw schema the catalog declares for a JSON answer (OpenAPI 2.0 `schema`, 3.x `content`). */
export function declaredSchema(doc: unknown, path: string, method: string, status: number): unknown {
  const response = responseOf(doc, path, method, status);
  if (!response) return undefined;
  if (dialectOf(doc) === '2.0') return response.schema;
  const content = isObject(response.content) ? response.content : {};
  const types = Object.keys(content);
  const media = types.find((m) => m.split(';')[0]!.trim().toLowerCase() === 'application/json') ?? types.find((m) => /json/i.test(m)) ?? types.find((m) => m === '*/*');
  const entry = media === undefined ? undefined : content[media];
  return isObject(entry) ? entry.schema : undefined;
}

// ---------------------------------------------------------------------------------------------
// OpenAPI schema → JSON Schema 2020-12

const SUBSCHEMA = ['additionalProperties', 'additionalItems', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Where component schemas live inside a converted, self-contained schema. */
const DEFS = 'conform-components';

/** Rewrites a component reference into the self-contained schema; undefined for any other reference. */
function localRef(ref: string): string | undefined {
  const match = /^#\/(components\/schemas|definitions)\/(.+)$/.exec(ref);
  return match ? `#/$defs/${DEFS}/${match[2]}` : undefined;
}

/**
 * One OpenAPI schema object as JSON Schema 2020-12: `nullable` (3.0) and `x-nullable` (2.0) become a
 * null alternative, boolean `exclusiveMinimum`/`exclusiveMaximum` become numeric bounds, siblings of
 * `$ref` are dropped where OpenAPI ignores them, and component references point into `$defs`. Other
 * local references are inlined.
 */
export function toJsonSchema(schema: unknown, dialect: Dialect, doc: unknown = {}, depth = 0): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) return {};
  if (typeof schema.$ref === 'string') {
    const local = localRef(schema.$ref);
    const target = local !== undefined || depth > 20 ? undefined : resolvePointer(doc, schema.$ref);
    const base: unknown = local !== undefined ? { $ref: local } : target !== undefined ? toJsonSchema(target, dialect, doc, depth + 1) : { $ref: schema.$ref };
    const nullable = schema.nullable === true || schema['x-nullable'] === true;
    if (dialect === '3.1') {
      const { $ref: _ref, ...siblings } = schema;
      const rest = toJsonSchema(siblings, dialect, doc, depth) as Schema;
      return Object.keys(rest).length === 0 ? base : { allOf: [base, rest] };
    }
    return nullable ? { anyOf: [base, { type: 'null' }] } : base;
  }

  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'x-nullable') continue;
    if (key === 'items') out.items = Array.isArray(value) ? value.map((s) => toJsonSchema(s, dialect, doc, depth)) : toJsonSchema(value, dialect, doc, depth);
    else if (SUBSCHEMA.includes(key) && (isObject(value) || typeof value === 'boolean')) out[key] = toJsonSchema(value, dialect, doc, depth);
    else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map((s) => toJsonSchema(s, dialect, doc, depth));
    else if (SUBSCHEMA_MAPS.includes(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, s]) => [k, toJsonSchema(s, dialect, doc, depth)]));
    else out[key] = value;
  }
  if (Array.isArray(schema.items) && dialect !== '3.1') {
    // Tuple `items` of older drafts.
    out.prefixItems = out.items;
    delete out.items;
  }
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] === true && typeof out[bound] === 'number') {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
  }
  if (out.type === 'file') delete out.type;
  if (schema.nullable === true || schema['x-nullable'] === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (out.type === undefined && out.enum === undefined) return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** A declared schema made self-contained: converted, with the catalog's component schemas under `$defs`. */
export function selfContained(schema: unknown, doc: unknown): Schema {
  const dialect = dialectOf(doc) ?? '3.1';
  const components = dialect === '2.0'
    ? (isObject(doc) && isObject(doc.definitions) ? doc.definitions : {})
    : (isObject(doc) && isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {});
  const defs = Object.fromEntries(Object.entries(components).map(([name, s]) => [name, toJsonSchema(s, dialect, doc)]));
  const root = toJsonSchema(schema, dialect, doc);
  const rootObject: Schema = isObject(root) ? root : root === false ? { not: {} } : {};
  const ownDefs = isObject(rootObject.$defs) ? rootObject.$defs : {};
  return { ...rootObject, $defs: { ...ownDefs, [DEFS]: defs } };
}

/** The schema a catalog declares for a response, ready for a JSON Schema validator; undefined when none. */
export function responseSchema(doc: unknown, path: string, method: string, status: number): Schema | undefined {
  const declared = declaredSchema(doc, path, method, status);
  return declared === undefined ? undefined : selfContained(declared, doc);
}

export type BodyValidator = (body: unknown) => string[];

const formatsPlugin = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;
const OPENAPI_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

/** Compiles a self-contained schema; the validator returns readable problems (empty when the body fits). */
export function compileValidator(schema: Schema): BodyValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  formatsPlugin(ajv);
  for (const format of OPENAPI_FORMATS) ajv.addFormat(format, true);
  const validate = ajv.compile(schema);
  return (body) => (validate(body) ? [] : (validate.errors ?? []).map(describeError));
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the body' : error.instancePath;
  const detail = error.params && Object.keys(error.params).length > 0 ? ` (${JSON.stringify(error.params)})` : '';
  return `${where} ${error.message ?? 'does not match'}${detail}`;
}

const compiled = new WeakMap<Schema, BodyValidator | undefined>();

/**
 * Problems of `body` against a schema from `responseSchema` (empty when it fits), or undefined when
 * the declared schema cannot be compiled (e.g. a reference to another document): nothing to judge.
 */
export function schemaErrors(schema: Schema, body: unknown): string[] | undefined {
  if (!compiled.has(schema)) {
    let validator: BodyValidator | undefined;
    try {
      validator = compileValidator(schema);
    } catch {
      validator = undefined;
    }
    compiled.set(schema, validator);
  }
  return compiled.get(schema)?.(body);
}

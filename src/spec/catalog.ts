/**
 * Reading the machine-readable catalog (§1, §9): is it a valid OpenAPI document, which operations does it
 * describe, and what schema does it declare for an answer. Pure functions over parsed JSON apart from the
 * OpenAPI validator, so each can be unit-tested on a literal document.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { isObject } from './lenient.ts';
import { compiledSchema, defaultExport } from '../core/compiled-schema.ts';

export interface CatalogCheck {
  valid: boolean;
  errors: string[];
  version?: string;
}

/** The last document validated and its verdict: the checks of a run validate the same catalog. */
let lastValidation: { text: string | undefined; result: Promise<CatalogCheck> } | undefined;

/** Validates an OpenAPI document with a maintained validator (2.0, 3.0, 3.1 and 3.2). */
export function validateOpenApi(document: unknown): Promise<CatalogCheck> {
  const text = JSON.stringify(document);
  if (lastValidation === undefined || lastValidation.text !== text) lastValidation = { text, result: validateOnce(document) };
  return lastValidation.result;
}

async function validateOnce(document: unknown): Promise<CatalogCheck> {
  // The validator reads a string as a file name: only a parsed object is ever handed to it.
  if (!isObject(document))
    return {
      valid: false,
      errors: [`the catalog is ${document === null ? 'null' : Array.isArray(document) ? 'an array' : `a ${typeof document}`}, not a JSON object`],
    };
  if (dialectOf(document) === undefined) {
    const declared = document.openapi ?? document.swagger;
    return {
      valid: false,
      errors: [
        declared === undefined
          ? 'the catalog has neither an openapi nor a swagger version field'
          : `the catalog declares version ${JSON.stringify(declared)}, which is no OpenAPI version (2.0, 3.0.x, 3.1.x, 3.2.x)`,
      ],
    };
  }
  // Loaded when a catalog is first validated: only the catalog checks need it, not every run's start-up.
  const { validateOpenApiDocument } = await import('./openapi-validator.ts');
  const result = await validateOpenApiDocument(structuredClone(document));
  if (!result.valid) {
    const errors = Array.isArray(result.errors) ? result.errors.map(describeOpenApiError) : [String(result.errors)];
    return { valid: false, errors };
  }
  return { valid: true, errors: [], ...(result.version ? { version: result.version } : {}) };
}

/** One validator error as `where what (details)`, e.g. `/info must have required property 'version'`. */
function describeOpenApiError(error: unknown): string {
  if (!isObject(error)) return String(error);
  const where = typeof error.instancePath === 'string' && error.instancePath !== '' ? error.instancePath : 'the document';
  const params = isObject(error.params) ? Object.entries(error.params).filter(([, v]) => v !== undefined && v !== null) : [];
  const details = params.length > 0 ? ` (${params.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ')})` : '';
  return `${where} ${typeof error.message === 'string' ? error.message : 'is invalid'}${details}`;
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

/** The path item that describes an endpoint (its operations and the parameters they share). */
function pathItemOf(doc: unknown, path: string): Record<string, unknown> | undefined {
  const key = catalogPathFor(doc, path);
  return key === undefined ? undefined : deref(doc, pathsOf(doc)[key]);
}

export function operationOf(doc: unknown, path: string, method: string): Record<string, unknown> | undefined {
  return deref(doc, pathItemOf(doc, path)?.[method.toLowerCase()]);
}

/** Whether the catalog declares itself an OpenAPI (or Swagger) document, valid or not. */
export function claimsOpenApi(doc: unknown): boolean {
  return isObject(doc) && (doc.openapi !== undefined || doc.swagger !== undefined);
}

const PATH_LIKE = /^(?:(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+)?(?:https?:\/\/[^/\s]+)?(\/?[\w.~%/{}:-]*\.php|\/[\w.~%/{}:-]*)(?:[?#]\S*)?$/i;

/**
 * Every path a catalog names, whatever its format (§1: its content is not shown): object keys and string
 * values that read as a path, a URL or "METHOD /path". Descriptions and other prose are not read.
 */
export function namedPaths(doc: unknown): Set<string> {
  const found = new Set<string>();
  const consider = (text: string): void => {
    const match = text.length <= 300 ? PATH_LIKE.exec(text.trim()) : null;
    if (!match) return;
    const path = match[1]!.startsWith('/') ? match[1]! : `/${match[1]!}`;
    found.add(path.replace(/\/+$/, '') || '/');
  };
  const seen = new Set<unknown>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 60 || seen.has(node)) return;
    if (typeof node === 'string') {
      consider(node);
      return;
    }
    if (Array.isArray(node)) {
      seen.add(node);
      for (const child of node) visit(child, depth + 1);
    } else if (isObject(node)) {
      seen.add(node);
      for (const [key, child] of Object.entries(node)) {
        consider(key);
        visit(child, depth + 1);
      }
    }
  };
  visit(doc, 0);
  return found;
}

/** The endpoint paths (e.g. `/uses.php`) that the catalog names nowhere, also not under a prefix of its own. */
export function unnamedPaths(doc: unknown, wanted: readonly string[]): string[] {
  const named = [...namedPaths(doc)];
  return wanted.filter((path) => !named.some((n) => n === path || n.endsWith(path)));
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
  return jsonContentSchema(response.content);
}

/** The raw schema a catalog declares for an operation's JSON request body (OpenAPI 2.0 `in: body`, 3.x `requestBody`). */
export function declaredRequestSchema(doc: unknown, path: string, method: string): unknown {
  const operation = operationOf(doc, path, method);
  if (!operation) return undefined;
  if (dialectOf(doc) === '2.0') {
    const parameters = Array.isArray(operation.parameters) ? operation.parameters.map((p) => deref(doc, p)) : [];
    return parameters.find((p) => p?.in === 'body')?.schema;
  }
  return jsonContentSchema(deref(doc, operation.requestBody)?.content);
}

/** The schema a catalog declares for a request body, ready for a JSON Schema validator; undefined when none. */
export function requestSchema(doc: unknown, path: string, method: string): Schema | undefined {
  const declared = declaredRequestSchema(doc, path, method);
  return declared === undefined ? undefined : selfContained(declared, doc, 'request');
}

/** The `default` a declared object schema gives one of its properties (through `$ref` and `allOf`); undefined when none. */
export function declaredDefault(doc: unknown, schema: unknown, property: string, depth = 0): unknown {
  const node = deref(doc, schema);
  if (!node || depth > 10) return undefined;
  const own = isObject(node.properties) ? deref(doc, node.properties[property]) : undefined;
  if (own && 'default' in own) return own.default;
  const parts = Array.isArray(node.allOf) ? node.allOf : [];
  return parts.map((part) => declaredDefault(doc, part, property, depth + 1)).find((value) => value !== undefined);
}

/**
 * The security a catalog applies to an operation (its own `security`, else the document's): each alternative as the
 * scheme definitions it combines (an empty object where a requirement names no scheme the document defines);
 * undefined where it applies none.
 */
export function appliedSecurity(doc: unknown, path: string, method: string): Record<string, unknown>[][] | undefined {
  const operation = operationOf(doc, path, method);
  if (!isObject(doc) || !operation) return undefined;
  const requirements = Array.isArray(operation.security) ? operation.security : Array.isArray(doc.security) ? doc.security : undefined;
  if (requirements === undefined || requirements.length === 0) return undefined;
  const schemes =
    dialectOf(doc) === '2.0'
      ? isObject(doc.securityDefinitions)
        ? doc.securityDefinitions
        : {}
      : isObject(doc.components) && isObject(doc.components.securitySchemes)
        ? doc.components.securitySchemes
        : {};
  return requirements.filter(isObject).map((requirement) => Object.keys(requirement).map((name) => deref(doc, schemes[name]) ?? {}));
}

/** The query parameters an operation declares, each name once: its own first, then those its path item shares. */
function queryParametersOf(doc: unknown, path: string, method: string): Record<string, unknown>[] {
  const listed = [operationOf(doc, path, method)?.parameters, pathItemOf(doc, path)?.parameters].flatMap((list) =>
    Array.isArray(list) ? list.map((p) => deref(doc, p)) : [],
  );
  const seen = new Set<unknown>();
  return listed.filter((p): p is Record<string, unknown> => {
    if (p?.in !== 'query' || seen.has(p.name)) return false;
    seen.add(p.name);
    return true;
  });
}

/**
 * The schema a catalog declares for a query parameter of an operation, ready for a JSON Schema validator; undefined
 * when it declares none. OpenAPI 2.0 keeps the schema keywords on the parameter.
 */
export function queryParameterSchema(doc: unknown, path: string, method: string, name: string): Schema | undefined {
  const parameter = queryParametersOf(doc, path, method).find((p) => p.name === name);
  if (!parameter) return undefined;
  if (dialectOf(doc) !== '2.0') return parameter.schema === undefined ? undefined : selfContained(parameter.schema, doc, 'request');
  const keywords = ['type', 'format', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', 'minLength', 'maxLength'];
  return selfContained(Object.fromEntries(keywords.filter((k) => k in parameter).map((k) => [k, parameter[k]])), doc, 'request');
}

/** The names of the query parameters an operation declares required. */
export function requiredQueryParameters(doc: unknown, path: string, method: string): string[] {
  return queryParametersOf(doc, path, method)
    .filter((p) => p.required === true)
    .map((p) => String(p.name));
}

/**
 * The property names a declared object schema names, through `$ref` (with what is written beside it) and every
 * subschema that may add properties (allOf, anyOf, oneOf, then, else, dependentSchemas): a name any of them declares
 * counts as declared.
 */
export function declaredProperties(doc: unknown, schema: unknown, depth = 0): string[] {
  if (!isObject(schema) || depth > 10) return [];
  const target = typeof schema.$ref === 'string' ? declaredProperties(doc, resolvePointer(doc, schema.$ref), depth + 1) : [];
  const own = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const lists = ['allOf', 'anyOf', 'oneOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []));
  const single = [schema.then, schema.else];
  const dependent = isObject(schema.dependentSchemas) ? Object.values(schema.dependentSchemas) : [];
  const parts = [...lists, ...single, ...dependent];
  return [...new Set([...target, ...own, ...parts.flatMap((part) => declaredProperties(doc, part, depth + 1))])];
}

/**
 * The values a query parameter's text may stand for, whatever its declared schema (a `$ref` or a composition hides the
 * type): the text itself, the number it writes, and true or false for the words. A text fits where one of them does.
 */
export function queryReadings(text: string): unknown[] {
  return [
    text,
    ...(text.trim() !== '' && Number.isFinite(Number(text)) ? [Number(text)] : []),
    ...(text === 'true' || text === 'false' ? [text === 'true'] : []),
  ];
}

/** Whether a security scheme has the key travel as `Authorization: Bearer <key>` (§5); OAuth 2 and OpenID Connect tokens do. */
export function bearerInHeader(scheme: Record<string, unknown>): boolean {
  const type = String(scheme.type ?? '').toLowerCase();
  if (type === 'http') return String(scheme.scheme ?? '').toLowerCase() === 'bearer';
  if (type === 'apikey') return scheme.in === 'header' && String(scheme.name ?? '').toLowerCase() === 'authorization';
  return type === 'oauth2' || type === 'openidconnect';
}

/** The JSON media type's schema of an OpenAPI 3 `content` map. */
function jsonContentSchema(contentMap: unknown): unknown {
  const content = isObject(contentMap) ? contentMap : {};
  const types = Object.keys(content);
  const essence = (m: string) => m.split(';')[0]!.trim().toLowerCase();
  const media =
    types.find((m) => essence(m) === 'application/json') ??
    types.find((m) => /^[^/]+\/([^;]+\+)?json$/.test(essence(m))) ??
    types.find((m) => essence(m) === 'application/*') ??
    types.find((m) => essence(m) === '*/*');
  const entry = media === undefined ? undefined : content[media];
  return isObject(entry) ? entry.schema : undefined;
}

// ---------------------------------------------------------------------------------------------
// OpenAPI schema → JSON Schema 2020-12

const SUBSCHEMA = [
  'additionalProperties',
  'additionalItems',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords that constrain a null as much as any other value: `nullable` cannot just widen `type` past them. */
const TYPE_NEUTRAL = ['enum', 'const', 'allOf', 'anyOf', 'oneOf', 'not', 'if'];
/** Where component schemas, and the targets of other local references, live in a converted schema. */
const DEFS = 'conform-components';
const POINTERS = 'conform-pointers';

interface Conversion {
  dialect: Dialect;
  doc: unknown;
  /** Local references other than a whole component (ref → key under POINTERS), each converted once. */
  pointers: Map<string, string>;
  converted: Record<string, unknown>;
  /** A response leaves out writeOnly properties, a request readOnly ones: neither is required there. */
  direction: 'response' | 'request';
}

/**
 * Where a `$ref` points in the converted schema. A whole component keeps its name under DEFS; any other
 * local pointer is converted once under POINTERS, so cycles through it end and nothing is copied twice.
 * A reference that cannot be followed (another document, a missing target) is left as it is: the
 * validator then refuses to compile the schema, and nothing is judged.
 */
function refTarget(ref: string, c: Conversion): string {
  const component = (c.dialect === '2.0' ? /^#\/definitions\/([^/]+)$/ : /^#\/components\/schemas\/([^/]+)$/).exec(ref);
  if (component) return `#/$defs/${DEFS}/${component[1]}`;
  let key = c.pointers.get(ref);
  if (key === undefined) {
    const target = resolvePointer(c.doc, ref);
    if (target === undefined) return ref;
    key = String(c.pointers.size);
    c.pointers.set(ref, key);
    c.converted[key] = convert(target, c);
  }
  return `#/$defs/${POINTERS}/${key}`;
}

/** Properties that a body of this direction omits by design: `writeOnly` ones in a response, `readOnly` ones in a request. */
function omittedNames(schema: Schema, direction: Conversion['direction']): Set<string> {
  const flag = direction === 'response' ? 'writeOnly' : 'readOnly';
  const properties = isObject(schema.properties) ? schema.properties : {};
  return new Set(
    Object.entries(properties)
      .filter(([, p]) => isObject(p) && p[flag] === true)
      .map(([name]) => name),
  );
}

/**
 * One OpenAPI schema object of a response as JSON Schema 2020-12: `nullable` (3.0) and `x-nullable`
 * (2.0) admit null, boolean `exclusiveMinimum`/`exclusiveMaximum` become numeric bounds, siblings of
 * `$ref` are dropped where OpenAPI ignores them, references point into `$defs`, a `oneOf` with a
 * `discriminator` needs any one match (the discriminator, not exclusivity, picks the branch), and
 * writeOnly properties are not required (readOnly ones in a request).
 */
function convert(schema: unknown, c: Conversion): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) return {};
  const nullable = schema.nullable === true || schema['x-nullable'] === true;
  if (typeof schema.$ref === 'string') {
    const base = { $ref: refTarget(schema.$ref, c) };
    if (c.dialect === '3.1') {
      const { $ref: _ref, ...siblings } = schema;
      const rest = convert(siblings, c) as Schema;
      return Object.keys(rest).length === 0 ? base : { allOf: [base, rest] };
    }
    return nullable ? { anyOf: [base, { type: 'null' }] } : base;
  }

  const out: Schema = {};
  const sub = (value: unknown) => convert(value, c);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'x-nullable' || key === '$id' || key === '$schema') continue;
    if (key === 'items') out.items = Array.isArray(value) ? value.map(sub) : sub(value);
    else if (SUBSCHEMA.includes(key) && (isObject(value) || typeof value === 'boolean')) out[key] = sub(value);
    else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map(sub);
    else if (SUBSCHEMA_MAPS.includes(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, s]) => [k, sub(s)]));
    else out[key] = value;
  }
  if (Array.isArray(schema.items) && c.dialect !== '3.1') {
    // Tuple `items` of older drafts.
    out.prefixItems = out.items;
    delete out.items;
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] === true && typeof out[bound] === 'number') {
        out[flag] = out[bound];
        delete out[bound];
      } else delete out[flag];
    }
  }
  if (out.type === 'file') delete out.type;
  if (isObject(out.discriminator) && Array.isArray(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (Array.isArray(out.required)) {
    const omitted = omittedNames(schema, c.direction);
    if (omitted.size > 0) out.required = out.required.filter((name) => !omitted.has(String(name)));
  }
  if (!nullable) return out;
  const widenable = (typeof out.type === 'string' || Array.isArray(out.type)) && !TYPE_NEUTRAL.some((k) => k in out);
  if (!widenable) return { anyOf: [out, { type: 'null' }] };
  const types: unknown[] = Array.isArray(out.type) ? out.type : [out.type];
  return { ...out, type: types.includes('null') ? types : [...types, 'null'] };
}

/**
 * A schema the catalog declares for a response, made self-contained JSON Schema 2020-12: converted,
 * with the catalog's component schemas (and the targets of other local references) under `$defs`.
 */
export function selfContained(schema: unknown, doc: unknown, direction: Conversion['direction'] = 'response'): Schema {
  const c: Conversion = { dialect: dialectOf(doc) ?? '3.1', doc, pointers: new Map(), converted: {}, direction };
  const components =
    c.dialect === '2.0'
      ? isObject(doc) && isObject(doc.definitions)
        ? doc.definitions
        : {}
      : isObject(doc) && isObject(doc.components) && isObject(doc.components.schemas)
        ? doc.components.schemas
        : {};
  const defs = Object.fromEntries(Object.entries(components).map(([name, s]) => [name, convert(s, c)]));
  const root = convert(schema, c);
  const rootObject: Schema = isObject(root) ? root : root === false ? { not: {} } : {};
  const ownDefs = isObject(rootObject.$defs) ? rootObject.$defs : {};
  return { ...rootObject, $defs: { ...ownDefs, [DEFS]: defs, [POINTERS]: c.converted } };
}

/** The schema a catalog declares for a response, ready for a JSON Schema validator; undefined when none. */
export function responseSchema(doc: unknown, path: string, method: string, status: number): Schema | undefined {
  const declared = declaredSchema(doc, path, method, status);
  return declared === undefined ? undefined : selfContained(declared, doc);
}

export type BodyValidator = (body: unknown) => string[];

const OPENAPI_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

/**
 * Compiles a self-contained schema; the validator returns readable problems (empty when the body fits).
 * Kept on disk by its text (src/core/compiled-schema.ts): a target's catalog declares the same schemas run after run.
 */
export function compileValidator(schema: Schema): BodyValidator {
  const validate = compiledSchema({
    name: 'catalog-response',
    schemaText: JSON.stringify(schema),
    resolveFrom: import.meta.url,
    settings: `not strict; allErrors; no schema validation; ajv-formats; ${OPENAPI_FORMATS.join(',')} accepted`,
    // ajv itself is loaded only to compile: a run whose schemas are all cached does without it.
    makeAjv: (require) => {
      const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false, code: { source: true } });
      defaultExport<(ajv: object) => void>(require('ajv-formats'))(ajv);
      for (const format of OPENAPI_FORMATS) ajv.addFormat(format, true);
      return ajv;
    },
  });
  return (body) => (validate(body) ? [] : ((validate.errors as ErrorObject[] | undefined) ?? []).map(describeError));
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'the body' : error.instancePath;
  const detail = error.params && Object.keys(error.params).length > 0 ? ` (${JSON.stringify(error.params)})` : '';
  return `${where} ${error.message ?? 'does not match'}${detail}`;
}

/**
 * Problems of `body` against a schema from `responseSchema` (empty when it fits), or undefined when
 * the declared schema cannot be compiled (e.g. a reference to another document): nothing to judge.
 */
export function schemaErrors(schema: Schema, body: unknown): string[] | undefined {
  let validator: BodyValidator;
  try {
    validator = compileValidator(schema);
  } catch {
    return undefined;
  }
  return validator(body);
}

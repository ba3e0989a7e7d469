import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isObject } from './lenient.ts';

export interface CatalogCheck {
  valid: boolean;
  errors: string[];
  /** The document with every $ref resolved, when valid. */
  resolved?: Record<string, unknown>;
  version?: string;
}

/** Validates an OpenAPI document with a maintained validator (2.0, 3.0, 3.1 and 3.2). */
export async function validateOpenApi(document: unknown): Promise<CatalogCheck> {
  const validator = new Validator();
  const result = await validator.validate(document as Parameters<Validator["validate"]>[0]);
  if (!result.valid) {
    const errors = Array.isArray(result.errors) ? result.errors.map((e) => JSON.stringify(e)) : [String(result.errors)];
    return { valid: false, errors };
  }
  return { valid: true, errors: [], resolved: validator.resolveRefs() as Record<string, unknown>, version: validator.version };
}

/** The JSON schema the catalog declares for a response, if it declares one. */
export function responseSchema(catalog: Record<string, unknown>, path: string, method: string, status: number): unknown {
  const paths = isObject(catalog.paths) ? catalog.paths : {};
  const entry = Object.entries(paths).find(([p]) => p === path || p.replace(/\/+$/, '') === path)?.[1];
  const operation = isObject(entry) ? entry[method.toLowerCase()] : undefined;
  const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : undefined;
  if (!responses) return undefined;
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  if (!isObject(response)) return undefined;
  const content = isObject(response.content) ? response.content : undefined;
  const media = content && Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
  if (isObject(media) && media.schema !== undefined) return media.schema;
  return isObject(response.schema) ? response.schema : undefined;
}

/** Rewrites OpenAPI 3.0 schema dialect (nullable) into plain JSON Schema that ajv understands. */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example' || key === 'xml' || key === 'discriminator' || key === 'externalDocs') continue;
    out[key] = toJsonSchema(value);
  }
  if (schema.nullable === true) return { anyOf: [out, { type: 'null' }] };
  return out;
}

const compiled = new WeakMap<object, ValidateFunction>();
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);

/** Errors of `body` against a declared response schema; empty when it validates. */
export function schemaErrors(schema: unknown, body: unknown): string[] {
  if (!isObject(schema)) return [];
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(toJsonSchema(schema) as object);
    compiled.set(schema, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`);
}

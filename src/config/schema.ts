import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { locatePointer } from '../core/json-file.ts';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { compiledSchema } from '../core/compiled-schema.ts';

/** The published JSON Schema of conform.config.json; `conform init` points `$schema` at it. */
export const CONFIG_SCHEMA_FILE = fileURLToPath(new URL('../../conform.config.schema.json', import.meta.url));

const FORBIDDEN_FIELDS = /^(key|apikey|api_key|token|secret|otherkey|other_key)$/i;

let validator: ValidateFunction | undefined;
/** Compiled once per user and schema, and loaded from there (src/core/compiled-schema.ts): it runs before every run's first request. */
function compiled(): ValidateFunction {
  validator ??= compiledSchema({
    name: 'config',
    schemaText: readFileSync(CONFIG_SCHEMA_FILE, 'utf8'),
    resolveFrom: import.meta.url,
    settings: 'strict; allErrors; verbose',
    // ajv itself is loaded only to compile: a run whose schema is cached does without it.
    makeAjv: (require) => {
      const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
      return new Ajv2020({ strict: true, allErrors: true, verbose: true, logger: false, code: { source: true } });
    },
  }) as ValidateFunction;
  return validator;
}

/**
 * What is wrong with a parsed targets file, as one line, or undefined when it is valid. A key stored
 * in the file gets its own message; everything else is what the schema says, in words.
 */
export function configFileProblem(json: unknown, text?: string): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'expected an object with a "targets" object';
  const targets = (json as { targets?: unknown }).targets;
  if (typeof targets !== 'object' || targets === null || Array.isArray(targets)) return 'expected an object with a "targets" object';
  for (const [name, entry] of Object.entries(targets)) {
    if (typeof entry !== 'object' || entry === null) continue;
    if (Object.keys(entry).some((field) => FORBIDDEN_FIELDS.test(field)))
      return `target '${name}': keys must not be stored in the file; name an environment variable with keyEnv`;
  }
  const validate = compiled();
  if (validate(json)) return undefined;
  return listProblems(validate.errors ?? [], describe, text);
}

/**
 * Every schema error, each with its line and column when the file's text is known. A value that fits
 * none of several shapes is one problem naming the alternatives, not one per alternative.
 */
export function listProblems(errors: readonly ErrorObject[], describeOne: (error: ErrorObject) => string, text?: string): string {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const kept = errors.filter((e) => !alternatives.some((a) => a !== e && e.schemaPath.startsWith(`${a.schemaPath}/`)));
  const lines = [
    ...new Set(
      kept.map((error) => {
        const pointer = error.keyword === 'additionalProperties' ? `${error.instancePath}/${String(error.params.additionalProperty)}` : error.instancePath;
        const where = text === undefined ? undefined : (locatePointer(text, pointer) ?? locatePointer(text, error.instancePath));
        return `${where ? `${where}: ` : ''}${describeOne(error)}`;
      }),
    ),
  ];
  return lines.length === 1 ? lines[0]! : `${lines.length} problems:\n  ${lines.join('\n  ')}`;
}

function describe(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const inTarget = path[0] === 'targets' && path.length >= 2;
  const where = inTarget ? `target '${path[1]}': ` : '';
  const fieldPath = inTarget ? path.slice(2) : path;
  const field = fieldPath.length > 0 ? `"${fieldPath.join('.')}" ` : '';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where}unknown field '${[...fieldPath, String(params.additionalProperty)].join('.')}'`;
    case 'required':
      return `${where}${field}missing "${String(params.missingProperty)}"`;
    case 'enum':
      return `${where}${field}must be ${(params.allowedValues as unknown[]).map(String).join(' or ')}`;
    default: {
      const description = (error.parentSchema as { description?: string } | undefined)?.description;
      return `${where}${field}${description ? `must be ${description}` : (error.message ?? error.keyword)}`;
    }
  }
}

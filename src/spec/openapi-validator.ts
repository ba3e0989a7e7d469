/**
 * The OpenAPI document validator of @seriousme/openapi-schema-validator, with its compiled schema kept on
 * disk. Compiling an OpenAPI version's JSON Schema costs 200-350 ms of the checks' thread at the start of
 * every run, on a path where the checks' requests wait; ajv's standalone code of the same schema, kept in
 * this user's cache (src/core/compiled-schema.ts), loads in a fraction of that. The code is generated from
 * the schema file the installed library ships, by the ajv the library resolves, so the verdicts are the
 * library's; anything unexpected falls back to the library's own Validator.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CompiledValidator, compiledSchema, defaultExport, type StandaloneAjv } from '../core/compiled-schema.ts';

export interface OpenApiResult {
  valid: boolean;
  errors?: unknown;
  version?: string;
}

const VERSIONS = ['2.0', '3.0', '3.1', '3.2'];
const library = createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator');

/** The OpenAPI version a document declares, as the library reads it (`swagger: 2.0`, `openapi: 3.x…`). */
export function openApiVersionOf(document: Record<string, unknown>): string | undefined {
  return VERSIONS.find((v) => {
    const declared = v === '2.0' ? document.swagger : document.openapi;
    return typeof declared === 'string' && declared.startsWith(v);
  });
}

/** Validates a parsed OpenAPI document: the version's JSON Schema, then its references (as the library does). */
export async function validateOpenApiDocument(document: Record<string, unknown>): Promise<OpenApiResult> {
  const version = openApiVersionOf(document);
  const validate = version === undefined ? undefined : compiledFor(version);
  if (version === undefined || validate === undefined) return viaLibrary(document);
  if (!validate(document)) return { valid: false, errors: validate.errors };
  // The library's reference check (its own module, not in its typed entry point).
  const { checkRefs } = (await import(pathToFileURL(join(dirname(library), 'resolve.js')).href)) as {
    checkRefs: (tree: unknown) => OpenApiResult;
  };
  return { ...checkRefs(document), version };
}

async function viaLibrary(document: Record<string, unknown>): Promise<OpenApiResult> {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const validator = new Validator();
  const result = await validator.validate(document as Parameters<InstanceType<typeof Validator>['validate']>[0]);
  return { ...result, ...(validator.version ? { version: validator.version } : {}) };
}

const compiled = new Map<string, CompiledValidator | undefined>();

function compiledFor(version: string): CompiledValidator | undefined {
  if (!compiled.has(version)) {
    try {
      compiled.set(version, openApiSchemaValidator(version));
    } catch {
      compiled.set(version, undefined);
    }
  }
  return compiled.get(version);
}

/** The version's schema validator: ajv's standalone code from this user's cache, or compiled (and cached) now. */
export function openApiSchemaValidator(version: string): CompiledValidator {
  const schemaText = readFileSync(join(dirname(library), 'schemas', `v${version}`, 'schema.json'), 'utf8');
  const draft04 = (JSON.parse(schemaText) as { $schema?: string }).$schema?.includes('draft-04') === true;
  return compiledSchema({
    name: `openapi-${version}`,
    schemaText,
    resolveFrom: library,
    // The library's own settings: not strict, every format of ajv-formats, media-range accepted (3.1).
    settings: 'strict false; ajv-formats; media-range',
    makeAjv: (require) => {
      const Ajv = defaultExport<new (options: object) => StandaloneAjv & { addFormat(name: string, format: boolean): void }>(
        require(draft04 ? 'ajv-draft-04' : 'ajv/dist/2020.js'),
      );
      const ajv = new Ajv({ strict: false, code: { source: true } });
      defaultExport<(ajv: object) => void>(require('ajv-formats'))(ajv);
      ajv.addFormat('media-range', true);
      return ajv;
    },
  });
}

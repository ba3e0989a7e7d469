/**
 * The OpenAPI document validator of @seriousme/openapi-schema-validator, with its compiled schema kept on
 * disk. Compiling an OpenAPI version's JSON Schema costs 200-350 ms of the checks' thread at the start of
 * every run, on a path where the checks' requests wait; ajv's standalone code of the same schema loads in
 * a fraction of that. The code is generated from the schema file the installed library ships, by the ajv
 * the library uses, and is keyed by both, so it cannot go stale; anything unexpected falls back to the
 * library's own Validator.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { userCacheDir } from '../core/cache-dir.ts';

export interface OpenApiResult {
  valid: boolean;
  errors?: unknown;
  version?: string;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

const VERSIONS = ['2.0', '3.0', '3.1', '3.2'];
const library = createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator');
/** Resolves as the library does, so that the ajv it validates with is the ajv that compiles here. */
const libraryRequire = createRequire(library);

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

const compiled = new Map<string, Validate | undefined>();

function compiledFor(version: string): Validate | undefined {
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
export function openApiSchemaValidator(version: string): Validate {
  const schemaText = readFileSync(join(dirname(library), 'schemas', `v${version}`, 'schema.json'), 'utf8');
  const ajvVersion = (libraryRequire('ajv/package.json') as { version: string }).version;
  const key = createHash('sha1').update(`${ajvVersion}\n${schemaText}`).digest('hex').slice(0, 16);
  const dir = userCacheDir('conform-openapi-validators');
  const file = join(dir, `v${version}-${key}.cjs`);
  if (existsSync(file) && ownedByUs(dir)) return evaluate(readFileSync(file, 'utf8'));
  const source = standaloneSource(JSON.parse(schemaText) as { $schema: string });
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written whole under a temporary name, then renamed: a concurrent run never reads half a file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, source, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // An unwritable cache only costs the next run the compile again.
  }
  return evaluate(source);
}

/** Code from the cache is run only from a folder of this user's that no one else may write to. */
function ownedByUs(dir: string): boolean {
  const stat = statSync(dir);
  return stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
}

function standaloneSource(schema: { $schema: string }): string {
  type AjvClass = new (
    options: object,
  ) => {
    compile(schema: object): Validate;
    addFormat(name: string, format: boolean): void;
  };
  const defaultOf = <T>(module: unknown): T => ((module as { default?: T }).default ?? module) as T;
  const Ajv = defaultOf<AjvClass>(schema.$schema.includes('draft-04') ? libraryRequire('ajv-draft-04') : libraryRequire('ajv/dist/2020.js'));
  const addFormats = defaultOf<(ajv: object) => void>(libraryRequire('ajv-formats'));
  const standalone = defaultOf<(ajv: object, validate: Validate) => string>(libraryRequire('ajv/dist/standalone/index.js'));
  // The library's own settings: not strict, every format of ajv-formats, media-range accepted (3.1).
  const ajv = new Ajv({ strict: false, code: { source: true } });
  addFormats(ajv);
  ajv.addFormat('media-range', true);
  return standalone(ajv, ajv.compile(schema));
}

/** Runs ajv's CommonJS standalone code; its requires (ajv's runtime, ajv-formats) resolve from the library. */
function evaluate(source: string): Validate {
  const module = { exports: {} as unknown };
  new Function('require', 'module', 'exports', source)(libraryRequire, module, module.exports);
  const exported = module.exports as Validate | { default: Validate };
  return typeof exported === 'function' ? exported : exported.default;
}

/**
 * JSON Schema validators kept on disk as ajv's standalone code. Compiling a large schema costs tens to
 * hundreds of milliseconds of CPU at every start; loading the code ajv generated for it costs a fraction of
 * that. The code is keyed by the schema's text, ajv's version and the caller's settings, so a changed
 * schema or ajv compiles again, and it is only read from a folder of this user's that no one else may
 * write to.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { userCacheDir } from './cache-dir.ts';

export type CompiledValidator = ((data: unknown) => boolean) & { errors?: unknown };

/** The part of an ajv instance this needs; it must be made with `code: { source: true }`. */
export interface StandaloneAjv {
  compile(schema: object): CompiledValidator;
}

export interface CompiledSchemaSource {
  /** Names the cache file (with a key of the schema, ajv and `settings`). */
  name: string;
  schemaText: string;
  /** Where ajv (and the packages its generated code requires, e.g. ajv-formats) resolve from. */
  resolveFrom: string;
  /** Everything about the ajv instance that changes the generated code (its options, its formats). */
  settings: string;
  /** A fresh ajv instance, set up as `settings` says, with `code: { source: true }`. */
  makeAjv: (require: NodeRequire) => StandaloneAjv;
}

/** Validators made in this thread, by cache file: a kept thread (the self-test) loads each once. */
const loaded = new Map<string, CompiledValidator>();

/** Forgets the validators this thread loaded, so that the next call reads the cache folder again (the tests do). */
export function forgetLoadedSchemas(): void {
  loaded.clear();
}

export function compiledSchema(source: CompiledSchemaSource): CompiledValidator {
  const require = createRequire(source.resolveFrom);
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  const key = createHash('sha1').update(`${ajvVersion}\n${source.settings}\n${source.schemaText}`).digest('hex').slice(0, 16);
  const dir = userCacheDir('conform-compiled-schemas');
  const file = join(dir, `${source.name}-${key}.cjs`);
  const known = loaded.get(file);
  if (known) return known;
  const validate = existsSync(file) && ownedByUs(dir) ? evaluate(readFileSync(file, 'utf8'), require) : compileAndKeep(source, require, file);
  loaded.set(file, validate);
  return validate;
}

function compileAndKeep(source: CompiledSchemaSource, require: NodeRequire, file: string): CompiledValidator {
  const dir = dirname(file);
  const ajv = source.makeAjv(require);
  const standalone = defaultExport<(ajv: StandaloneAjv, validate: CompiledValidator) => string>(require('ajv/dist/standalone/index.js'));
  const code = standalone(ajv, ajv.compile(JSON.parse(source.schemaText) as object));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written whole under a temporary name, then renamed: a concurrent run never reads half a file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // An unwritable cache only costs the next run the compile again.
  }
  return evaluate(code, require);
}

/** A CommonJS module's export, whether or not it was compiled with a `default`. */
export const defaultExport = <T>(module: unknown): T => ((module as { default?: T }).default ?? module) as T;

function ownedByUs(dir: string): boolean {
  const stat = statSync(dir);
  return stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
}

/** Runs ajv's CommonJS standalone code; its requires (ajv's runtime, ajv-formats) resolve from `require`. */
function evaluate(code: string, require: NodeRequire): CompiledValidator {
  const module = { exports: {} as unknown };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  return defaultExport<CompiledValidator>(module.exports);
}

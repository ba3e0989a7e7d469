import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../fixtures/reference/openapi.ts';
import { defaultVariant } from '../fixtures/reference/types.ts';
import { openApiSchemaValidator, validateOpenApiDocument } from '../src/spec/openapi-validator.ts';
import { compiledSchema, forgetLoadedSchemas } from '../src/core/compiled-schema.ts';
import { CONFIG_SCHEMA_FILE } from '../src/config/schema.ts';

const info = { title: 'catalog under test', version: '1.0.0' };
const get = (schema: unknown) => ({ get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } });

/** Valid and invalid documents of every version the library reads. */
const documents: Record<string, Record<string, unknown>> = {
  'swagger 2.0': { swagger: '2.0', info, paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } } },
  'swagger 2.0 without responses': { swagger: '2.0', info, paths: { '/a': { get: {} } } },
  'openapi 3.0': { openapi: '3.0.3', info, paths: { '/a': get({ type: 'string', nullable: true }) } },
  'openapi 3.0 without info.version': { openapi: '3.0.3', info: { title: 't' }, paths: {} },
  'openapi 3.0 with a missing $ref': { openapi: '3.0.3', info, paths: { '/a': get({ $ref: '#/components/schemas/Gone' }) } },
  'openapi 3.1': { openapi: '3.1.0', info, paths: { '/a': get({ type: ['integer', 'null'] }) } },
  'openapi 3.1 with paths as a list': { openapi: '3.1.0', info, paths: [] },
  'openapi 3.2': { openapi: '3.2.0', info, paths: {} },
  'the reference catalog (3.0)': buildCatalog('primary', { ...defaultVariant, catalogVersion: '3.0' }) as Record<string, unknown>,
  'the reference catalog (3.1)': buildCatalog('primary', { ...defaultVariant, catalogVersion: '3.1' }) as Record<string, unknown>,
};

describe('the OpenAPI validator with its compiled schema kept on disk', () => {
  let cacheRoot: string;
  const savedTmp = process.env.TMPDIR;
  beforeEach(() => {
    cacheRoot = mkdtempSync(join(tmpdir(), 'conform-openapi-test-'));
    process.env.TMPDIR = cacheRoot;
    forgetLoadedSchemas();
  });
  afterEach(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  it.each(Object.entries(documents))('judges %s exactly as the library does', async (name, document) => {
    const library = await new Validator().validate(structuredClone(document) as never);
    expect(library.valid, 'the documents named "with…" or "without…" are the invalid ones').toBe(!/ with/.test(name));
    const ours = await validateOpenApiDocument(structuredClone(document));
    expect(ours.valid).toBe(library.valid);
    expect(ours.errors).toEqual(library.errors);
  });

  it("writes the compiled schema once and then loads it from this user's cache", () => {
    const valid = documents['openapi 3.1']!;
    expect(openApiSchemaValidator('3.1')(valid)).toBe(true);
    const dir = join(cacheRoot, `conform-compiled-schemas-${process.getuid?.() ?? 'user'}`);
    const [file] = readdirSync(dir).filter((f) => f.startsWith('openapi-3.1-') && f.endsWith('.cjs'));
    expect(file).toBeDefined();
    // A validator that refuses everything, put where the cache is read: loading it shows the cache is used.
    writeFileSync(join(dir, file!), 'module.exports = () => false;');
    expect(openApiSchemaValidator('3.1')(valid), 'this thread keeps the validator it loaded').toBe(true);
    forgetLoadedSchemas();
    expect(openApiSchemaValidator('3.1')(valid)).toBe(false);
    // A cache folder others may write to is not trusted: the schema is compiled again.
    chmodSync(dir, 0o777);
    forgetLoadedSchemas();
    expect(openApiSchemaValidator('3.1')(valid)).toBe(true);
  });

  it('a validator loaded from the cache reports the same errors as the one just compiled (the config schema, verbose)', () => {
    const source = {
      name: 'config-test',
      schemaText: readFileSync(CONFIG_SCHEMA_FILE, 'utf8'),
      resolveFrom: import.meta.url,
      settings: 'strict; allErrors; verbose',
      makeAjv: (require: NodeRequire) => {
        const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
        return new Ajv2020({ strict: true, allErrors: true, verbose: true, logger: false, code: { source: true } });
      },
    };
    const bad = { targets: { primary: { url: 42, profile: 'nightly', extra: true } } };
    const fresh = compiledSchema(source);
    expect(fresh(bad)).toBe(false);
    const dir = join(cacheRoot, `conform-compiled-schemas-${process.getuid?.() ?? 'user'}`);
    expect(readdirSync(dir).filter((f) => f.startsWith('config-test-'))).toHaveLength(1);
    expect(compiledSchema(source)).toBe(fresh);
    forgetLoadedSchemas();
    const cached = compiledSchema(source);
    expect(cached).not.toBe(fresh);
    expect(cached(bad)).toBe(false);
    expect(cached.errors).toEqual(fresh.errors);
    expect((fresh.errors as unknown[]).length).toBeGreaterThan(1);
  });
});

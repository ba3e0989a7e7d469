import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { UsageError } from '../core/errors.ts';
import { readJsonSource } from '../core/json-file.ts';
import { listProblems } from './schema.ts';
import { defaultExport } from '../core/compiled-schema.ts';

/** An accepted, dated exception to the gate for one check (waivers.schema.json). */
export interface Waiver {
  check: string;
  reason: string;
  /** Last day (YYYY-MM-DD, UTC) it applies. */
  expires: string;
  /** Only for this target (its config name or base URL); absent: every target. */
  target?: string;
}

/** What became of a waiver in one run. */
export type WaiverState =
  /** the check failed, errored or could not be judged, and the waiver kept that from the gate */
  | 'applied'
  /** its date has passed: the check counts as if there were no waiver */
  | 'expired'
  /** the check passed: the waiver is no longer needed and should be removed */
  | 'unexpected-pass'
  /** the check did not run here (deselected, not applicable, or no check has that id) */
  | 'unused';

export const waiversSchemaPath = new URL('../../waivers.schema.json', import.meta.url);

let validators: { file: ValidateFunction; list: ValidateFunction } | undefined;
function compiled(): { file: ValidateFunction; list: ValidateFunction } {
  if (!validators) {
    // Loaded only where waivers are given: most runs have none, and ajv costs every run's start-up.
    const require = createRequire(import.meta.url);
    const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: true, allErrors: true, logger: false });
    defaultExport<(ajv: object) => void>(require('ajv-formats'))(ajv);
    ajv.addSchema(JSON.parse(readFileSync(waiversSchemaPath, 'utf8')) as object);
    const id = 'urn:conform:waivers-schema:v1';
    validators = { file: ajv.getSchema(id)!, list: ajv.getSchema(`${id}#/$defs/list`)! };
  }
  return validators;
}

/** Reads and validates a waivers file (--waivers FILE): `{ "waivers": [ … ] }`. */
export function loadWaiversFile(path: string): Waiver[] {
  const { json: parsed, text } = readJsonSource(path, 'waivers file');
  const validate = compiled().file;
  if (!validate(parsed)) throw new UsageError(`waivers file ${path}: ${describe(validate.errors ?? [], parsed, text)}`);
  return (parsed as { waivers: Waiver[] }).waivers.map(copy);
}

/**
 * The `waivers` value of conform.config.json: a list of entries, or the path of a waivers file
 * (relative to the config file). Inside a target's entry, waivers default to that target.
 */
export function parseConfigWaivers(value: unknown, where: string, resolvePath: (path: string) => string, target?: string): Waiver[] {
  const list = typeof value === 'string' ? loadWaiversFile(resolvePath(value)) : validList(value, where);
  return target === undefined ? list : list.map((w) => ({ ...w, target: w.target ?? target }));
}

function validList(value: unknown, where: string): Waiver[] {
  const validate = compiled().list;
  if (!validate(value)) throw new UsageError(`${where}: "waivers" must be a waivers file name or a list of waivers: ${describe(validate.errors ?? [], value)}`);
  return (value as Waiver[]).map(copy);
}

const copy = (w: Waiver): Waiver => ({ check: w.check, reason: w.reason, expires: w.expires, ...(w.target !== undefined ? { target: w.target } : {}) });

/** The waivers that name this target (by config name or base URL), or every target. */
export function waiversFor(waivers: readonly Waiver[], target: { label: string; baseUrl: string }): Waiver[] {
  const url = target.baseUrl.replace(/\/+$/, '');
  return waivers.filter((w) => w.target === undefined || w.target === target.label || w.target.replace(/\/+$/, '') === url);
}

export const isExpired = (waiver: Waiver, today: string): boolean => waiver.expires < today;

/** The waiver that speaks for a check: one still in force if any, else the one that expired last. */
export function waiverOf(id: string, waivers: readonly Waiver[], today: string): Waiver | undefined {
  const mine = waivers.filter((w) => w.check === id);
  return mine.find((w) => !isExpired(w, today)) ?? mine.sort((a, b) => b.expires.localeCompare(a.expires))[0];
}

export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

/** Every schema error: where (line and column when the file's text is known), what is wrong, and the value found. */
function describe(errors: readonly ErrorObject[], data: unknown, text?: string): string {
  return listProblems(
    errors,
    (error) => {
      const where = error.instancePath === '' ? 'the top level' : error.instancePath;
      const params = error.params as Record<string, unknown>;
      if (error.keyword === 'additionalProperties') return `${where}: unknown field "${String(params.additionalProperty)}"`;
      if (error.keyword === 'required') return `${where}: missing "${String(params.missingProperty)}"`;
      const found = valueAt(data, error.instancePath);
      const what =
        error.keyword === 'pattern' && /check$/.test(error.instancePath)
          ? 'must be a check id such as ENUM-002'
          : error.keyword === 'format' && params.format === 'date'
            ? 'must be a date YYYY-MM-DD'
            : (error.message ?? error.keyword);
      return `${where} ${what} (got ${found === undefined ? 'nothing' : JSON.stringify(found)})`;
    },
    text,
  );
}

function valueAt(data: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), data);
}

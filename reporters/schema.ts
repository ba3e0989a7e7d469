import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { RunResult } from '../src/runner/results.ts';

/** The report.json format version; report.schema.json's `$id` and `schemaVersion` const carry the same. */
export const reportSchemaVersion: RunResult['schemaVersion'] = 5;

export const reportSchemaPath = new URL('./report.schema.json', import.meta.url);

let schemaCache: Record<string, unknown> | undefined;
/** report.schema.json, parsed. */
export function reportSchema(): Record<string, unknown> {
  schemaCache ??= JSON.parse(readFileSync(reportSchemaPath, 'utf8')) as Record<string, unknown>;
  return schemaCache;
}

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

let validator: ValidateFunction | undefined;
function compiled(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, logger: false });
    addFormats(ajv);
    validator = ajv.compile(reportSchema());
  }
  return validator;
}

/**
 * Problems with a parsed report.json; an empty list means it is valid. Beyond the JSON Schema it
 * checks what a schema cannot say: the counts agree with the checks and check ids are unique.
 */
export function validateReport(json: unknown): string[] {
  const validate = compiled();
  if (!validate(json)) return (validate.errors ?? []).map(describe);
  const report = json as RunResult;
  const problems: string[] = [];
  for (const status of Object.keys(report.counts) as (keyof RunResult['counts'])[]) {
    const actual = report.checks.filter((c) => c.status === status).length;
    if (report.counts[status] !== actual) problems.push(`/counts/${status} is ${report.counts[status]} but ${actual} check(s) have that status`);
  }
  report.checks.forEach((check, i) => {
    if (check.effect === 'advice' && (check.status !== 'failed' || check.level === 'MUST'))
      problems.push(`/checks/${i}/effect advice belongs to a failed SHOULD or ROBUSTNESS check only`);
    if (check.effect === 'blocks' && !['failed', 'error', 'skipped'].includes(check.status))
      problems.push(`/checks/${i}/effect blocks on a check that ${check.status}`);
    if (check.effect === 'unexpected-pass' && check.status !== 'passed') problems.push(`/checks/${i}/effect unexpected-pass on a check that ${check.status}`);
  });
  const seen = new Set<string>();
  report.checks.forEach((check, i) => {
    if (seen.has(check.id)) problems.push(`/checks/${i}/id ${check.id} appears more than once`);
    seen.add(check.id);
  });
  return problems;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '/' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  const detail =
    error.keyword === 'additionalProperty' || params.additionalProperty !== undefined
      ? ` (${String(params.additionalProperty)})`
      : params.allowedValues !== undefined
        ? ` (${JSON.stringify(params.allowedValues)})`
        : params.allowedValue !== undefined
          ? ` (${JSON.stringify(params.allowedValue)})`
          : '';
  return `${where} ${error.message ?? error.keyword}${detail}`;
}

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReports } from '../reporters/index.ts';
import { renderJson } from '../reporters/json.ts';
import { reportSchema, reportSchemaVersion, validateReport } from '../reporters/schema.ts';
import { checks, redact, SECRET, syntheticRun } from './support/synthetic-run.ts';

const run = syntheticRun();
const clone = (): Record<string, unknown> => JSON.parse(renderJson(run)) as Record<string, unknown>;

describe('report.json and its schema', () => {
  it('a written report.json validates, with the secret masked', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'conform-json-'));
    const [path] = writeReports(run, { outDir, reporters: ['json'], env: {}, redact });
    const text = readFileSync(path!, 'utf8');
    expect(text).not.toContain(SECRET);
    const report = JSON.parse(text) as Record<string, unknown>;
    expect(validateReport(report)).toEqual([]);
    expect(report).toMatchObject({
      verdict: 'does not conform',
      exitCode: 1,
      schemaVersion: 5,
      policy: { failOn: 'must', allowIncomplete: false },
      waivers: [],
    });
  });

  it('every verdict and a run without checks validate', () => {
    const conforms = syntheticRun([checks.passed, checks.shouldFailed, checks.notApplicable]);
    const incomplete = syntheticRun([checks.passed, checks.shouldFailed, checks.skipped]);
    const noVerdict = syntheticRun([checks.passed, checks.error]);
    const empty = syntheticRun([checks.skipped, checks.notApplicable]);
    expect([conforms.verdict, incomplete.verdict, noVerdict.verdict, empty.verdict]).toEqual(['conforms', 'incomplete', 'no verdict', 'no verdict']);
    expect(incomplete.exitCode).toBe(3);
    const waived = syntheticRun(
      [checks.passed, checks.failed, checks.skipped],
      {},
      {
        circumstances: {
          waivers: [
            { check: checks.failed.id, reason: 'accepted', expires: '2999-01-01' },
            { check: checks.skipped.id, reason: 'no players on this tenant', expires: '2999-01-01', target: 'reference & <friends>' },
            { check: checks.passed.id, reason: 'old', expires: '2999-01-01' },
            { check: 'NOPE-001', reason: 'typo', expires: '2000-01-01' },
          ],
          selection: { only: ['AUTH-*'], skip: [], selected: 3, total: 67, deselected: ['X-001'] },
        },
      },
    );
    expect(waived.verdict).toBe('conforms');
    for (const r of [conforms, incomplete, noVerdict, empty, waived, syntheticRun([])]) expect(validateReport(JSON.parse(renderJson(r)))).toEqual([]);
  });

  it('keeps $id and schemaVersion in step with the model', () => {
    const schema = reportSchema() as { $id: string; properties: { schemaVersion: { const: number } } };
    expect(schema.properties.schemaVersion.const).toBe(reportSchemaVersion);
    expect(schema.$id).toMatch(new RegExp(`v${reportSchemaVersion}$`));
    expect(run.schemaVersion).toBe(reportSchemaVersion);
  });

  it('rejects a report without a verdict', () => {
    const broken = clone();
    delete broken.verdict;
    expect(validateReport(broken).join('\n')).toMatch(/must have required property 'verdict'/);
  });

  it('rejects a check with a status outside the five', () => {
    const broken = clone() as { checks: Record<string, unknown>[] };
    broken.checks[0]!.status = 'flaky';
    expect(validateReport(broken).join('\n')).toMatch(/\/checks\/0\/status must be equal to one of the allowed values/);
  });

  // biome-ignore lint/suspicious/noExplicitAny: each case breaks the report where it likes; the schema is what judges it
  type Loose = any;
  it.each([
    ['an unknown top-level key', (r: Loose) => (r.extra = true), /must NOT have additional properties \(extra\)/],
    ['a verdict that disagrees with the exit code', (r: Loose) => (r.exitCode = 0), /\/exitCode must be equal to constant/],
    [
      'a non-passed check without a message',
      (r: Loose) => delete r.checks.find((c: Loose) => c.status === 'skipped').message,
      /must have required property 'message'/,
    ],
    ['counts that disagree with the checks', (r: Loose) => (r.counts.passed += 1), /\/counts\/passed is 3 but 2 check/],
    ['a duplicated check id', (r: Loose) => r.checks.push({ ...r.checks[0] }), /appears more than once/],
    ['a bad schemaVersion', (r: Loose) => (r.schemaVersion = 1), /\/schemaVersion must be equal to constant/],
    ['an incomplete run that exits 0', (r: Loose) => ((r.verdict = 'incomplete'), (r.exitCode = 0)), /\/exitCode must be equal to constant/],
    [
      'advice on a MUST check',
      (r: Loose) => (r.checks.find((c: Loose) => c.id === 'KEPT-001').effect = 'advice'),
      /effect advice belongs to a failed SHOULD or ROBUSTNESS check only/,
    ],
    [
      'an unknown waiver state',
      (r: Loose) => r.waivers.push({ check: 'KEPT-001', reason: 'x', expires: '2999-01-01', state: 'maybe' }),
      /\/waivers\/0\/state must be equal to one of the allowed values/,
    ],
    ['a string seed', (r: Loose) => (r.seed = '1'), /\/seed must be integer/],
  ])('rejects %s', (_name, breakIt, message) => {
    const broken = clone();
    breakIt(broken);
    expect(validateReport(broken).join('\n')).toMatch(message);
  });

  it('rejects things that are not reports at all', () => {
    expect(validateReport(null)).not.toEqual([]);
    expect(validateReport([])).not.toEqual([]);
    expect(validateReport('report')).not.toEqual([]);
  });
});

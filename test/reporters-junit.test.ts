import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { writeReports } from '../reporters/index.ts';
import { renderJunit } from '../reporters/junit.ts';
import { checks, NASTY, redact, SECRET, syntheticRun } from './support/synthetic-run.ts';

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => name === 'testsuite' || name === 'testcase',
});

function parsed(xml: string): { root: Node; suites: Node[] } {
  const doc = parser.parse(xml) as { testsuites: Node };
  return { root: doc.testsuites, suites: doc.testsuites.testsuite as Node[] };
}

const run = syntheticRun();

function junitFile(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'conform-junit-'));
  const [path] = writeReports(run, { outDir, reporters: ['junit'], env: {}, redact });
  expect(path).toBe(join(outDir, 'junit.xml'));
  return readFileSync(path!, 'utf8');
}

describe('junit.xml', () => {
  const xml = junitFile();
  const { root, suites } = parsed(xml);
  const cases: Node[] = suites.flatMap((s) => (s.testcase as Node[]).map((tc) => ({ suite: s.name as string, ...tc })));
  const caseOf = (id: string) => cases.find((tc) => (tc.name as string).startsWith(`${id} `));

  it('is well-formed XML with an XML declaration', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(new XMLParser().parse(xml)).toHaveProperty('testsuites');
  });

  it('has one testsuite per area and one testcase per check', () => {
    const areas = [...new Set(run.checks.map((c) => c.area))].sort();
    expect(suites.map((s) => s.name).sort()).toEqual(areas);
    expect(cases).toHaveLength(run.checks.length);
    for (const check of run.checks) {
      const tc = caseOf(check.id);
      expect(tc, check.id).toBeDefined();
      expect(tc!.suite).toBe(check.area);
      expect(tc!.classname).toBe(check.section);
      expect(tc!.name).toBe(`${check.id} ${check.level} ${check.title}`);
      expect(Number(tc!.time)).toBeCloseTo(check.durationMs / 1000, 3);
    }
  });

  it('marks failed checks <failure>, errors <error>, skipped and not-applicable <skipped>, passed with no child', () => {
    for (const check of run.checks) {
      const tc = caseOf(check.id)!;
      const children = ['failure', 'error', 'skipped'].filter((k) => k in tc);
      const expected = { passed: [], failed: ['failure'], error: ['error'], skipped: ['skipped'], 'not-applicable': ['skipped'] }[check.status];
      expect(children, check.id).toEqual(expected);
    }
    const failure = caseOf(checks.failed.id)!.failure as Node;
    expect(failure.type).toBe('MUST');
    expect(failure['#text']).toContain(checks.failed.exchange.request);
    expect(failure['#text']).toContain('reproduce:');
    expect((caseOf(checks.error.id)!.error as Node).message).toBe(checks.error.message);
    expect((caseOf(checks.skipped.id)!.skipped as Node).message).toBe(checks.skipped.message);
    expect((caseOf(checks.notApplicable.id)!.skipped as Node).message).toBe(checks.notApplicable.message);
  });

  it('carries the right counts on testsuites and on each testsuite', () => {
    expect(root).toMatchObject({ tests: '7', failures: '2', errors: '1', skipped: '2' });
    for (const suite of suites) {
      const inArea = run.checks.filter((c) => c.area === suite.name);
      const n = (...s: string[]) => String(inArea.filter((c) => s.includes(c.status)).length);
      expect(suite, suite.name as string).toMatchObject({
        tests: String(inArea.length),
        failures: n('failed'),
        errors: n('error'),
        skipped: n('skipped', 'not-applicable'),
      });
    }
    const paging = suites.find((s) => s.name === 'paging')!;
    expect(paging).toMatchObject({ tests: '2', errors: '1', failures: '0', time: '0.812' });
  });

  it('keeps XML-special characters intact through a round trip', () => {
    const failure = caseOf(checks.failed.id)!.failure as Node;
    expect(failure.message).toBe('is_kept of item 17 is 1 after sending 0');
    expect(failure['#text']).toContain(NASTY);
    expect(failure['#text']).toContain(checks.failed.exchange.responseBody);
    expect(xml).not.toContain('<script>');
    expect(root.name).toBe('conform reference & <friends> (primary)');
    const nasty = syntheticRun([{ ...checks.error, message: `${NASTY}\u0001 "end"` }]);
    const error = parsed(renderJunit(nasty)).suites[0]!.testcase as Node[];
    expect((error[0]!.error as Node).message).toBe(`${NASTY} "end"`);
  });

  it('passes through redact: the secret is masked', () => {
    expect(renderJunit(run)).toContain(SECRET);
    expect(xml).not.toContain(SECRET);
    expect(xml).toContain('Bearer ***');
  });
});

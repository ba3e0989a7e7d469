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
      expect(tc!.classname).toBe(check.sections.join(', '));
      expect(tc!.name).toBe(`${check.id} ${check.level} ${check.title}`);
      expect(Number(tc!.time)).toBeCloseTo(check.durationMs / 1000, 3);
    }
  });

  it('marks MUST failures <failure>, errors <error>, skipped and not-applicable <skipped>, passed and SHOULD failures with no such child', () => {
    for (const check of run.checks) {
      const tc = caseOf(check.id)!;
      const children = ['failure', 'error', 'skipped'].filter((k) => k in tc);
      const expected = { passed: [], failed: check.level === 'MUST' ? ['failure'] : [], error: ['error'], skipped: ['skipped'], 'not-applicable': ['skipped'] }[
        check.status
      ];
      expect(children, check.id).toEqual(expected);
    }
    const failure = caseOf(checks.failed.id)!.failure as Node;
    expect(failure.type).toBe('MUST');
    expect(failure['#text']).toContain(checks.failed.exchange.request);
    expect(failure['#text']).toContain('reproduce:');
    expect((caseOf(checks.error.id)!.error as Node).message).toBe(checks.error.message);
    expect((caseOf(checks.skipped.id)!.skipped as Node).message).toBe(`not judged, the run cannot conform without it: ${checks.skipped.message}`);
    expect((caseOf(checks.notApplicable.id)!.skipped as Node).message).toBe(checks.notApplicable.message);
  });

  it('carries the right counts on testsuites and on each testsuite', () => {
    expect(root).toMatchObject({ tests: '7', failures: '1', errors: '1', skipped: '2' });
    for (const suite of suites) {
      const inArea = run.checks.filter((c) => c.area === suite.name);
      const n = (...s: string[]) => String(inArea.filter((c) => s.includes(c.status) && (c.status !== 'failed' || c.level === 'MUST')).length);
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

describe("junit.xml: severity, waivers and the run's gate", () => {
  const casesOf = (xml: string) => parsed(xml).suites.flatMap((s) => s.testcase as Node[]);
  const caseIn = (xml: string, id: string) => casesOf(xml).find((tc) => (tc.name as string).startsWith(`${id} `))!;
  const propertiesOf = (node: Node) => Object.fromEntries([(node.properties as Node).property as Node | Node[]].flat().map((p) => [p.name, p.value]));

  it('a SHOULD failure is a passed testcase that carries the failure as advice in <system-out> and a property', () => {
    const tc = caseIn(renderJunit(run), checks.shouldFailed.id);
    expect(tc).not.toHaveProperty('failure');
    expect(tc['system-out']).toContain('ADVICE (SHOULD check, not gating): expected 403, got 404');
    expect(propertiesOf(tc)['conform.advice']).toMatch(/not gating/);
  });

  it('with --fail-on should a SHOULD failure is a <failure>', () => {
    const gating = syntheticRun([checks.passed, checks.shouldFailed], {}, { gate: { failOn: 'should', allowIncomplete: false } });
    expect(gating.exitCode).toBe(1);
    const xml = renderJunit(gating);
    expect(caseIn(xml, checks.shouldFailed.id)).toHaveProperty('failure');
    expect(parsed(xml).root).toMatchObject({ failures: '1' });
  });

  it('a waived failure is <skipped> with the waiver as its message and the failure in <system-out>', () => {
    const waivers = [{ check: checks.failed.id, reason: 'vendor fix due in March', expires: '2999-12-31' }];
    const waived = syntheticRun([checks.passed, checks.failed], {}, { circumstances: { waivers } });
    expect(waived.exitCode).toBe(0);
    const tc = caseIn(renderJunit(waived), checks.failed.id);
    expect((tc.skipped as Node).message).toBe('waived until 2999-12-31: vendor fix due in March (failed)');
    expect(tc['system-out']).toContain('is_kept of item 17 is 1 after sending 0');
    expect(parsed(renderJunit(waived)).root).toMatchObject({ failures: '0', skipped: '1' });
  });

  it('records the verdict, gate and a partial selection as properties of every testsuite', () => {
    const selection = { only: ['AUTH-*'], skip: [], selected: 1, total: 67, deselected: ['KEPT-001', 'PAGE-001'] };
    const partial = syntheticRun([checks.passed], {}, { circumstances: { selection } });
    for (const suite of parsed(renderJunit(partial)).suites) {
      expect(propertiesOf(suite)).toMatchObject({
        'conform.verdict': 'conforms',
        'conform.exitCode': '0',
        'conform.failOn': 'must',
        'conform.allowIncomplete': 'false',
        'conform.selection': 'partial run: --only AUTH-* (1 of 67 checks)',
        'conform.deselected': 'KEPT-001,PAGE-001',
      });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/cli/args.ts';
import type { CheckResult, RunResult } from '../src/runner/results.ts';
import { badgeText, renderBadge } from '../src/vendor/badge.ts';
import { compareJson, orderingScript, renderCompareHtml, renderCompareMarkdown } from '../src/vendor/compare-render.ts';
import { columnOrderByFailures, compareRuns, disagreements, fromReport, fromStatement, labelsFor } from '../src/vendor/compare.ts';
import { canonicalJson, detachedDigest, readDetachedDigest, sha256, sha256Hex } from '../src/vendor/digest.ts';
import {
  buildStatement,
  checkSetDigest,
  publicUrl,
  renderStatement,
  specIdentity,
  verifyStatement,
  type CheckSetEntry,
  type Statement,
  type SuiteIdentity,
} from '../src/vendor/statement.ts';
import { checks, NASTY, syntheticRun } from './support/synthetic-run.ts';

const extra = { id: 'STAGE-009', level: 'MUST' as const, sections: ['§6'] };
const suite: SuiteIdentity = {
  name: 'agent-api-conform',
  version: '0.1.0',
  spec: specIdentity([{ id: 'C1.1', section: '§1', statement: 'a clause in our words', checks: ['AUTH-001'] }]),
  checks: [...Object.values(checks).map(({ id, level, sections }) => ({ id, level, sections: [...sections] })), extra],
};
const dates = { issued: '2026-01-02T03:04:05.000Z', report: '2026-01-02T03:00:00.000Z' };
const run = syntheticRun();
const statementOf = (report: RunResult = run) => buildStatement(report, JSON.stringify(report), suite, dates);
const textOf = (s: Statement) => renderStatement(s);
const verifyText = (text: string, installed = suite) =>
  verifyStatement(text, detachedDigest(text, 'conformance-statement.json'), 'conformance-statement.json', installed);

/** A statement edited by hand, then with its embedded digest recomputed as a careful forger would. */
function forged(edit: (s: Statement) => void): string {
  const s = JSON.parse(textOf(statementOf())) as Statement;
  edit(s);
  const { digest: _old, ...body } = s;
  return textOf({ ...s, digest: sha256(canonicalJson(body)) });
}

describe('digests', () => {
  it('canonical JSON sorts keys at every depth, so key order never changes a digest', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(sha256(canonicalJson({ a: 1, b: 2 }))).toBe(sha256(canonicalJson({ b: 2, a: 1 })));
    expect(sha256('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('writes the detached digest as sha256sum does, and reads it back', () => {
    const line = detachedDigest('abc', 'conformance-statement.json');
    expect(line).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  conformance-statement.json\n');
    expect(readDetachedDigest(line)).toEqual({ hex: sha256Hex('abc'), fileName: 'conformance-statement.json' });
    expect(readDetachedDigest('not a digest')).toBeUndefined();
  });

  it("the check set's digest ignores order and sees a level or section change", () => {
    const list = suite.checks;
    expect(checkSetDigest([...list].reverse())).toBe(checkSetDigest(list));
    expect(checkSetDigest(list.map((c) => (c.id === 'AUTH-001' ? { ...c, level: 'SHOULD' as const } : c)))).not.toBe(checkSetDigest(list));
    expect(checkSetDigest(list.map((c) => (c.id === 'AUTH-001' ? { ...c, sections: ['§4'] } : c)))).not.toBe(checkSetDigest(list));
  });

  it('the spec digest is of the clause registry: a reworded clause changes it', () => {
    const clause = { id: 'C1.1', section: '§1', statement: 'a clause in our words', checks: ['AUTH-001'] };
    expect(specIdentity([clause]).digest).toBe(suite.spec.digest);
    expect(specIdentity([{ ...clause, statement: 'another reading' }]).digest).not.toBe(suite.spec.digest);
    expect(specIdentity([clause]).basis).toContain('1 clauses');
  });
});

describe('publicUrl', () => {
  it('masks credentials and key-like query values, and otherwise keeps the URL as given', () => {
    expect(publicUrl('https://alice:s3cr3t-pw@api.example.com/v1')).toBe('https://***:***@api.example.com/v1');
    expect(publicUrl('https://api.example.com/v1?api_key=abcd1234&region=eu')).toBe('https://api.example.com/v1?api_key=***&region=eu');
    expect(publicUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
    expect(publicUrl('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010/');
    expect(publicUrl('not a url')).toBe('not a url');
  });
});

describe('buildStatement', () => {
  const s = statementOf();

  it('pins the suite, spec, check set, run and verdict, with a status for every check of the set', () => {
    expect(s.suite).toEqual({ name: 'agent-api-conform', version: '0.1.0' });
    expect(s.spec).toEqual(suite.spec);
    expect(s.checkSet.digest).toBe(checkSetDigest(suite.checks));
    expect(s.checks.map((c) => c.id)).toEqual(s.checkSet.checks.map((c) => c.id));
    expect(s.checks.find((c) => c.id === 'STAGE-009')).toEqual({ id: 'STAGE-009', level: 'MUST', status: 'not-run' });
    expect(s.checks.find((c) => c.id === 'KEPT-001')).toMatchObject({ status: 'failed', effect: 'blocks' });
    expect(s.run).toMatchObject({ profile: 'primary', seed: 424242, target: { label: 'reference & <friends>', baseUrl: 'http://127.0.0.1:4010' } });
    expect(s.run.reportDigest).toBe(sha256(JSON.stringify(run)));
    expect(s.dates).toEqual(dates);
    expect(s.verdict).toMatchObject({
      verdict: 'does not conform',
      exitCode: 1,
      mustFailed: run.checks.filter((c) => c.level === 'MUST' && c.status === 'failed').length,
    });
    expect(s.verdict.counts['not-run']).toBe(1);
  });

  it('lists only the waivers that were applied', () => {
    const waived = syntheticRun(
      Object.values(checks),
      {},
      {
        circumstances: {
          today: '2026-01-01',
          waivers: [
            { check: 'KEPT-001', reason: 'fix in progress', expires: '2026-03-01' },
            { check: 'AUTH-001', reason: 'no longer needed', expires: '2026-03-01' },
          ],
        },
      },
    );
    const statement = statementOf(waived);
    expect(statement.waivers).toEqual([{ check: 'KEPT-001', reason: 'fix in progress', expires: '2026-03-01' }]);
    expect(statement.checks.find((c) => c.id === 'KEPT-001')?.effect).toBe('waived');
    expect(verifyText(textOf(statement)).ok).toBe(true);
  });

  it('refuses a report of another suite version or with checks the suite does not have', () => {
    expect(() => statementOf({ ...run, tool: { name: 'agent-api-conform', version: '0.0.9' } })).toThrow(
      /written by agent-api-conform 0\.0\.9 .* this is agent-api-conform 0\.1\.0/,
    );
    const stranger = { ...checks.passed, id: 'NEW-001' } as CheckResult;
    expect(() => statementOf(syntheticRun([stranger]))).toThrow(/NEW-001/);
  });

  it('renders the same bytes for the same statement', () => {
    expect(textOf(s)).toBe(textOf(JSON.parse(textOf(s)) as Statement));
    expect(Object.keys(JSON.parse(textOf(s)) as object)[1]).toBe('suite');
  });
});

describe('verifyStatement', () => {
  const text = textOf(statementOf());

  it('verifies a statement as issued', () => {
    expect(verifyText(text)).toEqual({ ok: true, problems: [], notes: [] });
  });

  it('fails an edited statement: the digests no longer match', () => {
    const edited = text.replace('"status": "failed"', '"status": "passed"');
    expect(edited).not.toBe(text);
    const result = verifyStatement(edited, detachedDigest(text, 'conformance-statement.json'), 'conformance-statement.json', suite);
    expect(result.ok).toBe(false);
    expect(result.problems).toContain("the file's sha256 is not the one in its detached digest: the file was changed after it was issued");
    expect(result.problems).toContain('the embedded digest does not match the content: the statement was edited');
  });

  it('fails an edit whose digests were recomputed when the statement no longer agrees with itself', () => {
    const passed = forged((s) => {
      for (const c of s.checks) if (c.status === 'failed') c.status = 'passed';
    });
    const result = verifyText(passed);
    expect(result.ok).toBe(false);
    expect(result.problems.join('\n')).toMatch(/count of failed checks says \d+, the checks say 0/);
    const conforms = forged((s) => {
      s.verdict.verdict = 'conforms';
      s.verdict.exitCode = 0;
    });
    expect(verifyText(conforms).problems.join('\n')).toMatch(/the verdict is conforms but .*KEPT-001/);
    const level = forged((s) => {
      s.checkSet.checks[0]!.level = 'SHOULD';
    });
    expect(verifyText(level).problems).toContain("the check set's digest does not match its checks");
  });

  it('says what differs from the installed suite, and only notes another version with the same checks', () => {
    const installed: SuiteIdentity = {
      ...suite,
      version: '0.2.0',
      checks: [...suite.checks.filter((c) => c.id !== 'STAGE-009'), { id: 'NEW-001', level: 'MUST' as const, sections: ['§2'] }].map(
        (c): CheckSetEntry => (c.id === 'ENUM-002' ? { ...c, level: 'MUST' as const } : c),
      ),
    };
    const result = verifyText(text, installed);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      "check set differs from the installed suite's (not in the installed suite: STAGE-009; only in the installed suite: NEW-001; changed: ENUM-002 SHOULD → MUST)",
    ]);
    const sameChecks = verifyText(text, { ...suite, version: '0.2.0' });
    expect(sameChecks.ok).toBe(true);
    expect(sameChecks.notes).toEqual(['made with agent-api-conform 0.1.0; verified with agent-api-conform 0.2.0']);
    const otherSpec = verifyText(text, { ...suite, spec: { ...suite.spec, digest: sha256('another spec') } });
    expect(otherSpec.problems[0]).toMatch(/^spec digest differs/);
  });

  it('refuses what is not a statement', () => {
    expect(verifyStatement('{"hello":1}', undefined, 'x.json', suite)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/not a conformance statement/)],
    });
    expect(verifyStatement('{', undefined, 'x.json', suite).problems[0]).toMatch(/^not JSON/);
  });
});

describe('badge', () => {
  it('says conforms, N MUST failed, a SHOULD count under --fail-on should, or incomplete, with profile and suite version', () => {
    expect(badgeText(statementOf(syntheticRun([checks.passed])))).toMatchObject({
      label: 'Agent API · primary',
      message: 'conforms · agent-api-conform 0.1.0',
    });
    const fails = statementOf();
    expect(badgeText(fails).message).toBe(`${fails.verdict.mustFailed} MUST failed · agent-api-conform 0.1.0`);
    const should = statementOf(syntheticRun([checks.passed, checks.shouldFailed], {}, { gate: { failOn: 'should', allowIncomplete: false } }));
    expect(badgeText(should).message).toBe('1 SHOULD failed · agent-api-conform 0.1.0');
    const skipped = { ...checks.passed2, status: 'skipped', message: 'needs a second key' } as CheckResult;
    expect(badgeText(statementOf(syntheticRun([checks.passed, skipped]))).message).toBe('incomplete · agent-api-conform 0.1.0');
  });

  it('is a self-contained SVG that escapes its text', () => {
    const svg = renderBadge({ ...statementOf(), run: { ...statementOf().run, profile: '<staging>' } });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="20"/);
    expect(svg).toContain('Agent API · &lt;staging&gt;');
    expect(svg).not.toContain('<staging>');
    expect(svg).not.toMatch(/href|<script|url\(/);
  });
});

describe('compare', () => {
  const good = syntheticRun([checks.passed, checks.passed2, checks.shouldFailed]);
  const bad = syntheticRun([checks.passed, { ...checks.passed2, status: 'failed', message: NASTY } as CheckResult, checks.shouldFailed], {
    target: { label: 'vendor-b', url: 'https://b.example.com/api', profile: 'primary' },
  });

  it('one row per check grouped by first section in spec order, a column per run, rows that differ marked', () => {
    const c = compareRuns([fromReport(good, 'a/report.json', '../a/report.html'), fromReport(bad, 'b/report.json')], ['Vendor A']);
    expect(c.columns.map((col) => col.label)).toEqual(['Vendor A', 'vendor-b']);
    expect(c.groups.map((g) => g.section)).toEqual(['§1', '§4', '§5']);
    expect(disagreements(c).map((r) => r.id)).toEqual(['PAGE-001']);
    const page = c.groups.find((g) => g.section === '§4')!.rows[0]!;
    expect(page.cells).toEqual([{ status: 'passed' }, { status: 'failed', anchor: 'c2-PAGE-001', message: NASTY }]);
    const enumRow = c.groups[0]!.rows[0]!;
    expect(enumRow.cells[0]).toEqual({
      status: 'failed',
      anchor: 'c1-ENUM-002',
      message: checks.shouldFailed.message,
      href: '../a/report.html#check-ENUM-002',
    });
    expect(enumRow.disagree).toBe(false);
    expect(c.columns.map((col) => col.failures)).toEqual([
      { must: 0, should: 1 },
      { must: 1, should: 1 },
    ]);
    expect(c.warnings).toEqual([]);
  });

  it('orders sections numerically and columns by failures, MUST before SHOULD, ties as given', () => {
    const tenth = { ...checks.passed, id: 'X-001', sections: ['§10'] } as CheckResult;
    const c = compareRuns([
      fromReport(bad, 'b'),
      fromReport(syntheticRun([checks.passed, tenth, { ...checks.passed, id: 'Y-001', sections: ['§2'] } as CheckResult]), 'g'),
      fromReport(good, 'a'),
    ]);
    expect(c.groups.map((g) => g.section)).toEqual(['§1', '§2', '§4', '§5', '§10']);
    expect(columnOrderByFailures(c.columns)).toEqual([1, 2, 0]);
    expect(columnOrderByFailures(c.columns, 'most')).toEqual([0, 2, 1]);
  });

  it('warns when the runs differ in suite version, profile or check set', () => {
    const staging = syntheticRun([checks.passed], {
      tool: { name: 'agent-api-conform', version: '0.2.0' },
      target: { label: 's', url: 'http://s', profile: 'staging' },
    });
    const c = compareRuns([fromReport(good, 'a'), fromReport(staging, 's')]);
    expect(c.warnings).toHaveLength(3);
    expect(c.warnings[0]).toMatch(/different suite versions .*conform 0\.1\.0.*conform 0\.2\.0/);
    expect(c.warnings[1]).toMatch(/different profiles .*primary.*staging/);
    expect(c.warnings[2]).toMatch(/absent from some runs: ENUM-002, PAGE-001/);
    expect(c.groups.flatMap((g) => g.rows).find((r) => r.id === 'PAGE-001')?.cells[1]).toEqual({ status: 'absent' });
  });

  it('reads statements too, and names repeated labels apart', () => {
    const fromS = fromStatement(statementOf(), 'statement.json');
    expect(fromS).toMatchObject({ label: 'reference & <friends>', suite: { name: 'agent-api-conform', version: '0.1.0' }, verdict: 'does not conform' });
    expect(fromS.checks.find((c) => c.id === 'KEPT-001')).toEqual({ id: 'KEPT-001', level: 'MUST', sections: ['§3', '§4'], status: 'failed' });
    expect(labelsFor([fromS, fromS, fromS], ['x'])).toEqual(['x', 'reference & <friends>', 'reference & <friends> (3)']);
    expect(compareRuns([fromS]).warnings).toEqual([]);
    const edited = { ...statementOf(), verdict: { ...statementOf().verdict, verdict: 'conforms' as const } };
    expect(compareRuns([fromStatement(edited, 'edited.json')]).warnings).toEqual([
      'edited.json does not match its embedded digest: it was edited after it was issued (conform statement --verify says more)',
    ]);
  });

  it('renders Markdown with failure links into the HTML page, the warnings first, and pipes escaped', () => {
    const staging = syntheticRun([checks.passed], { target: { label: 'a|b', url: 'http://s', profile: 'staging' } });
    const text = renderCompareMarkdown(compareRuns([fromReport(good, 'a'), fromReport(bad, 'b'), fromReport(staging, 's')]));
    expect(text).toMatch(/^# Implementations\n\n> \*\*Warning:\*\* these runs were held to different profiles/);
    expect(text).toContain('| section | check | level | reference & <friends> | vendor-b | a\\|b |');
    expect(text).toContain('| §4 | **PAGE-001** (differs) | MUST | passed | **[failed](compare.html#c2-PAGE-001)** | absent |');
  });

  it('renders one escaped HTML page: highlighted rows, anchors for every failure link, a visible warning, failure counts for ordering', () => {
    const staging = syntheticRun([checks.passed], { target: { label: 's', url: 'http://s', profile: 'staging' } });
    const html = renderCompareHtml(compareRuns([fromReport(good, 'a', 'a/report.html'), fromReport(bad, 'b'), fromReport(staging, 's')]));
    expect(html).toContain('<div class="warning" role="alert"><strong>Warning:</strong> these runs were held to different profiles');
    expect(html).toContain('<tr id="row-PAGE-001" class="disagree">');
    for (const [, anchor] of html.matchAll(/href="#([^"]+)"/g)) expect(html).toContain(`id="${anchor}"`);
    expect(html).toContain('<a href="a/report.html#check-ENUM-002">');
    expect(html).toContain('data-failures="100001"');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(JSON.parse(compareJson(compareRuns([fromReport(good, 'a')])))).toMatchObject({ compareVersion: 1, columns: [{ label: 'reference & <friends>' }] });
  });
});

describe('command lines', () => {
  it('statement and compare take their files as free arguments', () => {
    expect(parseCommandLine(['compare', 'a/report.json', 'b', '--label', 'A', '--label', 'B', '--out', 'x'])).toMatchObject({
      command: 'compare',
      inputs: ['a/report.json', 'b'],
      values: { label: ['A', 'B'], out: 'x' },
    });
    expect(parseCommandLine(['statement', '--verify', 's.json'])).toMatchObject({ command: 'statement', inputs: [], values: { verify: 's.json' } });
    expect(parseCommandLine(['statement', 'conform-report'])).toMatchObject({ command: 'statement', inputs: ['conform-report'] });
  });
});

describe("compare.html's column ordering", () => {
  /** Just enough of a DOM for the script: rows of cells that carry data-col, and the three buttons. */
  function page(failures: number[]) {
    const cell = (col: number, extra: Record<string, string> = {}) => ({ dataset: { col: String(col), ...extra } });
    const row = (cells: ReturnType<typeof cell>[]) => ({
      cells: [...cells],
      querySelectorAll(this: { cells: ReturnType<typeof cell>[] }) {
        return [...this.cells];
      },
      appendChild(this: { cells: ReturnType<typeof cell>[] }, c: ReturnType<typeof cell>) {
        this.cells = [...this.cells.filter((x) => x !== c), c];
      },
    });
    const head = row(failures.map((f, i) => cell(i, { failures: String(f) })));
    const body = row(failures.map((_, i) => cell(i)));
    const group = row([]);
    const handlers: Record<string, () => void> = {};
    const buttons = ['given', 'fewest', 'most'].map((sort) => ({ dataset: { sort }, addEventListener: (_: string, h: () => void) => (handlers[sort] = h) }));
    const document = { querySelectorAll: () => buttons, getElementById: () => ({ tHead: { rows: [head] }, rows: [head, group, body] }) };
    new Function('document', orderingScript)(document);
    const order = () => [head.cells.map((c) => Number(c.dataset.col)), body.cells.map((c) => Number(c.dataset.col))];
    return { handlers, order };
  }

  it('orders every row by the failures in the header, and back to the order given', () => {
    const { handlers, order } = page([100_001, 0, 1]);
    handlers.fewest!();
    expect(order()).toEqual([
      [1, 2, 0],
      [1, 2, 0],
    ]);
    handlers.most!();
    expect(order()).toEqual([
      [0, 2, 1],
      [0, 2, 1],
    ]);
    handlers.given!();
    expect(order()).toEqual([
      [0, 1, 2],
      [0, 1, 2],
    ]);
  });
});

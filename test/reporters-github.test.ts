import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, renderAnnotations, renderStepSummary } from '../reporters/github.ts';
import { defaultReporters, isReporterName, reporterNames, writeReports } from '../reporters/index.ts';
import { renderSummary } from '../reporters/terminal.ts';
import { terminalStyle } from '../reporters/style.ts';
import { checks, redact, SECRET, syntheticRun } from './support/synthetic-run.ts';

const run = syntheticRun();

describe('GitHub step summary', () => {
  const summary = renderStepSummary(run);

  it('states the verdict, target and counts', () => {
    expect(summary).toMatch(/^## ❌ conform: does not conform — reference \\& \\<friends\\>\n/);
    expect(summary).toContain('**Verdict: does not conform** (1 MUST check\\(s\\) failed); exit code 1');
    expect(summary).toContain('`http://127.0.0.1:4010`');
    expect(summary).toContain('seed `424242`');
    expect(summary).toContain('| passed | failed | error | skipped | not applicable | total |\n|---:|---:|---:|---:|---:|---:|\n| 2 | 2 | 1 | 1 | 1 | 7 |');
    expect(renderStepSummary(syntheticRun([checks.passed]))).toMatch(/^## ✅ conform: conforms/);
    expect(renderStepSummary(syntheticRun([checks.passed, checks.error]))).toMatch(/^## ⚠️ conform: no verdict/);
  });

  it('lists every failure and error with the exchange and the reproduction in code blocks', () => {
    const failed = summary.slice(summary.indexOf('#### ❌ KEPT-001 MUST'));
    expect(failed).toContain('```text\nis_kept of item 17 is 1 after sending 0\n');
    expect(failed).toContain(`\`\`\`http\n${checks.failed.exchange.request}\n\`\`\``);
    expect(failed).toContain(`\`\`\`http\nHTTP 200\n${checks.failed.exchange.responseBody}\n\`\`\``);
    expect(failed).toContain(`\`\`\`sh\n${checks.failed.reproduction}\n\`\`\``);
    expect(summary).toContain('#### ⚠️ PAGE-003 MUST: following next cursors');
    expect(summary).toContain('### Failures and errors (2)');
    // A SHOULD failure is advice, in its own section after the failures that gate.
    const advice = summary.indexOf('### 💡 Advice: SHOULD checks that failed (1), not gating');
    expect(advice).toBeGreaterThan(summary.indexOf('### Failures and errors'));
    expect(summary.slice(advice)).toContain('#### 💡 ENUM-002 SHOULD: user enumeration answers 403 rather than another refusal');
    expect(summary).toContain('failed \\(advice, not gating\\)');
    expect(summary).not.toContain('AUTH-001');
  });

  it('lists skipped and not-applicable checks with reasons in a table', () => {
    expect(summary).toContain('| PLAY-001 | skipped | §2 | precondition: the target has no players |');
    expect(summary).toContain('| STAGE-001 | not applicable | §2, §4 | not applicable to the primary profile \\(applies to: staging\\) |');
  });

  it('keeps code blocks closed when content has backticks and escapes Markdown and HTML in text', () => {
    const tricky = renderStepSummary(
      syntheticRun([{ ...checks.failed, title: 'a | b <script>x</script> *bold*', message: 'see ```\n# not a heading', reproduction: 'echo ````' }]),
    );
    expect(tricky).toContain('a \\| b \\<script\\>x\\</script\\> \\*bold\\*');
    expect(tricky).toContain('````text\nsee ```\n# not a heading\n````');
    expect(tricky).toContain('`````sh\necho ````\n`````');
    expect(tricky).not.toContain('<script>');
  });
});

describe('GitHub annotations', () => {
  const lines = renderAnnotations(run).split('\n').filter(Boolean);

  it('emits ::error for what gates (MUST failure, error, unjudged MUST check), ::warning for a SHOULD failure, nothing for the rest', () => {
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^::error title=KEPT-001 MUST \[§3%2C §4\]::is_kept of item 17/);
    expect(lines[1]).toBe('::error title=PAGE-003 MUST [§4%2C §8]::harness error: GET /artifacts.php: no answer within 800 ms');
    expect(lines[2]).toMatch(/^::warning title=ENUM-002 SHOULD \[§1%2C §5%2C §7\] \(advice%2C not gating\)::/);
    expect(lines[3]).toBe(
      '::error title=conform%3A 1 check(s) not judged::precondition absent on this target: PLAY-001 (precondition: the target has no players)',
    );
  });

  it('escapes %, \\r and \\n in the message so each annotation stays on one line', () => {
    expect(lines[2]).toBe(
      '::warning title=ENUM-002 SHOULD [§1%2C §5%2C §7] (advice%2C not gating)::expected 403, got 404: 50%25 of probes%0D%0Asecond line: a, b',
    );
    expect(lines[0]).toContain('after sending 0%0Atitle <script>');
    expect(escapeData('100%\r\n%0A')).toBe('100%25%0D%0A%250A');
    expect(escapeProperty('a: b, c%\n')).toBe('a%3A b%2C c%25%0A');
    expect(renderAnnotations(syntheticRun([checks.passed, checks.notApplicable]))).toBe('');
  });
});

describe('reporter selection and writing', () => {
  it('names the reporters and picks the defaults from the environment', () => {
    expect(reporterNames).toEqual(['terminal', 'json', 'junit', 'html', 'github']);
    expect(defaultReporters({})).toEqual(['terminal', 'json', 'junit', 'html']);
    expect(defaultReporters({ GITHUB_ACTIONS: 'true' })).toEqual(['terminal', 'json', 'junit', 'html', 'github']);
    expect(isReporterName('html')).toBe(true);
    expect(isReporterName('xml')).toBe(false);
  });

  it('writes the selected files through redact and appends the step summary', () => {
    const outDir = join(mkdtempSync(join(tmpdir(), 'conform-write-')), 'nested', 'report');
    const stepSummary = join(mkdtempSync(join(tmpdir(), 'conform-summary-')), 'summary.md');
    writeFileSync(stepSummary, 'earlier step\n');
    const env = { GITHUB_STEP_SUMMARY: stepSummary };
    const written = writeReports(run, { outDir, reporters: defaultReporters({ GITHUB_ACTIONS: 'true' }), env, redact });
    expect(written).toEqual([join(outDir, 'report.json'), join(outDir, 'junit.xml'), join(outDir, 'report.html'), stepSummary]);
    for (const path of written) expect(readFileSync(path, 'utf8'), path).not.toContain(SECRET);
    const appended = readFileSync(stepSummary, 'utf8');
    expect(appended.startsWith('earlier step\n## ❌ conform')).toBe(true);
    expect(appended).toContain('Bearer ***');

    // GITHUB_STEP_SUMMARY set: appended even when 'github' is not selected; nothing else without file reporters.
    expect(writeReports(run, { outDir, reporters: ['terminal'], env, redact })).toEqual([stepSummary]);
    expect(readFileSync(stepSummary, 'utf8').match(/## ❌ conform/g)).toHaveLength(2);
    // 'github' selected but no GITHUB_STEP_SUMMARY: nowhere to append.
    const bare = join(mkdtempSync(join(tmpdir(), 'conform-bare-')), 'out');
    expect(writeReports(run, { outDir: bare, reporters: ['terminal', 'github'], env: {}, redact })).toEqual([]);
    expect(existsSync(bare)).toBe(false);
  });
});

describe('terminal summary', () => {
  const plain = terminalStyle({ isTTY: true }, { NO_COLOR: '1' });

  it('groups failures by area with their reproduction, and respects NO_COLOR', () => {
    const text = renderSummary(run, plain);
    expect(text).not.toContain('\u001b[');
    expect(text).toMatch(/Failures and errors \(2\):\n\n {2}kept-toggle\n {2}✗ KEPT-001/);
    expect(text).toMatch(
      /Advice: SHOULD checks that failed, not gating \(1; --fail-on should makes them gate\):\n {2}△ ENUM-002 SHOULD .* \(advice\)\n {6}expected 403/,
    );
    expect(text).toMatch(/ {2}kept-toggle\n {2}✗ KEPT-001 MUST .* \[§3, §4\] \(failed\)\n {6}is_kept of item 17/);
    expect(text).toContain(`      reproduce:\n      ${checks.failed.reproduction}`);
    expect(text).toContain(
      'Not judged (1), their precondition is absent on this target; the run cannot conform without them (waive them or pass --allow-incomplete):\n  - PLAY-001 MUST precondition: the target has no players',
    );
    expect(text).toContain('STAGE-001 not applicable to the primary profile');
    expect(text).toContain('2 passed, 2 failed, 1 errors, 1 skipped, 1 not applicable');
    expect(text.trimEnd().split('\n').at(-1)).toBe('verdict: does not conform (1 MUST check(s) failed); exit 1');
    expect(renderSummary(run, terminalStyle({ isTTY: true }, {}))).toContain('\u001b[31m');
  });

  it('shows failures that share one cause together: the cause, every check, and the details once', () => {
    const broken = (id: string, area: string, message: string) => ({
      ...checks.failed,
      id,
      area,
      message,
      exchange: { request: `GET http://127.0.0.1:4010/types.php?x=${id}`, status: 500, responseBody: '{"error":"db down"}' },
    });
    const shared = syntheticRun([
      checks.passed,
      broken('TYPE-001', 'types', 'GET /types.php: expected 200, got 500'),
      broken('TYPE-002', 'types', 'types: the answer is not 2xx (500)'),
      broken('AUTH-002', 'auth', 'refused, but with 500'),
      checks.failed,
    ]);
    const text = renderSummary(shared, plain, { quiet: true });
    expect(text).toMatch(
      /Failures and errors \(4\):\n\n {2}3 checks share one cause: GET \/types\.php answered 500\n {2}✗ AUTH-002 .*\n {2}✗ TYPE-001 .*\n {2}✗ TYPE-002 .*\n {6}refused, but with 500\n/,
    );
    expect(text.match(/db down/g)).toHaveLength(1);
    // A failure with a cause of its own stays under its area, in full.
    expect(text).toMatch(/\n {2}kept-toggle\n {2}✗ KEPT-001 .*\n {6}is_kept of item 17/);
  });

  it('names the failed clause beside the sections and gives its text, alone and in a group that shares a cause', () => {
    const clause = { id: 'C3.2', section: '§3', text: 'The toggle sets the flag to the value sent.' };
    const alone = { ...checks.failed, clause };
    const text = renderSummary(syntheticRun([checks.passed, alone]), plain, { quiet: true });
    expect(text).toMatch(
      /✗ KEPT-001 MUST .* \[§3, §4; clause C3\.2\] \(failed\)\n {6}clause C3\.2 \(§3\): The toggle sets the flag to the value sent\.\n {6}is_kept of item 17/,
    );
    expect(text.match(/The toggle sets the flag/g), 'the clause text once').toHaveLength(1);
    const broken = (id: string) => ({
      ...alone,
      id,
      area: 'types',
      exchange: { request: `GET http://127.0.0.1:4010/types.php?x=${id}`, status: 500, responseBody: '{"error":"db down"}' },
    });
    const grouped = renderSummary(syntheticRun([checks.passed, broken('TYPE-001'), broken('TYPE-002')]), plain, { quiet: true });
    expect(grouped).toMatch(/✗ TYPE-001 .* \[§3, §4; clause C3\.2\] \(failed\)\n {6}clause C3\.2 \(§3\): The toggle sets/);
    expect(grouped).toMatch(/✗ TYPE-002 .* \[§3, §4; clause C3\.2\] \(failed\)\n {6}clause C3\.2 \(§3\): The toggle sets/);
  });

  it('--quiet prints only the failures, what could not be judged, and the verdict line', () => {
    const text = renderSummary(run, plain, { quiet: true });
    expect(text).toContain('✗ KEPT-001');
    expect(text).toContain('! PAGE-003');
    expect(text).toContain(checks.failed.reproduction);
    expect(text).toContain('- PLAY-001 MUST precondition: the target has no players');
    expect(text).not.toMatch(/conform: reference|STAGE-001|AUTH-001|ENUM-002|2 passed/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('verdict: does not conform (1 MUST check(s) failed); exit 1');
    expect(renderSummary(syntheticRun([checks.passed]), plain, { quiet: true }).trim()).toBe('verdict: conforms (every MUST check passed); exit 0');
  });
});

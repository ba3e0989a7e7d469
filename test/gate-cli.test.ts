import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { notAList } from '../src/runner/open-target.ts';
import type { Waiver } from '../src/config/waivers.ts';
import { runCli } from './support/cli.ts';

const mutants = await loadMutants();
const mutant = (id: string) => {
  const found = mutants.find((m) => m.id === id);
  if (!found) throw new Error(`no mutant ${id} in fixtures/mutants`);
  return found;
};
/** How many checks the suite has: partial-run lines name it. */
const total = (JSON.parse((await runCli(['--list', '--format', 'json'])).stdout) as unknown[]).length;

function waiversFile(waivers: readonly Waiver[] | unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'conform-waivers-')), 'waivers.json');
  writeFileSync(path, JSON.stringify({ waivers }));
  return path;
}

/** The verdict line of the summary. */
const verdictLine = (stdout: string) => stdout.split('\n').find((line) => line.startsWith('verdict: ')) ?? '(no verdict line)';

describe('incomplete is not conforming', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference();
  });
  afterAll(() => reference.close());

  it('a user with an empty collection: exit 3 naming what could not be judged; auth and forbidden writes are still judged', async () => {
    const run = await runCli(['--target', reference.url, '--key', reference.keys.empty, '--other-key', reference.keys.other, '-q']);
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const report = run.report();
    expect(report.verdict).toBe('incomplete');
    expect(report.checks.filter((c) => c.status === 'failed' || c.status === 'error')).toEqual([]);
    for (const id of ['AUTH-001', 'AUTH-002', 'AUTH-003', 'ENUM-001', 'WRITE-001', 'WRITE-002']) {
      expect(report.checks.find((c) => c.id === id)?.status, id).toBe('passed');
    }
    const unjudged = report.checks.filter((c) => c.effect === 'blocks');
    expect(unjudged.length).toBeGreaterThan(5);
    expect(unjudged.every((c) => c.status === 'skipped' && c.level === 'MUST')).toBe(true);
    // -q still names every check that could not be judged, and why.
    expect(run.stdout).toContain(`Not judged (${unjudged.length})`);
    for (const c of unjudged) expect(run.stdout).toContain(`${c.id} MUST ${c.message}`);
    expect(verdictLine(run.stdout)).toMatch(/^verdict: incomplete \(\d+ MUST check\(s\) could not be judged .*\); exit 3$/);
  });

  it('on an empty collection the auth checks still bite: a target serving requests without a key fails AUTH-001', async () => {
    const broken = await startReference({ wrap: mutant('auth-missing-header-served').wrap! });
    try {
      const run = await runCli(['--target', broken.url, '--key', broken.keys.empty, '--only', 'AUTH-001,AUTH-002,AUTH-003', '-q']);
      expect(run.code, run.stdout).toBe(1);
      expect(run.report().checks.map((c) => [c.id, c.status])).toEqual([
        ['AUTH-001', 'failed'],
        ['AUTH-002', 'passed'],
        ['AUTH-003', 'passed'],
      ]);
    } finally {
      await broken.close();
    }
  });

  it('the same run passes with --allow-incomplete, and still lists what was not judged', async () => {
    const run = await runCli(['--target', reference.url, '--key', reference.keys.empty, '--other-key', reference.keys.other, '-q', '--allow-incomplete']);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/Not judged \(\d+\), their precondition is absent on this target; allowed by --allow-incomplete/);
    expect(verdictLine(run.stdout)).toMatch(
      /^verdict: conforms \(every MUST check that could be judged passed; \d+ not judged \(--allow-incomplete\)\); exit 0$/,
    );
    expect(run.report().policy).toEqual({ failOn: 'must', allowIncomplete: true });
  });

  it('the same run passes when every unjudged check is waived, and shows them as waived', async () => {
    const first = await runCli(['--target', reference.url, '--key', reference.keys.empty, '--other-key', reference.keys.other, '--reporter', 'json']);
    const unjudged = first
      .report()
      .checks.filter((c) => c.effect === 'blocks')
      .map((c) => c.id);
    const waivers = unjudged.map((check) => ({ check, reason: 'this tenant holds no data', expires: '2999-12-31', target: reference.url }));
    const run = await runCli([
      '--target',
      reference.url,
      '--key',
      reference.keys.empty,
      '--other-key',
      reference.keys.other,
      '--waivers',
      waiversFile(waivers),
    ]);
    expect(run.code, run.stdout).toBe(0);
    const report = run.report();
    expect(report.checks.filter((c) => c.effect === 'waived').map((c) => c.id)).toEqual(unjudged);
    expect(report.waivers.every((w) => w.state === 'applied')).toBe(true);
    expect(run.stdout).toContain(`Waived (${unjudged.length}): not gating while the waiver is in force`);
    expect(readFileSync(join(run.outDir, 'junit.xml'), 'utf8')).toContain('waived until 2999-12-31: this tenant holds no data (skipped)');
    expect(verdictLine(run.stdout)).toBe(`verdict: conforms (every MUST check passed except ${unjudged.length} waived); exit 0`);
  });

  it('a run without a second key: exit 3 with the cross-user checks named, and the partial selection in the verdict line', async () => {
    const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'SCOPE-*,PLAY-*', '-q']);
    expect(run.code, run.stdout).toBe(3);
    const report = run.report();
    const needsKey = report.checks.filter((c) => c.effect === 'blocks');
    expect(needsKey.map((c) => c.id)).toEqual(expect.arrayContaining(['PLAY-002', 'SCOPE-003']));
    for (const c of needsKey) {
      expect(c.message).toMatch(/second user's key/);
      expect(run.stdout).toContain(`${c.id} MUST precondition: needs a second user's key`);
    }
    expect(report.selection).toMatchObject({ only: ['SCOPE-*', 'PLAY-*'], skip: [], total });
    expect(verdictLine(run.stdout)).toMatch(
      new RegExp(`^verdict: incomplete \\(.*; partial run: --only SCOPE-\\*,PLAY-\\* \\(\\d+ of ${total} checks\\)\\); exit 3$`),
    );
    const allowed = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'SCOPE-*,PLAY-*', '-q', '--allow-incomplete']);
    expect(allowed.code).toBe(0);
  });

  it('records a partial selection in every report', async () => {
    const summary = join(mkdtempSync(join(tmpdir(), 'conform-gh-')), 'summary.md');
    const run = await runCli(['--only', 'AUTH-*', '--skip', 'AUTH-004', '--reporter', 'terminal,json,junit,html,github'], { GITHUB_STEP_SUMMARY: summary });
    expect(run.code).toBe(0);
    const report = run.report();
    expect(report.selection).toMatchObject({ only: ['AUTH-*'], skip: ['AUTH-004'], selected: 3 });
    expect(report.selection!.deselected).toContain('AUTH-004');
    expect(report.selection!.deselected).toHaveLength(report.selection!.total - 3);
    const line = `partial run: --only AUTH-* --skip AUTH-004 (3 of ${total} checks)`;
    expect(report.reason).toContain(line);
    expect(verdictLine(run.stdout)).toContain(line);
    expect(run.stdout).toContain(`::notice title=conform%3A partial run::${line}`);
    expect(readFileSync(join(run.outDir, 'junit.xml'), 'utf8')).toContain(`<property name="conform.selection" value="${line}"/>`);
    expect(readFileSync(join(run.outDir, 'report.html'), 'utf8')).toContain(`<dt>Selection</dt><dd>${line}</dd>`);
    expect(readFileSync(summary, 'utf8')).toContain(`partial run: --only AUTH-\\* --skip AUTH-004 \\(3 of ${total} checks\\)`);
  });
});

describe('not an Agent API', () => {
  async function serve(listener: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
    const server = createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('a base URL with a wrong path prefix: exit 2, one line naming what was tried and a hint', async () => {
    const reference = await startReference();
    try {
      const run = await runCli(['--target', `${reference.url}/v2`, '--key', reference.keys.primary]);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`conform: no Agent API at ${reference.url}/v2: POST ${reference.url}/v2/artifacts.php answered`);
      expect(run.stderr).toContain('is the path prefix /v2 right?');
      expect(run.stdout).toBe('');
    } finally {
      await reference.close();
    }
  });

  it('a web site (HTML on every path): exit 2 with the hint that a path prefix may be missing', async () => {
    const site = await serve(
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Welcome</title>'),
    );
    try {
      const run = await runCli(['--target', site.url, '--key', 'conform-test-key']);
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe(
        `conform: no Agent API at ${site.url}: POST ${site.url}/artifacts.php answered 200 with an HTML page and GET ${site.url}/types.php answered 200 with an HTML page; is a path prefix missing from the base URL (e.g. ${site.url}/api)? The list endpoint is <base URL>/artifacts.php`,
      );
      expect(run.stderr).not.toContain('conform-test-key');
    } finally {
      await site.close();
    }
  });

  it('tells a list answer from one that cannot be the Agent API; an empty collection is a list', () => {
    const answer = (status: number, body: unknown, type = 'application/json') => ({
      status,
      headers: { 'content-type': type },
      text: typeof body === 'string' ? body : JSON.stringify(body),
      ...(typeof body === 'string' ? {} : { json: body }),
    });
    for (const empty of [[], { items: [] }, { data: [], has_more: false }, { has_more: false, next_cursor: null }, { records: [], meta: {}, errors: [] }]) {
      expect(notAList(answer(200, empty)), JSON.stringify(empty)).toBeUndefined();
    }
    expect(notAList(answer(200, { rows: [{ id: 1 }] }))).toBeUndefined();
    expect(notAList(answer(400, { errors: ['per_page'] }))).toBeUndefined();
    expect(notAList(answer(404, { error: 'not found' }))).toBe('answered 404 (application/json)');
    expect(notAList(answer(200, '<html><body>hi</body></html>', 'text/html'))).toBe('answered 200 with an HTML page');
    expect(notAList(answer(200, 'ok', 'text/plain'))).toBe('answered 200 with a body that is not JSON (text/plain)');
    expect(notAList(answer(200, { status: 'ok', version: 3 }))).toBe('answered 200 with JSON that holds no rows in any shape');
  });
});

describe('SHOULD failures are advice unless --fail-on should', () => {
  let reference: RunningReference;
  beforeAll(async () => {
    reference = await startReference({ wrap: mutant('catalog-unknown-version').wrap! });
  });
  afterAll(() => reference.close());
  const args = () => ['--target', reference.url, '--key', reference.keys.primary, '--only', 'CAT-001,CAT-004', '--reporter', 'terminal,json,junit,html,github'];

  it('a SHOULD failure is a ::warning, no JUnit <failure>, advice in the terminal and HTML, and exit 0', async () => {
    const run = await runCli(args());
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^::warning title=CAT-004 SHOULD \[§1%2C §9\] \(advice%2C not gating\)::/m);
    expect(run.stdout).not.toMatch(/^::error/m);
    expect(run.stdout).toContain('Advice: SHOULD checks that failed, not gating (1; --fail-on should makes them gate):');
    expect(run.report().checks.find((c) => c.id === 'CAT-004')).toMatchObject({ status: 'failed', effect: 'advice' });
    const junit = readFileSync(join(run.outDir, 'junit.xml'), 'utf8');
    expect(junit).not.toContain('<failure');
    expect(junit).toContain('ADVICE (SHOULD check, not gating)');
    expect(readFileSync(join(run.outDir, 'report.html'), 'utf8')).toContain('<span class="tag tag-advice"');
    expect(verdictLine(run.stdout)).toMatch(/^verdict: conforms \(every MUST check passed; 1 SHOULD check\(s\) failed \(advice\); partial run/);
  });

  it('--fail-on should makes it gate: ::error, a JUnit <failure>, exit 1', async () => {
    const run = await runCli([...args(), '--fail-on', 'should']);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(/^::error title=CAT-004 SHOULD/m);
    expect(readFileSync(join(run.outDir, 'junit.xml'), 'utf8')).toContain('<failure message="advice (the catalog');
    expect(run.report()).toMatchObject({ verdict: 'does not conform', policy: { failOn: 'should' } });
  });
});

describe('waivers', () => {
  let broken: RunningReference;
  beforeAll(async () => {
    broken = await startReference({ wrap: mutant('auth-unknown-key-served').wrap! });
  });
  afterAll(() => broken.close());
  const args = (...extra: string[]) => ['--target', broken.url, '--key', broken.keys.primary, '--only', 'AUTH-003', ...extra];

  it('a waived MUST failure does not fail the gate and is shown as waived everywhere', async () => {
    const summary = join(mkdtempSync(join(tmpdir(), 'conform-gh-')), 'summary.md');
    const file = waiversFile([{ check: 'AUTH-003', reason: 'vendor ticket #42', expires: '2999-01-31' }]);
    const run = await runCli(args('--waivers', file, '--reporter', 'terminal,json,junit,html,github'), { GITHUB_STEP_SUMMARY: summary });
    expect(run.code, run.stdout).toBe(0);
    const check = run.report().checks.find((c) => c.id === 'AUTH-003')!;
    expect(check).toMatchObject({ status: 'failed', effect: 'waived', waiver: { reason: 'vendor ticket #42', expires: '2999-01-31', state: 'applied' } });
    expect(run.stdout).toContain('~ AUTH-003 MUST failed:');
    expect(run.stdout).toContain('waived until 2999-01-31: vendor ticket #42');
    expect(run.stdout).toMatch(/^::notice title=AUTH-003 MUST \[§5\] \(waived\)::failed, waived until 2999-01-31: vendor ticket #42: /m);
    expect(readFileSync(join(run.outDir, 'junit.xml'), 'utf8')).toContain('<skipped message="waived until 2999-01-31: vendor ticket #42 (failed)"/>');
    expect(readFileSync(join(run.outDir, 'report.html'), 'utf8')).toContain('<span class="tag tag-waived"');
    expect(readFileSync(summary, 'utf8')).toContain('| AUTH-003 | failed, waived | waived until 2999-01-31: vendor ticket \\#42 |');
    expect(verdictLine(run.stdout)).toMatch(/^verdict: conforms \(every MUST check passed except 1 waived; partial run/);
  });

  it('an expired waiver no longer applies, and says so', async () => {
    const file = waiversFile([{ check: 'AUTH-003', reason: 'vendor ticket #42', expires: '2020-01-31' }]);
    const run = await runCli(args('--waivers', file));
    expect(run.code, run.stdout).toBe(1);
    expect(run.report().checks.find((c) => c.id === 'AUTH-003')).toMatchObject({ effect: 'blocks', waiver: { state: 'expired' } });
    expect(run.stdout).toContain('! AUTH-003 (vendor ticket #42): expired on 2020-01-31: no longer applies');
  });

  it('a waived check that passes is reported as an unexpected pass, so the waiver gets cleaned up', async () => {
    const file = waiversFile([{ check: 'AUTH-001', reason: 'flaky once', expires: '2999-01-31' }]);
    const run = await runCli(['--only', 'AUTH-001', '--waivers', file, '--reporter', 'terminal,json,github']);
    expect(run.code, run.stdout).toBe(0);
    expect(run.report().checks[0]).toMatchObject({ id: 'AUTH-001', status: 'passed', effect: 'unexpected-pass' });
    expect(run.stdout).toMatch(/^::warning title=waiver for AUTH-001 \(unexpected-pass\)::the check passed: remove the waiver/m);
    expect(run.stdout).toContain('! AUTH-001 (flaky once): the check passed: remove the waiver');
    expect(verdictLine(run.stdout)).toContain('1 waived check(s) passed: remove their waivers');
  });

  it('waivers in conform.config.json apply to their target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conform-config-'));
    writeFileSync(
      join(dir, 'conform.config.json'),
      JSON.stringify({ targets: { vendor: { url: broken.url, waivers: [{ check: 'AUTH-003', reason: 'in the config', expires: '2999-01-31' }] } } }),
    );
    const run = await runCli(['--config', join(dir, 'conform.config.json'), '--target', 'vendor', '--only', 'AUTH-003', '-q'], {
      CONFORM_API_KEY: broken.keys.primary,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.report().waivers).toEqual([{ check: 'AUTH-003', reason: 'in the config', expires: '2999-01-31', target: 'vendor', state: 'applied' }]);
  });

  it('a bad waivers file exits 2 with one readable line', async () => {
    const file = waiversFile([{ check: 'AUTH-003', reason: 'vendor ticket #42', expires: '31/01/2999' }]);
    const run = await runCli(args('--waivers', file));
    expect(run.code).toBe(2);
    // One problem: one line, with where it sits in the file.
    expect(run.stderr.trim()).toMatch(
      /^conform: waivers file .*: line \d+, column \d+: \/waivers\/0\/expires must be a date YYYY-MM-DD \(got "31\/01\/2999"\)$/,
    );
    expect(run.stderr).toContain(`waivers file ${file}: line`);
  });
});

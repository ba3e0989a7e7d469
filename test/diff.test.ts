import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset } from '../fixtures/dataset.ts';
import { mutants as stagingMutants } from '../fixtures/mutants/staging.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { parseCommandLine } from '../src/cli/args.ts';
import { compareIds, compareRecords, compareRows, sameValue, sampleIds, type Disagreement } from '../src/diff/compare.ts';
import { resolveDiffConfig } from '../src/diff/config.ts';
import { applyIgnoreRules } from '../src/diff/ignore.ts';
import { isModificationStamp } from '../src/spec/lenient.ts';
import { diffJson, renderDiff } from '../src/diff/render.ts';
import { LIST, rewriteAnswer, rowsIn } from '../fixtures/mutants/toolkit.ts';
import type { DiffReport } from '../src/diff/run.ts';
import { runCli } from './support/cli.ts';

const primaryRow = {
  id: 7,
  Title: 'Azul',
  type: 'Board game',
  type_id: 3,
  is_kept: 1,
  is_physical: 1,
  is_digital: 0,
  is_in_secondary_collection: 0,
  tags: ['family', 'party'],
};
const stagingRow = { id: 7, Title: 'Azul', tags: ['family', 'party'] };
const primaryVsStaging = { target: 'primary', against: 'staging' } as const;

describe('comparing rows and records', () => {
  it('accepts a staging row that is the projection of the primary row', () => {
    expect(compareRows('7', { target: primaryRow, against: stagingRow }, primaryVsStaging)).toEqual([]);
    expect(compareRows('7', { target: stagingRow, against: primaryRow }, { target: 'staging', against: 'primary' })).toEqual([]);
  });

  it('reports a staging row that carries a field staging omits, naming the side and field', () => {
    const found = compareRows('7', { target: primaryRow, against: { ...stagingRow, is_kept: 1 } }, primaryVsStaging);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ itemId: '7', field: 'is_kept', values: { target: 1, against: 1 } });
    expect(found[0]!.note).toMatch(/against row carries is_kept.*staging profile omits/);
  });

  it('reports a differing title and a missing staging field with both values', () => {
    const found = compareRows('7', { target: primaryRow, against: { id: 7, Title: 'Azul!' } }, primaryVsStaging);
    expect(found.map((d) => [d.field, d.note])).toEqual([
      ['Title', 'the values differ'],
      ['tags', 'the against row lacks tags'],
    ]);
    expect(found[0]!.values).toEqual({ target: 'Azul', against: 'Azul!' });
  });

  it('holds two primary rows to the same fields', () => {
    const { is_digital: _dropped, ...fewer } = primaryRow;
    const found = compareRows('7', { target: primaryRow, against: fewer }, { target: 'primary', against: 'primary' });
    expect(found.map((d) => d.field)).toEqual(['is_digital']);
  });

  it('compares single reads field by field whatever the profile', () => {
    const record = { ...primaryRow, notes: 'x' };
    expect(compareRecords('7', { target: record, against: { ...record } })).toEqual([]);
    expect(compareRecords('7', { target: record, against: { ...record, notes: 'y', is_kept: 0 } }).map((d) => d.field)).toEqual(['is_kept', 'notes']);
    expect(compareRecords('7', { target: record, against: primaryRow })[0]!.note).toBe('only the target record carries notes');
  });

  it('reads values as the spec allows: flags 0/1 or booleans, ids as numbers or strings, tags in any order', () => {
    expect(sameValue('is_kept', 1, true)).toBe(true);
    expect(sameValue('is_kept', 0, true)).toBe(false);
    expect(sameValue('id', 7, '7')).toBe(true);
    expect(sameValue('tags', ['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameValue('tags', ['a'], ['a', 'a'])).toBe(false);
    expect(sameValue('Title', 'Azul', 'azul')).toBe(false);
    expect(sameValue('Yr', 1, '1')).toBe(false);
  });

  it('splits ids into common and one-sided, and reports duplicates', () => {
    const ids = compareIds({ target: ['1', '2', '3', '3'], against: ['2', '3', '10'] });
    expect(ids.common).toEqual(['2', '3']);
    expect(ids.onlyOn).toEqual({ target: ['1'], against: ['10'] });
    expect(ids.duplicates.map((d) => d.itemId)).toEqual(['3']);
  });

  it('samples a bounded, seeded subset', () => {
    const ids = Array.from({ length: 100 }, (_, i) => String(i + 1));
    expect(sampleIds(ids, 10, 5)).toEqual(sampleIds(ids, 10, 5));
    expect(sampleIds(ids, 10, 5)).toHaveLength(10);
    expect(sampleIds(ids, 10, 5)).not.toEqual(sampleIds(ids, 10, 6));
    expect(sampleIds(ids.slice(0, 3), 10, 5)).toEqual(['1', '2', '3']);
  });
});

describe('conform diff', () => {
  let primary: RunningReference;
  let staging: RunningReference;
  const key = () => primary.keys.primary;

  beforeAll(async () => {
    primary = await startReference();
    staging = await startReference({ profile: 'staging' });
  });
  afterAll(async () => {
    await primary?.close();
    await staging?.close();
  });

  const diff = (against: string, extra: string[] = [], env: Record<string, string> = {}) =>
    runCli(['diff', '--target', primary.url, '--key', key(), '--against', against, '--seed', '11', ...extra], env);

  it('with no target, compares the embedded reference in primary mode with itself in staging mode: agree', async () => {
    const run = await runCli(['diff']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/target\s+embedded reference .*primary profile: 120 item\(s\)/);
    expect(run.stdout).toMatch(/against\s+embedded reference .*staging profile: 120 item\(s\)/);
    expect(run.stdout).toContain('verdict: the deployments agree; exit 0');
    for (const user of buildDataset().users) expect(run.stdout + run.stderr).not.toContain(user.key);
  });

  it('a matched primary/staging pair agrees; the key never shows', async () => {
    const run = await diff(staging.url);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ids: 120 in common, 0 only on target, 0 only on against/);
    expect(run.stdout).toMatch(/single reads: 10 sampled item\(s\) compared \(seed 11\)/);
    expect(run.stdout + run.stderr).not.toContain(key());
  });

  it('a staging copy with one changed title disagrees and prints the item, field and both values', async () => {
    const dataset = buildDataset();
    const changed = dataset.items.find((i) => i.user_id === dataset.users[0]!.id)!;
    const original = changed.Title;
    changed.Title = `${original} (edited)`;
    const copy = await startReference({ profile: 'staging', dataset });
    try {
      const run = await diff(copy.url);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toContain(
        `✗ item ${changed.id}, list row, Title: the values differ: target ${JSON.stringify(original)} | against ${JSON.stringify(changed.Title)}`,
      );
      expect(run.stdout).toMatch(/verdict: the deployments disagree \(1 title difference\(s\)\); exit 1/);
      expect(run.stdout + run.stderr).not.toContain(key());
    } finally {
      await copy.close();
    }
  });

  it('a different collection disagrees on ids', async () => {
    const other = await startReference({ profile: 'staging', dataset: buildDataset({ itemsPerUser: 110 }) });
    try {
      const run = await diff(other.url);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/✗ \d+ item id\(s\) only on (target|against): \d+/);
      expect(run.stdout).toMatch(/ids: \d+ in common, \d+ only on target, \d+ only on against/);
    } finally {
      await other.close();
    }
  });

  it('a staging deployment whose rows carry primary-only fields disagrees', async () => {
    const leaky = await startReference({ profile: 'staging', wrap: stagingMutants.find((m) => m.id === 'staging-rows-carry-flags')!.wrap! });
    try {
      const run = await diff(leaky.url);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/✗ list row, is_kept: the against row carries is_kept, which the staging profile omits from list rows, on 120 items/);
      expect(run.stdout).toMatch(/e\.g\. item \d+: target [01] \| against 0/);
    } finally {
      await leaky.close();
    }
  });

  it('resolves named targets and their key variables from the targets file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conform-diff-'));
    const targets = {
      live: { url: primary.url, profile: 'primary', keyEnv: 'LIVE_KEY' },
      stage: { url: staging.url, profile: 'staging', keyEnv: 'STAGE_KEY' },
    };
    writeFileSync(join(dir, 'conform.config.json'), JSON.stringify({ targets }));
    const run = await runCli(['diff', '--target', 'live', '--against', 'stage'], { LIVE_KEY: key(), STAGE_KEY: key() }, dir);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/target\s+live \(http/);
    expect(run.stdout).toMatch(/against\s+stage \(http.*staging profile/);
  });

  it('exits 2 on usage errors and a refused key, 3 when a side is unreachable', async () => {
    const half = await runCli(['diff', '--target', primary.url, '--key', key()]);
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/diff needs both --target and --against/);
    const refused = await diff(staging.url, ['--against-key', 'not-a-key-of-anyone']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--against .*refused the key/);
    const closed = await startReference();
    const url = closed.url;
    await closed.close();
    const unreachable = await diff(url);
    expect(unreachable.code, unreachable.stderr).toBe(3);
    expect(unreachable.stderr).toMatch(/--against .*unreachable/);
    for (const run of [half, refused, unreachable]) expect(run.stdout + run.stderr).not.toContain(key());
  });
});

describe('diff options: --out, --reporter, --against-profile', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'conform-diffcfg-'));
  const config = (argv: string[], env: Record<string, string> = {}) => resolveDiffConfig(parseCommandLine(['diff', ...argv]).values, env, cwd);
  const remote = ['--target', 'http://a.test', '--key', 'k', '--against', 'http://b.test'];

  it.each([
    [[], {}, { reporters: ['terminal'] }],
    [['--out', 'd'], {}, { reporters: ['terminal', 'json'], out: { dir: join(cwd, 'd') } }],
    [['--out', '-'], {}, { reporters: ['terminal', 'json'], out: { stdout: true } }],
    [['--reporter', 'json'], {}, { reporters: ['json'], out: { dir: join(cwd, 'conform-report') } }],
    [['--reporter', 'terminal,github'], {}, { reporters: ['terminal', 'github'] }],
    [[], { GITHUB_ACTIONS: 'true' }, { reporters: ['terminal', 'github'] }],
    [['--against-profile', 'primary'], {}, { against: { kind: 'embedded', profile: 'primary' } }],
    [remote, {}, { against: { profile: 'staging', keySource: '--key' } }],
    [
      [...remote, '--against-profile', 'primary', '--against-key', 'k2'],
      {},
      { against: { profile: 'primary', keySource: '--against-key', keys: { primary: 'k2' } } },
    ],
  ])('%j %j resolves', (argv, env, expected) => {
    const resolved = config(argv, env);
    expect(resolved).toMatchObject(expected);
    // No JSON unless asked for: --out, or json among --reporter.
    expect(resolved.out !== undefined).toBe(resolved.reporters.includes('json'));
  });

  it.each([
    [['--reporter', 'junit'], /diff writes the reporters terminal, json, github; not junit/],
    [['--against-profile', 'prod'], /--against-profile must be primary or staging/],
    [
      ['--target', 'http://a.test', '--key', 'k', '--against', 'elsewhere', '--config', join(import.meta.dirname, '..', 'conform.config.json')],
      /unknown --against target 'elsewhere'.*\(known: primary, staging\)/,
    ],
  ])('%j is a usage error', (argv, message) => {
    expect(() => config(argv)).toThrow(message);
  });
});

describe('diff output', () => {
  const d = (itemId: string, target: unknown, against: unknown): Disagreement => ({
    itemId,
    where: 'list row',
    field: 'Title',
    values: { target, against },
    note: 'the values differ',
  });
  const report = (disagreements: Disagreement[]): DiffReport => ({
    sides: {
      target: { label: 'a', baseUrl: 'http://a', profile: 'primary', items: 3 },
      against: { label: 'b', baseUrl: 'http://b', profile: 'primary', items: 3 },
    },
    common: 3,
    onlyOn: { target: [], against: [] },
    rowsCompared: 3,
    sampled: [],
    seed: 1,
    requests: 4,
    disagreements,
    ignored: [],
  });

  it('prints the same difference on several items once, with the ids and two examples', () => {
    const text = renderDiff(report([d('1', 'A', 'a'), d('2', 'B', 'b'), d('3', 'C', 'c')]));
    expect(text).toContain(
      '✗ list row, Title: the values differ, on 3 items: 1, 2, 3\n    e.g. item 1: target "A" | against "a"\n    e.g. item 2: target "B" | against "b"\n',
    );
    expect(text).not.toContain('item 3: target');
    expect(renderDiff(report([d('1', 'A', 'a')]))).toContain('✗ item 1, list row, Title: the values differ: target "A" | against "a"');
  });

  it('without the terminal reporter prints only the summary; diff.json holds every difference with both values', () => {
    const r = report([d('1', 'A', 'a'), d('2', 'B', 'b')]);
    expect(renderDiff(r, { full: false })).toMatch(/^ids: 3 in common[^]*verdict: the deployments disagree \(2 title difference\(s\)\); exit 1\n$/);
    const json = JSON.parse(diffJson(r)) as { agrees: boolean; exitCode: number; disagreements: Disagreement[] };
    expect(json).toMatchObject({ agrees: false, exitCode: 1 });
    expect(json.disagreements.map((x) => x.values)).toEqual([
      { target: 'A', against: 'a' },
      { target: 'B', against: 'b' },
    ]);
  });
});

describe('conform diff: two primaries, JSON and the job summary', () => {
  let left: RunningReference;
  let right: RunningReference;
  beforeAll(async () => {
    left = await startReference();
    right = await startReference();
  });
  afterAll(async () => {
    await left?.close();
    await right?.close();
  });
  const diff = (extra: string[], env: Record<string, string> = {}) =>
    runCli(['diff', '--target', left.url, '--key', left.keys.primary, '--against', right.url, '--seed', '3', ...extra], env);

  it('--against-profile primary makes two primaries comparable: they agree; held to staging they do not', async () => {
    const asPrimary = await diff(['--against-profile', 'primary']);
    expect(asPrimary.code, asPrimary.stdout + asPrimary.stderr).toBe(0);
    expect(asPrimary.stdout).toMatch(/against\s+http\S+, primary profile: 120 item\(s\)/);
    const asStaging = await diff([]);
    expect(asStaging.code).toBe(1);
    expect(asStaging.stdout).toMatch(/the against row carries is_kept, which the staging profile omits/);
  });

  it('--out DIR writes diff.json; --out - prints it on stdout and the text on stderr; the key shows nowhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conform-diffout-'));
    const toFolder = await diff(['--out', dir]);
    expect(toFolder.code).toBe(1);
    const json = JSON.parse(readFileSync(join(dir, 'diff.json'), 'utf8')) as {
      agrees: boolean;
      disagreements: Disagreement[];
      sides: { against: { profile: string } };
    };
    expect(json.agrees).toBe(false);
    expect(json.sides.against.profile).toBe('staging');
    expect(json.disagreements.length).toBeGreaterThan(100);
    expect(toFolder.stdout).toContain(`report: ${join(dir, 'diff.json')}`);
    const toStdout = await diff(['--out', '-', '--against-profile', 'primary']);
    expect(toStdout.code).toBe(0);
    expect(JSON.parse(toStdout.stdout)).toMatchObject({ agrees: true, exitCode: 0, common: 120 });
    expect(toStdout.stderr).toMatch(/verdict: the deployments agree; exit 0/);
    for (const run of [toFolder, toStdout]) expect(run.stdout + run.stderr + readFileSync(join(dir, 'diff.json'), 'utf8')).not.toContain(left.keys.primary);
  });

  it('--reporter github appends the diff to the job summary', async () => {
    const summary = join(mkdtempSync(join(tmpdir(), 'conform-diffsum-')), 'summary.md');
    writeFileSync(summary, '');
    const run = await diff(['--reporter', 'github', '--against-profile', 'primary'], { GITHUB_STEP_SUMMARY: summary });
    expect(run.code).toBe(0);
    expect(readFileSync(summary, 'utf8')).toMatch(/^## ✅ conform diff: the deployments agree\n\n```text\ntarget /);
    expect(run.stdout).toMatch(/verdict: the deployments agree/);
    expect(run.stdout).not.toMatch(/^target /m);
  });
});

describe('what a diff does not count', () => {
  it.each([
    'updated_at',
    'updatedAt',
    'UpdatedAt',
    'lastModified',
    'last_modified',
    'date_modified',
    'modified',
    'kept_at',
    'keptAt',
    'kept_since',
    'version',
    'etag',
    'Revision',
    'changed-at',
  ])('%s is a modification stamp', (field) => expect(isModificationStamp(field)).toBe(true));
  it.each(['is_kept', 'Title', 'last_use', 'plays', 'created_at', 'notes', 'kept', 'Yr', 'keeper'])('%s is not a modification stamp', (field) =>
    expect(isModificationStamp(field)).toBe(false),
  );

  const d = (itemId: string, field: string): Disagreement => ({
    itemId,
    where: 'single read',
    field,
    values: { target: 1, against: 2 },
    note: 'the values differ',
  });

  it('counts spec fields, leaves out stamps, --ignore-field and unnamed fields of items a run put back, and says so', () => {
    const { kept, ignored } = applyIgnoreRules(
      [d('1', 'updated_at'), d('2', 'updated_at'), d('1', 'is_kept'), d('3', 'notes'), d('4', 'notes'), d('4', 'score')],
      {
        fields: ['score', 'colour'],
        touched: [{ journal: 'j.jsonl', ids: new Set(['4', '1']) }],
      },
    );
    expect(kept.map((x) => [x.itemId, x.field])).toEqual([
      ['1', 'is_kept'],
      ['3', 'notes'],
    ]);
    expect(ignored).toEqual([
      { field: 'score', reason: '--ignore-field', differedOn: 1 },
      { field: 'colour', reason: '--ignore-field', differedOn: 0 },
      { field: 'updated_at', reason: 'modification stamp', differedOn: 2 },
      { field: 'notes', reason: 'changed by a conform run and put back', differedOn: 1, journal: 'j.jsonl' },
    ]);
  });

  it('a staging row carrying a stamp is still a projection fault', () => {
    const found = compareRows('7', { target: primaryRow, against: { ...stagingRow, updated_at: 'x' } }, primaryVsStaging);
    expect(applyIgnoreRules(found, { fields: [], touched: [] }).kept.map((x) => x.field)).toEqual(['updated_at']);
  });
});

describe('conform diff after a run toggled and restored items', () => {
  let left: RunningReference;
  let right: RunningReference;
  // The right-hand deployment moves a stamp and a counter on every item, as a real service does on a toggle.
  beforeAll(async () => {
    left = await startReference({ wrap: rewriteAnswer((res, req) => stamp(res, req.path, false)) });
    right = await startReference({ wrap: rewriteAnswer((res, req) => stamp(res, req.path, true)) });
  });
  afterAll(async () => {
    await left?.close();
    await right?.close();
  });
  type Answer = Parameters<Parameters<typeof rewriteAnswer>[0]>[0];
  const moved = (row: Record<string, unknown>, hit: boolean) => ({
    ...row,
    updatedAt: hit ? '2026-11-28T10:00:00Z' : '2026-01-01T00:00:00Z',
    toggle_count: hit ? 2 : 0,
  });
  function stamp(res: Answer, path: string, hit: boolean): Answer {
    const rows = path === LIST ? rowsIn(res) : undefined;
    if (rows) {
      rows.splice(0, rows.length, ...rows.map((row) => moved(row, hit)));
      return res;
    }
    const body = res.body;
    return typeof body === 'object' && body !== null && 'Title' in body ? { ...res, body: moved(body as Record<string, unknown>, hit) } : res;
  }
  const diff = (extra: string[], cwd?: string) =>
    runCli(
      ['diff', '--target', left.url, '--key', left.keys.primary, '--against', right.url, '--against-profile', 'primary', '--seed', '3', ...extra],
      {},
      cwd,
    );

  it('a moved stamp is not a difference and the report says it was left out; --ignore-field and --journal cover the rest', async () => {
    const dataset = buildDataset();
    const ids = dataset.items.filter((i) => i.user_id === dataset.users[0]!.id).map((i) => String(i.id));
    const counter = await diff([]);
    expect(counter.code, counter.stdout + counter.stderr).toBe(1);
    expect(counter.stdout).toMatch(/toggle_count: the values differ, on 120 items/);
    expect(counter.stdout).not.toMatch(/updatedAt: the values differ/);
    expect(counter.stdout).toMatch(/not counted: updatedAt \(a modification stamp, which the spec does not fix; differed on 120 item\(s\)\)/);

    const flagged = await diff(['--ignore-field', 'toggle_count', '--ignore-field', 'colour']);
    expect(flagged.code, flagged.stdout + flagged.stderr).toBe(0);
    expect(flagged.stdout).toMatch(/toggle_count \(named by --ignore-field; differed on 120 item\(s\)\); colour \(named by --ignore-field; never differed\)/);

    const dir = mkdtempSync(join(tmpdir(), 'conform-diffjournal-'));
    const journal = join(dir, 'conform-report', 'journal.jsonl');
    const lines = [{ op: 'run', at: 'x', url: right.url, profile: 'primary', keys: { primary: 'sha256:0' } }];
    const entries = ids.flatMap((id) => [
      { op: 'change', at: 'x', user: 'primary', id, from: 0, to: 1 },
      { op: 'restored', at: 'x', user: 'primary', id, value: 0 },
    ]);
    mkdirSync(join(dir, 'conform-report'));
    writeFileSync(journal, `${[...lines, ...entries].map((l) => JSON.stringify(l)).join('\n')}\n`);
    const found = await diff(['--out', 'out'], dir);
    expect(found.code, found.stdout + found.stderr).toBe(0);
    expect(found.stdout).toContain(`toggle_count (on items a conform run toggled and put back (${journal}); differed on 120 item(s))`);
    const json = JSON.parse(readFileSync(join(dir, 'out', 'diff.json'), 'utf8')) as { ignored: unknown[] };
    expect(json.ignored).toContainEqual({ field: 'toggle_count', reason: 'changed by a conform run and put back', differedOn: 120, journal });

    const elsewhere = join(dir, 'other.jsonl');
    writeFileSync(elsewhere, `${JSON.stringify({ ...lines[0], url: 'http://elsewhere.test' })}\n`);
    const wrong = await diff(['--journal', elsewhere]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--journal .* was written against http:\/\/elsewhere\.test, neither --target nor --against/);
  });
});

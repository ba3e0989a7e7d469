import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clauses } from '../src/spec/clauses.ts';
import { coverageProblems } from '../src/cli/matrix.ts';
import { assertionsInText, assertionTies } from './support/assertion-ties.ts';
import { runCli } from './support/cli.ts';

describe('clause coverage matrix', () => {
  it('ties every check to a clause, and every clause to checks or a reason', async () => {
    const run = await runCli(['--list', '--format', 'json']);
    const checks = JSON.parse(run.stdout) as { id: string }[];
    expect(coverageProblems(checks)).toEqual({ checksWithoutClause: [], clausesWithoutCover: [], unknownChecks: [] });
  });

  it('has unique clause ids and a section for each', () => {
    expect(new Set(clauses.map((c) => c.id)).size).toBe(clauses.length);
    for (const clause of clauses) expect(clause.id.slice(1).split('.')[0]).toBe(clause.section.slice(1));
  });

  it('is published up to date in CONFORMANCE.md', async () => {
    const run = await runCli(['matrix']);
    expect(run.code).toBe(0);
    expect(readFileSync(new URL('../CONFORMANCE.md', import.meta.url), 'utf8')).toBe(run.stdout);
  });
});

describe('assertion audit: every assertion rests on a clause', () => {
  const { byCheck, sites } = assertionTies();
  const registry = new Map(clauses.map((c) => [c.id, c]));

  it('finds the assertions of every check', () => {
    expect(byCheck.size).toBeGreaterThanOrEqual(60);
    expect(sites.length).toBeGreaterThan(150);
  });

  it('names a clause of the registry in every assertion of suites/ (and of the helpers they assert through)', () => {
    const untied = sites.filter((s) => s.clause === undefined).map((s) => `${s.file}:${s.line} ${s.call}`);
    expect(untied, 'assertions that name no clause: pass its id (src/spec/clauses.ts) as the first argument').toEqual([]);
    const unknown = sites.filter((s) => s.clause !== undefined && !registry.has(s.clause)).map((s) => `${s.file}:${s.line} ${s.clause}`);
    expect(unknown, 'assertions naming a clause the registry lacks').toEqual([]);
  });

  it('lists each check under every clause its assertions name, and gives every check at least one', () => {
    const gaps: string[] = [];
    for (const [check, named] of byCheck) {
      if (named.size === 0) gaps.push(`${check} names no clause`);
      for (const id of named) if (!registry.get(id)?.checks.includes(check)) gaps.push(`${id} does not list ${check}`);
    }
    expect(gaps).toEqual([]);
  });

  it('tells an assertion without a clause from one with a clause, also through a helper that takes one', () => {
    const sites = assertionsInText(`
      function notHonoured(clause: ClauseId, ex: Exchange) { ensure(clause, ex.ok, 'x'); }
      check({ id: 'X-1' }, async (t) => {
        ensure(a === b, 'no clause here');
        ensure('C4.4', a === b, 'tied');
        okRows(ex, 'untied read');
        notHonoured('C4.13', ex);
        notHonoured(undefined, ex);
      });`);
    expect(sites.map((s) => [s.call, s.clause ?? null])).toEqual([
      ['ensure(…)', null],
      ['ensure(…)', 'C4.4'],
      ['okRows(…)', null],
      ['notHonoured(…)', 'C4.13'],
      ['notHonoured(…)', null],
    ]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clauses } from '../src/clauses.ts';
import { coverageProblems } from '../src/cli/matrix.ts';
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

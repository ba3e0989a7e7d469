import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { clauseElements, elementProblems } from '../src/spec/clause-elements.ts';
import { clauses } from '../src/spec/clauses.ts';
import { runCli } from './support/cli.ts';

describe('clause-element table', () => {
  it('gives every element of every normative clause a check and a mutant that kills it', async () => {
    const run = await runCli(['--list', '--format', 'json']);
    expect(run.code).toBe(0);
    const checkIds = new Set((JSON.parse(run.stdout) as { id: string }[]).map((c) => c.id));
    const problems = elementProblems(clauses, checkIds, await loadMutants());
    expect(problems).toEqual({ unknownClauses: [], clausesWithoutElements: [], emptyCells: [], unknownChecks: [], unknownMutants: [], unproven: [] });
  });

  it('catches a table that names what does not exist or proves nothing', () => {
    const someClause = Object.keys(clauseElements)[0]!;
    const element = clauseElements[someClause]![0]!;
    // Every check and mutant the table names is present, except one mutant that kills something else.
    const checkIds = new Set(Object.values(clauseElements).flatMap((list) => list.flatMap((e) => e.checks)));
    const named = [...new Set(Object.values(clauseElements).flatMap((list) => list.flatMap((e) => e.mutants)))];
    const mutants = named.map((id) => ({ id, kills: id === element.mutants[0] ? ['NO-SUCH-CHECK'] : [...checkIds] }));
    const problems = elementProblems(
      clauses.filter((c) => c.id !== someClause),
      new Set([...checkIds].filter((id) => id !== element.checks[0])),
      mutants.slice(1),
    );
    expect(problems.unknownClauses).toEqual([someClause]);
    expect(problems.unknownChecks.length).toBeGreaterThan(0);
    expect(problems.unknownMutants.length).toBeGreaterThan(0);
    const broken = elementProblems(clauses, checkIds, mutants);
    expect(broken.unproven.some((p) => p.includes(element.mutants[0]!))).toBe(true);
  });

  it('lists each element once per clause', () => {
    for (const [clause, list] of Object.entries(clauseElements)) {
      const names = list.map((e) => e.element);
      expect(new Set(names).size, clause).toBe(names.length);
    }
  });
});

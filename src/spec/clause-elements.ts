import { coverage } from './inventory/coverage.ts';
import { inventoryElements } from './inventory/index.ts';
import { pending } from './inventory/pending.ts';
import type { ElementKind } from './inventory/types.ts';

/**
 * The clause-element table, built from the statement inventory (src/spec/inventory/): each element the
 * inventory expands the spec's sentences into, under its clause (src/spec/clauses.ts, by id), with the checks
 * that cover it and the mutants (fixtures/mutants/) that prove those checks bite on exactly that element
 * (inventory/coverage.ts). Elements still waiting for a check or a mutant are listed apart, with why
 * (inventory/pending.ts). `conform matrix` renders both; test/clause-elements.test.ts fails on an empty cell or
 * a name that does not resolve, test/inventory.test.ts on an element neither covered nor pending.
 */
export type { ElementKind } from './inventory/types.ts';

export interface ClauseElement {
  element: string;
  kind: ElementKind;
  checks: readonly string[];
  mutants: readonly string[];
}

export interface PendingElement {
  clause: string;
  element: string;
  kind: ElementKind;
  why: string;
}

function buildTable(): { covered: Record<string, ClauseElement[]>; waiting: PendingElement[] } {
  const covered: Record<string, ClauseElement[]> = {};
  const waiting: PendingElement[] = [];
  for (const e of inventoryElements()) {
    const cell = coverage[e.key];
    if (cell) (covered[e.clause] ??= []).push({ element: e.name, kind: e.kind, checks: cell[0], mutants: cell[1] });
    else if (e.key in pending) waiting.push({ clause: e.clause, element: e.name, kind: e.kind, why: pending[e.key]! });
  }
  return { covered, waiting };
}

const table = buildTable();

/** Every covered element of the inventory, by clause. */
export const clauseElements: Readonly<Record<string, readonly ClauseElement[]>> = table.covered;

/** Every element of the inventory still waiting for a check or a mutant, with why. */
export const pendingElements: readonly PendingElement[] = table.waiting;

export interface ElementProblems {
  unknownClauses: string[];
  clausesWithoutElements: string[];
  emptyCells: string[];
  unknownChecks: string[];
  unknownMutants: string[];
  /** A mutant that kills none of its element's checks, or a check that none of its element's mutants kills. */
  unproven: string[];
}

/** What makes the table dishonest: names that resolve to nothing, empty cells, proofs that prove nothing. */
export function elementProblems(
  normativeClauses: readonly { id: string; checks: readonly string[] }[],
  checkIds: ReadonlySet<string>,
  mutants: readonly { id: string; kills: readonly string[] }[],
): ElementProblems {
  const kills = new Map(mutants.map((m) => [m.id, new Set(m.kills)]));
  const known = new Set(normativeClauses.map((c) => c.id));
  const problems: ElementProblems = { unknownClauses: [], clausesWithoutElements: [], emptyCells: [], unknownChecks: [], unknownMutants: [], unproven: [] };
  for (const [clause, elements] of Object.entries(clauseElements)) {
    if (!known.has(clause)) problems.unknownClauses.push(clause);
    for (const e of elements) {
      const name = `${clause} ${e.element}`;
      if (e.checks.length === 0 || e.mutants.length === 0) problems.emptyCells.push(name);
      problems.unknownChecks.push(...e.checks.filter((id) => !checkIds.has(id)).map((id) => `${name}: ${id}`));
      problems.unknownMutants.push(...e.mutants.filter((id) => !kills.has(id)).map((id) => `${name}: ${id}`));
      for (const m of e.mutants.filter((id) => kills.has(id))) {
        if (!e.checks.some((c) => kills.get(m)!.has(c))) problems.unproven.push(`${name}: mutant ${m} kills none of ${e.checks.join(', ')}`);
      }
      for (const c of e.checks) {
        if (!e.mutants.some((m) => kills.get(m)?.has(c))) problems.unproven.push(`${name}: no mutant of the element kills ${c}`);
      }
    }
  }
  problems.clausesWithoutElements = normativeClauses.filter((c) => c.checks.length > 0 && !(c.id in clauseElements)).map((c) => c.id);
  return problems;
}

export const elementCount = (): number => Object.values(clauseElements).reduce((n, list) => n + list.length, 0);

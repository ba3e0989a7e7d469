import { clauses } from '../clauses.ts';
import { coverage } from './coverage.ts';
import { inventory, inventoryElements } from './index.ts';
import { pending } from './pending.ts';
import { specSentences } from './sentences.ts';
import type { InventorySection } from './types.ts';

/**
 * Where the inventory and the spec part ways: per section, the spec's sentences (by digest, in order) against
 * the inventory's. A sentence the spec gained, lost or reworded shows here, with its text (read from the spec
 * at run time, never stored).
 */
export function sentenceProblems(specMarkdown: string, sections: readonly InventorySection[] = inventory): string[] {
  const problems: string[] = [];
  const spec = specSentences(specMarkdown);
  const names = [...new Set([...spec.map((s) => s.section), ...sections.map((s) => s.section)])];
  for (const name of names) {
    const want = spec.filter((s) => s.section === name);
    const have = sections.filter((s) => s.section === name).flatMap((s) => s.sentences);
    const length = Math.max(want.length, have.length);
    for (let i = 0; i < length; i++) {
      const w = want[i];
      const h = have[i];
      if (w?.digest === h?.digest) continue;
      if (w === undefined) problems.push(`${name} sentence ${i + 1}: the inventory has ${h!.digest} (${h!.says}), the spec has no sentence here`);
      else if (h === undefined) problems.push(`${name} sentence ${i + 1}: not in the inventory: ${w.digest} "${w.text}"`);
      else problems.push(`${name} sentence ${i + 1}: the spec has ${w.digest} "${w.text}", the inventory ${h.digest} (${h.says})`);
      break;
    }
    if (want.length !== have.length) problems.push(`${name}: the spec has ${want.length} sentences, the inventory ${have.length}`);
  }
  return problems;
}

export interface InventoryProblems {
  /** A requirement with no element, a freedom without an untestable clause, a statement on an unknown clause. */
  shape: string[];
  /** An element with neither a check and a mutant (coverage.ts) nor a reason (pending.ts). */
  uncovered: string[];
  /** An element both covered and pending: its pending line is to be dropped. */
  coveredAndPending: string[];
  /** A coverage or pending line whose element the inventory does not have. */
  orphans: string[];
}

export function inventoryProblems(
  sections: readonly InventorySection[] = inventory,
  covered: Readonly<Record<string, readonly [readonly string[], readonly string[]]>> = coverage,
  waiting: Readonly<Record<string, string>> = pending,
): InventoryProblems {
  const registry = new Map(clauses.map((c) => [c.id, c]));
  const problems: InventoryProblems = { shape: [], uncovered: [], coveredAndPending: [], orphans: [] };
  for (const section of sections) {
    for (const s of section.sentences) {
      const at = `${section.section} ${s.digest}`;
      if (s.says.trim() === '') problems.shape.push(`${at}: no paraphrase`);
      if (s.kind === 'requirement' && !s.statements.some((st) => st.elements.length > 0)) problems.shape.push(`${at}: a requirement with no element`);
      if (s.kind !== 'requirement' && s.statements.length > 0) problems.shape.push(`${at}: a ${s.kind} with statements`);
      if (s.kind === 'freedom' && registry.get(s.clause ?? '')?.untestable === undefined)
        problems.shape.push(`${at}: a freedom not recorded by an untestable clause`);
      for (const st of s.statements) {
        const clause = registry.get(st.clause);
        if (clause === undefined || clause.checks.length === 0) problems.shape.push(`${at}: statement on ${st.clause}, which is no normative clause`);
      }
    }
  }
  const keys = new Set(inventoryElements(sections).map((e) => e.key));
  for (const key of keys) {
    const cell = covered[key];
    const proven = cell !== undefined && cell[0].length > 0 && cell[1].length > 0;
    const why = waiting[key];
    if (!proven && !(why && why.trim().length > 0)) problems.uncovered.push(key);
    if (cell !== undefined && why !== undefined) problems.coveredAndPending.push(key);
  }
  for (const key of [...Object.keys(covered), ...Object.keys(waiting)]) if (!keys.has(key)) problems.orphans.push(key);
  return problems;
}

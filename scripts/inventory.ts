/**
 * Figures of the statement inventory (src/spec/inventory/): spec sentences (by kind), statements, elements,
 * elements with a check and a mutant, and elements pending. `--list` prints every element with its cover
 * or why it is pending.
 *   node --import tsx scripts/inventory.ts [--list]
 */
import { type ClauseElement, clauseElements, elementCount, pendingElements } from '../src/spec/clause-elements.ts';
import { inventoryElements, inventoryFigures } from '../src/spec/inventory/index.ts';

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = inventoryFigures();
  if (process.argv.includes('--list')) {
    const covered = new Map<string, ClauseElement>(
      Object.entries(clauseElements).flatMap(([clause, list]) => list.map((e): [string, ClauseElement] => [`${clause} ${e.element}`, e])),
    );
    const waiting = new Map(pendingElements.map((e) => [`${e.clause} ${e.element}`, e]));
    for (const e of inventoryElements()) {
      const c = covered.get(e.key);
      const p = waiting.get(e.key);
      const status = c ? `ok       checks ${c.checks.join(', ')}; mutants ${c.mutants.join(', ')}` : `pending  ${p?.why ?? '(neither covered nor pending)'}`;
      console.log(`${e.section.padEnd(3)} ${e.key.padEnd(90)} [${e.kind}] ${status}`);
    }
    console.log('');
  }
  console.log(`sentences: ${f.sentences} (${f.requirements} requirements, ${f.freedoms} freedoms, ${f.prose} prose)`);
  console.log(`statements: ${f.statements}`);
  console.log(`elements: ${f.elements}`);
  console.log(`elements with a check and a mutant: ${elementCount()}`);
  console.log(`pending: ${pendingElements.length}`);
}

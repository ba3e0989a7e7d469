import { preamble, purpose } from './s0-s1-purpose.ts';
import { resources } from './s2-resources.ts';
import { states } from './s3-states.ts';
import { listSentences } from './s4-list.ts';
import { readSentences } from './s4-reads.ts';
import { authentication, errors, events, limits, versioning } from './s5-s9.ts';
import type { ElementKind, InventorySection } from './types.ts';

/**
 * The statement inventory: every sentence of the spec, section by section and in order (known by digest,
 * told in our own words), the statements each requirement yields and the elements they expand into.
 * src/spec/clause-elements.ts builds the clause-element table from it; test/inventory.test.ts holds it to the
 * spec's sentences and every element to a check and a mutant or to a reasoned entry of pending.ts.
 */
export const inventory: readonly InventorySection[] = [
  preamble,
  purpose,
  resources,
  states,
  { section: '§4', sentences: [...listSentences, ...readSentences] },
  authentication,
  events,
  errors,
  limits,
  versioning,
];

export interface KeyedElement {
  key: string;
  clause: string;
  name: string;
  kind: ElementKind;
  section: string;
}

/** Every element of the inventory once, by key (`${clause} ${name}`), in spec order. */
export function inventoryElements(sections: readonly InventorySection[] = inventory): KeyedElement[] {
  const seen = new Map<string, KeyedElement>();
  for (const section of sections) {
    for (const sentence of section.sentences) {
      for (const s of sentence.statements) {
        for (const e of s.elements) {
          const key = `${s.clause} ${e.name}`;
          if (!seen.has(key)) seen.set(key, { key, clause: s.clause, name: e.name, kind: e.kind, section: section.section });
        }
      }
    }
  }
  return [...seen.values()];
}

export interface InventoryFigures {
  sentences: number;
  requirements: number;
  freedoms: number;
  prose: number;
  statements: number;
  elements: number;
}

export function inventoryFigures(): InventoryFigures {
  const all = inventory.flatMap((s) => s.sentences);
  return {
    sentences: all.length,
    requirements: all.filter((s) => s.kind === 'requirement').length,
    freedoms: all.filter((s) => s.kind === 'freedom').length,
    prose: all.filter((s) => s.kind === 'prose').length,
    statements: all.reduce((n, s) => n + s.statements.length, 0),
    elements: inventoryElements().length,
  };
}

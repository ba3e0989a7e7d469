/**
 * The statement inventory's shapes. A spec sentence (known by its digest, see sentences.ts) is told in our
 * own words and is either a requirement, a freedom (the spec leaves a choice open: "not shown") or prose
 * (it states nothing an implementation could break). A requirement yields statements; each statement is
 * tied to a clause of the registry (src/spec/clauses.ts) and expands into elements: the smallest things a
 * faulty server can get wrong on its own (one field, one mode, one value, one endpoint).
 */
export type ElementKind = 'field' | 'limit' | 'value' | 'error' | 'omission' | 'rule';

export interface InventoryElement {
  kind: ElementKind;
  /** Unique within its clause; `${clause} ${name}` is the element's key in coverage.ts and pending.ts. */
  name: string;
}

export interface Statement {
  clause: string;
  says: string;
  elements: readonly InventoryElement[];
}

export type SentenceKind = 'requirement' | 'freedom' | 'prose';

export interface InventorySentence {
  /** sentenceDigest of the spec sentence, in spec order. */
  digest: string;
  kind: SentenceKind;
  /** A paraphrase in our own words; for a freedom, also what is left open. */
  says: string;
  statements: readonly Statement[];
  /** For a freedom: the clause that records it (an untestable clause of the registry). */
  clause?: string;
}

export interface InventorySection {
  section: string;
  sentences: readonly InventorySentence[];
}

const make =
  (kind: ElementKind) =>
  (name: string): InventoryElement => ({ kind, name });
export const field = make('field');
export const limit = make('limit');
export const value = make('value');
export const error = make('error');
export const omission = make('omission');
export const rule = make('rule');

export const requirement = (digest: string, says: string, statements: readonly Statement[]): InventorySentence => ({
  digest,
  kind: 'requirement',
  says,
  statements,
});
/** A sentence that leaves a choice open; `clause` is the registry's record of that freedom. */
export const freedom = (digest: string, says: string, clause: string): InventorySentence => ({ digest, kind: 'freedom', says, statements: [], clause });
export const prose = (digest: string, says: string): InventorySentence => ({ digest, kind: 'prose', says, statements: [] });
export const statement = (clause: string, says: string, elements: readonly InventoryElement[]): Statement => ({ clause, says, elements });

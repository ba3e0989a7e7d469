export type ElementKind = 'field' | 'limit' | 'value' | 'error' | 'omission' | 'rule';
export interface ClauseElement { element: string; kind: ElementKind; checks: readonly string[]; mutants: readonly string[] }
export const clauseElements: Readonly<Record<string, readonly ClauseElement[]>> = {};

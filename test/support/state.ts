import type { RunningReference } from '../../fixtures/reference/server.ts';

/** The reference's state without modification stamps, for before/after comparisons. */
export function stateOf(reference: RunningReference): string {
  return JSON.stringify(reference.store.snapshot()).replace(/"updated_at":"[^"]*"/g, '');
}

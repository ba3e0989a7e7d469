import { AsyncLocalStorage } from 'node:async_hooks';
import { HarnessError } from '../core/errors.ts';

/**
 * --budget N at the client: once the checks have spent their share, a check's further requests are
 * refused with this error, and the check ends unjudged (never failed). Restores are never refused.
 */
export class BudgetSpentError extends HarnessError {
  override name = 'BudgetSpentError';
}

const exempt = new AsyncLocalStorage<true>();

/** Runs `body` with its requests outside the budget: restores of kept values (safety first). */
export function outsideBudget<T>(body: () => Promise<T>): Promise<T> {
  return exempt.run(true, body);
}

export function isOutsideBudget(): boolean {
  return exempt.getStore() === true;
}

/** Checks that had a request refused for the budget: whatever they concluded, they are not judged. */
const refused = new WeakSet<object>();

export function markBudgetSpent(scope: object | undefined): void {
  if (scope) refused.add(scope);
}

export function budgetSpentIn(scope: object): boolean {
  return refused.has(scope);
}

/** The pre-flight reads (types, the first page of the collection walk, the catalog): the least a budget must allow. */
export const PREFLIGHT_REQUESTS = 3;

/** The pre-flight's requests: with a second user's key, its types and list reads too. */
export const preflightRequests = (secondUser: boolean): number => PREFLIGHT_REQUESTS + (secondUser ? 2 : 0);

/** The skip note of a check the budget left unjudged; the runner and reporters recognise it by its start. */
export const NOT_JUDGED_BUDGET = 'not judged (budget)';

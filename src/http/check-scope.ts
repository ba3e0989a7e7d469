import { AsyncLocalStorage } from 'node:async_hooks';
import { HarnessError } from '../core/errors.ts';
import type { TransportTally } from './client.ts';
import type { KeyRef } from './exchange.ts';

/**
 * What the harness knows about the check whose code is running, wherever in its async call tree:
 * checks run concurrently, so "the requests sent since the check started" is no longer its own.
 */
export interface CheckScope {
  id: string;
  /** Declared `toggles: true`: may write the kept toggle, and runs alone in its lane. */
  toggles: boolean;
  /** Declared blind to kept flags: its requests give way to the others' (SendGate). */
  background: boolean;
  /** Sequence numbers of the requests sent on the check's behalf, retries included. */
  seqs: number[];
  /** Those of them that were the run's shared reads (walks, every use, snapshots), sent for whichever check asked first. */
  sharedSeqs: number[];
  /** Shared answers of single reads the check took, whoever sent them: a failure without an exchange of its own names the last. */
  taken: number[];
  /** The retries, 429s and rate-limit pauses met by those requests. */
  transport: TransportTally;
  /**
   * The kept value of each item as this check last read it (`user:id` → value), all forgotten
   * whenever the check writes: a toggling check runs alone, so such a read is the current value.
   */
  seenKept: Map<string, SeenKept>;
  /** Settles when no read the run started in the background is in flight: awaited before each write. */
  quiet: () => Promise<void>;
}

/** An item's kept value as a read found it, with its id as the record served it (sent back as it came). */
export interface SeenKept {
  value: 0 | 1;
  servedId: unknown;
}

const storage = new AsyncLocalStorage<CheckScope>();

export function newScope(id: string, toggles: boolean, quiet: () => Promise<void>, background = false): CheckScope {
  return {
    id,
    toggles,
    background,
    seqs: [],
    sharedSeqs: [],
    taken: [],
    transport: { retries: 0, rateLimited: 0, rateLimitWaitMs: 0 },
    seenKept: new Map(),
    quiet,
  };
}

export function runInScope<T>(scope: CheckScope, body: () => Promise<T>): Promise<T> {
  return storage.run(scope, body);
}

/** Runs `body` on behalf of the current check, but with its requests in the foreground (SendGate). */
export function inForeground<T>(body: () => Promise<T>): Promise<T> {
  const scope = storage.getStore();
  return scope?.background ? storage.run({ ...scope, background: false }, body) : body();
}

/** Runs `body` on behalf of no check: the run's own work, started from inside one. */
export function outsideChecks<T>(body: () => T): T {
  return storage.exit(body);
}

const runShared = new AsyncLocalStorage<true>();

/** Runs `body`, one of the run's shared reads, so that its requests are told apart (--budget prices them once). */
export function asRunShared<T>(body: () => Promise<T>): Promise<T> {
  return runShared.run(true, body);
}

export function isRunShared(): boolean {
  return runShared.getStore() === true;
}

/** The check on whose behalf the current code runs; undefined outside checks (CLI, restores, pact). */
export function currentCheck(): CheckScope | undefined {
  return storage.getStore();
}

export const keptKey = (user: KeyRef, id: string): string => `${user}:${id}`;

/**
 * Refuses a kept write from a check not declared `toggles: true` (a harness error): only such a check
 * runs alone, so only its writes can never be seen by another check's oracle. Outside checks (restores,
 * pact states) writes are the caller's business.
 */
export function assertMayToggle(): void {
  const scope = currentCheck();
  if (scope && !scope.toggles) {
    throw new HarnessError(`${scope.id} writes the kept toggle but is not declared \`toggles: true\`; a check that writes must say so, so that it runs alone`);
  }
}

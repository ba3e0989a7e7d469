import type { CheckTransport } from '../http/client.ts';
import type { Capability, ProfileName } from '../spec/profiles.ts';

/**
 * MUST and SHOULD rest on the spec's words. ROBUSTNESS is never declared: a check whose only failure is a
 * rule of HTTP practice (no 5xx for client input, which no sentence of the spec states) is reported at it,
 * and it gates, like SHOULD, only under --fail-on should.
 */
export type Level = 'MUST' | 'SHOULD' | 'ROBUSTNESS';

/** A lane of toggling checks beside the main one: see CheckInfo.lane. */
export type ToggleLane = 'set-apart' | 'second-user' | 'own-items';

/** Static description of a check; reporters read it before and after the run. */
export interface CheckInfo {
  id: string;
  level: Level;
  /** Spec sections the check enforces, e.g. ['§4'] or ['§3', '§4']; shown joined as "§3, §4". */
  sections: readonly string[];
  title: string;
  /** Profile capabilities the check needs; absent ones make it not applicable. */
  requires?: readonly Capability[];
  /** Profiles the check applies to (default: all); others report it as not applicable. */
  appliesTo?: readonly ProfileName[];
  /** Needs the second user's key (--other-key). */
  needsOtherKey?: boolean;
  /**
   * Writes the kept toggle (through `t.kept`); others may not write at all. Such a check starts after
   * every read-only check whose oracle may read a kept flag, and runs alone in its lane (schedule.ts).
   */
  toggles?: true;
  /**
   * A toggling check whose items are its own: the items set apart for it, or the second user's, which
   * no check of another lane toggles or watches. It runs beside the main lane when those items exist.
   * `own-items`: the check toggles and reads only the items of its own share of the collection
   * (Discovery.toggleRows deals one to each such check), so these checks run all at once, before the
   * main lane's togglers, which watch the whole collection.
   */
  lane?: ToggleLane;
  /**
   * A read-only check whose oracle reads no kept flag and compares nothing that holds one: it is judged
   * alike while kept flags change under it, and its requests give way to the other checks' (SendGate).
   * Undeclared, a read-only check is assumed to read kept flags.
   */
  keptBlind?: true;
  /**
   * The freedoms the check accepts where the spec leaves a choice open ("not shown"), in our own words;
   * CONFORMANCE.md publishes them beside the clauses the check enforces, and conform explain prints them.
   */
  accepts?: readonly string[];
}

export type Outcome = 'failed' | 'error' | 'not-applicable';

export interface RecordedFailure {
  message: string;
  /** The clause (src/spec/clauses.ts) the failed assertion enforces. */
  clause?: string;
  /** What was sent and what came back, trimmed; credentials masked. */
  exchange?: { request: string; status: number; responseBody: string };
  reproduction?: string;
}

/** What a check leaves on its vitest task for the results model. */
export interface CheckMeta extends CheckInfo {
  /** The suite file that declares the check: auth, scoping, kept-toggle … */
  area: string;
  outcome?: Outcome;
  failure?: RecordedFailure;
  /** Requests sent while the check ran, retries included; the run's shared reads count where they were sent. */
  requests?: number;
  /** Of those, the run's shared reads (walks, every use, snapshots): any check needing them first would have sent them. */
  sharedRequests?: number;
  /** The run's shared reads the check used, whoever sent them, each with the requests it took (--budget prices each once). */
  sharedReads?: Record<string, number>;
  /** Items the check journaled (wrote through the kept toggle): the end-of-run sweep reads each once. */
  itemsJournaled?: number;
  /** Those items, as `user:id` (scripts/budget-estimates.ts: two checks that journal one item call for one sweep read). */
  journaledItems?: string[];
  /** Retries, 429s and rate-limit waits while the check ran (absent when there were none). */
  transport?: CheckTransport;
  /** How long the check waited for its turn (schedule.ts) before it sent anything: not part of its duration. */
  waitedMs?: number;
  /** Requests the run's checks had sent in all when this check ended: the largest is what --budget spent on checks. */
  runSentSoFar?: number;
  /** The check read the run's seed (a property, a seeded choice): another --seed may send other requests. */
  seeded?: true;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conform?: CheckMeta;
  }
}

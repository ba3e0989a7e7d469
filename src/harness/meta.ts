import type { CheckTransport } from '../http/client.ts';
import type { Capability, ProfileName } from '../spec/profiles.ts';

export type Level = 'MUST' | 'SHOULD';

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
   * Writes the kept toggle (through `t.kept`). Such a check runs alone, after the read-only checks of
   * its file, so that no oracle reads a kept flag while it is changed; others may not write at all.
   */
  toggles?: true;
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
  outcome?: Outcome;
  failure?: RecordedFailure;
  /** Requests sent while the check ran, retries included; the run's shared reads count where they were sent. */
  requests?: number;
  /** Retries, 429s and rate-limit waits while the check ran (absent when there were none). */
  transport?: CheckTransport;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conform?: CheckMeta;
  }
}

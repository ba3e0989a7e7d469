import type { Exchange } from '../http/exchange.ts';
import type { NetworkOptions } from '../http/network.ts';
import type { ProfileName } from '../spec/profiles.ts';
import { MAX_ROWS_PER_PAGE } from '../spec/limits.ts';

/** How the checks run: fixed by the run's plan (src/config/plan.ts) before anything is sent. */
export interface CheckSettings {
  timeoutMs: number;
  concurrency: number;
  rps: number;
  /** Requests the run's client may send at most (--max-requests). */
  maxRequests: number;
  /** fast-check seed; the same seed replays the same generated cases. */
  seed: number;
  /** fast-check runs per property. */
  runs: number;
  /** fast-check counterexample path to replay (with --only and --seed). */
  fcPath?: string;
  /** fast-check replay path of a model-based check's commands (with fcPath). */
  fcReplayPath?: string;
}

/** The body of each user's collection walk (Discovery.collection), whose first page the pre-flight reads. */
export const WALK_BODY = { per_page: MAX_ROWS_PER_PAGE } as const;

/**
 * The run's shared reads (src/harness/discovery.ts) that the pre-flight makes before any check starts
 * (src/runner/open-target.ts): the checks take its answers instead of sending them again.
 */
export type PreflightRead = 'GET /types.php' | 'GET /types.php (second user)' | 'GET /api-docs?format=json';
/** Besides those, the first page of each user's collection walk (WALK_BODY with cursor null). */
export type WalkStart = 'collection walk, first page' | 'collection walk (second user), first page';
export type PreflightAnswers = Partial<Record<PreflightRead | WalkStart, Exchange>>;

/**
 * Everything a check knows about the run: the plan's settings, and what only the run itself knows
 * (the opened target, its deadline, its journal, the pace the catalog asks for). Handed to vitest via `provide`.
 */
export interface TargetContext extends CheckSettings {
  /** Distinguishes runs that share one vitest instance (and so one worker). */
  runId: string;
  baseUrl: string;
  profile: ProfileName;
  /** How the target is named in reports: a config name, a URL, or "embedded reference". */
  label: string;
  keys: { primary: string; other?: string };
  /** Epoch ms after which the client sends nothing more. */
  deadline: number;
  /** A lower pace to start at, just below the rate limit the catalog declares. */
  startRps?: number;
  /** Extra headers, private CAs, proxies (header values are secrets). */
  network?: NetworkOptions;
  /** --budget: the requests the checks and their restores may send (the run's budget less the pre-flight); the client keeps back what the journal's items still call for. */
  checkBudget?: number;
  /**
   * A budgeted run's checks (src/runner/budget.ts): properties run fewer cases and some checks read a
   * smaller sample, as the budget table measured them (their requests and the mutants they still find).
   */
  lean?: boolean;
  /** The pre-flight's answers to some of the run's shared reads (none sent by the checks again). */
  preflight?: PreflightAnswers;
  /**
   * The CLI sends the run's data-free reads (discovery's prefetchedReads) as the checks load: they take the answers over
   * src/harness/prefetch-channel.ts, each counted among the requests of the first check that takes it.
   */
  prefetchedLater?: boolean;
  /** Safety journal (JSON lines) of every kept value the run changes. */
  journalPath: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    conform: TargetContext;
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import { TransportError } from '../core/errors.ts';

export interface RateLimiterOptions {
  /** Requests per second at most, whatever is learned (--rps); 0: no ceiling. */
  ceiling: number;
  /** A lower pace to start at, e.g. just below a limit the catalog declares. */
  start?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** A pause the limiter began or lengthened because of a 429. */
export interface Pause {
  ms: number;
  /** The wait came from the answer's Retry-After, not from our own backoff. */
  retryAfter: boolean;
  /** 429s in a row, sent after the previous pause ended: the window had not cleared yet. */
  streak: number;
}

/** The target answered again after a run of 429s. */
export interface Resumption {
  /** From the first 429 of the run of 429s to this answer. */
  afterMs: number;
  /** The pace from now on (requests per second); absent while unpaced. */
  rps?: number;
}

/** Backoff without Retry-After: 1 s, doubling while the window stays closed, at most a minute. */
const BACKOFF_START_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;
/** Below this many answers a cycle is too short to measure the target's pace; the rate is halved instead. */
const MIN_SAMPLE = 5;
/** Multiplicative decrease: the new pace is this share of what got through in the last cycle. */
const DECREASE = 0.9;
/** Additive increase: each second of clean answers adds this share of the last decreased pace. */
const INCREASE_PER_SECOND = 0.001;
/** Faster, back up to the pace before a single short refusal (which says little about the limit). */
const RECOVERY_PER_SECOND = 0.05;
/** …to just below that pace: where one refusal came, another would, if it is the target's limit. */
const RECOVERY_TARGET = 0.95;
const FLOOR_RPS = 0.01;
/** A client idle this long starts a new cycle: time it did not want to send says nothing about the target's rate. */
const IDLE_MS = 5_000;

/** A pause at least this long (or a second 429 after one) shows a closed window, not a passing refusal. */
const WINDOW_EVIDENCE_MS = 2_000;

/**
 * Paces requests and adapts the pace to the target's rate limit (AIMD). A 429 pauses every request
 * until its Retry-After, or, without one, with a backoff that doubles until the window clears. When
 * the target answers again, the pace drops (multiplicative decrease):
 * - to 90% of what got through in the cycle (the answers since the previous cycle, over its whole
 *   length, pause included) when the pace was not learned yet, or when the target showed a closed
 *   window (429s in a row, or a pause of 2 s or more): that is the target's rate;
 * - to 90% of the pace before, after a single short refusal at a learned pace; the pace then climbs
 *   back to 95% of it at +5% per second of answers, since one refusal says little about the limit;
 * - to half the pace before when the cycle had too few answers to measure anything.
 * Beyond that each clean answer raises the pace a little (additive increase, +0.1% of the decreased
 * pace per second of answers), up to the ceiling, so that the run stops provoking 429s.
 */
export class RateLimiter {
  private rate: number;
  private readonly ceiling: number;
  /** The pace after the last decrease (or the start): the additive step is a share of it. */
  private base: number;
  private next = 0;
  private pausedUntil = 0;
  private streak = 0;
  private streakStart = 0;
  private rateBeforeStreak = Infinity;
  private longestPauseMs = 0;
  /** The pace came from a decrease, not from the ceiling or a declared limit. */
  private learned = false;
  /** The pace before a single short refusal, to climb back to quickly. */
  private recoverTo = 0;
  private cycleStart: number | undefined;
  private cycleAnswers = 0;
  private lastActivity = 0;
  private pausedMs = 0;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: RateLimiterOptions) {
    this.ceiling = options.ceiling > 0 ? options.ceiling : Infinity;
    this.rate = Math.min(this.ceiling, options.start !== undefined && options.start > 0 ? options.start : Infinity);
    this.base = this.rate;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => sleep(ms));
  }

  /** Requests per second now; undefined while unpaced. */
  get rps(): number | undefined {
    return Number.isFinite(this.rate) ? this.rate : undefined;
  }

  /** The next free slot (epoch ms under the default clock): another limiter of the run may take over the pace from it. */
  get nextSlotAt(): number {
    return this.next;
  }

  /** Takes over the pace of another limiter of the run: no slot before `at` (its nextSlotAt). */
  notBefore(at: number): void {
    this.next = Math.max(this.next, at);
  }

  /** How long until the current pause ends (0 when none is in force). */
  get resumesInMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /** Time spent paused for 429s so far (overlapping pauses counted once). */
  get waitedMs(): number {
    return this.pausedMs;
  }

  /**
   * Waits for a pause to end and for this request's slot; returns the time it may be sent.
   * Throws a TransportError when that time would be after `deadline` (epoch ms).
   */
  async take(deadline = Infinity): Promise<number> {
    const entered = this.now();
    if (this.streak === 0 && entered - this.lastActivity > IDLE_MS && entered >= this.pausedUntil) {
      this.cycleStart = entered;
      this.cycleAnswers = 0;
    }
    this.lastActivity = entered;
    for (;;) {
      const now = this.now();
      if (now < this.pausedUntil) {
        this.guard(this.pausedUntil, deadline);
        await this.sleep(this.pausedUntil - now);
        continue;
      }
      this.cycleStart ??= now;
      this.lastActivity = now;
      if (!Number.isFinite(this.rate)) return now;
      const slot = Math.max(now, this.next);
      this.guard(slot, deadline);
      this.next = slot + 1000 / this.rate;
      if (slot > now) await this.sleep(slot - now);
      // A pause may have begun while this request waited for its slot.
      if (this.now() >= this.pausedUntil) return (this.lastActivity = this.now());
    }
  }

  /**
   * A 429 to a request sent at `sentAt`. Returns the pause it began or lengthened, if any: a 429 to a
   * request sent before the current pause began is covered by that pause unless its Retry-After asks for more.
   */
  rateLimited(sentAt: number, retryAfterMs?: number): Pause | undefined {
    const now = this.now();
    this.lastActivity = now;
    const fresh = sentAt >= this.pausedUntil;
    if (fresh) {
      if (this.streak === 0) {
        this.rateBeforeStreak = this.rate;
        this.streakStart = now;
        this.longestPauseMs = 0;
      }
      this.streak++;
    } else if (this.streak === 0 || retryAfterMs === undefined) {
      return undefined;
    }
    const ms = Math.max(0, retryAfterMs ?? Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (this.streak - 1)));
    const until = now + ms;
    this.longestPauseMs = Math.max(this.longestPauseMs, ms);
    if (until <= this.pausedUntil) return undefined;
    this.pausedMs += until - Math.max(now, this.pausedUntil);
    this.pausedUntil = until;
    this.next = Math.max(this.next, until);
    return { ms, retryAfter: retryAfterMs !== undefined, streak: this.streak };
  }

  /** Any answer but a 429 to a request sent at `sentAt`. Returns the resumption when it ends a run of 429s. */
  answered(sentAt: number): Resumption | undefined {
    const now = this.now();
    this.lastActivity = now;
    if (this.streak > 0) {
      // Sent before the pause ended: it does not show that the window has cleared.
      if (sentAt < this.pausedUntil) {
        this.cycleAnswers++;
        return undefined;
      }
      const { rate, passing } = this.decreased(now);
      this.rate = rate;
      this.base = rate;
      this.recoverTo = passing ? RECOVERY_TARGET * this.rateBeforeStreak : 0;
      this.learned = Number.isFinite(rate);
      const afterMs = now - this.streakStart;
      this.streak = 0;
      this.cycleStart = now;
      this.cycleAnswers = 1;
      return { afterMs, ...(Number.isFinite(this.rate) ? { rps: this.rate } : {}) };
    }
    this.cycleAnswers++;
    if (Number.isFinite(this.rate)) {
      const step = this.rate < this.recoverTo ? RECOVERY_PER_SECOND : INCREASE_PER_SECOND;
      this.rate = Math.min(this.ceiling, this.rate + (this.base * step) / this.rate);
    }
    return undefined;
  }

  /** The pace after a run of 429s, and whether it was a single short refusal at a learned pace. */
  private decreased(now: number): { rate: number; passing: boolean } {
    const before = this.rateBeforeStreak;
    const cycleSeconds = (now - (this.cycleStart ?? now)) / 1000;
    if (this.cycleAnswers < MIN_SAMPLE || cycleSeconds <= 0) {
      return { rate: Number.isFinite(before) ? Math.max(FLOOR_RPS, before / 2) : before, passing: false };
    }
    const closedWindow = this.streak >= 2 || this.longestPauseMs >= WINDOW_EVIDENCE_MS;
    const passing = !closedWindow && this.learned;
    const measured = passing ? Infinity : this.cycleAnswers / cycleSeconds;
    return { rate: Math.max(FLOOR_RPS, DECREASE * Math.min(before, measured)), passing };
  }

  private guard(at: number, deadline: number): void {
    if (at > deadline) {
      const seconds = Math.ceil((at - this.now()) / 1000);
      throw new TransportError(`not sent: waiting ${seconds} s more for the target's rate limit would pass the run's deadline`, false);
    }
  }
}

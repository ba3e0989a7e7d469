import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { errors as undiciErrors } from './undici.ts';
import { HarnessError, TransportError } from '../core/errors.ts';
import { MASK, redactor } from '../core/redact.ts';
import { requestKey, type Auth, type Exchange, type RecordedRequest, type RequestSpec, type RetriedAttempt } from './exchange.ts';
import { createDispatcher, proxyFor, shownProxy, type NetworkOptions } from './network.ts';
import { RateLimiter, type Pause, type Resumption } from './rate-limit.ts';
import { BudgetSpentError, isOutsideBudget } from './request-budget.ts';
import { SendGate } from './send-gate.ts';

export interface ClientOptions {
  baseUrl: string;
  keys: { primary: string; other?: string };
  timeoutMs: number;
  /** Bodies larger than this end the request with a TransportError. */
  maxBodyBytes?: number;
  /** Connections in the keep-alive pool: at most this many requests in flight. */
  connections?: number;
  /** Requests per second at most (0: no limit). */
  rps?: number;
  /** A lower pace to start at: just below a rate limit the catalog declares. */
  startRps?: number;
  /** Extra headers, private CAs, proxies. */
  network?: NetworkOptions;
  /** Told when a 429 pauses the client and when the target answers again. */
  onRateLimit?: (notice: RateLimitNotice) => void;
  /** Attempts of an idempotent read on faults (not 429s, which wait) before it ends as "no clean answer". */
  attempts?: number;
  /** Retries the whole client may spend, so that a failing target cannot stretch a run. */
  retryBudget?: number;
  /** Epoch ms after which nothing more is sent. */
  deadline?: number;
  /** Requests (attempts included) the client may send at most; undefined: no limit. */
  maxRequests?: number;
  /** --budget: requests the checks may spend; past it a request is refused (BudgetSpentError), except a restore's. */
  budget?: number;
  /** Of the budget, the requests kept back for restores and the end-of-run sweep as the run stands (the journal's). */
  budgetKeptBack?: () => number;
  /** A request was refused for the budget (the check it was sent for is left unjudged). */
  onBudgetSpent?: () => void;
  /** Called with each request's sequence number as it is sent (attempts included): who sent what. */
  onSend?: (seq: number) => void;
  /** Called for each retry and each 429 (with the pause it added), in the async context of its request. */
  onTransport?: (share: TransportTally) => void;
  /** Whether the request about to be sent (in its async context) may give way to others when slots are short (SendGate). */
  inBackground?: () => boolean;
  /** Who sends the request about to be sent (its check): waiting requests are shared fairly among senders (SendGate). */
  owner?: () => string | undefined;
}

/** Lists without paging (uses, proposal outcomes) of a 50,000-item collection run to tens of megabytes. */
const DEFAULT_MAX_BODY = 256 * 1024 * 1024;
/** Statuses that say "try again later": a read is resent on them, a toggle only after re-reading its state (429: see RateLimiter). */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
const MAX_WAIT_MS = 10_000;
/** Without a run deadline (pre-flight, restores) a request waits at most this long for a rate limit to clear. */
const MAX_RATE_LIMIT_WAIT_MS = 10 * 60_000;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Response text kept in the exchange log; the oldest exchanges are dropped beyond it. */
const LOG_BYTES = 32 * 1024 * 1024;

/** What a rate-limited client tells the progress display. */
export type RateLimitNotice = ({ kind: 'paused'; request: string } & Pause) | ({ kind: 'resumed' } & Resumption);

/** What the client met on the way, for report.json and the summary. */
export interface TransportCounts {
  /** Requests sent, retries included. */
  requests: number;
  /** Requests sent again after a transient fault or a 429. */
  retries: number;
  /** Answers with status 429. */
  rateLimited: number;
  /** Time the client spent paused for 429s. */
  rateLimitWaitMs: number;
  /** The pace the client ended at, when a rate limit (or --rps) set one. */
  rps?: number;
}

export type CheckTransport = Omit<TransportCounts, 'requests'>;
/** Retries, 429s and pause time, as onTransport reports them one by one. */
export type TransportTally = Omit<CheckTransport, 'rps'>;

/** What another client of the run (the CLI's prefetch) hands over once its last request is on the network (holdUntil). */
export interface HandOver {
  /** The requestKeys of its requests whose answers are still on their way. */
  inFlight: ReadonlySet<string>;
  /** Settles once their answers are in (and adopted, where they are to be). */
  arrival: Promise<void>;
  /** Its next free slot (epoch ms): the run's pace goes on from there. */
  notBefore: number;
}

/**
 * A check's share (tallied through onTransport as it happened: checks run at once, so the difference of
 * two readings of counts() would hold the others' too) with the pace the client ended at; undefined
 * when there was no retry and no 429.
 */
export function checkTransport(share: TransportTally, rps: number | undefined): CheckTransport | undefined {
  if (share.retries === 0 && share.rateLimited === 0) return undefined;
  return { ...share, rateLimitWaitMs: Math.round(share.rateLimitWaitMs), ...(rps !== undefined ? { rps } : {}) };
}

/**
 * The only place that builds HTTP requests. One keep-alive pool per target; every exchange is
 * recorded with credentials masked so that a failing check can show it and reproduce it with curl.
 * Idempotent reads and harmless probes are retried on transient faults, each retry recorded;
 * the kept toggle never is (KeptWriter reads the state first). A 429 is never handed to a check as an
 * answer to judge: the request waits until the target's window clears (up to the deadline) and the
 * whole client slows down (see RateLimiter).
 */
export class ApiClient {
  private readonly pool: Dispatcher;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly redact: (text: string) => string;
  private readonly limiter: RateLimiter;
  private readonly log: Exchange[] = [];
  /** Answers another client got (the CLI's pre-flight), numbered below zero: a failure can still name them. */
  private readonly adopted: Exchange[] = [];
  private logBytes = 0;
  private seq = 0;
  /** Requests counted against maxRequests, counted before any await so that concurrent sends cannot overshoot. */
  private spent = 0;
  private refusedForBudget = 0;
  private retriesLeft: number;
  private retried = 0;
  private rateLimited = 0;
  private readonly extraHeaders: Record<string, string>;
  private readonly gate: SendGate;
  /** Aborted by stop(): every request in flight ends, and nothing more is sent. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: ClientOptions) {
    // Every request waiting for its turn listens for the stop, so hundreds may listen at once: not a leak.
    setMaxListeners(0, this.stopping.signal);
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.extraHeaders = options.network?.headers ?? {};
    this.redact = redactor([options.keys.primary, options.keys.other, ...Object.values(this.extraHeaders)]);
    this.limiter = new RateLimiter({ ceiling: options.rps ?? 0, ...(options.startRps !== undefined ? { start: options.startRps } : {}) });
    this.retriesLeft = options.retryBudget ?? 200;
    this.gate = new SendGate(options.connections ?? 8);
    this.pool = createDispatcher(this.origin, options.network ?? {}, {
      connections: options.connections ?? 8,
      keepAliveTimeout: 4_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Counts since the client was made; a check's share is the difference of two readings. */
  counts(): TransportCounts {
    const rps = this.limiter.rps;
    return {
      requests: this.seq,
      retries: this.retried,
      rateLimited: this.rateLimited,
      rateLimitWaitMs: Math.round(this.limiter.waitedMs),
      ...(rps !== undefined ? { rps: Math.round(rps * 1000) / 1000 } : {}),
    };
  }

  /** Requests refused because --budget was spent. */
  get budgetRefusals(): number {
    return this.refusedForBudget;
  }

  /** Exchanges recorded since `fromSeq` (exclusive), oldest first. */
  exchangesSince(fromSeq: number): Exchange[] {
    return [...this.adopted, ...this.log].filter((e) => e.seq > fromSeq);
  }

  /**
   * Takes in an answer another client got before this one started (the CLI's pre-flight), under a sequence
   * number below zero: it counts as no request of this client, and a failure naming it still shows it.
   */
  adopt(exchange: Exchange): Exchange {
    const own = { ...exchange, seq: -(this.adopted.length + 1) };
    this.adopted.unshift(own);
    return own;
  }

  /** Answers sent for the run before its checks started, by requestKey: the first identical request takes its answer. */
  private readonly early = new Map<string, Exchange>();

  /** Until it settles, nothing is sent: another client of the run is still sending (holdUntil). */
  private hold: Promise<void> | undefined;
  /** Requests that client sent whose answers are still on their way (by requestKey): the same request waits for them. */
  private inFlight: { keys: ReadonlySet<string>; arrival: Promise<void> } | undefined;

  /**
   * Sends nothing before another client of the run hands over: its last request is on the network. From then on this
   * client keeps the run's pace from that client's next slot, and a request that client sent waits for its answer, which
   * may be adopted (adoptAnswer) instead of sent again.
   */
  holdUntil(handOver: Promise<HandOver>): void {
    this.hold = handOver
      .then(({ inFlight, arrival, notBefore }) => {
        this.limiter.notBefore(notBefore);
        if (inFlight.size === 0) return;
        this.inFlight = {
          keys: inFlight,
          arrival: arrival.finally(() => {
            this.inFlight = undefined;
          }),
        };
      })
      .finally(() => {
        this.hold = undefined;
      });
  }

  /** Sends not yet on the network (waiting for a connection or the pace): whenDispatched() waits until there are none. */
  private undispatched = 0;
  private readonly dispatchWaiters: (() => void)[] = [];

  /** Resolves once every request sent so far (this turn of the event loop included) is on the network, or has ended. */
  async whenDispatched(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.undispatched > 0) await new Promise<void>((resolve) => this.dispatchWaiters.push(resolve));
  }

  /** The pace's next free slot (epoch ms): where another client of the run takes over the pace (HandOver.notBefore). */
  get nextSlotAt(): number {
    return this.limiter.nextSlotAt;
  }

  /** Counts a send until its first attempt is on the network; the returned function, called once or more, ends that. */
  private pendingDispatch(): () => void {
    this.undispatched++;
    let pending = true;
    return () => {
      if (!pending) return;
      pending = false;
      if (--this.undispatched === 0) for (const resolve of this.dispatchWaiters.splice(0)) resolve();
    };
  }

  /** Takes in the answer to a request the run sent before its checks started (a prefetched read, by its requestKey). */
  adoptAnswer(key: string, exchange: Exchange): void {
    this.early.set(key, this.adopt(exchange));
  }

  get lastSeq(): number {
    return this.seq;
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    this.guardWrite(spec);
    if (this.hold) await this.hold;
    if (this.inFlight?.keys.has(requestKey(spec))) await this.inFlight.arrival;
    if (this.early.size > 0) {
      const key = requestKey(spec);
      const answer = this.early.get(key);
      if (answer) {
        // Counted as sent now, by the check that asked, as if it had sent it.
        this.early.delete(key);
        this.options.onSend?.(answer.seq);
        return answer;
      }
    }
    // Probes are harmless by construction (ids no item has, current values), so resending one is safe.
    const retryable = spec.idempotent === true || spec.intent === 'probe';
    const attempts = retryable ? (this.options.attempts ?? 3) : 1;
    const waitLimit = this.options.deadline ?? Date.now() + MAX_RATE_LIMIT_WAIT_MS;
    const dispatched = this.pendingDispatch();
    try {
      return await this.sendWithRetries(spec, retryable, attempts, waitLimit, dispatched);
    } finally {
      dispatched();
    }
  }

  private async sendWithRetries(spec: RequestSpec, retryable: boolean, attempts: number, waitLimit: number, dispatched: () => void): Promise<Exchange> {
    const retries: RetriedAttempt[] = [];
    for (let attempt = 1; ; attempt++) {
      let exchange: Exchange | undefined;
      let failure: TransportError | undefined;
      try {
        exchange = await this.once(spec, waitLimit, dispatched);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        failure = error;
      }
      if (exchange?.response.status === 429 && retryable) {
        // Not an answer to judge, and not a fault either: the limiter holds the next send until the
        // window clears, however many tries that takes; only the deadline ends the wait.
        retries.push({ status: 429, waitedMs: Math.round(this.limiter.resumesInMs) });
        this.retried++;
        this.options.onTransport?.({ retries: 1, rateLimited: 0, rateLimitWaitMs: 0 });
        attempt--;
        continue;
      }
      if (failure && retries.some((r) => r.status === 429) && !failure.transient) {
        throw new TransportError(`${failure.message} (after ${retries.filter((r) => r.status === 429).length} answer(s) 429)`, false);
      }
      const transient = failure ? failure.transient : TRANSIENT_STATUSES.has(exchange!.response.status);
      if (!transient || !retryable) {
        if (failure) throw failure;
        if (retries.length > 0) exchange!.retries = retries;
        return exchange!;
      }
      if (attempt >= attempts || this.retriesLeft <= 0) {
        const what = failure ? failure.message : `${spec.method} ${spec.path} answered ${exchange!.response.status}`;
        throw new TransportError(`no clean answer after ${attempt} attempt(s): ${what}`);
      }
      this.retriesLeft--;
      this.retried++;
      this.options.onTransport?.({ retries: 1, rateLimited: 0, rateLimitWaitMs: 0 });
      const waitedMs = Math.min(MAX_WAIT_MS, (exchange && retryAfterMs(exchange)) ?? 150 * 2 ** (attempt - 1) * (1 + Math.random()));
      retries.push({ ...(exchange ? { status: exchange.response.status } : { error: failure!.message }), waitedMs: Math.round(waitedMs) });
      await this.untilStopped(sleep(waitedMs));
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /**
   * The run was interrupted: aborts every request in flight and refuses every later one (a
   * TransportError that is not retried), so that the checks end at once and the CLI can restore.
   */
  stop(): void {
    this.stopping.abort();
  }

  get isStopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private notSent(why: string): TransportError {
    return new TransportError(`not sent: ${why}`, false);
  }

  /** `work`, or a TransportError as soon as stop() is called: what a request waiting for its turn (a slot, the pace, a pause) awaits. */
  private untilStopped<T>(work: Promise<T>): Promise<T> {
    const signal = this.stopping.signal;
    if (signal.aborted) return Promise.reject(this.notSent('the run was interrupted'));
    return new Promise<T>((resolve, reject) => {
      const onStop = () => reject(this.notSent('the run was interrupted'));
      signal.addEventListener('abort', onStop, { once: true });
      work.then(
        (value) => (signal.removeEventListener('abort', onStop), resolve(value)),
        (error: unknown) => (signal.removeEventListener('abort', onStop), reject(error)),
      );
    });
  }

  /** The write firewall: only the kept toggle and declared probes may change anything (§1). */
  private guardWrite(spec: RequestSpec): void {
    const isListRead = spec.method === 'POST' && spec.path === '/artifacts.php';
    if (READ_METHODS.has(spec.method) || isListRead) return;
    const isToggle = spec.method === 'POST' && spec.path === '/artifact-kept.php';
    if (spec.intent === 'probe' || (spec.intent === 'kept-toggle' && isToggle)) return;
    throw new HarnessError(
      `write firewall: refused ${spec.method} ${spec.path}; a check may write only through the kept toggle (KeptWriter) or a declared forbidden-write probe`,
    );
  }

  private async once(spec: RequestSpec, waitLimit: number, dispatched?: () => void): Promise<Exchange> {
    if (this.options.deadline !== undefined && Date.now() > this.options.deadline) {
      throw new TransportError(`${spec.method} ${spec.path}: not sent, the run's deadline has passed`, false);
    }
    if (this.options.maxRequests !== undefined && this.spent >= this.options.maxRequests) {
      throw new HarnessError(`${spec.method} ${spec.path}: not sent, the run has spent its budget of ${this.options.maxRequests} requests (--max-requests)`);
    }
    if (this.isStopped) throw new TransportError(`${spec.method} ${spec.path}: not sent, the run was interrupted`, false);
    if (this.options.budget !== undefined && this.spent + (this.options.budgetKeptBack?.() ?? 0) >= this.options.budget && !isOutsideBudget()) {
      this.refusedForBudget++;
      this.options.onBudgetSpent?.();
      throw new BudgetSpentError(`${spec.method} ${spec.path}: not sent, budget spent (--budget: the checks' share of ${this.options.budget} requests)`);
    }
    this.spent++;
    const leave = await this.untilStopped(this.gate.enter(this.options.inBackground?.() === true, this.options.owner?.()));
    try {
      return await this.sendOnce(spec, waitLimit, dispatched);
    } finally {
      leave();
    }
  }

  private async sendOnce(spec: RequestSpec, waitLimit: number, dispatched?: () => void): Promise<Exchange> {
    let sentAt: number;
    try {
      sentAt = await this.untilStopped(this.limiter.take(waitLimit));
      if (this.isStopped) throw this.notSent('the run was interrupted');
    } catch (error) {
      this.spent--;
      if (error instanceof TransportError) throw new TransportError(`${spec.method} ${spec.path}: ${error.message}`, false);
      throw error;
    }
    const seq = ++this.seq;
    dispatched?.();
    this.options.onSend?.(seq);
    const path = this.pathWithQuery(spec);
    const headers: Record<string, string> = {};
    const shown: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.extraHeaders)) {
      headers[name.toLowerCase()] = value;
      shown[name] = MASK;
    }
    headers.accept = 'application/json';
    const authorization = this.authorization(spec.auth ?? 'primary');
    if (authorization) {
      headers.authorization = authorization.sent;
      shown.Authorization = authorization.shown;
    }
    let body: string | undefined;
    if (spec.rawBody !== undefined) body = spec.rawBody;
    else if (spec.json !== undefined) body = JSON.stringify(spec.json);
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      shown['Content-Type'] = 'application/json';
    }
    const request: RecordedRequest = {
      method: spec.method,
      url: this.redact(this.origin + path),
      headers: shown,
      ...(body !== undefined ? { body: this.redact(body) } : {}),
    };

    const started = performance.now();
    const deadline = this.deadlineFor();
    try {
      const res = await this.pool.request({
        origin: this.origin,
        path,
        method: spec.method,
        headers,
        body,
        signal: deadline.signal,
      });
      const text = await this.readBody(res.body, spec);
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) responseHeaders[name] = this.redact(Array.isArray(value) ? value.join(', ') : value);
      }
      const exchange: Exchange = {
        seq,
        request,
        response: { status: res.statusCode, headers: responseHeaders, text: this.redact(text), ...parseJson(text) },
        durationMs: Math.round(performance.now() - started),
      };
      this.pace(spec, exchange, sentAt);
      this.log.push(exchange);
      this.logBytes += exchange.response.text.length;
      while (this.logBytes > LOG_BYTES && this.log.length > 1) this.logBytes -= this.log.shift()!.response.text.length;
      return exchange;
    } catch (error) {
      if (error instanceof TransportError) throw error;
      if (this.isStopped) throw new TransportError(`${spec.method} ${this.redact(spec.path)}: aborted, the run was interrupted`, false);
      throw new TransportError(`${spec.method} ${this.redact(spec.path)}: ${this.describe(error)}`);
    } finally {
      deadline.clear();
    }
  }

  /**
   * One request's abort signal: its timeout (headers and body) or the run's stop, whichever comes first.
   * Not AbortSignal.any(AbortSignal.timeout(…)): on Node 20 nothing holds the timeout signal strongly, it can be
   * garbage collected before it fires, and a target that trickles its body then hangs the run for good.
   */
  private deadlineFor(): { signal: AbortSignal; clear(): void } {
    const controller = new AbortController();
    const stop = this.stopping.signal;
    const onStop = () => controller.abort(stop.reason);
    const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${this.options.timeoutMs} ms`, 'TimeoutError')), this.options.timeoutMs);
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
    return {
      signal: controller.signal,
      clear: () => {
        clearTimeout(timer);
        stop.removeEventListener('abort', onStop);
      },
    };
  }

  /** Tells the limiter how the target answered: a 429 pauses and slows every request, anything else speeds up. */
  private pace(spec: RequestSpec, exchange: Exchange, sentAt: number): void {
    if (exchange.response.status === 429) {
      this.rateLimited++;
      const waited = this.limiter.waitedMs;
      const pause = this.limiter.rateLimited(sentAt, retryAfterMs(exchange));
      this.options.onTransport?.({ retries: 0, rateLimited: 1, rateLimitWaitMs: this.limiter.waitedMs - waited });
      if (pause) this.options.onRateLimit?.({ kind: 'paused', request: `${spec.method} ${this.redact(spec.path)}`, ...pause });
      return;
    }
    const resumed = this.limiter.answered(sentAt);
    if (resumed) this.options.onRateLimit?.({ kind: 'resumed', ...resumed });
  }

  private pathWithQuery(spec: RequestSpec): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) params.append(name, String(value));
    }
    const qs = params.toString();
    return `${this.prefix}${spec.path}${qs ? `?${qs}` : ''}`;
  }

  private authorization(auth: Auth): { sent: string; shown: string } | undefined {
    if (auth === 'none') return undefined;
    if (typeof auth === 'object') return { sent: auth.header, shown: this.redact(auth.header) };
    const key = auth === 'primary' ? this.options.keys.primary : this.options.keys.other;
    if (key === undefined) throw new HarnessError('no key configured for the second user (--other-key)');
    return { sent: `Bearer ${key}`, shown: `Bearer ${MASK}` };
  }

  private async readBody(body: AsyncIterable<Buffer> & { destroy(): void }, spec: RequestSpec): Promise<string> {
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        throw new TransportError(`${spec.method} ${spec.path}: response body larger than ${limit} bytes`, false);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private describe(error: unknown): string {
    if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return `no answer within ${this.options.timeoutMs} ms`;
    }
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return `no answer within ${this.options.timeoutMs} ms`;
    }
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    const message = error instanceof Error ? `${error.message}${cause}` : String(error);
    const code = [error, error instanceof Error ? error.cause : undefined]
      .map((e) => (e as { code?: unknown } | undefined)?.code)
      .find((c) => typeof c === 'string');
    const tls = typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code);
    // Through a proxy, a refused or failed connection is the proxy's as likely as the target's: name it.
    const proxy = proxyFor(this.origin, this.options.network?.proxy);
    const via = proxy ? ` (through the proxy ${shownProxy(proxy.url)} from ${proxy.variable}: is it running, and does it let the request through?)` : '';
    return this.redact(tls ? `${message} (a private certificate authority? trust it with --ca-cert FILE)${via}` : `${message}${via}`);
  }
}

function retryAfterMs(exchange: Exchange): number | undefined {
  const value = exchange.response.headers['retry-after'];
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function parseJson(text: string): { json?: unknown; parseError?: string } {
  if (text.trim() === '') return {};
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (error) {
    return { parseError: error instanceof Error ? error.message : String(error) };
  }
}

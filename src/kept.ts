import { CheckFailure, TransportError } from './errors.ts';
import type { Api } from './http/api.ts';
import { TRANSIENT_STATUSES } from './http/client.ts';
import type { Auth, Exchange } from './http/exchange.ts';
import { Journal, type KeyRef } from './journal.ts';
import { itemFlag, recordOf, shapeOf } from './lenient.ts';

/**
 * Reads an item's kept flag with a single-item read (§4 GET /artifact.php). The record is found by its
 * structure (bare, or inside an envelope); a flag served as null reads as 0 ("not set").
 */
export async function readKept(api: Api, id: string, user: KeyRef = 'primary'): Promise<{ value: 0 | 1; exchange: Exchange; unset: boolean; servedId: unknown }> {
  const exchange = await api.item(id, user);
  const { status, json } = exchange.response;
  const ok = status >= 200 && status < 300;
  const record = ok ? recordOf(json, id) : undefined;
  const value = record ? itemFlag(record.is_kept) : undefined;
  if (value === undefined) {
    const found = !ok
      ? `it answered ${status} (${shapeOf(json)})`
      : record
        ? `found the record, but its is_kept is ${JSON.stringify(record.is_kept)}, not 0/1, a boolean or null`
        : `found ${shapeOf(json)}`;
    throw new CheckFailure(`could not read is_kept of item ${id}: looked for a 2xx answer holding the item record (the body itself, or an object inside an envelope) with is_kept; ${found}`, exchange.seq, 'C4.14');
  }
  // servedId: the id as the record carries it (a number, or a string even when it looks numeric), to send back as it came.
  return { value: value ? 1 : 0, exchange, unset: value === null, servedId: record!.id };
}

/**
 * The suite's only way to write (§3). Reads the current value first, journals the change before
 * sending it, and restores every value it touched, verifying each restore with a fresh read.
 */
export class KeptWriter {
  private readonly originals = new Map<string, { user: KeyRef; id: string; value: 0 | 1 }>();
  /** Each item's id as its record serves it, sent back in the same type. */
  private readonly servedIds = new Map<string, unknown>();

  constructor(
    private readonly api: Api,
    private readonly journal: Journal,
  ) {}

  /**
   * Sends `{ id, is_kept: value }` (or `body`) with the key of `as`; `value` may be deliberately invalid.
   * `owner` is the user whose item it is (differs from `as` in cross-user probes): its value is read
   * first and restored afterwards.
   */
  async set(id: string, value: unknown, options: { as?: Auth; owner?: KeyRef; body?: unknown } = {}): Promise<Exchange> {
    const owner = options.owner ?? (options.as === 'other' ? 'other' : 'primary');
    const as = options.as ?? owner;
    await this.journalChange(owner, id, value);
    const served = this.servedIds.get(`${owner}:${id}`);
    const body = options.body ?? { id: typeof served === 'number' || typeof served === 'string' ? served : numericIfPossible(id), is_kept: value };
    return this.sendOnce(() => this.api.setKept(body, as), owner, id);
  }

  private sendOnce(send: () => Promise<Exchange>, owner: KeyRef, id: string): Promise<Exchange> {
    return sendToggle(send, () => readKept(this.api, id, owner));
  }

  /** Sends a verbatim body (malformed JSON) to the toggle of an item of `owner`, journaled like set(). */
  async setRaw(id: string, rawBody: string, owner: KeyRef = 'primary'): Promise<Exchange> {
    await this.journalChange(owner, id, rawBody);
    return this.sendOnce(() => this.api.setKeptRaw(rawBody, owner), owner, id);
  }

  /** Remembers the value before the first change and journals the change before it is sent. */
  private async journalChange(owner: KeyRef, id: string, sent: unknown): Promise<void> {
    const key = `${owner}:${id}`;
    if (!this.originals.has(key)) {
      const { value: current, servedId } = await readKept(this.api, id, owner);
      this.originals.set(key, { user: owner, id, value: current });
      this.servedIds.set(key, servedId);
    }
    this.journal.recordChange(owner, id, this.originals.get(key)!.value, sent);
  }

  /** Puts back every value this writer changed; throws when a restore cannot be verified. */
  async restoreAll(): Promise<void> {
    const problems: string[] = [];
    for (const { user, id, value } of this.originals.values()) {
      try {
        await restoreOne(this.api, this.journal, user, id, value);
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
    }
    this.originals.clear();
    if (problems.length > 0) throw new CheckFailure(`restoring kept values failed: ${problems.join('; ')}`);
  }
}

/** Restores one item's kept value and verifies it; returns whether a write was needed. */
export async function restoreOne(api: Api, journal: Journal, user: KeyRef, id: string, value: 0 | 1): Promise<boolean> {
  const before = await readKept(api, id, user);
  const needed = before.value !== value;
  if (needed) await sendToggle(() => api.setKept({ id: numericIfPossible(id), is_kept: value }, user), () => readKept(api, id, user));
  const after = await readKept(api, id, user);
  if (after.value !== value) {
    throw new CheckFailure(`item ${id} is kept=${after.value} after restoring it to ${value}`, after.exchange.seq);
  }
  journal.recordRestored(user, id, value);
  return needed;
}

const TOGGLE_ATTEMPTS = 3;

/**
 * Setting a value is idempotent, but a toggle is never resent blindly: after a transient fault
 * (connection error, 429, 502–504) the current state is read first, and only then is the same
 * request sent again. A toggle that never gets a clean answer ends as a TransportError: no verdict.
 */
export async function sendToggle(send: () => Promise<Exchange>, readState: () => Promise<unknown>): Promise<Exchange> {
  let fault = '';
  for (let attempt = 1; attempt <= TOGGLE_ATTEMPTS; attempt++) {
    if (attempt > 1) await readState();
    try {
      const exchange = await send();
      if (!TRANSIENT_STATUSES.has(exchange.response.status)) return exchange;
      fault = `${exchange.request.method} /artifact-kept.php answered ${exchange.response.status}`;
    } catch (error) {
      if (!(error instanceof TransportError) || !error.transient) throw error;
      fault = error.message;
    }
  }
  throw new TransportError(`the kept toggle got no clean answer after ${TOGGLE_ATTEMPTS} attempts: ${fault}`);
}

/** Ids are sent back the way the target served them; numeric-looking ids as numbers. */
export function numericIfPossible(id: string): string | number {
  return /^\d+$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

import { assertMayToggle, currentCheck, keptKey, type CheckScope } from '../http/check-scope.ts';
import { CheckFailure, TransportError } from '../core/errors.ts';
import type { Api, Query } from '../http/api.ts';
import { TRANSIENT_STATUSES } from '../http/client.ts';
import type { Auth, Exchange } from '../http/exchange.ts';
import type { Journal, KeyRef } from './journal.ts';
import { asJson, itemFlag, recordOf, shapeOf } from '../spec/lenient.ts';

/**
 * Reads an item's kept flag with a single-item read (§4 GET /artifact.php). The record is found by its
 * structure (bare, or inside an envelope); a flag served as null reads as 0 ("not set").
 */
export async function readKept(
  api: Api,
  id: string,
  user: KeyRef = 'primary',
): Promise<{ value: 0 | 1; exchange: Exchange; unset: boolean; servedId: unknown }> {
  return keptIn(await api.item(id, user), id, user);
}

/** The kept flag of item `id` in the answer to a single-item read (as readKept reads it), remembered as the check's last read. */
export function keptIn(exchange: Exchange, id: string, user: KeyRef = 'primary'): { value: 0 | 1; exchange: Exchange; unset: boolean; servedId: unknown } {
  const { status, json } = exchange.response;
  const ok = status >= 200 && status < 300;
  const record = ok ? recordOf(json, id) : undefined;
  const value = record ? itemFlag(record.is_kept) : undefined;
  if (value === undefined) {
    const found = !ok
      ? `it answered ${status} (${shapeOf(json)})`
      : record
        ? `found the record, but its is_kept is ${asJson(record.is_kept)}, not 0/1, a boolean or null`
        : `found ${shapeOf(json)}`;
    throw new CheckFailure(
      `could not read is_kept of item ${id}: looked for a 2xx answer holding the item record (the body itself, or an object inside an envelope) with is_kept; ${found}`,
      exchange.seq,
      'C4.14',
    );
  }
  // servedId: the id as the record carries it (a number, or a string even when it looks numeric), to send back as it came.
  currentCheck()?.seenKept.set(keptKey(user, id), { value: value ? 1 : 0, servedId: record!.id });
  return { value: value ? 1 : 0, exchange, unset: value === null, servedId: record!.id };
}

/**
 * The suite's only way to write (§3). Knows the value of each item before its first change (the
 * check's own last read of it, or a fresh one), journals the change before sending it, and restores
 * every value it touched, verifying each restore with a read made after the last write.
 */
export class KeptWriter {
  private readonly originals = new Map<string, { user: KeyRef; id: string; value: 0 | 1 }>();
  /** Each item's id as its record serves it, sent back in the same type. */
  private readonly servedIds = new Map<string, unknown>();
  /** Every item this writer journaled: the end-of-run sweep reads each of them once. */
  private readonly journaled = new Set<string>();
  /** Values the check read before its first change of the item, kept for that change's journal entry (remember). */
  private readonly remembered = new Map<string, { value: 0 | 1; servedId: unknown }>();
  /** The value the writer's last toggle of each item set, answered with a 2xx: the restore's guess of its value. */
  private readonly lastSet = new Map<string, 0 | 1>();

  constructor(
    private readonly api: Api,
    private readonly journal: Journal,
    /** The check this writer belongs to: what it last read of each item (Api forgets it on every write). */
    private readonly scope?: CheckScope,
  ) {}

  /**
   * Sends `{ id, is_kept: value }` (or `body`) with the key of `as`, on one line or laid out (`pretty`); `value` may be
   * deliberately invalid.
   * `owner` is the user whose item it is (differs from `as` in cross-user probes): its value is read
   * first and restored afterwards. `query` goes in the query string beside the body (cross-user probes name the owner there).
   */
  async set(id: string, value: unknown, options: { as?: Auth; owner?: KeyRef; body?: unknown; pretty?: boolean; query?: Query } = {}): Promise<Exchange> {
    const owner = options.owner ?? (options.as === 'other' ? 'other' : 'primary');
    const as = options.as ?? owner;
    await this.journalChange(owner, id, value);
    const body = options.body ?? { id: this.idToSend(owner, id), is_kept: value };
    this.lastSet.delete(keptKey(owner, id));
    // pretty: the same JSON laid out over several lines, as a client's serializer may write it.
    const send = () => (options.pretty ? this.api.setKeptRaw(JSON.stringify(body, null, 2), as) : this.api.setKept(body, as, options.query));
    const exchange = await this.sendOnce(send, owner, id);
    const status = exchange.response.status;
    const plain = options.body === undefined && as === owner && (value === 0 || value === 1);
    if (plain && status >= 200 && status < 300) this.lastSet.set(keptKey(owner, id), value);
    return exchange;
  }

  /**
   * Keeps the check's last reads of these items (current: no write of the check came after them) as their
   * values before their first change, so that a write to another item in between, which makes those reads
   * stale, does not cost the item a read of its own when its first change is journaled.
   */
  remember(ids: readonly string[], owner: KeyRef = 'primary'): void {
    for (const id of ids) {
      const seen = this.scope?.seenKept.get(keptKey(owner, id));
      if (seen) this.remembered.set(keptKey(owner, id), seen);
    }
  }

  private idToSend(owner: KeyRef, id: string): string | number {
    const served = this.servedIds.get(keptKey(owner, id));
    return typeof served === 'number' || typeof served === 'string' ? served : numericIfPossible(id);
  }

  private sendOnce(send: () => Promise<Exchange>, owner: KeyRef, id: string): Promise<Exchange> {
    return sendToggle(send, () => readKept(this.api, id, owner));
  }

  /** Sends a verbatim body (malformed JSON) to the toggle of an item of `owner`, journaled like set(). */
  async setRaw(id: string, rawBody: string, owner: KeyRef = 'primary'): Promise<Exchange> {
    await this.journalChange(owner, id, rawBody);
    this.lastSet.delete(keptKey(owner, id));
    return this.sendOnce(() => this.api.setKeptRaw(rawBody, owner), owner, id);
  }

  /**
   * Sends a request that is not the toggle but names an item of `owner` and a kept value (a GET of the
   * toggle's path, which must write nothing), journaled like set(): a server that wrongly applies it is put back.
   */
  async sendOther(id: string, sent: unknown, send: () => Promise<Exchange>, owner: KeyRef = 'primary'): Promise<Exchange> {
    await this.atRisk(id, sent, owner);
    return this.sendOnce(send, owner, id);
  }

  /**
   * Journals an item that requests about to be sent, none of them the toggle, name with a kept value (list
   * bodies carrying is_kept, sent by the check itself): a server that wrongly applies one is put back.
   */
  async atRisk(id: string, sent: unknown, owner: KeyRef = 'primary'): Promise<void> {
    await this.journalChange(owner, id, sent);
    this.lastSet.delete(keptKey(owner, id));
  }

  /** Remembers the value before the first change and journals the change before it is sent. */
  private async journalChange(owner: KeyRef, id: string, sent: unknown): Promise<void> {
    assertMayToggle();
    const key = keptKey(owner, id);
    if (!this.originals.has(key)) {
      const { value: current, servedId } = this.scope?.seenKept.get(key) ?? this.remembered.get(key) ?? (await readKept(this.api, id, owner));
      this.originals.set(key, { user: owner, id, value: current });
      this.servedIds.set(key, servedId);
    }
    await this.journal.recordChange(owner, id, this.originals.get(key)!.value, sent);
    this.journaled.add(key);
  }

  /** How many items this writer journaled: the reads the end-of-run sweep makes for them. */
  get itemsJournaled(): number {
    return this.journaled.size;
  }

  /** The items this writer journaled, as `user:id`: a budget keeps back one sweep read per item, whichever checks wrote it. */
  get journaledItems(): string[] {
    return [...this.journaled];
  }

  /**
   * Puts back every value this writer changed. The items are read together; those that differ are
   * written together (one write per item), and all are read again after the writes (a write to one
   * item must not leave another changed). An item the check has not read since its last write, whose
   * last toggle (a plain one, answered with a 2xx) set another value than the original, is written
   * back without that first read: the write sends the original value, and the read after every write
   * verifies it. Throws a CheckFailure only when clean answers show the toggle did not take; a restore
   * that met a fault (429s past the deadline, resets, an unusable read) is an error: the run has no
   * verdict, and the end-of-run sweep tries again.
   */
  async restoreAll(): Promise<void> {
    const items = [...this.originals.values()];
    this.originals.clear();
    this.remembered.clear();
    // The last fault of each item's read and write; a later clean answer clears it.
    const readFaults = new Map<string, unknown>();
    const writeFaults = new Map<string, unknown>();
    const read = async ({ user, id }: { user: KeyRef; id: string }): Promise<0 | 1 | undefined> => {
      try {
        const { value } = await readKept(this.api, id, user);
        readFaults.delete(keptKey(user, id));
        return value;
      } catch (error) {
        readFaults.set(keptKey(user, id), error instanceof CheckFailure ? new TransportError(error.message, false) : error);
        return undefined;
      }
    };
    // An item guessed to differ is written back in the first round, and every item is read after the writes.
    let values = await Promise.all(
      items.map((item) => {
        const key = keptKey(item.user, item.id);
        const seen = this.scope?.seenKept.get(key)?.value;
        if (seen !== undefined) return seen;
        const set = this.lastSet.get(key);
        return set === undefined || set === item.value ? read(item) : set;
      }),
    );
    this.lastSet.clear();
    for (let round = 0; round < RESTORE_ROUNDS; round++) {
      const wrong = items.filter((item, i) => values[i] !== undefined && values[i] !== item.value);
      if (wrong.length === 0) break;
      // Each write goes to an item of its own, so they go out together; only the read after all of them verifies.
      await Promise.all(
        wrong.map(async ({ user, id, value }) => {
          try {
            await this.sendOnce(() => this.api.setKept({ id: this.idToSend(user, id), is_kept: value }, user), user, id);
            writeFaults.delete(keptKey(user, id));
          } catch (error) {
            writeFaults.set(keptKey(user, id), error);
          }
        }),
      );
      values = await Promise.all(items.map(read));
    }
    const problems: unknown[] = [];
    items.forEach(({ user, id, value }, i) => {
      const key = keptKey(user, id);
      if (values[i] === value) this.journal.recordRestored(user, id, value);
      else if (values[i] === undefined) problems.push(readFaults.get(key));
      else problems.push(writeFaults.get(key) ?? new CheckFailure(`item ${id} is kept=${values[i]} after restoring it to ${value}`));
    });
    if (problems.length === 0) return;
    const message = `restoring kept values failed: ${problems.map((e) => (e instanceof Error ? e.message : String(e))).join('; ')}`;
    if (problems.every((e) => e instanceof CheckFailure)) throw new CheckFailure(message);
    throw new TransportError(message, false);
  }
}

/** Rounds of "write what differs, read every item again" a restore makes before it gives up. */
const RESTORE_ROUNDS = 3;

/**
 * Restores one item's kept value and verifies it; returns whether a write was needed. Only a verified
 * wrong value is a CheckFailure; a read without a usable answer is a TransportError. `journal` records
 * the restore (the pact's provider states keep none); `sendId` is the id as the target served it.
 */
export async function restoreOne(
  api: Api,
  journal: Journal | undefined,
  user: KeyRef,
  id: string,
  value: 0 | 1,
  sendId: unknown = numericIfPossible(id),
): Promise<boolean> {
  const read = () =>
    readKept(api, id, user).catch((error: unknown) => {
      throw error instanceof CheckFailure ? new TransportError(error.message, false) : error;
    });
  const before = await read();
  const needed = before.value !== value;
  if (needed) await sendToggle(() => api.setKept({ id: sendId, is_kept: value }, user), read);
  // Without a write, the read above already verified the value.
  const after = needed ? await read() : before;
  if (after.value !== value) {
    throw new CheckFailure(`item ${id} is kept=${after.value} after restoring it to ${value}`, after.exchange.seq);
  }
  journal?.recordRestored(user, id, value);
  return needed;
}

const TOGGLE_ATTEMPTS = 3;
/** 429s to one toggle before it gives up even with time left (each waits for the client's pause). */
const TOGGLE_RATE_LIMITED = 60;

/**
 * Setting a value is idempotent, but a toggle is never resent blindly: after a transient fault
 * (connection error, 429, 502–504) the current state is read first, and only then is the same
 * request sent again. A 429 uses no attempt: the client pauses every request until the target's
 * window clears (up to the run's deadline). A toggle that never gets a clean answer ends as a
 * TransportError: no verdict.
 */
export async function sendToggle(send: () => Promise<Exchange>, readState: () => Promise<unknown>): Promise<Exchange> {
  let fault = '';
  let faults = 0;
  let rateLimited = 0;
  while (faults < TOGGLE_ATTEMPTS && rateLimited < TOGGLE_RATE_LIMITED) {
    if (faults + rateLimited > 0) await readState();
    try {
      const exchange = await send();
      const status = exchange.response.status;
      if (!TRANSIENT_STATUSES.has(status)) return exchange;
      fault = `${exchange.request.method} /artifact-kept.php answered ${status}`;
      if (status === 429) rateLimited++;
      else faults++;
    } catch (error) {
      if (!(error instanceof TransportError) || !error.transient) throw error;
      fault = error.message;
      faults++;
    }
  }
  throw new TransportError(`the kept toggle got no clean answer after ${faults + rateLimited} attempts: ${fault}`);
}

/** Ids are sent back the way the target served them; numeric-looking ids as numbers. */
export function numericIfPossible(id: string): string | number {
  return /^\d+$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

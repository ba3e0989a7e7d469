import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { TransportError, UsageError } from '../core/errors.ts';
import type { KeyRef } from '../http/exchange.ts';

export type { KeyRef } from '../http/exchange.ts';

/** What an item at the other kept value calls for beyond its sweep read: a read, a write back and a verifying read. */
export const AWAY_ROUND = 3;

/** Which deployment a journal's changes were made on, and with which keys (fingerprints, never the keys). */
export interface JournalRun {
  url: string;
  profile: string;
  keys: { primary: string; other?: string };
}

export type JournalEntry =
  | ({ op: 'run'; at: string } & JournalRun)
  | { op: 'change'; at: string; user: KeyRef; id: string; from: 0 | 1; to: unknown }
  | { op: 'restored'; at: string; user: KeyRef; id: string; value: 0 | 1 }
  /** A read made once the run's last kept write was over found the item at its value before the run. */
  | { op: 'verified'; at: string; user: KeyRef; id: string; value: 0 | 1 };

type ItemEntry = Exclude<JournalEntry, { op: 'run' }>;

/** A key's fingerprint: enough to tell two keys apart, useless for recovering one. */
export function keyFingerprint(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

export function keyFingerprints(keys: { primary: string; other?: string }): JournalRun['keys'] {
  return { primary: keyFingerprint(keys.primary), ...(keys.other ? { other: keyFingerprint(keys.other) } : {}) };
}

/** The journal's first line: the run's target, profile and key fingerprints, so that a restore goes to the same place. */
export function writeJournalHeader(path: string, run: JournalRun): void {
  mkdirSync(dirname(path), { recursive: true });
  appendDurably(path, `${JSON.stringify({ op: 'run', at: new Date().toISOString(), ...run })}\n`);
}

/**
 * Appends a line and flushes it to the disk before returning: a change is on disk before its request
 * is sent, so that a run killed at any moment (a CI job's SIGKILL) leaves a journal that names it.
 */
function appendDurably(path: string, line: string, flush = true): void {
  const fd = openSync(path, 'a');
  try {
    writeSync(fd, line);
    if (flush) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * appendDurably without holding up the thread: the write and the flush go to libuv's pool, so that the
 * checks beside a journaling one go on while the disk syncs. Resolves once the line is on the disk.
 */
async function appendDurablyAsync(path: string, line: string): Promise<void> {
  const handle = await open(path, 'a');
  try {
    await handle.write(line);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Append-only record of every kept value the run changes, written *before* the request is sent,
 * so that an interrupted run can be undone (`conform restore --journal FILE`).
 */
export class Journal {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  private stoppedBy: string | undefined;
  /**
   * Each journaled item (user:id): whether its last entry restored it, or sent it away from its original
   * value (the other kept value), or sent something that leaves it as it was on a conforming server.
   */
  private readonly standing = new Map<string, 'restored' | 'away' | 'unchanged'>();

  /**
   * The run was interrupted: no change may be journaled (and so sent) from now on. The CLI restores
   * from the journal as soon as every worker has stopped its own, so a later change would be missed.
   */
  stop(why: string): void {
    this.stoppedBy = why;
  }

  /** Resolves once the change is on the disk; its request may be sent then, and only then. */
  async recordChange(user: KeyRef, id: string, from: 0 | 1, to: unknown): Promise<void> {
    this.ensureRunning(id);
    this.standing.set(`${user}:${id}`, to === 1 - from ? 'away' : 'unchanged');
    const entry: ItemEntry = { op: 'change', at: new Date().toISOString(), user, id, from, to };
    await appendDurablyAsync(this.path, `${JSON.stringify(entry)}\n`);
    // Stopped while the line was written: the change is journaled but not sent (a restore finds it unchanged).
    this.ensureRunning(id);
  }

  private ensureRunning(id: string): void {
    if (this.stoppedBy !== undefined) throw new TransportError(`kept value of item ${id} not changed: ${this.stoppedBy}`, false);
  }

  recordRestored(user: KeyRef, id: string, value: 0 | 1): void {
    this.standing.set(`${user}:${id}`, 'restored');
    this.append({ op: 'restored', at: new Date().toISOString(), user, id, value });
  }

  /** Only a read made after the run's last kept write was over, that found the item at its original value. */
  recordVerified(user: KeyRef, id: string, value: 0 | 1): void {
    this.append({ op: 'verified', at: new Date().toISOString(), user, id, value });
  }

  /**
   * The requests this journal's items still call for on a conforming server: the end-of-run sweep reads
   * each item once, and an item last sent the other kept value needs a read of its value, a write back and
   * the read that verifies it (one round of a restore). --budget keeps them back; the restores a server
   * that wrongly applied something else calls for are sent past the budget.
   */
  get requestsToSettle(): number {
    let requests = 0;
    for (const standing of this.standing.values()) requests += standing === 'away' ? 1 + AWAY_ROUND : 1;
    return requests;
  }

  /** Not flushed before going on: a restore whose line is lost is found restored by the next sweep. */
  private append(entry: ItemEntry): void {
    appendDurably(this.path, `${JSON.stringify(entry)}\n`, false);
  }
}

/** Every entry of the journal at `path` (none when there is no file). Throws a UsageError when it cannot be read. */
export function readJournal(path: string): JournalEntry[] {
  if (!existsSync(path)) return [];
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read the journal ${path}${code ? ` (${code})` : ''}`);
  }
  const lines = text.split('\n');
  // A run killed while appending can leave its last line cut off. Each change is journaled before it
  // is sent, so a change whose line is incomplete was never sent.
  if (!text.endsWith('\n')) lines.pop();
  const entries: JournalEntry[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      entry = undefined;
    }
    if (!isEntry(entry)) throw new UsageError(`${path} is not a conform journal (line ${index + 1} is not a journal entry)`);
    entries.push(entry);
  });
  return entries;
}

function isEntry(value: unknown): value is JournalEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  if (entry.op === 'run') return typeof entry.url === 'string' && typeof entry.profile === 'string' && typeof entry.keys === 'object' && entry.keys !== null;
  const item = (entry.user === 'primary' || entry.user === 'other') && typeof entry.id === 'string';
  if (entry.op === 'change') return item && (entry.from === 0 || entry.from === 1);
  if (entry.op === 'restored' || entry.op === 'verified') return item && (entry.value === 0 || entry.value === 1);
  return false;
}

/** A journal named on the command line (`conform restore --journal FILE`): it must exist and say which run wrote it. */
export function readJournalFile(cwd: string, file: string): { path: string; entries: JournalEntry[]; assertSameRun(run: JournalRun): void } {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new UsageError(`no journal at ${path}: give the journal.jsonl in the --out folder of the interrupted run`);
  const entries = readJournal(path);
  const header = entries[0];
  if (entries.length > 0 && header?.op !== 'run') {
    throw new UsageError(`${path} does not record which target and keys it was written with (an older conform?); refusing to restore from it`);
  }
  return {
    path,
    entries,
    assertSameRun(run) {
      if (header?.op !== 'run') return;
      const problems: string[] = [];
      if (header.url !== run.url) problems.push(`it was written against ${header.url}, not ${run.url}`);
      if (header.profile !== run.profile) problems.push(`it was written with the ${header.profile} profile, not ${run.profile}`);
      if (header.keys.primary !== run.keys.primary) problems.push('it was written with another key (--key / CONFORM_API_KEY)');
      if (header.keys.other !== undefined && run.keys.other !== undefined && header.keys.other !== run.keys.other) {
        problems.push("it was written with another second user's key (--other-key)");
      }
      if (problems.length > 0) throw new UsageError(`refusing to restore from ${path}: ${problems.join('; ')}`);
    },
  };
}

export interface PendingRestore {
  user: KeyRef;
  id: string;
  /** The value before the run first changed it. */
  original: 0 | 1;
}

/** Every item the journal shows changed, with its value before the first change. */
export function originalValues(entries: readonly JournalEntry[]): PendingRestore[] {
  const originals = new Map<string, PendingRestore>();
  for (const entry of entries) {
    if (entry.op !== 'change') continue;
    const key = `${entry.user}:${entry.id}`;
    if (!originals.has(key)) originals.set(key, { user: entry.user, id: entry.id, original: entry.from });
  }
  return [...originals.values()];
}

/**
 * Items (user:id) a read found at their original value after the journal's last change: nothing was
 * written since, so the end of the run need not read them again.
 */
export function verifiedSinceLastChange(entries: readonly JournalEntry[]): Set<string> {
  const original = new Map(originalValues(entries).map((item) => [`${item.user}:${item.id}`, item.original] as const));
  const verified = new Set<string>();
  for (const entry of entries) {
    if (entry.op === 'change') verified.clear();
    else if (entry.op === 'verified' && original.get(`${entry.user}:${entry.id}`) === entry.value) verified.add(`${entry.user}:${entry.id}`);
  }
  return verified;
}

import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type KeyRef = 'primary' | 'other';

export type JournalEntry =
  | { op: 'change'; at: string; user: KeyRef; id: string; from: 0 | 1; to: unknown }
  | { op: 'restored'; at: string; user: KeyRef; id: string; value: 0 | 1 };

/**
 * Append-only record of every kept value the run changes, written *before* the request is sent,
 * so that an interrupted run can be undone (`conform restore --journal FILE`).
 */
export class Journal {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
  }

  recordChange(user: KeyRef, id: string, from: 0 | 1, to: unknown): void {
    this.append({ op: 'change', at: new Date().toISOString(), user, id, from, to });
  }

  recordRestored(user: KeyRef, id: string, value: 0 | 1): void {
    this.append({ op: 'restored', at: new Date().toISOString(), user, id, value });
  }

  private append(entry: JournalEntry): void {
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
  }
}

export function readJournal(path: string): JournalEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JournalEntry);
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
    const key = `${entry.user}:${entry.id}`;
    if (entry.op === 'change' && !originals.has(key)) originals.set(key, { user: entry.user, id: entry.id, original: entry.from });
  }
  return [...originals.values()];
}

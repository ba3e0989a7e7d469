import type { JournalEntry } from '../safety/journal.ts';
import { isModificationStamp, SPEC_FIELDS } from '../spec/lenient.ts';
import type { Disagreement } from './compare.ts';

export type IgnoreReason = 'modification stamp' | 'changed by a conform run and put back' | '--ignore-field';

/** One field the diff did not count, why, and on how many items it differed. */
export interface IgnoredField {
  field: string;
  reason: IgnoreReason;
  /** Items on which the two sides differed in this field (0 when it was asked for but never differed). */
  differedOn: number;
  /** For journal-based ignores: the journal that recorded the run's changes. */
  journal?: string;
}

export interface IgnoreRules {
  /** Fields named with --ignore-field. */
  fields: readonly string[];
  /** Items a conform run changed and restored, per journal file. */
  touched: { journal: string; ids: ReadonlySet<string> }[];
}

/** Item ids a journal shows changed (for the key under test) and put back afterwards. */
export function restoredItems(entries: readonly JournalEntry[]): Set<string> {
  const changed = new Set<string>();
  const restored = new Set<string>();
  for (const entry of entries) {
    if (entry.op === 'change' && entry.user === 'primary') changed.add(entry.id);
    if (entry.op === 'restored' && entry.user === 'primary') restored.add(entry.id);
  }
  return new Set([...changed].filter((id) => restored.has(id)));
}

/** Why a disagreement does not count, or undefined when it does. Fields the spec names count unless asked otherwise. */
function reasonToIgnore(d: Disagreement, rules: IgnoreRules): { reason: IgnoreReason; journal?: string } | undefined {
  if (d.field === undefined) return undefined;
  if (rules.fields.includes(d.field)) return { reason: '--ignore-field' };
  if (d.projection) return undefined;
  if (isModificationStamp(d.field)) return { reason: 'modification stamp' };
  if (SPEC_FIELDS.has(d.field)) return undefined;
  // A field the spec does not name, on an item the run toggled and put back: the toggle moved it.
  const run = rules.touched.find((t) => t.ids.has(d.itemId));
  return run ? { reason: 'changed by a conform run and put back', journal: run.journal } : undefined;
}

/** Splits the disagreements into those that count and a summary, per field, of those that do not. */
export function applyIgnoreRules(disagreements: readonly Disagreement[], rules: IgnoreRules): { kept: Disagreement[]; ignored: IgnoredField[] } {
  const kept: Disagreement[] = [];
  const ignored = new Map<string, IgnoredField & { items: Set<string> }>();
  for (const field of rules.fields) ignored.set(`--ignore-field\u0000${field}`, { field, reason: '--ignore-field', differedOn: 0, items: new Set() });
  for (const d of disagreements) {
    const why = reasonToIgnore(d, rules);
    if (!why) {
      kept.push(d);
      continue;
    }
    const key = `${why.reason}\u0000${d.field}`;
    const entry = ignored.get(key) ?? {
      field: d.field!,
      reason: why.reason,
      differedOn: 0,
      items: new Set<string>(),
      ...(why.journal ? { journal: why.journal } : {}),
    };
    entry.items.add(d.itemId);
    entry.differedOn = entry.items.size;
    ignored.set(key, entry);
  }
  return { kept, ignored: [...ignored.values()].map(({ items: _items, ...field }) => field) };
}

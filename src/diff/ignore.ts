import type { JournalEntry } from '../safety/journal.ts';
import type { Disagreement } from './compare.ts';

/** Fields the spec names (§2, §4): a difference in one of these is always reported, whatever its name looks like. */
const SPEC_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'Title',
  'type',
  'type_id',
  'is_kept',
  'is_physical',
  'is_digital',
  'is_in_secondary_collection',
  'tags',
  'MnP',
  'MxP',
  'SS',
  'MnT',
  'MxT',
  'Wt',
  'Yr',
  'Acq',
  'plays',
  'last_use',
]);

/** Words that make a field a record of when or how often the record changed, not of what it holds. */
const STAMP_WORDS = new Set([
  'updated',
  'update',
  'modified',
  'modification',
  'mod',
  'changed',
  'touched',
  'edited',
  'mtime',
  'lastmod',
  'version',
  'revision',
  'rev',
  'etag',
]);
/** Words that end a stamp of the kept flag (`kept_at`, `keptOn`, `kept_since`). */
const TIME_WORDS = new Set(['at', 'on', 'time', 'date', 'since', 'ts', 'timestamp']);

/** `updated_at`, `lastModified`, `Kept-At`, `VERSION` → their words in lower case. */
export function fieldWords(field: string): string[] {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * A modification stamp in any naming style (updated_at, lastModified, date_modified, kept_at,
 * version, etag …). The spec fixes none of them, and toggling the kept flag and putting it back
 * legitimately moves them, so two deployments holding the same data may differ there.
 */
export function isModificationStamp(field: string): boolean {
  if (SPEC_FIELDS.has(field)) return false;
  const words = fieldWords(field);
  if (words.some((w) => STAMP_WORDS.has(w))) return true;
  const kept = words.indexOf('kept');
  return kept >= 0 && words.slice(kept + 1).some((w) => TIME_WORDS.has(w));
}

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

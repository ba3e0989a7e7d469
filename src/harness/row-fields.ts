import { COLLECTION_FIELDS } from '../spec/limits.ts';
import { idOf, itemFlag, looseFieldValue, type Row } from '../spec/lenient.ts';

/** The fields every list row carries (§4 rule 3). */
export const ROW_FIELDS = ['id', 'Title', 'type', 'type_id', 'is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection', 'tags'] as const;

/** The fields include uses_summary adds to each row (§2, §4 table). */
export const SUMMARY_FIELDS = ['plays', 'last_use'] as const;

/** The fields a row answering `body` must carry: rule 3's, and what fields and include add. */
export function fieldsFor(body: Record<string, unknown> | undefined): readonly string[] {
  return [
    ...ROW_FIELDS,
    ...(body?.fields === 'collection' ? COLLECTION_FIELDS : []),
    ...(Array.isArray(body?.include) && body.include.includes('uses_summary') ? SUMMARY_FIELDS : []),
  ];
}

/** The first field a row answering `body` lacks (tags must be a list), or undefined. */
export function missingField(row: Row, body?: Record<string, unknown>): string | undefined {
  const absent = fieldsFor(body).find((name) => !(name in row));
  if (absent !== undefined) return absent;
  return Array.isArray(row.tags) ? undefined : 'tags (as a list)';
}

/**
 * The first row whose columns of fields "collection" differ (compared loosely: their types are not shown) from the
 * item's own, as `own` (the rows of those fields read alone, by item id) gives them, the field that differs and the
 * item's own row.
 */
export function differingCollectionValue(
  rows: readonly Row[],
  own: ReadonlyMap<string | undefined, Row>,
): { row: Row; field: string; itsOwn: Row } | undefined {
  for (const row of rows) {
    const itsOwn = own.get(idOf(row.id));
    const field = itsOwn && COLLECTION_FIELDS.find((f) => f in row && f in itsOwn && looseFieldValue(row[f]) !== looseFieldValue(itsOwn[f]));
    if (itsOwn && field !== undefined) return { row, field, itsOwn };
  }
  return undefined;
}

/** What a row says of its item's state besides its title and tags: the same in every way of asking (§2; §4 rule 3). */
const ROW_STATE_FIELDS = ['type', 'type_id', 'is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection'] as const;

/**
 * The first field of type, type_id and the four flags in which `row` says otherwise of its item than `walked` (its row in
 * the collection walk), or undefined: flags read as set or not (null as not set), ids loosely, a type name only where
 * either names one (an item with no type has none in every row).
 */
export function differingItemState(row: Row, walked: Row): string | undefined {
  const named = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return ROW_STATE_FIELDS.find((name) => {
    if (!(name in row) || !(name in walked)) return false;
    if (name === 'type') return named(row.type) !== named(walked.type);
    if (name === 'type_id') return idOf(row[name]) !== undefined && idOf(walked[name]) !== undefined && idOf(row[name]) !== idOf(walked[name]);
    return (itemFlag(row[name]) ?? false) !== (itemFlag(walked[name]) ?? false);
  });
}

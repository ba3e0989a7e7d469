import {
  EXTRA_BODY_FIELDS,
  FLAG_FILTERS,
  FLAG_WRONG_VALUES,
  ITEM_FIELDS,
  LIST_MODES,
  OTHER_RECORD_FIELDS,
  REQUESTS,
  STAGING_LIST_MODES,
  STAGING_ROW_FIELDS,
  TYPE_ID_WRONG_VALUES,
} from './axes.ts';
import { error, field, type InventoryElement, rule, value } from './types.ts';

/** The global statements of the spec multiplied over what they govern (axes.ts). */

/** "All results are scoped to the key's user" × every endpoint × every request shape. */
export const scopingEverywhere = (): InventoryElement[] =>
  Object.entries(REQUESTS).flatMap(([endpoint, shapes]) => shapes.map((shape) => rule(`no other user's data from ${endpoint} under ${shape}`)));

/** "Every row carries …" × every listing mode (the plain POST is the clause's base element). */
export const rowFieldsEverywhere = (): InventoryElement[] => LIST_MODES.flatMap((mode) => ITEM_FIELDS.map((f) => field(`${f} in every row under ${mode}`)));

/** Staging rows keep id, Title and tags in each mode staging offers. */
export const stagingRowFieldsEverywhere = (): InventoryElement[] =>
  STAGING_LIST_MODES.flatMap((mode) => STAGING_ROW_FIELDS.map((f) => field(`${f} in staging rows under ${mode}`)));

/** The five §3 names, kept in each direction of the toggle. */
export const frameByDirection = (names: readonly string[]): InventoryElement[] =>
  ['keeping', 'unkeeping'].flatMap((way) => names.map((n) => field(`${n} unchanged when ${way}`)));

/** "This changes nothing else" × the record's other fields × every extra body field. */
export const toggleChangesNothingElse = (): InventoryElement[] => [
  ...OTHER_RECORD_FIELDS.map((f) => field(`${f} of the toggled item unchanged`)),
  ...EXTRA_BODY_FIELDS.map((f) => rule(`${f} sent beside id and is_kept is not applied`)),
];

/** A list request is a read: whatever its body holds, it writes nothing. */
export const listWritesNothing = (): InventoryElement[] => [
  ...['is_kept', ...EXTRA_BODY_FIELDS].map((f) => rule(`a list body carrying ${f} changes no item`)),
  rule('a list body shaped like a new item creates none'),
];

/** "Invalid filter values return 400" × every filter × every wrong kind of value. */
export const badFilterValues = (): InventoryElement[] => [
  ...FLAG_FILTERS.flatMap((f) => FLAG_WRONG_VALUES.map((v) => error(`${f} given ${v}: 400 with errors`))),
  ...TYPE_ID_WRONG_VALUES.map((v) => error(`type_id given ${v}: 400 with errors`)),
  error('a bad filter beside good ones: 400 with errors'),
];

/** What each filter must remove and what it must keep, for each of its values. */
export const filterBothWays = (): InventoryElement[] => [
  ...FLAG_FILTERS.flatMap((f) =>
    ['true', 'false'].flatMap((v) => [value(`${f} ${v} drops every item that fails it`), value(`${f} ${v} keeps every item that meets it`)]),
  ),
  ...['one id', 'a list of ids'].flatMap((v) => [
    value(`type_id with ${v} drops items of other types`),
    value(`type_id with ${v} keeps every item of its types`),
  ]),
];

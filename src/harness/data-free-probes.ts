/**
 * List bodies checks send whose judgment depends on nothing the target holds: malformed JSON (ERR-002) and filters
 * given a value of the wrong kind (ERR-004). A conforming server refuses them, or reads a malformed body as a default
 * page; either answer is judged without reference to the data. A full run sends them while its checks load
 * (prefetchedReads) and the client hands each answer to the check that sends the same request.
 */

/** Bodies that are not JSON, or JSON that is not an object (§7): one of each kind (cut short, a list, no JSON). */
export const MALFORMED_LIST_BODIES: readonly string[] = ['{', '[1, 2]', 'not json at all'];

/**
 * PAGE-002's page sizes above 200 (§8): each in page mode, the least by cursor too. They are shared reads,
 * which a full run sends while the checks load.
 */
export const OVERSIZED_PAGE_BODIES: readonly Record<string, unknown>[] = [{ per_page: 201 }, { per_page: 201, cursor: null }, { per_page: 1000000 }];

/** The list filters that take true or false (§4). */
export const FLAG_FILTERS = ['kept', 'physical', 'digital', 'secondary_collection'] as const;

/**
 * A value of the wrong kind for each flag filter, that no reading of the filter could accept: a word (kept's in cursor
 * mode, rule 4 holds whichever way the list pages; physical's beside a valid digital filter: each filter is judged, not the first of a group;
 * never the text "true" or "false" nor an empty text, which a reading of text as a flag, or of nothing as no filter, may accept), an object in cursor mode, and a list holding a boolean beside a
 * valid filter and include uses_summary, which only adds to each row (one bad value is refused whatever else the body
 * holds); three invalid values in one body (type_id's a fraction, which no id is); type_id given a
 * boolean beside fields "collection" (the errors list holds whatever the rows would have held) and an object in cursor
 * mode (§4 rule 4).
 */
export const WRONG_KIND_FILTER_BODIES: readonly Record<string, unknown>[] = [
  ...FLAG_FILTERS.flatMap((f) => [
    {
      [f]: f === 'digital' ? 'sometimes' : f === 'physical' ? 'either' : 'maybe',
      ...(f === 'kept' ? { cursor: null } : f === 'physical' ? { digital: true } : {}),
    },
    { [f]: { on: true }, cursor: null },
    { [f]: [true], [f === 'kept' ? 'physical' : 'kept']: true, include: ['uses_summary'] },
  ]),
  { kept: 'maybe', digital: 7, type_id: 3.5 },
  { type_id: true, fields: 'collection' },
  { type_id: { id: 1 }, cursor: null },
];

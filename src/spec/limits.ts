/** The most rows one page of POST /artifacts.php may hold, on every deployment (spec §4 per_page and §8 Limits). */
export const MAX_ROWS_PER_PAGE = 200;

/** The rows page 1 holds when the request names no per_page, on every deployment (spec §4 per_page, §4 Staging, §8). */
export const DEFAULT_ROWS_PER_PAGE = 50;

/** The fields §4 names for the list request's JSON body, in the order it lists them. */
export const LIST_BODY_FIELDS = [
  'page',
  'per_page',
  'cursor',
  'query',
  'tag',
  'kept',
  'physical',
  'digital',
  'secondary_collection',
  'type_id',
  'fields',
  'include',
] as const;

/** The fields a list request's fields "collection" adds to each row (§2, §4 table). */
export const COLLECTION_FIELDS = ['MnP', 'MxP', 'SS', 'MnT', 'MxT', 'Wt', 'Yr', 'Acq'] as const;

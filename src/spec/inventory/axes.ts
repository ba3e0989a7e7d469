import { COLLECTION_FIELDS } from '../limits.ts';

/**
 * What the spec's global statements govern, as the spec names it: the endpoints and their parameters, the
 * listing modes of POST /artifacts.php, the fields of an item record, the filters and the kinds of value a
 * filter cannot take. The expansions (expand.ts) multiply a statement over these.
 */
export const ITEM_FIELDS = ['id', 'Title', 'type', 'type_id', 'is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection', 'tags'] as const;
export const STAGING_ROW_FIELDS = ['id', 'Title', 'tags'] as const;
export { COLLECTION_FIELDS };
export const SUMMARY_FIELDS = ['plays', 'last_use'] as const;
export const FLAG_FILTERS = ['kept', 'physical', 'digital', 'secondary_collection'] as const;
export const FILTERS = [...FLAG_FILTERS, 'type_id'] as const;

/** Every way of asking POST /artifacts.php for rows (the table of §4 and its combinations). */
export const LIST_MODES = [
  'GET without a body',
  'page',
  'per_page',
  'cursor',
  'query',
  'tag',
  ...FLAG_FILTERS.map((f) => `the ${f} filter`),
  'type_id with one id',
  'type_id with a list of ids',
  'fields "collection"',
  'include uses_summary',
  'fields with include',
  'several filters together',
  'cursor with a filter',
  'query with a filter',
  'page with tag',
] as const;

/** The list modes staging offers (§4 Staging). */
export const STAGING_LIST_MODES = ['GET without a body', 'page', 'per_page', 'cursor', 'query', 'tag'] as const;

/** Per endpoint, every way a request can be shaped, with the other user's values where a value is asked for. */
export const REQUESTS: Readonly<Record<string, readonly string[]>> = {
  '/artifacts.php': [
    ...LIST_MODES,
    "the other user's titles as query",
    "the other user's tags as tag",
    "the other user's type ids as type_id",
    'a user id in the body',
  ],
  '/artifact.php': ["the id of the other user's item", 'a user id in the query'],
  '/uses.php': [
    'no parameter',
    "artifact_id of the other user's item",
    "player_id of the other user's player",
    'artifact_id with player_id',
    'a user id in the query',
  ],
  '/players.php': ['no parameter', 'a user id in the query'],
  '/proposals.php': ['no parameter', 'include_other=1', 'a start and end window', 'each sort and direction', 'a user id in the query'],
  '/types.php': ['no parameter', 'a user id in the query'],
  '/upcoming-interactions.php': ['no parameter', 'a user id in the query'],
  '/artifact-kept.php': ["the id of the other user's item", 'a user id in the body'],
};

/** Fields of the full record the toggle must leave alone, beyond the five §3 names. */
export const OTHER_RECORD_FIELDS = ['Title', 'type', 'type_id', ...COLLECTION_FIELDS, ...SUMMARY_FIELDS] as const;

/** Fields a client could add to a toggle or list body to try a write. */
export const EXTRA_BODY_FIELDS = [
  ...ITEM_FIELDS.filter((f) => f !== 'id' && f !== 'is_kept'),
  ...COLLECTION_FIELDS,
  'a get-rid-of setting',
  'a user id',
  "a second id (the other user's item)",
  'a second id (another item of the same user)',
] as const;

/** Values no reading of a flag filter (true or false) can accept. */
export const FLAG_WRONG_VALUES = ['a word', 'a number other than 0 and 1', 'an object', 'a list'] as const;
/** Values no reading of type_id (one id or a list of ids) can accept, where ids are numbers. */
export const TYPE_ID_WRONG_VALUES = [
  'a word',
  'a boolean',
  'an object',
  'a list of one word',
  'a list with one word after valid ids',
  'a list with one object among valid ids',
] as const;

/** The endpoints of §4, each of which needs the Authorization header. */
export const ENDPOINTS = [
  '/artifacts.php',
  '/artifact.php',
  '/uses.php',
  '/players.php',
  '/proposals.php',
  '/types.php',
  '/upcoming-interactions.php',
  '/artifact-kept.php',
] as const;

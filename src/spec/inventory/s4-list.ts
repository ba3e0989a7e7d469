import { ENDPOINTS, FLAG_FILTERS, ITEM_FIELDS } from './axes.ts';
import { badFilterValues, filterBothWays, listWritesNothing, rowFieldsEverywhere, scopingEverywhere, stagingRowFieldsEverywhere } from './expand.ts';
import type { InventorySentence } from './types.ts';
import { error, field, freedom, limit, omission, prose, requirement, rule, statement, value } from './types.ts';

/** §4 from its opening to the end of POST /artifacts.php. */
export const listSentences: readonly InventorySentence[] = [
  requirement('8b16b7ce', 'every endpoint is under the base URL and needs the Authorization header', [
    statement('C4.1', 'no endpoint serves a request without the header', [
      error('no Authorization header'),
      ...ENDPOINTS.map((e) => error(`no Authorization header on ${e}`)),
    ]),
  ]),
  requirement('e0eb2844', "whatever an endpoint answers belongs to the key's user", [
    statement('C4.1', 'scoping, as first proven per endpoint', [
      rule("item reads are scoped to the key's user"),
      rule("uses are scoped to the key's user"),
      rule("the list is scoped to the key's user"),
    ]),
    statement('C5.2', 'scoping under every endpoint and every request shape', scopingEverywhere()),
  ]),
  requirement('89350665', "the list endpoint lists, searches and filters the key's items", [
    statement('C1.2', 'a list request is a read and writes nothing, whatever its body', listWritesNothing()),
  ]),
  requirement('3a100163', 'a GET without a body gives page 1 too', [statement('C4.2', 'GET lists the first page', [rule('a GET with no body lists page 1')])]),
  prose('6446997c', 'every body field of the list is optional'),
  requirement('0e1cb92b', 'page is a whole number naming the page', [
    statement('C4.5', 'title pages follow on without gaps or repeats', [rule('pages are ordered by title'), rule('pages neither overlap nor skip')]),
  ]),
  requirement('eea0604a', 'per_page is a whole number, 50 unless given, never above 200', [
    statement('C4.3', 'default, maximum and honoured sizes', [
      limit('default page size 50'),
      limit('default page size 50 when only page is sent'),
      limit('at most 200 rows for a per_page above 200'),
      limit('a stated page size is never above 200'),
      limit('an oversized per_page never sets the paging step'),
      value('per_page 1 to 200 is honoured'),
      value('per_page 200 gives 200 rows where the collection has them'),
      error('edge values of page and per_page: no 5xx'),
    ]),
  ]),
  requirement('e72baaf2', 'cursor starts as null and then takes the previous next_cursor; it pages by id, not title', [
    statement('C4.4', 'a cursor walk starts at the first id and continues exactly', [
      value("cursor null starts at the first id of the walk's order"),
      field('next_cursor leads to the very next item'),
    ]),
  ]),
  requirement('6bb5240c', 'query is the text to search for', [
    statement('C4.6', 'a search finds what shows the text and drops the rest, in every paging mode', [
      rule('an exact title finds its item'),
      rule('a search narrows the list'),
      rule('query is honoured when paging by cursor'),
      rule('query is honoured beside a filter'),
    ]),
  ]),
  requirement('31fc110b', 'tag keeps the items labelled with exactly that tag; an empty answer proves nothing about fit', [
    statement('C4.7', 'tag keeps labelled items only, matches the whole label, and keeps every labelled item', [
      rule('tag keeps only items labelled with it'),
      rule('tag matches the whole label, not a part of one'),
      rule('tag keeps every item labelled with it'),
      rule('tag is honoured beside a query'),
    ]),
  ]),
  ...(['2fd5138f', '1b7aa86c', 'c98c9ec3', 'f78e98b3'] as const).map((digest, i) => {
    const f = FLAG_FILTERS[i]!;
    return requirement(digest, `${f} takes true or false and filters by it`, [
      statement('C4.8', `the ${f} filter, both values`, [value(`${f} true and false`), value(`${f} is honoured beside a query`)]),
    ]);
  }),
  requirement('8b976584', 'type_id takes one id or several, from /types.php, and filters by it', [
    statement('C4.8', 'one id and a list of ids', [value('type_id: one id'), value('type_id: a list of ids')]),
    statement('C4.8', 'each filter and value drops what fails and keeps what meets it', filterBothWays()),
  ]),
  requirement('84c3ab92', 'fields "collection" adds the eight columns to every row', [
    statement('C2.4', 'the columns come in every listing mode', [
      ...['cursor', 'a filter', 'query', 'tag'].map((m) => rule(`fields "collection" is honoured under ${m}`)),
    ]),
  ]),
  requirement('03a29a45', 'include takes a list whose allowed entry uses_summary adds plays and last_use to every row', [
    statement('C2.6', 'the summary comes in every listing mode', [
      ...['cursor', 'a filter', 'query', 'tag', 'fields "collection"'].map((m) => rule(`include is honoured under ${m}`)),
    ]),
  ]),
  prose('09e09762', 'opens the rules of the list'),
  requirement('b36f7fff', 'a user id in the body changes nothing: the key decides whose data is read', [
    statement('C4.9', 'a user id is ignored in every place and mode', [
      rule('user_id in the list body is ignored'),
      rule('user_id in the query of a read is ignored'),
      rule('user_id in the list body is ignored when paging by cursor'),
      rule('user_id in the list body is ignored beside a filter'),
    ]),
  ]),
  requirement('1493c102', 'the answer says by has_more whether a further page exists and gives next_cursor for the cursor walk', [
    statement('C4.4', 'has_more is exact, also with filters', [
      field('has_more exactly when another page exists'),
      field('has_more false when no further item matches the filters'),
    ]),
  ]),
  requirement('cbb0d9bb', 'each row has the nine named fields', [
    statement('C4.10', 'every row of every listing mode carries every one of the nine', [
      ...ITEM_FIELDS.map((f) => field(`${f} in every list row`)),
      ...rowFieldsEverywhere(),
      rule("the cursor walk names an item's type as every other mode does"),
    ]),
  ]),
  requirement('6f3db47b', 'a filter with a value it cannot take answers 400 and a list of errors', [
    statement('C4.11', 'every filter, every wrong kind of value, each answers 400 with errors', [
      error('a flag filter that is not true or false: 400'),
      error('a type_id that is not an id: 400'),
      field('the 400 carries a non-empty errors list'),
      ...badFilterValues(),
    ]),
  ]),
  freedom('18c5e07a', 'the key under which rows come is open', 'C4.12'),
  requirement('f98205b1', 'staging takes page, per_page, query, cursor and tag only; rows have id, Title and tags; 50 by default, 200 at most', [
    statement('C4.13', 'what staging keeps still works', [
      rule('tag still filters on staging'),
      rule('query still searches on staging'),
      rule('cursor still pages on staging'),
      limit('default page size 50 on staging'),
      limit('at most 200 rows per page on staging, and 200 when asked'),
    ]),
    statement('C2.8', 'staging rows carry their three fields in every mode staging offers', stagingRowFieldsEverywhere()),
  ]),
  requirement('c3964861', 'staging offers none of the filters, fields or include', [
    statement('C4.13', 'each one is left unhonoured on staging', [
      ...FLAG_FILTERS.map((f) => omission(`the ${f} filter on staging`)),
      omission('the type_id filter on staging'),
      omission('fields on staging'),
      omission('include on staging'),
    ]),
  ]),
];

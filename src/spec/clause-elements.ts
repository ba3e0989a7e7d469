/**
 * The clause-element table: each normative clause of the registry (src/spec/clauses.ts, by id) broken into
 * the elements the spec names in it (a field of a frame condition or a record, a limit, an allowed
 * value, an error case, a profile omission, a rule), each with the checks that cover it and the
 * mutants (fixtures/mutants/) that prove those checks bite on exactly that element. `conform matrix`
 * renders it; test/clause-elements.test.ts fails on an empty cell or a name that does not resolve.
 */
export type ElementKind = 'field' | 'limit' | 'value' | 'error' | 'omission' | 'rule';

export interface ClauseElement {
  element: string;
  kind: ElementKind;
  checks: readonly string[];
  mutants: readonly string[];
}

const el =
  (kind: ElementKind) =>
  (element: string, checks: readonly string[], mutants: readonly string[]): ClauseElement => ({ element, kind, checks, mutants });
const field = el('field');
const limit = el('limit');
const value = el('value');
const error = el('error');
const omission = el('omission');
const rule = el('rule');

const ITEM_FIELDS = ['id', 'Title', 'type', 'type_id', 'is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection', 'tags'] as const;
const rowMutant = (f: string) => (f === 'tags' ? 'rows-omit-empty-tags' : f === 'is_digital' ? 'rows-flag-as-word' : `rows-without-${f}`);

export const clauseElements: Readonly<Record<string, readonly ClauseElement[]>> = {
  'C1.1': [
    rule('the collection is readable with an agent key', ['PAGE-008'], ['read-list-refused']),
    rule('the uses are readable with an agent key', ['USES-001'], ['read-uses-refused']),
    rule('the proposal outcomes are readable with an agent key', ['PROP-002'], ['read-proposals-refused']),
  ],
  'C1.2': [
    rule('the kept toggle is open to an agent key', ['KEPT-001'], ['kept-toggle-forbidden']),
    rule('no other write is open to it', ['WRITE-001', 'WRITE-002'], ['write-put-item-accepted', 'write-post-uses-created']),
  ],
  'C1.3': [
    error('PUT, PATCH and DELETE on any endpoint: 403', ['WRITE-001'], ['write-put-item-accepted', 'write-delete-404-before-permission']),
    error('POST to a read-only endpoint: 403', ['WRITE-002'], ['write-post-uses-created', 'write-post-types-405']),
    rule('a refused write changes nothing', ['WRITE-001'], ['write-refused-but-applied']),
    error('user enumeration reveals no user', ['ENUM-001'], ['enum-users-listed', 'enum-users-listed-past-catch-all']),
    error('user enumeration, where the path exists: 403', ['ENUM-002'], ['enum-users-405']),
  ],
  'C1.4': [rule('a JSON catalog at /api-docs?format=json', ['CAT-001'], ['catalog-not-json', 'catalog-html-page'])],
  'C1.5': [
    field('is_in_secondary_collection untouched by the toggle', ['KEPT-002'], ['kept-keep-clears-secondary', 'kept-clears-secondary']),
    field('is_physical untouched by the toggle', ['KEPT-002'], ['kept-keep-clears-physical']),
    field('is_digital untouched by the toggle', ['KEPT-002'], ['kept-keep-clears-digital']),
    rule('the kept filter reads is_kept alone', ['FILT-006'], ['filter-kept-excludes-secondary']),
  ],
  'C1.6': [
    rule('last_use is the day of the latest use, not of a proposal', ['FIELD-003'], ['last-use-counts-proposals']),
    rule('interact-by dates come from uses, not proposals', ['UPCOMING-003'], ['upcoming-from-proposals']),
  ],
  'C2.1': ITEM_FIELDS.map((f) => field(`${f} in the item record (staging single read)`, ['STAGE-006'], [`staging-record-without-${f}`])),
  'C2.2': [
    rule('every type_id of the collection is listed by /types.php', ['TYPE-001'], ['rows-type-id-off-by-one', 'types-missing-one']),
    field('a listed type carries its id', ['TYPE-002'], ['types-without-ids']),
  ],
  'C2.3': [
    field('tags is a list of labels', ['FILT-004'], ['rows-tags-as-text']),
    value('tags is an empty list when the owner added none', ['FILT-004'], ['rows-omit-empty-tags', 'rows-empty-tags-null']),
    rule('a label the owner added selects the item', ['FILT-003', 'FILT-001'], ['filter-tag-ignored']),
  ],
  'C2.4': [
    ...['MnP', 'MxP', 'SS', 'MnT', 'MxT', 'Wt', 'Yr'].map((f) => field(`${f} with fields "collection"`, ['FIELD-001'], [`fields-omit-${f}`])),
    field('Acq with fields "collection"', ['FIELD-001'], ['fields-omit-acquisition']),
    rule('fields and include combine', ['FIELD-004'], ['include-dropped-with-fields']),
  ],
  'C2.6': [
    field('plays with include uses_summary', ['FIELD-002'], ['include-omits-plays', 'include-ignored']),
    field('last_use with include uses_summary', ['FIELD-002'], ['include-omits-last-use']),
    rule('plays counts the recorded uses', ['FIELD-003'], ['plays-off-by-one']),
    value('last_use is a date YYYY-MM-DD', ['FIELD-002'], ['last-use-as-datetime']),
    value('last_use is null for an item never used', ['FIELD-002'], ['last-use-empty-when-unused']),
    value('last_use is a date for an item with uses', ['FIELD-002'], ['last-use-null-when-used']),
    rule('last_use is the latest use', ['FIELD-003'], ['last-use-first-use']),
  ],
  'C2.7': [rule('the single read returns the whole record, beyond the list row', ['STAGE-006'], ['staging-single-read-projected'])],
  'C2.8': [
    ...(['id', 'Title', 'tags'] as const).map((f) => field(`${f} in staging list rows`, ['STAGE-001'], [`staging-rows-without-${f}`])),
    ...ITEM_FIELDS.filter((f) => !['id', 'Title', 'tags'].includes(f)).map((f) =>
      omission(`${f} left out of staging list rows`, ['STAGE-001'], [f === 'is_kept' ? 'staging-rows-carry-flags' : `staging-rows-carry-${f}`]),
    ),
    rule('the staging single read still returns the whole record', ['STAGE-006'], ['staging-single-read-projected']),
  ],
  'C2.9': [
    field('players', ['USES-001'], ['uses-without-players']),
    value('players is deduplicated', ['USES-001'], ['uses-players-not-deduplicated']),
    field('participants', ['USES-001'], ['uses-without-participants']),
    field('participant id', ['USES-001'], ['uses-participant-without-id']),
    field('participant FirstName', ['USES-001'], ['uses-participant-without-first-name']),
    field('participant LastName', ['USES-001'], ['uses-participant-without-last-name']),
    rule('players are the distinct ids of the participants', ['USES-002'], ['uses-players-drop-last']),
  ],
  'C2.11': [
    ...['id', 'name', 'FirstName', 'LastName'].map((f) => field(`player ${f}`, ['PLAY-001'], [`players-without-${f}`])),
    field('player birth_year', ['PLAY-001'], ['players-without-birth-year']),
    rule("the household is the key's own", ['PLAY-002'], ['players-other-household-mixed-in']),
    rule('every participant of a use is a household player', ['PLAY-003'], ['uses-stranger-participant', 'uses-stranger-among-participants']),
  ],
  'C2.13': [
    field('explicit declines counted per item', ['PROP-002', 'PROP-004'], ['proposals-other-miscounts-declines', 'proposals-window-ignored']),
    field('chose-something-else counted per item', ['PROP-004'], ['proposals-else-ignores-window']),
    value('sort name item_name', ['PROP-003'], ['proposals-sort-name-ignored']),
    value('sort name explicit_declines', ['PROP-003'], ['proposals-sort-declines-by-name']),
    value('sort name chose_something_else', ['PROP-003'], ['proposals-sort-else-by-declines']),
  ],
  'C2.15': [
    rule('only kept items have an upcoming interaction', ['UPCOMING-001'], ['upcoming-includes-unkept']),
    field('an interact-by date', ['UPCOMING-002'], ['upcoming-date-missing', 'upcoming-dates-day-first', 'upcoming-date-missing-beside-reminder']),
    rule('derived from recorded uses', ['UPCOMING-003'], ['upcoming-from-proposals']),
  ],
  'C3.1': [
    value('is_kept 0 sets 0', ['KEPT-001'], ['kept-ignores-value']),
    value('is_kept 1 sets 1', ['KEPT-001'], ['kept-ignores-one']),
    rule('sending the current value is no flip', ['KEPT-007', 'KEPT-006'], ['kept-flips-always']),
    rule('a single read shows the new value at once', ['KEPT-006'], ['kept-read-cache']),
  ],
  'C3.2': [
    field('is_in_secondary_collection', ['KEPT-002'], ['kept-keep-clears-secondary', 'kept-clears-secondary']),
    field('is_physical', ['KEPT-002'], ['kept-keep-clears-physical']),
    field('is_digital', ['KEPT-002'], ['kept-keep-clears-digital']),
    field('tags', ['KEPT-002'], ['kept-keep-drops-tags', 'kept-unkeep-drops-tags', 'kept-drops-tags', 'kept-drops-tags-enveloped']),
    field('the get-rid-of setting', ['KEPT-002'], ['kept-keep-resets-get-rid-of', 'kept-unkeep-marks-get-rid-of']),
  ],
  'C3.3': [rule('no other item changes', ['KEPT-005'], ['kept-toggles-neighbour'])],
  'C3.4': [
    rule('list rows show the new value', ['KEPT-004'], ['kept-list-cached']),
    rule('the kept filter follows the new value', ['KEPT-004'], ['kept-filter-cached']),
    rule('single reads show the new value', ['KEPT-006'], ['kept-read-cache']),
  ],
  'C3.6': [rule('an unsuccessful proposal is not counted as a use', ['FIELD-003'], ['plays-count-proposals'])],
  'C4.1': [
    error('no Authorization header', ['AUTH-001'], ['auth-missing-header-served']),
    rule("item reads are scoped to the key's user", ['SCOPE-003'], ['scope-item-read-any-user']),
    rule("uses are scoped to the key's user", ['SCOPE-004'], ['scope-uses-any-user']),
    rule("the list is scoped to the key's user", ['SCOPE-005'], ['scope-list-leaks-foreign-item']),
  ],
  'C4.2': [rule('a GET with no body lists page 1', ['PAGE-008'], ['get-lists-page-2'])],
  'C4.3': [
    limit('default page size 50', ['PAGE-001'], ['page-default-20']),
    limit('at most 200 rows for a per_page above 200', ['PAGE-002', 'PAGE-010'], ['page-no-maximum']),
    limit('a stated page size is never above 200', ['PAGE-010'], ['page-states-oversized-size']),
    limit('an oversized per_page never sets the paging step', ['PAGE-010'], ['page-offset-honours-oversized']),
    value('per_page 1 to 200 is honoured', ['PAGE-003'], ['page-per-page-off-by-one']),
    error('edge values of page and per_page: no 5xx', ['PAGE-004'], ['page-zero-crashes']),
  ],
  'C4.4': [
    value("cursor null starts at the first id of the walk's order", ['PAGE-009'], ['cursor-first-page-reversed']),
    field('next_cursor leads to the very next item', ['PAGE-006'], ['cursor-skips-first-of-page']),
    field('has_more exactly when another page exists', ['PAGE-005'], ['page-has-more-when-full']),
  ],
  'C4.5': [
    rule('pages are ordered by title', ['PAGE-007'], ['page-ordered-by-id']),
    rule('pages neither overlap nor skip', ['PAGE-007'], ['page-overlapping-boundary']),
  ],
  'C4.6': [
    rule('an exact title finds its item', ['FILT-002'], ['query-drops-last-character']),
    rule('a search narrows the list', ['FILT-005'], ['query-ignored']),
  ],
  'C4.7': [rule('tag keeps only items labelled with it', ['FILT-003', 'FILT-001'], ['filter-tag-ignored'])],
  'C4.8': [
    value('kept true and false', ['FILT-001', 'FILT-006'], ['filter-kept-inverted', 'filter-kept-excludes-secondary', 'filter-kept-true-lists-unset']),
    value('physical true and false', ['FILT-001'], ['filter-physical-ignored']),
    value('digital true and false', ['FILT-001', 'FILT-006'], ['filter-digital-ignored']),
    value('secondary_collection true and false', ['FILT-001'], ['filter-secondary-ignored']),
    value('type_id: one id', ['FILT-001', 'FILT-006'], ['filter-type-id-ignored']),
    value('type_id: a list of ids', ['FILT-001'], ['filter-type-list-first-only']),
  ],
  'C4.9': [
    rule('user_id in the list body is ignored', ['SCOPE-001'], ['scope-body-user-id-honoured']),
    rule('user_id in the query of a read is ignored', ['SCOPE-002'], ['scope-query-user-id-honoured']),
  ],
  'C4.10': ITEM_FIELDS.map((f) => field(`${f} in every list row`, ['FILT-004'], [rowMutant(f)])),
  'C4.11': [
    error('a flag filter that is not true or false: 400', ['ERR-004'], ['err-flag-word-accepted']),
    error('a type_id that is not an id: 400', ['ERR-004'], ['err-type-word-accepted']),
    field('the 400 carries a non-empty errors list', ['ERR-001', 'ERR-004'], ['err-400-without-errors', 'err-400-empty-errors']),
  ],
  'C4.13': [
    ...['kept', 'physical', 'digital', 'secondary_collection'].map((f) =>
      omission(`the ${f} filter on staging`, ['STAGE-002'], [f === 'kept' ? 'staging-honours-kept-filter' : `staging-honours-${f}-filter`]),
    ),
    omission('the type_id filter on staging', ['STAGE-002'], ['staging-honours-type-filter']),
    omission('fields on staging', ['STAGE-002'], ['staging-honours-fields']),
    omission('include on staging', ['STAGE-002'], ['staging-honours-include']),
    rule('tag still filters on staging', ['FILT-003'], ['staging-ignores-tag-filter']),
    rule('query still searches on staging', ['FILT-005'], ['staging-query-ignored']),
  ],
  'C4.14': [
    rule('the item asked for is the item read', ['KEPT-001'], ['item-read-wrong-item']),
    field('is_kept in the record', ['KEPT-001'], ['record-without-is-kept']),
    value('tags an empty list when none', ['STAGE-006'], ['staging-record-tags-null-when-empty']),
    rule("scoped to the key's user", ['SCOPE-003'], ['scope-item-read-any-user']),
  ],
  'C4.15': [
    value("artifact_id keeps exactly that item's uses", ['USES-003'], ['uses-artifact-filter-ignored', 'uses-artifact-filter-repeats-newest']),
    value("player_id keeps exactly the player's uses", ['USES-004'], ['uses-player-filter-ignored', 'uses-player-filter-first-participant']),
    error('an artifact_id no item has: empty list or 4xx, no 5xx', ['USES-005'], ['uses-bad-item-crashes']),
    error("a malformed artifact_id: refused or ignored, never another item's uses", ['USES-005'], ['uses-bad-item-first-item']),
  ],
  'C4.16': [omission('player_id on /uses.php on staging', ['STAGE-004'], ['staging-honours-player-filter'])],
  'C4.17': [
    rule('primary lists the household', ['PLAY-001'], ['players-refused']),
    omission('no players endpoint on staging', ['STAGE-003'], ['staging-serves-players']),
  ],
  'C4.18': [
    value('by default, no item that is neither kept nor in the secondary collection', ['PROP-001'], ['proposals-cover-everything']),
    value('by default, every kept or secondary-collection item with outcomes', ['PROP-006'], ['proposals-default-drops-secondary']),
    value('include_other=1 adds the rest, with the same counts', ['PROP-002'], ['proposals-other-drops-rows']),
  ],
  'C4.19': [
    value('sort item_name', ['PROP-003'], ['proposals-sort-name-ignored']),
    value('sort explicit_declines', ['PROP-003'], ['proposals-sort-declines-by-name']),
    value('sort chose_something_else', ['PROP-003'], ['proposals-sort-else-by-declines']),
    value('the default: explicit_declines descending', ['PROP-003'], ['proposals-default-ascending']),
    value('direction', ['PROP-003'], ['proposals-direction-ignored']),
    error('an unknown sort or direction: refused or ignored, no 5xx', ['PROP-005'], ['proposals-bad-sort-crashes', 'proposals-bad-sort-drops-other']),
  ],
  'C4.20': [
    value('start', ['PROP-004'], ['proposals-start-ignored']),
    value('end', ['PROP-004'], ['proposals-window-end-ignored']),
    error(
      'a start or end that is not YYYY-MM-DD: refused, or read leniently with counts within the unwindowed ones',
      ['PROP-005'],
      ['proposals-bad-date-doubles'],
    ),
  ],
  'C4.22': [
    rule("the types of the user's items are listed", ['TYPE-001'], ['types-missing-one']),
    field('each type carries an id', ['TYPE-002'], ['types-without-ids']),
  ],
  'C4.23': [
    rule('kept items only', ['UPCOMING-001'], ['upcoming-includes-unkept']),
    field('an interact-by date per row', ['UPCOMING-002'], ['upcoming-date-missing', 'upcoming-dates-day-first', 'upcoming-date-missing-beside-reminder']),
    rule('from uses', ['UPCOMING-003'], ['upcoming-from-proposals']),
  ],
  'C4.24': [
    error('id required', ['KEPT-008'], ['kept-missing-id-accepted']),
    error('is_kept required', ['KEPT-003'], ['kept-missing-value-accepted']),
    value('is_kept only the integers 0 and 1', ['KEPT-003'], ['kept-coerces-truthy']),
    error('an id no item has creates no item', ['KEPT-003'], ['kept-absent-id-creates-item']),
    error('malformed JSON: no 5xx, and nothing changes', ['KEPT-003'], ['kept-500-on-malformed-json', 'kept-malformed-json-repaired']),
  ],
  'C5.1': [
    error('no Authorization header', ['AUTH-001'], ['auth-missing-header-served']),
    error('a malformed Authorization header', ['AUTH-002'], ['auth-blank-token-served']),
    error('an unknown key', ['AUTH-003'], ['auth-unknown-key-served']),
    error('the kept toggle without a valid key', ['AUTH-004'], ['auth-kept-toggle-unchecked']),
  ],
  'C5.2': [
    rule('user_id in the list body', ['SCOPE-001'], ['scope-body-user-id-honoured']),
    rule('user_id in the query of a read', ['SCOPE-002'], ['scope-query-user-id-honoured']),
    rule("another user's item by id", ['SCOPE-003'], ['scope-item-read-any-user']),
    rule("another user's uses", ['SCOPE-004'], ['scope-uses-any-user']),
    rule("another user's items in the list", ['SCOPE-005'], ['scope-list-leaks-foreign-item']),
    rule("another user's item through the toggle", ['SCOPE-006'], ['scope-kept-toggle-any-user']),
    rule('another household', ['PLAY-002'], ['players-other-household-mixed-in']),
  ],
  'C5.3': [
    error('other writes: 403', ['WRITE-001', 'WRITE-002'], ['write-put-item-accepted', 'write-post-types-405']),
    error('user enumeration: refused with 403', ['ENUM-001', 'ENUM-002'], ['enum-users-listed', 'enum-users-405']),
  ],
  'C7.1': [
    error('invalid filter values: 400', ['ERR-004', 'ERR-001'], ['err-flag-word-accepted', 'err-400-without-errors']),
    field('an errors list in the 400 body', ['ERR-001', 'ERR-004'], ['err-400-without-errors', 'err-400-empty-errors']),
  ],
  'C7.2': [
    error('a list body that is no JSON object: 4xx, no 5xx', ['ERR-002'], ['err-array-body-crashes']),
    error('any list body or read query: no 5xx', ['ERR-003'], ['err-unknown-field-crashes']),
    error('edge page values: no 5xx', ['PAGE-004'], ['page-zero-crashes']),
    error('invalid proposal parameters: no 5xx', ['PROP-005'], ['proposals-bad-sort-crashes']),
    error('a malformed artifact_id: no 5xx', ['USES-005'], ['uses-bad-item-crashes']),
  ],
  'C7.3': [
    error('is_kept outside 0 and 1 is refused', ['KEPT-003'], ['kept-coerces-truthy']),
    rule('a refused toggle changes nothing', ['KEPT-003'], ['kept-refuses-but-applies']),
  ],
  'C8.1': [
    limit('default page size 50', ['PAGE-001'], ['page-default-20']),
    limit('maximum page size 200', ['PAGE-002', 'PAGE-010'], ['page-no-maximum', 'page-states-oversized-size']),
    limit('no list body yields more than 200 rows or a 5xx', ['ERR-003'], ['err-unknown-field-crashes']),
    limit('malformed JSON as list body yields at most 200 rows', ['ERR-002'], ['err-malformed-body-whole-collection']),
  ],
  'C9.1': [
    omission('fewer list parameters', ['STAGE-002'], ['staging-honours-kept-filter']),
    omission('fewer row fields', ['STAGE-001'], ['staging-rows-carry-flags']),
    omission('no players endpoint', ['STAGE-003'], ['staging-serves-players']),
    omission('only artifact_id on uses', ['STAGE-004'], ['staging-honours-player-filter']),
    limit('maximum page size 200 on staging', ['PAGE-002'], ['staging-serves-oversized-pages']),
    rule('the full record on the staging single read', ['STAGE-006'], ['staging-single-read-projected']),
  ],
  'C9.2': [
    rule('the catalog is served as JSON', ['CAT-001'], ['catalog-not-json', 'catalog-html-page']),
    rule('it names every endpoint of the profile, in any format', ['CAT-002'], ['catalog-missing-types', 'catalog-custom-missing-upcoming']),
    rule('its schemas agree with the answers (when it is OpenAPI)', ['CAT-003'], ['catalog-schema-disagrees']),
    omission(
      'the staging catalog describes the staging subset',
      ['STAGE-005'],
      ['staging-serves-primary-catalog', 'staging-catalog-offers-list-filters', 'staging-custom-catalog-names-players'],
    ),
  ],
};

export interface ElementProblems {
  unknownClauses: string[];
  clausesWithoutElements: string[];
  emptyCells: string[];
  unknownChecks: string[];
  unknownMutants: string[];
  /** A mutant that kills none of its element's checks, or a check that none of its element's mutants kills. */
  unproven: string[];
}

/** What makes the table dishonest: names that resolve to nothing, empty cells, proofs that prove nothing. */
export function elementProblems(
  normativeClauses: readonly { id: string; checks: readonly string[] }[],
  checkIds: ReadonlySet<string>,
  mutants: readonly { id: string; kills: readonly string[] }[],
): ElementProblems {
  const kills = new Map(mutants.map((m) => [m.id, new Set(m.kills)]));
  const known = new Set(normativeClauses.map((c) => c.id));
  const problems: ElementProblems = { unknownClauses: [], clausesWithoutElements: [], emptyCells: [], unknownChecks: [], unknownMutants: [], unproven: [] };
  for (const [clause, elements] of Object.entries(clauseElements)) {
    if (!known.has(clause)) problems.unknownClauses.push(clause);
    for (const e of elements) {
      const name = `${clause} ${e.element}`;
      if (e.checks.length === 0 || e.mutants.length === 0) problems.emptyCells.push(name);
      problems.unknownChecks.push(...e.checks.filter((id) => !checkIds.has(id)).map((id) => `${name}: ${id}`));
      problems.unknownMutants.push(...e.mutants.filter((id) => !kills.has(id)).map((id) => `${name}: ${id}`));
      for (const m of e.mutants.filter((id) => kills.has(id))) {
        if (!e.checks.some((c) => kills.get(m)!.has(c))) problems.unproven.push(`${name}: mutant ${m} kills none of ${e.checks.join(', ')}`);
      }
      for (const c of e.checks) {
        if (!e.mutants.some((m) => kills.get(m)?.has(c))) problems.unproven.push(`${name}: no mutant of the element kills ${c}`);
      }
    }
  }
  problems.clausesWithoutElements = normativeClauses.filter((c) => c.checks.length > 0 && !(c.id in clauseElements)).map((c) => c.id);
  return problems;
}

export const elementCount = (): number => Object.values(clauseElements).reduce((n, list) => n + list.length, 0);

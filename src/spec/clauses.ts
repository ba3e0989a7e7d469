/**
 * The clause registry: every normative statement of the spec (§1–§9), in our own words, with the
 * checks that enforce it or the reason no check from outside can. `conform matrix` renders it and
 * test/clauses.test.ts keeps it honest in both directions.
 */
export interface Clause {
  id: string;
  section: string;
  statement: string;
  checks: readonly string[];
  /** Why no black-box check can test it (only when `checks` is empty). */
  untestable?: string;
}

const NOT_SHOWN = 'the spec leaves it open ("not shown"); the suite accepts every reasonable choice';

export const clauses: readonly Clause[] = [
  // §1 purpose
  { id: 'C1.1', section: '§1', statement: 'An agent key reads its own collection, uses and proposal outcomes.', checks: ['PAGE-008', 'USES-001', 'PROP-002'] },
  {
    id: 'C1.2',
    section: '§1',
    statement: 'An agent key may write nothing but the kept toggle.',
    checks: ['KEPT-001', 'WRITE-001', 'WRITE-002', 'ERR-001', 'KEPT-003', 'FRAME-002'],
  },
  {
    id: 'C1.3',
    section: '§1',
    statement: 'Every other write and any user enumeration answers 403.',
    checks: ['WRITE-001', 'WRITE-002', 'ENUM-001', 'ENUM-002'],
  },
  {
    id: 'C1.4',
    section: '§1',
    statement: 'A machine-readable catalog is served at /api-docs?format=json.',
    checks: ['CAT-001', 'CAT-002', 'CAT-003', 'CAT-004', 'STAGE-005'],
  },
  { id: 'C1.5', section: '§1', statement: 'Kept is independent of the secondary collection, physical and digital flags.', checks: ['KEPT-002', 'FILT-001'] },
  {
    id: 'C1.6',
    section: '§1',
    statement: 'Recording a use resets the clock on an item; a proposal outcome never counts as a use.',
    checks: ['FIELD-003', 'UPCOMING-003'],
  },
  {
    id: 'C1.7',
    section: '§1',
    statement: 'The content and format of the catalog.',
    checks: [],
    untestable: `${NOT_SHOWN}: the catalog is read in any JSON format; what follows from OpenAPI (CAT-003, CAT-004) is advice`,
  },
  // §2 resources
  {
    id: 'C2.1',
    section: '§2',
    statement: 'An item carries id, Title, type, type_id, is_kept, the three independent flags and tags.',
    checks: ['FILT-004', 'STAGE-006', 'READ-001', 'LIST-002', 'FILT-006', 'FILT-008', 'SCOPE-005'],
  },
  { id: 'C2.2', section: '§2', statement: 'type_id is an id listed by GET /types.php.', checks: ['TYPE-001', 'TYPE-002'] },
  { id: 'C2.3', section: '§2', statement: 'tags is a list of labels, empty when the owner added none.', checks: ['FILT-004', 'FILT-003'] },
  {
    id: 'C2.4',
    section: '§2',
    statement: 'fields "collection" adds MnP, MxP, SS, MnT, MxT, Wt, Yr and Acq.',
    checks: ['FIELD-001', 'FIELD-004', 'READ-001', 'LIST-002', 'FILT-006', 'SCOPE-005', 'FILT-008'],
  },
  { id: 'C2.5', section: '§2', statement: 'Units, types and exact meaning of the collection fields.', checks: [], untestable: NOT_SHOWN },
  {
    id: 'C2.6',
    section: '§2',
    statement: 'include uses_summary adds plays (a count of uses) and last_use (YYYY-MM-DD or null).',
    checks: ['FIELD-002', 'FIELD-003', 'FIELD-004', 'LIST-002', 'FILT-008'],
  },
  {
    id: 'C2.7',
    section: '§2',
    statement: 'The single read of an item holds a superset of its list row; which further fields it holds is left open.',
    checks: ['KEPT-002', 'STAGE-006'],
  },
  {
    id: 'C2.8',
    section: '§2',
    statement: 'On staging a list row is reduced to id, Title and tags, while reading one item still returns its whole record.',
    checks: ['STAGE-001', 'STAGE-006'],
  },
  {
    id: 'C2.9',
    section: '§2',
    statement: 'A use carries players (deduplicated player ids) and participants (id, FirstName, LastName).',
    checks: ['USES-001', 'USES-002', 'USES-003', 'USES-004'],
  },
  { id: 'C2.10', section: '§2', statement: 'Other fields of a use record (item reference, date).', checks: [], untestable: NOT_SHOWN },
  {
    id: 'C2.11',
    section: '§2',
    statement: "A player carries id, name, FirstName, LastName, birth_year and represents_user_id, and belongs to the key's household.",
    checks: ['PLAY-001', 'PLAY-002', 'PLAY-003'],
  },
  { id: 'C2.12', section: '§2', statement: 'Fields of an item type record beyond its id.', checks: [], untestable: NOT_SHOWN },
  {
    id: 'C2.13',
    section: '§2',
    statement:
      'A proposal outcome row counts explicit declines and chose-something-else per item; sort names item_name, explicit_declines, chose_something_else.',
    checks: ['PROP-003', 'PROP-001'],
  },
  { id: 'C2.14', section: '§2', statement: 'Field names of proposal outcome rows and upcoming interactions.', checks: [], untestable: NOT_SHOWN },
  {
    id: 'C2.15',
    section: '§2',
    statement: 'Each upcoming interaction gives a date by which a kept item should be used, computed from its recorded uses.',
    checks: ['UPCOMING-001', 'UPCOMING-002', 'UPCOMING-003', 'UPCOMING-004', 'UPCOMING-005'],
  },
  // §3 states
  {
    id: 'C3.1',
    section: '§3',
    statement: 'The kept toggle sets is_kept to exactly the value sent (0 or 1).',
    checks: ['KEPT-001', 'KEPT-006', 'KEPT-002', 'KEPT-004', 'KEPT-005', 'KEPT-007', 'FRAME-001', 'UPCOMING-005'],
  },
  {
    id: 'C3.2',
    section: '§3',
    statement: 'The toggle leaves secondary collection, physical, digital, tags and get-rid-of unchanged.',
    checks: ['KEPT-002', 'FRAME-001', 'KEPT-004', 'UPCOMING-005', 'KEPT-006', 'KEPT-007'],
  },
  { id: 'C3.3', section: '§3', statement: 'The toggle changes nothing else (no other item).', checks: ['KEPT-005', 'KEPT-008'] },
  {
    id: 'C3.4',
    section: '§3',
    statement: 'The new kept value is what reads show afterwards, in rows and in the kept filter.',
    checks: ['KEPT-004', 'KEPT-006', 'KEPT-001'],
  },
  { id: 'C3.5', section: '§3', statement: 'Any states of items and proposals beyond those described.', checks: [], untestable: NOT_SHOWN },
  { id: 'C3.6', section: '§3', statement: 'Unsuccessful proposals do not count as uses.', checks: ['FIELD-003'] },
  // §4 endpoints
  {
    id: 'C4.1',
    section: '§4',
    statement: "Every endpoint requires the Authorization header and is scoped to the key's user.",
    checks: ['AUTH-001', 'AUTH-002', 'AUTH-003', 'SCOPE-003', 'SCOPE-004', 'SCOPE-005'],
  },
  { id: 'C4.2', section: '§4', statement: 'A GET of /artifacts.php with no body lists page 1.', checks: ['PAGE-008'] },
  {
    id: 'C4.3',
    section: '§4',
    statement: 'per_page defaults to 50 and is at most 200.',
    checks: [
      'PAGE-001',
      'PAGE-002',
      'PAGE-003',
      'PAGE-004',
      'PAGE-010',
      'FIELD-001',
      'FIELD-002',
      'FILT-007',
      'FILT-006',
      'FILT-003',
      'STAGE-001',
      'FIELD-004',
      'LIST-002',
      'SCOPE-005',
      'FILT-008',
    ],
  },
  {
    id: 'C4.4',
    section: '§4',
    statement: 'cursor null then next_cursor pages by id; has_more says whether another page exists.',
    checks: [
      'PAGE-005',
      'PAGE-006',
      'PAGE-009',
      'PAGE-004',
      'FILT-007',
      'PAGE-008',
      'PAGE-010',
      'LIST-002',
      'FILT-006',
      'FIELD-004',
      'SCOPE-005',
      'STAGE-001',
      'PAGE-003',
      'FIELD-003',
      'FILT-008',
    ],
  },
  {
    id: 'C4.5',
    section: '§4',
    statement: 'Page paging orders by title and covers the collection.',
    checks: ['PAGE-007', 'PAGE-004', 'PAGE-006', 'FILT-007', 'PAGE-005', 'LIST-002', 'FILT-003', 'KEPT-004'],
  },
  {
    id: 'C4.6',
    section: '§4',
    statement: "query searches; an item's title finds it.",
    checks: ['FILT-002', 'KEPT-004', 'FILT-005', 'FILT-007', 'FILT-003', 'STAGE-001'],
  },
  { id: 'C4.7', section: '§4', statement: 'tag keeps only items labelled with that tag.', checks: ['FILT-001', 'FILT-003', 'LIST-002'] },
  {
    id: 'C4.8',
    section: '§4',
    statement: 'kept, physical, digital, secondary_collection and type_id (one or a list) filter the items.',
    checks: ['FILT-001', 'FILT-006', 'FILT-007', 'LIST-001', 'LIST-002', 'FILT-003', 'KEPT-004', 'FILT-008'],
  },
  { id: 'C4.9', section: '§4', statement: 'A user id sent in the list body is ignored.', checks: ['SCOPE-001', 'SCOPE-002'] },
  {
    id: 'C4.10',
    section: '§4',
    statement: 'Every list row carries the nine fields of rule 3.',
    checks: ['FILT-004', 'LIST-002', 'FILT-001', 'FILT-008', 'KEPT-006'],
  },
  { id: 'C4.11', section: '§4', statement: 'Invalid filter values answer 400 with an errors list.', checks: ['ERR-001', 'ERR-004', 'LIST-001'] },
  { id: 'C4.12', section: '§4', statement: 'Name of the key holding the rows.', checks: [], untestable: NOT_SHOWN },
  {
    id: 'C4.13',
    section: '§4',
    statement: 'Staging accepts only page, per_page, query, cursor and tag; the filters, fields and include are not offered.',
    checks: ['STAGE-002', 'FILT-003'],
  },
  {
    id: 'C4.14',
    section: '§4',
    statement: "GET /artifact.php reads one item of the key's user with is_kept, the flags and tags.",
    checks: ['STAGE-006', 'KEPT-001', 'SCOPE-003', 'READ-001', 'FRAME-002', 'KEPT-006', 'KEPT-002', 'KEPT-005'],
  },
  {
    id: 'C4.15',
    section: '§4',
    statement: 'GET /uses.php lists uses, filtered by artifact_id and player_id.',
    checks: ['USES-003', 'USES-004', 'USES-005', 'FIELD-003', 'UPCOMING-003', 'UPCOMING-005', 'READ-001'],
  },
  { id: 'C4.16', section: '§4', statement: 'Staging offers only artifact_id on /uses.php.', checks: ['STAGE-004'] },
  { id: 'C4.17', section: '§4', statement: 'GET /players.php lists the household (primary only).', checks: ['PLAY-001', 'PLAY-002', 'STAGE-003', 'PLAY-003'] },
  {
    id: 'C4.18',
    section: '§4',
    statement: 'Proposals cover kept and secondary items by default; include_other=1 adds the rest.',
    checks: ['PROP-001', 'PROP-002', 'PROP-003', 'PROP-004', 'PROP-005', 'PROP-006', 'UPCOMING-005'],
  },
  {
    id: 'C4.19',
    section: '§4',
    statement: 'Proposals sort by item_name, explicit_declines or chose_something_else; default explicit_declines descending.',
    checks: ['PROP-003', 'PROP-005', 'PROP-004'],
  },
  { id: 'C4.20', section: '§4', statement: 'Proposals can be limited to a start/end date window.', checks: ['PROP-004', 'PROP-005'] },
  {
    id: 'C4.21',
    section: '§4',
    statement: 'Allowed sort directions other than desc.',
    checks: [],
    untestable: `${NOT_SHOWN}; PROP-003 accepts asc when offered`,
  },
  { id: 'C4.22', section: '§4', statement: "GET /types.php lists the user's item types.", checks: ['TYPE-001', 'TYPE-002', 'KEPT-002'] },
  {
    id: 'C4.23',
    section: '§4',
    statement: 'GET /upcoming-interactions.php lists interact-by dates of kept items, from uses.',
    checks: ['UPCOMING-001', 'UPCOMING-002', 'UPCOMING-003', 'UPCOMING-004', 'UPCOMING-005', 'UPCOMING-006'],
  },
  {
    id: 'C4.24',
    section: '§4',
    statement: 'POST /artifact-kept.php needs id and is_kept (integer 0 or 1); other values are invalid.',
    checks: ['KEPT-003', 'KEPT-008'],
  },
  { id: 'C4.25', section: '§4', statement: 'Response body of the kept toggle.', checks: [], untestable: NOT_SHOWN },
  {
    id: 'C4.26',
    section: '§4',
    statement: 'The envelope of the single-item read and of uses; the direction of cursor paging by id.',
    checks: [],
    untestable: `${NOT_SHOWN}: records are found by their structure, and a cursor walk may ascend or descend`,
  },
  // §5 auth
  {
    id: 'C5.1',
    section: '§5',
    statement: 'Each request carries Authorization: Bearer <key>; without a valid key no user data is served.',
    checks: ['AUTH-001', 'AUTH-002', 'AUTH-003', 'AUTH-004'],
  },
  {
    id: 'C5.2',
    section: '§5',
    statement: "Whatever it asks for, an agent key is answered with its own user's data only.",
    checks: ['SCOPE-001', 'SCOPE-002', 'SCOPE-003', 'SCOPE-004', 'SCOPE-005', 'SCOPE-006', 'PLAY-002', 'SCOPE-007', 'FRAME-001'],
  },
  {
    id: 'C5.3',
    section: '§5',
    statement: 'Other writes and user enumeration answer 403 for an agent key.',
    checks: ['WRITE-001', 'WRITE-002', 'ENUM-001', 'ENUM-002'],
  },
  {
    id: 'C5.4',
    section: '§5',
    statement: 'Key minting, lifetime, revocation and rotation.',
    checks: [],
    untestable: "happens in the user's Settings or is not shown; outside the agent interface",
  },
  // §6 events
  { id: 'C6.1', section: '§6', statement: 'Events, webhooks and notifications.', checks: [], untestable: NOT_SHOWN },
  // §7 errors
  { id: 'C7.1', section: '§7', statement: '400 with an errors list for invalid list filters.', checks: ['ERR-001', 'ERR-004'] },
  {
    id: 'C7.2',
    section: '§7',
    statement: 'Client input never causes a server error.',
    checks: [
      'ERR-002',
      'ERR-003',
      'PAGE-004',
      'PROP-005',
      'PROP-004',
      'USES-005',
      'AUTH-001',
      'AUTH-002',
      'AUTH-003',
      'AUTH-004',
      'ENUM-001',
      'KEPT-003',
      'PAGE-002',
      'PROP-003',
      'SCOPE-001',
      'SCOPE-002',
      'SCOPE-003',
      'SCOPE-004',
      'SCOPE-006',
      'STAGE-002',
      'STAGE-003',
      'STAGE-004',
      'KEPT-007',
      'KEPT-008',
      'PAGE-010',
      'FRAME-001',
      'FRAME-002',
      'SCOPE-007',
      'FILT-003',
      'PROP-001',
      'LIST-001',
    ],
  },
  { id: 'C7.3', section: '§7', statement: 'is_kept outside 0 and 1 is refused.', checks: ['KEPT-003'] },
  {
    id: 'C7.4',
    section: '§7',
    statement: 'Shape of error entries; statuses for a bad key, an unknown id, malformed JSON.',
    checks: [],
    untestable: `${NOT_SHOWN}; checks accept any 4xx there`,
  },
  {
    id: 'C7.5',
    section: '§7',
    statement:
      "What invalid values of the list fields that are not filters (page, per_page, cursor, query, tag, fields, include), or of the reads' query parameters, get.",
    checks: [],
    untestable: 'the spec names 400 only for invalid filter values; checks accept a refusal (any 4xx) or an answer that ignores the value, and never a 5xx',
  },
  // §8 limits
  {
    id: 'C8.1',
    section: '§8',
    statement: 'Default page size 50, maximum 200.',
    checks: ['PAGE-001', 'PAGE-002', 'ERR-003', 'ERR-002', 'PAGE-004', 'PAGE-010'],
  },
  { id: 'C8.2', section: '§8', statement: 'Rate limits.', checks: [], untestable: NOT_SHOWN },
  // §9 versioning
  {
    id: 'C9.1',
    section: '§9',
    statement:
      'Staging offers part of primary (a narrower list query and row, no players endpoint, uses filtered by artifact_id alone), and each feature it keeps works as on primary.',
    checks: ['STAGE-001', 'STAGE-002', 'STAGE-003', 'STAGE-004', 'STAGE-006'],
  },
  {
    id: 'C9.2',
    section: '§9',
    statement: 'The catalog is served and describes the deployment.',
    checks: ['CAT-001', 'CAT-002', 'CAT-003', 'STAGE-005', 'CAT-004'],
  },
  { id: 'C9.3', section: '§9', statement: 'Version numbering and deprecation.', checks: [], untestable: NOT_SHOWN },
];

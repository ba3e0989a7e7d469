import {
  COLLECTION_FIELDS,
  ENDPOINTS,
  FLAG_FILTERS,
  FLAG_WRONG_VALUES,
  ITEM_FIELDS,
  type LIST_MODES,
  STAGING_ROW_FIELDS,
  type TYPE_ID_WRONG_VALUES,
} from './axes.ts';

/**
 * Mutant families: elements of the inventory that an existing check already sends and inspects, each
 * proven by a mutant of its own that breaks that element alone (fixtures/mutants/element-families.ts builds
 * them from these tables). Each member names its element's key, the check that covers it and its mutant;
 * coverage.ts takes them in as it takes its other lines.
 */
export interface FamilyMember {
  /** The element's key in the inventory (`${clause} ${name}`). */
  key: string;
  check: string;
  mutant: string;
}

/** A mode or value name as it reads in a mutant id: lower case, words joined by dashes. */
export const slug = (words: string): string =>
  words
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

type ListMode = (typeof LIST_MODES)[number];

/** Listing modes whose every row LIST-002 inspects, and the fields another mutant already drops there alone. */
export const ROW_MODES_SENT = [
  'GET without a body',
  'page',
  'per_page',
  'query',
  'tag',
  'the kept filter',
  'the physical filter',
  'the digital filter',
  'the secondary_collection filter',
  'type_id with one id',
  'type_id with a list of ids',
  'fields "collection"',
  'include uses_summary',
  'fields with include',
  'several filters together',
  'cursor with a filter',
  'query with a filter',
  'page with tag',
] as const satisfies readonly ListMode[];
const ROW_MODE_PROVEN: Readonly<Partial<Record<ListMode, readonly string[]>>> = { page: ['type'], 'include uses_summary': ['is_digital'] };

export interface RowModeMember extends FamilyMember {
  mode: (typeof ROW_MODES_SENT)[number];
  field: (typeof ITEM_FIELDS)[number];
}

/** §4 rule 3 × the listing modes LIST-002 sends: rows of one mode lack one field. */
export const rowModeFamily: readonly RowModeMember[] = ROW_MODES_SENT.flatMap((mode) =>
  ITEM_FIELDS.filter((field) => !ROW_MODE_PROVEN[mode]?.includes(field)).map((field) => ({
    mode,
    field,
    key: `C4.10 ${field} in every row under ${mode}`,
    check: 'LIST-002',
    mutant: `rows-under-${slug(mode)}-without-${slug(field)}`,
  })),
);

export interface StagingRowMember extends FamilyMember {
  mode: 'GET without a body' | 'per_page' | 'page' | 'query' | 'tag';
  field: (typeof STAGING_ROW_FIELDS)[number];
}

/**
 * The staging list modes whose rows a check inspects, the check and the fields it names when one is missing:
 * STAGE-001 every field of its plain and per_page lists; FILT-003 the tags of the rows a tag returns.
 */
const STAGING_ROW_MODES: readonly { mode: StagingRowMember['mode']; check: string; fields: readonly StagingRowMember['field'][] }[] = [
  { mode: 'GET without a body', check: 'STAGE-001', fields: STAGING_ROW_FIELDS },
  { mode: 'per_page', check: 'STAGE-001', fields: STAGING_ROW_FIELDS },
  { mode: 'tag', check: 'FILT-003', fields: ['tags'] },
  { mode: 'page', check: 'STAGE-001', fields: STAGING_ROW_FIELDS },
  { mode: 'query', check: 'STAGE-001', fields: STAGING_ROW_FIELDS },
  { mode: 'tag', check: 'STAGE-001', fields: ['id', 'Title'] },
];

/** §2 and §4 Staging × the staging list modes: staging rows of one mode lack one of their three fields. */
export const stagingRowFamily: readonly StagingRowMember[] = STAGING_ROW_MODES.flatMap(({ mode, check, fields }) =>
  fields.map((field) => ({
    mode,
    field,
    key: `C2.8 ${field} in staging rows under ${mode}`,
    check,
    mutant: `staging-rows-under-${slug(mode)}-without-${slug(field)}`,
  })),
);

/** Fields of the single record the toggle could change, which KEPT-002 compares around each toggle. */
export const TOGGLE_RECORD_FIELDS = ['Title', 'type', 'type_id', ...COLLECTION_FIELDS] as const;
/** The §3 flags whose clearing on keeping other mutants already make (kept-frame.ts): here on unkeeping. */
export const UNKEEP_FLAGS = ['is_in_secondary_collection', 'is_physical', 'is_digital'] as const;

export interface ToggleFieldMember extends FamilyMember {
  field: (typeof TOGGLE_RECORD_FIELDS)[number] | (typeof UNKEEP_FLAGS)[number];
  /** The toggle's value that changes the field; undefined: either value. */
  on?: 0 | 1;
}

/** §3 and §4 "changes nothing else" × the record's fields: a toggle changes one field of the item beside is_kept. */
export const toggleFieldFamily: readonly ToggleFieldMember[] = [
  ...TOGGLE_RECORD_FIELDS.map((field) => ({
    field,
    key: `C3.3 ${field} of the toggled item unchanged`,
    check: 'KEPT-002',
    mutant: `toggle-changes-${slug(field)}`,
  })),
  ...UNKEEP_FLAGS.map((field) => ({
    field,
    on: 0 as const,
    key: `C3.2 ${field} unchanged when unkeeping`,
    check: 'KEPT-002',
    mutant: `unkeep-clears-${slug(field)}`,
  })),
];

/** The body field a client sends for each extra field the inventory names (axes.ts EXTRA_BODY_FIELDS). */
export const BODY_FIELDS = {
  Title: 'Title',
  type: 'type',
  type_id: 'type_id',
  is_digital: 'is_digital',
  is_in_secondary_collection: 'is_in_secondary_collection',
  tags: 'tags',
  MnP: 'MnP',
  MxP: 'MxP',
  SS: 'SS',
  MnT: 'MnT',
  MxT: 'MxT',
  Wt: 'Wt',
  Yr: 'Yr',
  Acq: 'Acq',
  'a get-rid-of setting': 'get_rid_of',
  'a user id': 'user_id',
  "a second id (the other user's item)": 'artifact_id',
} as const satisfies Readonly<Record<string, string>>;
export type BodyField = keyof typeof BODY_FIELDS;

export interface BodyWriteMember extends FamilyMember {
  field: BodyField;
}

/** Extra fields FRAME-001 sends in a toggle body beside id and is_kept (the record's fields, a user id, the other user's item as artifact_id). */
const TOGGLE_FRAME_SENT: readonly BodyField[] = [
  'type',
  'type_id',
  'is_digital',
  'is_in_secondary_collection',
  'tags',
  ...COLLECTION_FIELDS,
  'a get-rid-of setting',
  'a user id',
  "a second id (the other user's item)",
];

/** §3 "changes nothing else" × the fields a toggle body can carry: the toggle also applies one of them. */
export const toggleFrameFamily: readonly BodyWriteMember[] = TOGGLE_FRAME_SENT.map((field) => ({
  field,
  key: `C3.3 ${field} sent beside id and is_kept is not applied`,
  check: 'FRAME-001',
  mutant: `toggle-applies-body-${slug(BODY_FIELDS[field])}`,
}));

/** Extra fields FRAME-002 sends in list bodies naming an item, which the rows and the item's record it compares around them show. */
const LIST_WRITE_SENT: readonly BodyField[] = [
  'Title',
  'type',
  'is_digital',
  'is_in_secondary_collection',
  'tags',
  ...COLLECTION_FIELDS,
  'a get-rid-of setting',
];

/** §1 and §5 (a list request is a read) × the fields a list body can carry: a list request writes one of them to the item it names. */
export const listWriteFamily: readonly BodyWriteMember[] = LIST_WRITE_SENT.map((field) => ({
  field,
  key: `C1.2 a list body carrying ${field} changes no item`,
  check: 'FRAME-002',
  mutant: `list-body-writes-${slug(BODY_FIELDS[field])}`,
}));

export type WrongValue = (typeof FLAG_WRONG_VALUES)[number] | (typeof TYPE_ID_WRONG_VALUES)[number];

export interface BadFilterMember extends FamilyMember {
  filter: (typeof FLAG_FILTERS)[number] | 'type_id';
  value: WrongValue;
}

/** The wrong kinds of value ERR-004 sends to each filter (the mixed type_id lists are LIST-001's). */
const ERR_SENT: Readonly<Record<BadFilterMember['filter'], readonly WrongValue[]>> = {
  ...(Object.fromEntries(FLAG_FILTERS.map((f): [string, readonly WrongValue[]] => [f, FLAG_WRONG_VALUES])) as Record<
    (typeof FLAG_FILTERS)[number],
    readonly WrongValue[]
  >),
  type_id: ['a word', 'a boolean', 'an object', 'a list of one word'],
};

/** §4 rule 4 and §7 × every filter × every wrong kind of value: one filter ignores one kind of value instead of refusing it. */
export const badFilterFamily: readonly BadFilterMember[] = Object.entries(ERR_SENT).flatMap(([filter, values]) =>
  values.map((value) => ({
    filter: filter as BadFilterMember['filter'],
    value,
    key: `C4.11 ${filter} given ${value}: 400 with errors`,
    check: 'ERR-004',
    mutant: `err-${slug(filter)}-accepts-${slug(value)}`,
  })),
);

/** The type_id lists with one bad entry among valid ids, which LIST-001 sends: one kind of bad entry ignored. */
export const badTypeListFamily: readonly BadFilterMember[] = (['a list with one word after valid ids', 'a list with one object among valid ids'] as const).map(
  (value) => ({
    filter: 'type_id',
    value,
    key: `C4.11 type_id given ${value}: 400 with errors`,
    check: 'LIST-001',
    mutant: `err-type-id-accepts-${slug(value)}`,
  }),
);

export interface AuthEndpointMember extends FamilyMember {
  path: (typeof ENDPOINTS)[number];
}

/**
 * §4 and §5 × every endpoint: one endpoint serves a request without the header. AUTH-001 sends the toggle an id
 * no item has (harmless if accepted), which a served toggle refuses too; AUTH-004 sends it a real item.
 */
export const authEndpointFamily: readonly AuthEndpointMember[] = ENDPOINTS.map((path) => ({
  path,
  key: `C4.1 no Authorization header on ${path}`,
  check: path === '/artifact-kept.php' ? 'AUTH-004' : 'AUTH-001',
  mutant: `auth-missing-header-served-on-${slug(path.replace(/\.php$/, ''))}`,
}));

export interface FilterDirectionMember extends FamilyMember {
  filter: (typeof FLAG_FILTERS)[number] | 'type_id';
  value: 'true' | 'false' | 'one id' | 'a list of ids';
  /** drops: the filter lets an item that fails it through; keeps: it leaves out an item that meets it. */
  way: 'drops' | 'keeps';
}

const directionKey = ({ filter, value, way }: Omit<FilterDirectionMember, keyof FamilyMember>): string =>
  filter === 'type_id'
    ? `C4.8 type_id with ${value} ${way === 'drops' ? 'drops items of other types' : 'keeps every item of its types'}`
    : `C4.8 ${filter} ${value} ${way === 'drops' ? 'drops every item that fails it' : 'keeps every item that meets it'}`;

/** Directions another mutant already breaks alone (coverage.ts). */
const DIRECTION_PROVEN = [
  'C4.8 kept true drops every item that fails it',
  'C4.8 kept true keeps every item that meets it',
  'C4.8 type_id with one id drops items of other types',
  'C4.8 type_id with a list of ids keeps every item of its types',
];

/** §4 (a filter keeps exactly the items that satisfy it) × each filter value FILT-006 sends × both directions. */
export const filterDirectionFamily: readonly FilterDirectionMember[] = [
  ...FLAG_FILTERS.flatMap((filter) => (['true', 'false'] as const).map((value) => ({ filter, value }))),
  ...(['one id', 'a list of ids'] as const).map((value) => ({ filter: 'type_id' as const, value })),
]
  .flatMap((fv) => (['drops', 'keeps'] as const).map((way) => ({ ...fv, way })))
  .map((m) => ({
    ...m,
    key: directionKey(m),
    check: 'FILT-006',
    mutant: `filter-${slug(m.filter)}-${slug(m.value)}-${m.way === 'drops' ? 'lets-a-failing-item-in' : 'leaves-a-matching-item-out'}`,
  }))
  .filter((m) => !DIRECTION_PROVEN.includes(m.key));

/** Every member of every family. */
export interface ProjectionModeMember extends FamilyMember {
  param: 'fields' | 'include';
  mode: 'cursor' | 'a filter' | 'query' | 'tag';
}

/** §2 and §4: what fields "collection" and include add, under the modes LIST-002 sends them in beside another parameter. */
export const projectionModeFamily: readonly ProjectionModeMember[] = [
  ...(['a filter', 'query', 'tag'] as const).map((mode) => ({ param: 'fields' as const, mode, key: `C2.4 fields "collection" is honoured under ${mode}` })),
  ...(['cursor', 'a filter', 'query', 'tag'] as const).map((mode) => ({ param: 'include' as const, mode, key: `C2.6 include is honoured under ${mode}` })),
].map((m) => ({ ...m, check: 'LIST-002', mutant: `${m.param}-ignored-under-${slug(m.mode)}` }));

export const familyMembers: readonly FamilyMember[] = [
  ...rowModeFamily,
  ...toggleFieldFamily,
  ...toggleFrameFamily,
  ...listWriteFamily,
  ...badFilterFamily,
  ...badTypeListFamily,
  ...authEndpointFamily,
  ...stagingRowFamily,
  ...filterDirectionFamily,
  ...projectionModeFamily,
];

import { COLLECTION_FIELDS, ITEM_FIELDS, STAGING_ROW_FIELDS } from './axes.ts';
import { field, freedom, type InventorySection, omission, prose, requirement, rule, statement, value } from './types.ts';

const itemField = (digest: string, name: string, says: string) =>
  requirement(digest, says, [
    statement('C2.1', `the record carries ${name}`, [field(`${name} in the item record (staging single read)`), field(`${name} in the primary single read`)]),
  ]);

const collectionField = (digest: string, name: string, says: string) =>
  requirement(digest, says, [statement('C2.4', `fields "collection" adds ${name}`, [field(`${name} with fields "collection"`)])]);

const player = (digest: string, name: string, says: string) =>
  requirement(digest, says, [statement('C2.11', `a player carries ${name}`, [field(`player ${name}`)])]);

export const resources: InventorySection = {
  section: '§2',
  sentences: [
    itemField('dc853fd9', 'id', 'an item has an identifier'),
    itemField('93f7016c', 'Title', 'an item has a title'),
    itemField('0f26d2ae', 'type', 'an item names its type'),
    requirement('f984c441', 'an item has the id of its type, an id the types endpoint lists', [
      statement('C2.1', 'the record carries type_id', [field('type_id in the item record (staging single read)'), field('type_id in the primary single read')]),
      statement('C2.2', 'every type id of an item is one /types.php gives', [
        rule('every type_id of the collection is listed by /types.php'),
        field('a listed type carries its id'),
      ]),
    ]),
    itemField('75968f5a', 'is_kept', 'an item has the kept flag, written as 0 or 1'),
    itemField('f7f9ca3d', 'is_physical', 'an item has a physical flag of its own'),
    itemField('bbeb7a93', 'is_digital', 'an item has a digital flag of its own'),
    itemField('b77ec177', 'is_in_secondary_collection', 'an item has a secondary-collection flag of its own'),
    requirement('fafe1720', "an item has a list of the owner's labels, empty until labels are added, and usually empty", [
      statement('C2.1', 'the record carries tags', [field('tags in the item record (staging single read)'), field('tags in the primary single read')]),
      statement('C2.3', 'tags is a list, empty by default, and a label selects its item', [
        field('tags is a list of labels'),
        value('tags is an empty list when the owner added none'),
        rule('a label the owner added selects the item'),
      ]),
    ]),
    requirement('9e55bd8b', 'fields "collection" on a list request adds the optional fields below', [
      statement('C2.4', 'the optional fields come with every row of such a request, beside the others', [rule('fields and include combine')]),
    ]),
    ...COLLECTION_FIELDS.map((name, i) =>
      collectionField(
        ['f14e9f4e', '1bcdccc5', 'cf4a9316', '5b94c322', '6de0c727', 'bb173242', 'ea60c57b', 'a1f22892'][i]!,
        name,
        `the ${['fewest players', 'most players', 'best player count', 'shortest time', 'longest time', 'weight', 'year', 'acquisition'][i]} column`,
      ),
    ),
    freedom('33f0d499', 'what the collection columns mean beyond their names, and their units and types, is open', 'C2.5'),
    requirement('380ae771', 'include with uses_summary on a list request adds the fields below', [
      statement('C2.6', 'the summary fields come with every row of such a request', [
        field('plays with include uses_summary'),
        field('last_use with include uses_summary'),
      ]),
    ]),
    requirement('2a08bcb7', 'plays counts the uses recorded for the item', [
      statement('C2.6', 'plays is present and counts uses', [field('plays with include uses_summary'), rule('plays counts the recorded uses')]),
    ]),
    requirement('ea3d1a6f', 'last_use is a calendar date in YYYY-MM-DD, or null', [
      statement('C2.6', 'last_use is present, is the latest use, in the date format, null only without uses', [
        field('last_use with include uses_summary'),
        value('last_use is a date YYYY-MM-DD'),
        value('last_use is null for an item never used'),
        value('last_use is a date for an item with uses'),
        rule('last_use is the latest use'),
      ]),
    ]),
    requirement('653327ec', 'labels add to the player-count and time columns and never stand in for them', [
      statement('C2.4', 'an item with labels still gets its collection columns', [
        rule('tagged items keep their collection columns'),
        rule('a tag filter leaves each item its own collection values'),
      ]),
    ]),
    prose('6a9db83c', 'the word kept means the is_kept field'),
    requirement('65403240', 'the secondary collection, physical and digital flags are independent of one another', [
      statement('C1.5', 'each flag filter reads its own column', [rule('each flag filter reads its own flag, not another one')]),
    ]),
    requirement('baf0f460', 'the single read returns more than a list row; which extra fields it has is open', [
      statement('C2.7', 'the single read holds at least the list row', [rule('the single read returns the whole record, beyond the list row')]),
    ]),
    requirement('5ff693a0', 'on staging a list row has only id, Title and tags, while the single read still has the rest', [
      statement('C2.8', 'staging rows are cut to three fields; the single read is whole', [
        ...STAGING_ROW_FIELDS.map((f) => field(`${f} in staging list rows`)),
        ...ITEM_FIELDS.filter((f) => !(STAGING_ROW_FIELDS as readonly string[]).includes(f)).map((f) => omission(`${f} left out of staging list rows`)),
        rule('the staging single read still returns the whole record'),
      ]),
    ]),
    requirement('1e7efca7', 'a use lists the ids of its players, each once', [
      statement('C2.9', 'players is there and has no repeats', [
        field('players'),
        value('players is deduplicated'),
        rule('players are the distinct ids of the participants'),
      ]),
    ]),
    requirement('a902e404', 'a use lists its participants, each with id, first and last name', [
      statement('C2.9', 'participants and their three fields', [
        field('participants'),
        field('participant id'),
        field('participant FirstName'),
        field('participant LastName'),
        value('participant FirstName is the first name, not the display name'),
      ]),
    ]),
    requirement('14e7d54f', 'a use really happened; a proposal is no use', [
      statement('C3.6', 'the uses list holds no proposal outcome', [rule('no proposal outcome is listed as a use')]),
    ]),
    freedom('cbfac788', 'the other fields of a use, such as its item and date, are open', 'C2.10'),
    player('f032a597', 'id', 'a player has an id'),
    player('a470f4c3', 'name', 'a player has a display name'),
    player('d455ef80', 'FirstName', 'a player has a first name'),
    player('2a5f3b29', 'LastName', 'a player has a last name'),
    player('c1970b14', 'birth_year', 'a player has a year of birth'),
    player('0dfd459f', 'represents_user_id', 'a player that is also a user says which'),
    requirement('890590d7', "players belong to the household of the key's user", [
      statement('C2.11', "the household is the key's own and holds every participant", [
        rule("the household is the key's own"),
        rule('every participant of a use is a household player'),
        rule('no player of another household, even one that is a user'),
      ]),
    ]),
    requirement('db1a62a9', "the types endpoint answers for the key's user", [
      statement('C4.22', "the types of the user's items are there", [
        rule("the types of the user's items are listed"),
        rule('no type is dropped from the end of the list'),
      ]),
    ]),
    freedom('8b6f84b0', 'a type record is open except that its id serves as type_id', 'C2.12'),
    requirement('9bd0f167', 'each outcome row counts, for one item, explicit declines and chose-something-else apart', [
      statement('C2.13', 'two separate counts per item', [
        field('explicit declines counted per item'),
        field('chose-something-else counted per item'),
        value('explicit declines do not include chose-something-else'),
      ]),
    ]),
    requirement('a5e70d18', 'three sort names exist for outcome rows', [
      statement('C2.13', 'each sort name is accepted', [
        value('sort name item_name'),
        value('sort name explicit_declines'),
        value('sort name chose_something_else'),
      ]),
    ]),
    freedom('0e219644', 'the names of the outcome row fields are open', 'C2.14'),
    requirement('d64a8e9e', 'an upcoming row gives a kept item a date to use it by, computed from its uses', [
      statement('C2.15', 'kept items only, with a date, from uses', [
        rule('only kept items have an upcoming interaction'),
        field('an interact-by date'),
        rule('derived from recorded uses'),
      ]),
    ]),
    freedom('233695b7', 'the field names of an upcoming row are open', 'C2.14'),
  ],
};

import type { InventorySentence } from './types.ts';
import { error, field, freedom, omission, prose, requirement, rule, statement, value } from './types.ts';

/** §4 from GET /artifact.php to the end of the section. */
export const readSentences: readonly InventorySentence[] = [
  requirement('a0b0f810', "the single read returns one item of the key's user", [
    statement('C4.14', "the item asked for, and only if it is the user's", [rule('the item asked for is the item read'), rule("scoped to the key's user")]),
  ]),
  prose('2b63f5d8', 'the item is named by the id query parameter'),
  requirement('6afdf809', 'the record holds is_kept, the three flags and tags, an empty list when there are none', [
    statement('C4.14', 'each named field is in the record, whatever its value', [
      field('is_kept in the record'),
      value('tags an empty list when none'),
      value('a flag that is 0 is still in the record'),
    ]),
    statement('C2.1', 'the primary single read carries the flags and tags, as the §2 record', [
      field('is_physical in the primary single read'),
      field('is_digital in the primary single read'),
      field('is_in_secondary_collection in the primary single read'),
      field('tags in the primary single read'),
    ]),
  ]),
  requirement('73f12dd4', "the uses endpoint lists the uses of the key's user", [
    statement('C4.15', 'every use of the user is listed without a filter', [rule('without a parameter every use is listed')]),
  ]),
  requirement('039a6401', 'artifact_id (optional) narrows to one item; player_id (optional) keeps the uses the player took part in', [
    statement('C4.15', 'each filter keeps exactly its uses, alone and together', [
      value("artifact_id keeps exactly that item's uses"),
      value("player_id keeps exactly the player's uses"),
      error('an artifact_id no item has: empty list or 4xx, no 5xx'),
      error("a malformed artifact_id: refused or ignored, never another item's uses"),
      value('player_id counts every participant, not only the first'),
      value('player_id is honoured beside artifact_id'),
      value('artifact_id is honoured beside player_id'),
      value('player_id leaves each use as the list of every use shows it'),
    ]),
  ]),
  requirement('5f2e9d3b', 'each use has players and participants', [
    statement('C2.9', 'in every mode of the uses list', [rule('players and participants under artifact_id'), rule('players and participants under player_id')]),
  ]),
  requirement('6f23b2bf', 'staging offers artifact_id and nothing else on uses', [
    statement('C4.16', 'player_id unhonoured, artifact_id honoured', [
      omission('player_id on /uses.php on staging'),
      rule('artifact_id still filters on staging'),
    ]),
  ]),
  freedom('42671019', 'the envelope of the uses answer is open', 'C4.26'),
  requirement('c856c1ea', "the players endpoint lists the key's household", [
    statement('C4.17', 'it serves the household on primary', [rule('primary lists the household'), omission('no players endpoint on staging')]),
  ]),
  prose('9ed6f312', 'the players endpoint takes no parameter'),
  requirement('e294b004', 'each player has the §2 fields', [
    statement('C2.11', "every player, the user's own included", [field("every field on every player, the user's own included")]),
  ]),
  requirement('1995bbed', 'the proposals endpoint counts, per item, explicit declines and chose-something-else', [
    statement('C1.1', 'it answers an agent key', [rule('the proposals endpoint counts per item')]),
  ]),
  requirement('d4aae301', 'start is a date YYYY-MM-DD opening the window', [
    statement('C4.20', 'start drops earlier outcomes and keeps later ones', [value('start'), value('start keeps outcomes on or after it')]),
  ]),
  requirement('8206b6dd', 'end is a date YYYY-MM-DD closing the window', [
    statement('C4.20', 'end drops later outcomes and keeps earlier ones, alone or with start', [
      value('end'),
      value('end keeps outcomes on or before it'),
      value('end alone, without start'),
      error('a start or end that is not YYYY-MM-DD: refused, or read leniently with counts within the unwindowed ones'),
    ]),
  ]),
  requirement('6c4c3825', 'include_other=1 adds the items neither kept nor secondary; without it only those two are covered', [
    statement('C4.18', 'default coverage and what 1 adds', [
      value('by default, no item that is neither kept nor in the secondary collection'),
      value('by default, every kept or secondary-collection item with outcomes'),
      value('include_other=1 adds the rest, with the same counts'),
      value('include_other=1 adds an item when the data holds one'),
      value('include_other=0 adds nothing'),
    ]),
  ]),
  requirement('359d9c84', 'sort is one of three names, explicit_declines unless given', [
    statement('C4.19', 'each sort orders by its own key', [
      value('sort item_name'),
      value('sort explicit_declines'),
      value('sort chose_something_else'),
      error('an unknown sort or direction: refused or ignored, no 5xx'),
    ]),
  ]),
  requirement('f768c280', 'direction orders the sort; the default sort runs descending by default; other values than desc are open', [
    statement('C4.19', 'desc is honoured with every sort, the default is descending', [
      value('the default: explicit_declines descending'),
      value('direction'),
      value('direction desc with every sort'),
    ]),
  ]),
  requirement('111e3940', "the types endpoint lists the key's user's types", [
    statement('C4.22', 'each listed type has an id', [field('each type carries an id')]),
  ]),
  prose('9ed6f312', 'the types endpoint takes no parameter'),
  requirement('c2ef9a46', 'upcoming lists the interact-by dates of kept items', [
    statement('C4.23', 'kept items only, a date on each', [
      rule('kept items only'),
      field('an interact-by date per row'),
      rule('a used secondary-collection item that is not kept is not listed'),
      rule('a kept item with a use whose date falls among the listed dates is listed'),
    ]),
  ]),
  prose('9ed6f312', 'the upcoming endpoint takes no parameter'),
  requirement('76c05071', 'upcoming dates are computed from uses, never from proposal outcomes', [statement('C4.23', 'from uses', [rule('from uses')])]),
  requirement('2ddacebb', 'the toggle sets whether an item is kept', [
    statement('C3.1', 'by POST only', [rule('only POST toggles: another method on the toggle path writes nothing')]),
  ]),
  requirement('eaf83c5a', 'the toggle is the one write open to a key', [statement('C5.3', 'other writes are refused', [error('other writes: 403')])]),
  prose('bc5706c4', 'the toggle takes a JSON body'),
  requirement('c7938adb', 'id names the item and must be sent', [
    statement('C4.24', 'id required; an unknown id makes no item', [error('id required'), error('an id no item has creates no item')]),
  ]),
  requirement('8ea2ff56', 'is_kept must be sent and must be the integer 0 or 1', [
    statement('C4.24', 'is_kept required, 0 or 1 only', [
      error('is_kept required'),
      value('is_kept only the integers 0 and 1'),
      value('is_kept true or false is refused'),
      value('is_kept 2 is refused, not stored as 1'),
      error('malformed JSON: no 5xx, and nothing changes'),
    ]),
  ]),
  requirement('87d2eaef', 'the toggle changes nothing but is_kept: not the flags, tags or get-rid-of', [
    statement('C3.2', 'the frame, as §3 names it', [
      field('is_in_secondary_collection'),
      field('is_physical'),
      field('is_digital'),
      field('tags'),
      field('the get-rid-of setting'),
    ]),
    statement('C3.3', 'and nothing beyond it, whatever else the body holds', [rule('no other item changes')]),
  ]),
  freedom('6118ddc7', 'what the toggle answers in its body is open', 'C4.25'),
];

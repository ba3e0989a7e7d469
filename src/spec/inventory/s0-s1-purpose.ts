import { error, field, freedom, type InventorySection, prose, requirement, rule, statement } from './types.ts';

export const preamble: InventorySection = {
  section: '§0',
  sentences: [
    prose('7c38e593', 'the document spans the whole service, listed by topic'),
    prose('ee3b7d1c', 'there are two deployments, primary and staging, each at its own base URL'),
    prose('217d2195', 'what differs on staging is flagged where it applies'),
  ],
};

export const purpose: InventorySection = {
  section: '§1',
  sentences: [
    prose('cbb17328', 'the service holds, per user, items, their uses, the household players and proposal outcomes'),
    prose('567a6c0d', 'agents reach it over HTTP, each with a key of one user'),
    requirement('adaac380', 'an agent can read the collection, the uses and the proposal outcomes', [
      statement('C1.1', 'the three reads are open to an agent key', [
        rule('the collection is readable with an agent key'),
        rule('the uses are readable with an agent key'),
        rule('the proposal outcomes are readable with an agent key'),
      ]),
    ]),
    requirement('ef92da54', 'flipping the kept flag through the toggle endpoint is the sole write of a key', [
      statement('C1.2', 'the toggle is open and nothing else writes', [rule('the kept toggle is open to an agent key'), rule('no other write is open to it')]),
    ]),
    requirement('fc0afdde', 'every other write and every listing of users answers 403', [
      statement('C1.3', 'other writes and enumeration are refused with 403, and refused means unapplied', [
        error('PUT, PATCH and DELETE on any endpoint: 403'),
        error('POST to a read-only endpoint: 403'),
        rule('a refused write changes nothing'),
        error('user enumeration reveals no user'),
        error('user enumeration, where the path exists: 403'),
        error('a GET that names a write (the toggle by query) writes nothing'),
        error('a user read by id reveals no user'),
      ]),
    ]),
    requirement('8fb1205c', 'a catalog a machine can read sits at /api-docs?format=json', [
      statement('C1.4', 'the catalog path answers JSON', [rule('a JSON catalog at /api-docs?format=json')]),
    ]),
    freedom('f65b52e4', 'what the catalog holds is left open', 'C1.7'),
    prose('fa2c769f', 'opens the list of terms'),
    prose('b5c4c589', 'an item is any tracked thing, games among them'),
    prose('a36d9a48', 'kept means picked for the primary collection'),
    requirement('a97a8212', 'kept stands apart from the secondary collection, physical and digital', [
      statement('C1.5', 'no flag moves with kept, and the kept filter reads kept alone', [
        field('is_in_secondary_collection untouched by the toggle'),
        field('is_physical untouched by the toggle'),
        field('is_digital untouched by the toggle'),
        rule('the kept filter reads is_kept alone'),
      ]),
    ]),
    prose('33d2045b', 'a use is an interaction that really happened'),
    requirement('88eadf43', 'a use resets the time since the item was last used', [
      statement('C1.6', 'the last-use clock follows uses only', [
        rule('last_use is the day of the latest use, not of a proposal'),
        rule('interact-by dates come from uses, not proposals'),
      ]),
    ]),
    prose('f078d6f5', 'a proposal suggests an item and records how it went'),
    prose('6e2a3b97', 'an explicit decline refuses the proposed item outright, a "not tonight" included'),
    prose('7a973bcc', 'chose-something-else means the group went for another item without declining'),
  ],
};

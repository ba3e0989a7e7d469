import { error, field, freedom, type InventorySection, limit, omission, prose, requirement, rule, statement } from './types.ts';

export const authentication: InventorySection = {
  section: '§5',
  sentences: [
    requirement('a2e111d4', 'every request sends Authorization: Bearer and the key', [
      statement('C5.1', 'without a valid key no user data and no write', [
        error('no Authorization header'),
        error('a malformed Authorization header'),
        error('an unknown key'),
        error('the kept toggle without a valid key'),
      ]),
    ]),
    requirement('ae0b8454', 'a key belongs to one user (how it is minted, in Settings after login, is nothing a client sees: C5.4)', [
      statement('C5.2', "one user's key reaches that user's data alone", [rule("another user's items in the list"), rule("another user's item by id")]),
    ]),
    requirement('f9254bcd', "a key always reads its own user's data", [
      statement('C5.2', "whatever the request names, the answer is the own user's", [
        rule('user_id in the list body'),
        rule('user_id in the query of a read'),
        rule("another user's item by id"),
        rule("another user's uses"),
        rule("another user's items in the list"),
        rule("another user's item through the toggle"),
        rule('another household'),
      ]),
    ]),
    requirement('160db2b8', 'a key may read and toggle kept; other writes and listing users answer 403', [
      statement('C5.3', 'refusals with 403', [error('other writes: 403'), error('user enumeration: refused with 403')]),
    ]),
    freedom('858440f1', 'how long a key lives, and how it is revoked or rotated, is open', 'C5.4'),
  ],
};

export const events: InventorySection = {
  section: '§6',
  sentences: [freedom('266a2fb3', 'events, webhooks and notifications are open', 'C6.1')],
};

export const errors: InventorySection = {
  section: '§7',
  sentences: [
    requirement('8ea54bec', 'a bad filter value on the list answers 400 with an errors list in the body', [
      statement('C7.1', 'the status and the list', [
        error('invalid filter values: 400'),
        field('an errors list in the 400 body'),
        rule('a 400 changes nothing'),
      ]),
      statement('C7.2', 'no client input causes a server error (HTTP practice, advice)', [
        error('a list body that is no JSON object: 4xx, no 5xx'),
        error('any list body or read query: no 5xx'),
        error('edge page values: no 5xx'),
        error('invalid proposal parameters: no 5xx'),
        error('a malformed artifact_id: no 5xx'),
      ]),
    ]),
    requirement('7b660712', 'with an agent key, any write but the toggle and any user enumeration answers 403', [
      statement('C1.3', 'per method and path, as in §1', [
        error('a 405 for a write is no 403'),
        error('a POST that records a use or a player is refused and writes nothing'),
      ]),
    ]),
    requirement('4c3e5abe', 'an is_kept other than 0 or 1 is invalid; which status is open beyond the general rule', [
      statement('C7.3', 'refused and unapplied', [error('is_kept outside 0 and 1 is refused'), rule('a refused toggle changes nothing')]),
    ]),
    freedom('f0044b16', 'the shape of each error entry is open', 'C7.4'),
    freedom('ff3e3dd4', 'statuses for a missing or bad key, an unknown item id and malformed JSON are open', 'C7.4'),
  ],
};

export const limits: InventorySection = {
  section: '§8',
  sentences: [
    requirement('7dbcd518', 'the list pages by 50 by default', [statement('C8.1', 'default', [limit('default page size 50')])]),
    requirement('c0693af0', 'the list pages by 200 at most', [
      statement('C8.1', 'maximum, whatever the body', [
        limit('maximum page size 200'),
        limit('no list body yields more than 200 rows or a 5xx'),
        limit('malformed JSON as list body yields at most 200 rows'),
      ]),
    ]),
    freedom('1e4dff23', 'rate limits are open', 'C8.2'),
  ],
};

export const versioning: InventorySection = {
  section: '§9',
  sentences: [
    prose('c04c87f3', 'there are two deployments at two base URLs'),
    requirement('e9ab0cbb', 'staging offers part of primary: fewer list parameters and row fields, no players, artifact_id alone on uses', [
      statement('C9.1', 'each omission, and what is kept works as on primary', [
        omission('fewer list parameters'),
        omission('fewer row fields'),
        omission('no players endpoint'),
        omission('only artifact_id on uses'),
        limit('maximum page size 200 on staging'),
        rule('the full record on the staging single read'),
      ]),
    ]),
    requirement('c488296d', 'each deployment serves its catalog at /api-docs?format=json', [
      statement('C9.2', 'served, naming the endpoints, describing the deployment', [
        rule('the catalog is served as JSON'),
        rule('it names every endpoint of the profile, in any format'),
        rule('its schemas agree with the answers (when it is OpenAPI)'),
        omission('the staging catalog describes the staging subset'),
      ]),
    ]),
    freedom('d4954914', 'version numbers and deprecation are open', 'C9.3'),
  ],
};

/**
 * Elements of the inventory with no check or no proving mutant yet, each with why (one line per element, so
 * the list shrinks a line at a time). test/inventory.test.ts accepts an element without coverage only when it
 * is here, and fails on a line here whose element has coverage (coverage.ts) or is not in the inventory.
 * A reviewed reason names what is missing: the request no check sends, or the fault no mutant makes; where a
 * blind mutant (fixtures/mutants/blind-round-1.ts) already makes the fault and stays open, it is named.
 */
const LEARNED_FROM = (request: string) =>
  `SCOPE-007 learns the first user's own answer from ${request} itself: a leak there is also in what it compares against, and cannot be told from records both users hold; no mutant leaks under this shape alone`;
const TYPES_SHARED =
  "the reference data gives every user the same types, so no answer of /types.php can show the second user's own types; SCOPE-007 sends the shape, no mutant leaks under it";
const blind = (why: string, mutant: string) => `${why}; the open blind mutant ${mutant} makes this fault`;

export const pending: Readonly<Record<string, string>> = {
  'C2.11 player represents_user_id':
    'PLAY-001 accepts the field omitted or null when unset (the table says only when it is set); no mutant sets a wrong user for a player that is a user',
  'C3.3 a second id (another item of the same user) sent beside id and is_kept is not applied':
    "FRAME-001 sends the other user's item as its second id, never another item of the same user; no check sends this, no mutant applies it",
  "C5.2 no other user's data from /artifacts.php under tag":
    'SCOPE-007 sends the second user\'s labels as tag (scope-leak-under-tag is mapped under "the other user\'s tags as tag"); no check sends a label only the first user has, no mutant leaks under it alone',
  "C5.2 no other user's data from /uses.php under no parameter": LEARNED_FROM('GET /uses.php'),
  "C5.2 no other user's data from /uses.php under artifact_id with player_id":
    "SCOPE-007 sends artifact_id and player_id one at a time: a use's item is not shown (§2), so no pair of the second user's values is known to match a use; no mutant leaks under the pair",
  "C5.2 no other user's data from /types.php under no parameter": TYPES_SHARED,
  "C5.2 no other user's data from /types.php under a user id in the query": TYPES_SHARED,
  "C5.2 no other user's data from /upcoming-interactions.php under no parameter": LEARNED_FROM('GET /upcoming-interactions.php'),
  "C1.2 a list body carrying a second id (the other user's item) changes no item":
    "FRAME-002 names only the first user's own item in its list bodies; no check sends the other user's item there, no mutant writes to it",
  'C1.2 a list body carrying a second id (another item of the same user) changes no item':
    'FRAME-002 names one item in each list body (as id and artifact_id); no check sends a second item of the same user, no mutant writes to it',
  'C4.4 has_more false when no further item matches the filters': blind(
    'has_more says whether another page exists (§4 rule 2); a server that says true after a full page and then serves an empty last page is common, and whether such an empty page exists is not stated, so no check holds a filtered walk to it',
    'blind1-has-more-unfiltered-cursor',
  ),
  'C4.18 include_other=1 adds an item when the data holds one':
    'which items other than kept and secondary-collection ones have outcomes shows only in the include_other=1 answer itself, so no oracle says that it must add one (PROP-002 holds it to a superset of the default); no mutant',
};

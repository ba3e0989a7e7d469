import { asJson, describe, check, ensure, okRows, typeIdsCarried, typeIdsOf, type CheckContext } from '../src/harness/index.ts';

/** The type ids the collection's items carry (none on staging rows, which have no type_id). */
async function usedTypeIds(t: CheckContext, user: 'primary' | 'other' = 'primary'): Promise<string[]> {
  const { rows } = await t.discover.collection(user);
  return typeIdsCarried(rows);
}

/** A type record's fields are not shown beyond its id being usable as type_id (§2). */
const TYPE_ID_FREEDOM = 'the type id under any key (id, type_id, code …): the one whose values the items carry as type_id';

describe('item types (§2, §4 GET /types.php)', () => {
  check(
    {
      id: 'TYPE-001',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title: "every item's type_id is listed by /types.php, for the second key's user too (its own types, read with its key)",
      requires: ['full-rows'],
      accepts: [
        'items with no type (type_id null), which /types.php need not list',
        'type ids as numbers or strings',
        TYPE_ID_FREEDOM,
        'any envelope or a bare list; types the collection does not use',
        "the second user's collection empty or untyped (then only the first user's is judged)",
      ],
    },
    async (t) => {
      const [{ rows }, ex] = await Promise.all([t.discover.collection(), t.discover.shared('GET /types.php')]);
      t.need(rows[0], 'the collection is empty');
      const typed = await usedTypeIds(t);
      t.need(typed[0], 'no item of the collection has a type');
      const listed = typeIdsOf(okRows('C4.22', ex, 'GET /types.php'), typed) ?? new Set<string>();
      const unlisted = typed.filter((id) => !listed.has(id));
      ensure('C2.2', unlisted.length === 0, `type_id(s) ${unlisted.join(', ')} of the collection are not listed by /types.php`, ex);
      // Each key's user has its own types (§4: scoped to the key's user), so the second user's items carry ids its own
      // /types.php lists: a type list that is the same for everyone shows where the two users' types differ. The run's
      // shared reads of that user's collection and types (no request more).
      if (t.target.keys.other === undefined) return;
      const [theirs, theirTypes] = await Promise.all([usedTypeIds(t, 'other'), t.discover.shared('GET /types.php (second user)')]);
      if (theirs.length === 0) return;
      const theirListed = typeIdsOf(okRows('C4.22', theirTypes, 'GET /types.php (second user)'), theirs) ?? new Set<string>();
      const theirUnlisted = theirs.filter((id) => !theirListed.has(id));
      ensure(
        'C2.2',
        theirUnlisted.length === 0,
        `type_id(s) ${theirUnlisted.join(', ')} of the second user's collection are not listed by /types.php read with the second user's key`,
        theirTypes,
      );
    },
  );

  check(
    {
      id: 'TYPE-002',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title: 'every type listed carries an id',
      accepts: ["ids as numbers or strings; any other fields (a type record's fields are not shown, §2)", TYPE_ID_FREEDOM],
    },
    async (t) => {
      const ex = await t.discover.shared('GET /types.php');
      const types = okRows('C4.22', ex, 'GET /types.php');
      t.need(types[0], 'no type is listed');
      const used = await usedTypeIds(t);
      const listed = typeIdsOf(types, used);
      const usable = listed !== undefined && (used.length === 0 || used.some((id) => listed.has(id)));
      ensure(
        'C2.2',
        usable,
        `no field of the type records holds distinct ids${used.length > 0 ? ' usable as the type_id the items carry' : ''} (a type: ${asJson(types[0])})`,
        ex,
      );
    },
  );
});

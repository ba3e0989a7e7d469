import { asJson, describe, check, ensure, idOf, okRows, typeIdKeyOf, typeIdsCarried, typeIdsOf, type CheckContext, type Row } from '../src/harness/index.ts';

/** The type ids the collection's items carry (none on staging rows, which have no type_id). */
async function usedTypeIds(t: CheckContext, user: 'primary' | 'other' = 'primary'): Promise<string[]> {
  const { rows } = await t.discover.collection(user);
  return typeIdsCarried(rows);
}

/**
 * A type listed under an id with a name other items carry as their type (§2: type_id is the id of the item's type,
 * type its name). Judged only where a type record holds, beside its id, exactly one of the type names the rows show:
 * a type record's other fields are not shown (§2), so a record that names no type the rows show says nothing.
 */
function typeNameClash(types: readonly Row[], rows: readonly Row[], used: readonly string[]): string | undefined {
  const key = typeIdKeyOf(types, used);
  if (key === undefined) return undefined;
  const named = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const carriedBy = new Map<string, Set<string>>();
  for (const row of rows) {
    const id = idOf(row.type_id);
    const name = named(row.type);
    if (id !== undefined && name !== undefined) carriedBy.set(id, (carriedBy.get(id) ?? new Set()).add(name));
  }
  const known = new Set([...carriedBy.values()].flatMap((names) => [...names]));
  for (const type of types) {
    const id = idOf(type[key]);
    const carried = id === undefined ? undefined : carriedBy.get(id);
    const names = new Set(
      Object.entries(type)
        .filter(([field]) => field !== key)
        .map(([, value]) => named(value))
        .filter((name): name is string => name !== undefined && known.has(name)),
    );
    const [name] = names;
    if (carried && names.size === 1 && !carried.has(name!))
      return `/types.php lists type ${id} with the name ${asJson(name)}, which other items carry as their type, but the items with type_id ${id} carry the type ${[...carried].map((n) => asJson(n)).join(', ')}: an item's type_id is the id of its own type`;
  }
  return undefined;
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
      title:
        "every item's type_id is listed by /types.php, for the second key's user too (its own types, read with its key), under the name the items of that type carry where the type record names one",
      requires: ['full-rows'],
      accepts: [
        'items with no type (type_id null), which /types.php need not list',
        'type ids as numbers or strings',
        TYPE_ID_FREEDOM,
        "type records naming no type the rows show, or more than one (a type's name is judged only where its record holds exactly one)",
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
      const clash = typeNameClash(okRows('C4.22', ex, 'GET /types.php'), rows, typed);
      ensure('C2.2', clash === undefined, clash ?? '', ex);
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

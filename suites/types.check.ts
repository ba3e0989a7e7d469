import { describe, check, ensure, idOf, okRows } from '../src/harness/index.ts';

describe('item types (§2, §4 GET /types.php)', () => {
  check(
    {
      id: 'TYPE-001',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title: "every item's type_id is listed by /types.php",
      requires: ['full-rows'],
      accepts: [
        'items with no type (type_id null), which /types.php need not list',
        'type ids as numbers or strings',
        'any envelope or a bare list; types the collection does not use',
      ],
    },
    async (t) => {
      const [{ rows }, ex] = await Promise.all([t.discover.collection(), t.discover.shared('GET /types.php')]);
      const listed = new Set(okRows('C4.22', ex, 'GET /types.php').map((type) => idOf(type.id)));
      t.need(rows[0], 'the collection is empty');
      const typed = [...new Set(rows.map((r) => idOf(r.type_id)).filter((id): id is string => id !== undefined))];
      t.need(typed[0], 'no item of the collection has a type');
      const unlisted = typed.filter((id) => !listed.has(id));
      ensure('C2.2', unlisted.length === 0, `type_id(s) ${unlisted.join(', ')} of the collection are not listed by /types.php`, ex);
    },
  );

  check(
    {
      id: 'TYPE-002',
      level: 'MUST',
      sections: ['§4'],
      keptBlind: true,
      title: 'every type listed carries an id',
      accepts: ["ids as numbers or strings; any other fields (a type record's fields are not shown, §2)"],
    },
    async (t) => {
      const ex = await t.discover.shared('GET /types.php');
      const types = okRows('C4.22', ex, 'GET /types.php');
      t.need(types[0], 'no type is listed');
      const bad = types.find((type) => idOf(type.id) === undefined);
      ensure('C2.2', !bad, `a type record has no usable id: ${JSON.stringify(bad)}`, ex);
    },
  );
});

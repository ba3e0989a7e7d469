import { describe } from 'vitest';
import { check } from '../src/check.ts';
import { ensure, okRows } from '../src/expect.ts';
import { idOf } from '../src/lenient.ts';

describe('item types (§2, §4 GET /types.php)', () => {
  check(
    { id: 'TYPE-001', level: 'MUST', section: '§2, §4', title: 'every item\'s type_id is listed by /types.php', requires: ['full-rows'] },
    async (t) => {
      const [{ rows }, ex] = await Promise.all([t.discover.collection(), t.api.types()]);
      const listed = new Set(okRows(ex, 'GET /types.php').map((type) => idOf(type.id)));
      t.need(rows[0], 'the collection is empty');
      const unlisted = [...new Set(rows.map((r) => idOf(r.type_id)))].filter((id) => !listed.has(id));
      ensure(unlisted.length === 0, `type_id(s) ${unlisted.join(', ')} of the collection are not listed by /types.php`, ex);
    },
  );

  check(
    { id: 'TYPE-002', level: 'MUST', section: '§4', title: 'every type listed carries an id' },
    async (t) => {
      const ex = await t.api.types();
      const types = okRows(ex, 'GET /types.php');
      t.need(types[0], 'no type is listed');
      const bad = types.find((type) => idOf(type.id) === undefined);
      ensure(!bad, `a type record has no usable id: ${JSON.stringify(bad)}`, ex);
    },
  );
});

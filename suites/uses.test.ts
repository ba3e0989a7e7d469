import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { ensure, ensureNo5xx, is2xx, is4xx, okRows } from '../src/expect.ts';
import { idOf, isObject, type Row } from '../src/lenient.ts';

/** The field of a use that names its item (not shown in §2): the one whose values are the collection's ids. */
export function itemFieldOf(uses: readonly Row[], itemIds: ReadonlySet<string>): string | undefined {
  const candidates = ['artifact_id', 'item_id', 'artifact', 'item'];
  const keys = [...new Set([...candidates, ...uses.flatMap((u) => Object.keys(u))])];
  return keys.find((key) => key !== 'id' && uses.length > 0 && uses.every((u) => itemIds.has(idOf(u[key]) ?? '')));
}

async function allUses(t: CheckContext): Promise<Row[]> {
  return okRows(await t.api.uses({}), 'GET /uses.php');
}

const playersOf = (use: Row): string[] => (Array.isArray(use.players) ? use.players.map((p) => idOf(p) ?? '?') : []);

describe('uses (§2 Use, §4 GET /uses.php)', () => {
  check(
    { id: 'USES-001', level: 'MUST', section: '§2, §4', title: 'every use carries players (distinct ids) and participants (id, FirstName, LastName)' },
    async (t) => {
      const uses = await allUses(t);
      t.need(uses[0], 'no use is recorded');
      for (const use of uses) {
        const where = `use ${String(use.id ?? JSON.stringify(use).slice(0, 60))}`;
        ensure(Array.isArray(use.players) && use.players.every((p) => idOf(p) !== undefined), `${where}: players is ${JSON.stringify(use.players)}, not a list of player ids`);
        const players = playersOf(use);
        ensure(new Set(players).size === players.length, `${where}: players lists a player twice (${players.join(', ')}); it is deduplicated`);
        ensure(Array.isArray(use.participants), `${where}: participants is ${JSON.stringify(use.participants)}, not a list`);
        for (const p of use.participants as unknown[]) {
          ensure(isObject(p) && idOf(p.id) !== undefined && typeof p.FirstName === 'string' && typeof p.LastName === 'string', `${where}: participant ${JSON.stringify(p)} lacks id, FirstName or LastName`);
        }
      }
    },
  );

  check(
    { id: 'USES-002', level: 'MUST', section: '§2', title: 'a use\'s players are exactly the distinct ids of its participants' },
    async (t) => {
      const uses = await allUses(t);
      t.need(uses[0], 'no use is recorded');
      for (const use of uses) {
        const players = new Set(playersOf(use));
        const participants = new Set((Array.isArray(use.participants) ? use.participants : []).map((p) => idOf((p as Row).id)));
        const same = players.size === participants.size && [...players].every((p) => participants.has(p));
        ensure(same, `use ${String(use.id)}: players ${[...players].join(', ')} differ from the participants' ids ${[...participants].join(', ')}`);
      }
    },
  );

  check(
    { id: 'USES-003', level: 'MUST', section: '§4', title: 'artifact_id returns exactly the uses of that item' },
    async (t) => {
      const [uses, { ids }] = await Promise.all([allUses(t), t.discover.collection()]);
      const field = t.need(itemFieldOf(uses, new Set(ids)), 'no use is recorded, or the uses name their item in no recognisable field');
      const byItem = new Map<string, Row[]>();
      for (const use of uses) byItem.set(idOf(use[field])!, [...(byItem.get(idOf(use[field])!) ?? []), use]);
      const sample = [...byItem.keys()].slice(0, 6);
      const answers = await Promise.all(sample.map((id) => t.api.uses({ artifact_id: id })));
      sample.forEach((id, i) => {
        const got = okRows(answers[i]!, `GET /uses.php?artifact_id=${id}`);
        const stranger = got.find((u) => idOf(u[field]) !== id);
        ensure(!stranger, `GET /uses.php?artifact_id=${id} returned a use of item ${String(stranger?.[field])}`, answers[i]);
        ensure(got.length === byItem.get(id)!.length, `GET /uses.php?artifact_id=${id} returned ${got.length} use(s); the full list has ${byItem.get(id)!.length} for that item`, answers[i]);
      });
    },
  );

  check(
    { id: 'USES-004', level: 'MUST', section: '§4', title: 'player_id keeps exactly the uses the player took part in', requires: ['uses-player-filter'] },
    async (t) => {
      const uses = await allUses(t);
      const counts = new Map<string, number>();
      for (const use of uses) for (const p of playersOf(use)) counts.set(p, (counts.get(p) ?? 0) + 1);
      const sample = [...counts.keys()].slice(0, 4);
      t.need(sample[0], 'no use names a player');
      const answers = await Promise.all(sample.map((id) => t.api.uses({ player_id: id })));
      sample.forEach((id, i) => {
        const got = okRows(answers[i]!, `GET /uses.php?player_id=${id}`);
        const stranger = got.find((u) => !playersOf(u).includes(id));
        ensure(!stranger, `GET /uses.php?player_id=${id} returned use ${String(stranger?.id)} without that player`, answers[i]);
        ensure(got.length === counts.get(id), `GET /uses.php?player_id=${id} returned ${got.length} use(s); player ${id} took part in ${counts.get(id)}`, answers[i]);
      });
    },
  );

  check(
    { id: 'USES-005', level: 'MUST', section: '§4, §7', title: 'an artifact_id no item has gives an empty list or a 4xx, never a 5xx' },
    async (t) => {
      for (const id of [await t.discover.unusedId(), 'not-an-id', '-1']) {
        const ex = await t.api.uses({ artifact_id: id });
        ensureNo5xx(ex, `GET /uses.php?artifact_id=${id}`);
        if (is2xx(ex)) ensure(okRows(ex, `GET /uses.php?artifact_id=${id}`).length === 0, `GET /uses.php?artifact_id=${id} listed uses for an item that does not exist`, ex);
        else ensure(is4xx(ex), `GET /uses.php?artifact_id=${id}: expected an empty list or a 4xx, got ${ex.response.status}`, ex);
      }
    },
  );
});

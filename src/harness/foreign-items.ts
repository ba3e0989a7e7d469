import { idOf, itemFlag, type Row } from '../spec/lenient.ts';
import type { CheckContext } from './check.ts';

/**
 * An item of the second user of a type none of the first user's items has (where the second key is given): read with the
 * second key, its record and rows show what a type table built from the first user's types gets wrong. One that carries
 * tags where such an item is known: its record must carry the same tags (§4 GET /artifact.php), for the second key as for
 * the first. Among those, a kept one: a record that misreports the second user's kept flag shows only on a kept item.
 */
export async function foreignTyped(t: CheckContext): Promise<Row | undefined> {
  if (t.target.keys.other === undefined) return undefined;
  const [{ rows: mine }, { rows: theirs }] = await Promise.all([t.discover.collection(), t.discover.collection('other')]);
  const myTypes = new Set(mine.map((r) => idOf(r.type_id)));
  const fitting = theirs.filter((r) => idOf(r.type_id) !== undefined && !myTypes.has(idOf(r.type_id)) && idOf(r.id) !== undefined);
  const tagged = fitting.filter((r) => Array.isArray(r.tags) && r.tags.length > 0);
  const kept = (r: Row) => itemFlag(r.is_kept) === true;
  return tagged.find(kept) ?? tagged[0] ?? fitting.find(kept) ?? fitting[0];
}

/** The second user's items whose ids the first user does not also have (ids may be per user): none where no second key is given. */
export async function foreignItems(t: CheckContext): Promise<Row[]> {
  if (t.target.keys.other === undefined) return [];
  const [own, other] = await Promise.all([t.discover.collection('primary'), t.discover.collection('other')]);
  const ownIds = new Set(own.ids);
  return other.rows.filter((row) => !ownIds.has(idOf(row.id) ?? ''));
}

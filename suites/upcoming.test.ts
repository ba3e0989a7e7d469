import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { ensure, okRows } from '../src/expect.ts';
import { flag, idOf, isIsoDate, type Row } from '../src/lenient.ts';
import { readKept } from '../src/kept.ts';

/** Upcoming rows and the field naming their item (names not shown, §2). */
async function upcoming(t: CheckContext): Promise<{ rows: Row[]; itemField: string; exchange: Awaited<ReturnType<CheckContext['api']['upcoming']>> }> {
  const [exchange, { ids }] = await Promise.all([t.api.upcoming(), t.discover.collection()]);
  const rows = okRows(exchange, 'GET /upcoming-interactions.php');
  t.need(rows[0], 'no upcoming interaction is listed (no kept item has a recorded use)');
  const idSet = new Set(ids);
  const keys = Object.keys(rows[0]!);
  const itemField = t.need(
    ['artifact_id', 'item_id', ...keys].find((k) => rows.every((r) => idSet.has(idOf(r[k]) ?? ''))),
    'the upcoming rows name their item in no recognisable field',
  );
  return { rows, itemField, exchange };
}

/** Anything written like a date, in any order: it must then be an ISO 8601 calendar date. */
const looksLikeDate = (value: unknown): boolean => typeof value === 'string' && /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}/.test(value);
const isIsoDay = (value: unknown): boolean => typeof value === 'string' && isIsoDate(value.slice(0, 10)) && (value.length === 10 || /^T\d{2}:\d{2}/.test(value.slice(10)));

describe('upcoming interactions (§2, §4 GET /upcoming-interactions.php)', () => {
  check(
    { id: 'UPCOMING-001', level: 'MUST', section: '§2, §4', title: 'every upcoming interaction is for a kept item' },
    async (t) => {
      const { rows, itemField, exchange } = await upcoming(t);
      const { rows: collection } = await t.discover.collection();
      const byId = new Map(collection.map((r) => [idOf(r.id), r]));
      for (const row of rows.slice(0, 50)) {
        const id = idOf(row[itemField])!;
        const listed = flag(byId.get(id)?.is_kept);
        const kept = listed ?? (await readKept(t.api, id)).value === 1;
        ensure(kept, `the upcoming interactions list item ${id}, which is not kept`, exchange);
      }
    },
  );

  check(
    { id: 'UPCOMING-002', level: 'MUST', section: '§2, §4', title: 'every interact-by date is a valid ISO 8601 calendar date' },
    async (t) => {
      const { rows, exchange } = await upcoming(t);
      for (const row of rows) {
        const dates = Object.entries(row).filter(([, v]) => looksLikeDate(v));
        ensure(dates.length > 0, `upcoming row ${JSON.stringify(row)} carries no date`, exchange);
        const bad = dates.find(([, v]) => !isIsoDay(v));
        ensure(!bad, `upcoming row field ${bad?.[0]} is ${JSON.stringify(bad?.[1])}, not a valid ISO 8601 date`, exchange);
      }
    },
  );

  check(
    { id: 'UPCOMING-003', level: 'SHOULD', section: '§1, §4', title: 'upcoming dates come from uses: every listed item has a recorded use' },
    async (t) => {
      const { rows, itemField } = await upcoming(t);
      const sample = rows.slice(0, 10).map((r) => idOf(r[itemField])!);
      const answers = await Promise.all(sample.map((id) => t.api.uses({ artifact_id: id })));
      sample.forEach((id, i) => {
        ensure(okRows(answers[i]!, `GET /uses.php?artifact_id=${id}`).length > 0, `item ${id} has an upcoming interaction but no recorded use`, answers[i]);
      });
    },
  );
});

import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { ensure, okRows } from '../src/expect.ts';
import { idOf, isIsoDate, type Row } from '../src/lenient.ts';

const COLLECTION_FIELDS = ['MnP', 'MxP', 'SS', 'MnT', 'MxT', 'Wt', 'Yr', 'Acq'];
const SAMPLE = 10;

async function firstPage(t: CheckContext, extra: Record<string, unknown>): Promise<Row[]> {
  const body = { per_page: 200, ...extra };
  const rows = okRows(await t.api.list(body), `POST /artifacts.php ${JSON.stringify(body)}`);
  t.need(rows[0], 'the collection is empty, so there are no rows to inspect');
  return rows;
}

/** The field of a use that holds its date (not shown in §2): the one whose values are all YYYY-MM-DD. */
function dateFieldOf(uses: readonly Row[]): string | undefined {
  const first = uses[0];
  if (!first) return undefined;
  return Object.keys(first).find((key) => uses.every((u) => isIsoDate(u[key]) || (typeof u[key] === 'string' && isIsoDate(String(u[key]).slice(0, 10)))));
}

describe('optional row fields (§2, §4 fields and include)', () => {
  check(
    { id: 'FIELD-001', level: 'MUST', section: '§2, §4', title: 'fields "collection" adds MnP, MxP, SS, MnT, MxT, Wt, Yr and Acq to every row', requires: ['list-fields'] },
    async (t) => {
      for (const row of await firstPage(t, { fields: 'collection' })) {
        const absent = COLLECTION_FIELDS.filter((f) => !(f in row));
        ensure(absent.length === 0, `with fields "collection", the row of item ${String(row.id)} lacks ${absent.join(', ')}`);
      }
    },
  );

  check(
    { id: 'FIELD-002', level: 'MUST', section: '§2, §4', title: 'include uses_summary adds plays (a count) and last_use (YYYY-MM-DD or null) to every row', requires: ['list-include'] },
    async (t) => {
      for (const row of await firstPage(t, { include: ['uses_summary'] })) {
        const where = `with include uses_summary, the row of item ${String(row.id)}`;
        ensure(Number.isInteger(Number(row.plays)) && Number(row.plays) >= 0 && row.plays !== null && row.plays !== '', `${where} has plays ${JSON.stringify(row.plays)}`);
        ensure(row.last_use === null || isIsoDate(row.last_use), `${where} has last_use ${JSON.stringify(row.last_use)}, not YYYY-MM-DD or null`);
        ensure((Number(row.plays) === 0) === (row.last_use === null), `${where} has plays ${String(row.plays)} but last_use ${JSON.stringify(row.last_use)}`);
      }
    },
  );

  check(
    { id: 'FIELD-003', level: 'MUST', section: '§2, §4', title: 'plays and last_use agree with the uses recorded for the item', requires: ['list-include'] },
    async (t) => {
      const rows = await firstPage(t, { include: ['uses_summary'] });
      const sample = [...rows.filter((r) => Number(r.plays) > 0).slice(0, SAMPLE - 1), ...rows.filter((r) => Number(r.plays) === 0).slice(0, 1)];
      const answers = await Promise.all(sample.map((row) => t.api.uses({ artifact_id: idOf(row.id) })));
      sample.forEach((row, i) => {
        const uses = okRows(answers[i]!, `GET /uses.php?artifact_id=${String(row.id)}`);
        ensure(Number(row.plays) === uses.length, `item ${String(row.id)}: plays is ${String(row.plays)} but /uses.php lists ${uses.length} use(s)`, answers[i]);
        const dateField = dateFieldOf(uses);
        if (dateField && uses.length > 0) {
          const latest = uses.map((u) => String(u[dateField]).slice(0, 10)).sort().at(-1);
          ensure(row.last_use === latest, `item ${String(row.id)}: last_use is ${JSON.stringify(row.last_use)} but its latest use is on ${latest}`, answers[i]);
        }
      });
    },
  );

  check(
    { id: 'FIELD-004', level: 'MUST', section: '§4', title: 'fields and include combine in one request', requires: ['list-fields', 'list-include'] },
    async (t) => {
      for (const row of await firstPage(t, { fields: 'collection', include: ['uses_summary'] })) {
        const absent = [...COLLECTION_FIELDS, 'plays', 'last_use'].filter((f) => !(f in row));
        ensure(absent.length === 0, `with both fields and include, the row of item ${String(row.id)} lacks ${absent.join(', ')}`);
      }
    },
  );
});

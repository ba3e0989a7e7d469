import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { ensure, okRows } from '../src/expect.ts';
import { flag, idOf, isIsoDateOrDateTime, itemFieldOf, itemRefOf, type Row } from '../src/lenient.ts';
import { readKept } from '../src/kept.ts';
import type { Exchange } from '../src/http/exchange.ts';

/** Upcoming rows and the field naming their item (names not shown, §2). */
async function upcoming(t: CheckContext): Promise<{ rows: Row[]; itemField: string; exchange: Awaited<ReturnType<CheckContext['api']['upcoming']>> }> {
  const [exchange, { ids }] = await Promise.all([t.discover.shared('GET /upcoming-interactions.php'), t.discover.collection()]);
  const rows = listedRows(t, exchange);
  const itemField = t.need(itemFieldOf(rows, new Set(ids)), 'the upcoming rows name their item in no recognisable field');
  return { rows, itemField, exchange };
}

/** The rows of the upcoming answer; with none listed there is nothing to judge. */
function listedRows(t: CheckContext, exchange: Exchange): Row[] {
  const rows = okRows(exchange, 'GET /upcoming-interactions.php');
  t.need(rows[0], 'no upcoming interaction is listed (no kept item has a recorded use)');
  return rows;
}

const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}/;
const INTERACT_NAME = /interact|due|next|upcoming|(^|_)by$|deadline/i;

/**
 * The field holding the interact-by date (names not shown, §2): the one named for it, or else the only
 * field written like a date. A row may have no date (null) where the implementation lists one.
 */
function interactByField(rows: readonly Row[]): string | undefined {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const named = keys.filter((k) => INTERACT_NAME.test(k) && rows.every((r) => typeof r[k] === 'string' || r[k] === null) && rows.some((r) => typeof r[k] === 'string'));
  if (named.length === 1) return named[0];
  const dateLike = (v: unknown): boolean => typeof v === 'string' && DATE_LIKE.test(v);
  const dated = keys.filter((k) => rows.every((r) => r[k] === null || dateLike(r[k])) && rows.some((r) => dateLike(r[k])));
  return dated.length === 1 ? dated[0] : undefined;
}

describe('upcoming interactions (§2, §4 GET /upcoming-interactions.php)', () => {
  check(
    { id: 'UPCOMING-001', level: 'MUST', section: '§2, §4', title: 'every upcoming interaction is for a kept item' },
    async (t) => {
      const { rows, itemField, exchange } = await upcoming(t);
      const { rows: collection } = await t.discover.collection();
      const byId = new Map(collection.map((r) => [idOf(r.id), r]));
      const referenced = [...new Set(rows.map((row) => itemRefOf(row[itemField])!))];
      // Judged by the list rows' kept flag where they carry it, else by single reads of a sample (staging).
      const unflagged = referenced.filter((id) => flag(byId.get(id)?.is_kept) === undefined).slice(0, 10);
      const reads = await Promise.all(unflagged.map((id) => readKept(t.api, id)));
      const keptOf = new Map(unflagged.map((id, i) => [id, reads[i]!.value === 1]));
      for (const id of referenced) {
        const kept = flag(byId.get(id)?.is_kept) ?? keptOf.get(id);
        if (kept === undefined) continue;
        ensure(kept, `the upcoming interactions list item ${id}, which is not kept`, exchange);
      }
    },
  );

  check(
    { id: 'UPCOMING-002', level: 'MUST', section: '§2, §4', title: 'every upcoming row carries a valid interact-by date (ISO 8601; its format is not shown)' },
    async (t) => {
      const exchange = await t.discover.shared('GET /upcoming-interactions.php');
      const rows = listedRows(t, exchange);
      const field = t.need(interactByField(rows), 'no field of an upcoming row reads as its interact-by date (field names are not shown)');
      const bad = rows.find((row) => !isIsoDateOrDateTime(row[field]));
      ensure(!bad, `an upcoming row has ${field} ${JSON.stringify(bad?.[field])}, not a valid ISO 8601 date`, exchange);
    },
  );

  check(
    { id: 'UPCOMING-003', level: 'SHOULD', section: '§1, §4', title: 'upcoming dates come from uses: every listed item has a recorded use' },
    async (t) => {
      const { rows, itemField } = await upcoming(t);
      const sample = rows.slice(0, 10).map((r) => itemRefOf(r[itemField])!);
      const answers = await Promise.all(sample.map((id) => t.api.uses({ artifact_id: id })));
      sample.forEach((id, i) => {
        ensure(okRows(answers[i]!, `GET /uses.php?artifact_id=${id}`).length > 0, `item ${id} has an upcoming interaction but no recorded use`, answers[i]);
      });
    },
  );
});

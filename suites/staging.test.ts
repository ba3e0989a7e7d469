import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { ensure, ensureNo5xx, is2xx, okObject, okRows } from '../src/expect.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { flag, idOf, isObject, rowsOf } from '../src/lenient.ts';
import { fingerprints, userDataIn } from '../src/probes.ts';

const STAGING_ROW_FIELDS = ['Title', 'id', 'tags'];

/** An omitted parameter is conforming when refused with 400 or ignored (same rows as without it). */
async function notHonoured(t: CheckContext, label: string, baseline: Exchange, probe: Exchange): Promise<void> {
  ensureNo5xx(probe, label);
  if (probe.response.status === 400) return;
  ensure(is2xx(probe), `${label}: expected 400 or the answer without it, got ${probe.response.status}`, probe);
  const same = JSON.stringify(rowsOf(probe.response.json)) === JSON.stringify(rowsOf(baseline.response.json));
  ensure(same, `${label} is a primary-only feature but changed the answer on staging`, probe);
}

describe('staging subset (§2, §4, §9)', () => {
  const staging = { appliesTo: ['staging'] as const };

  check(
    { id: 'STAGE-001', level: 'MUST', section: '§2, §4', title: 'staging list rows carry exactly id, Title and tags', ...staging },
    async (t) => {
      const ex = await t.api.list({ per_page: 200 });
      const rows = okRows(ex, 'POST /artifacts.php');
      t.need(rows[0], 'the collection is empty, so there are no rows to inspect');
      for (const row of rows) {
        const fields = Object.keys(row).sort();
        ensure(JSON.stringify(fields) === JSON.stringify(STAGING_ROW_FIELDS), `a staging row carries ${fields.join(', ')}; expected exactly id, Title, tags`, ex);
      }
    },
  );

  check(
    { id: 'STAGE-002', level: 'MUST', section: '§4, §9', title: 'staging does not honour the primary-only filters, fields or include', ...staging },
    async (t) => {
      const baseline = await t.api.list({ per_page: 200 });
      const rows = okRows(baseline, 'POST /artifacts.php');
      t.need(rows[0], 'the collection is empty, so a filter could not change anything');
      const record = await t.discover.record(String(rows[0]!.id));
      const probes: Record<string, unknown>[] = [
        { kept: !flag(record.is_kept) },
        { kept: Boolean(flag(record.is_kept)) },
        { physical: true },
        { physical: false },
        { digital: true },
        { secondary_collection: true },
        { type_id: record.type_id ?? 1 },
        { fields: 'collection' },
        { include: ['uses_summary'] },
      ];
      for (const extra of probes) {
        await notHonoured(t, `POST /artifacts.php ${JSON.stringify(extra)}`, baseline, await t.api.list({ per_page: 200, ...extra }));
      }
    },
  );

  check(
    { id: 'STAGE-003', level: 'MUST', section: '§4, §9', title: 'staging has no players endpoint', ...staging },
    async (t) => {
      const { rows } = await t.discover.collection();
      const ex = await t.api.players();
      ensureNo5xx(ex, 'GET /players.php');
      ensure(!is2xx(ex), `GET /players.php answered ${ex.response.status} on staging, which has no players endpoint`, ex);
      const leak = userDataIn(ex, fingerprints(rows));
      ensure(leak === undefined, `GET /players.php on staging: ${leak}`, ex);
    },
  );

  check(
    { id: 'STAGE-004', level: 'MUST', section: '§4, §9', title: 'staging does not honour player_id on /uses.php', ...staging },
    async (t) => {
      const baseline = await t.api.uses({});
      const uses = okRows(baseline, 'GET /uses.php');
      const playerIds = [...new Set(uses.flatMap((u) => (Array.isArray(u.players) ? u.players : [])).map((p) => idOf(p)))];
      const playerId = t.need(playerIds.find((p) => p !== undefined), 'no use names a player, so a player filter could not change anything');
      await notHonoured(t, `GET /uses.php?player_id=${playerId}`, baseline, await t.api.uses({ player_id: playerId }));
    },
  );

  check(
    { id: 'STAGE-005', level: 'MUST', section: '§9', title: 'the staging catalog describes the staging subset', ...staging },
    async (t) => {
      const catalog = okObject(await t.api.catalog(), 'GET /api-docs?format=json');
      const paths = isObject(catalog.paths) ? Object.keys(catalog.paths) : [];
      ensure(paths.length > 0, 'the catalog lists no paths');
      ensure(!paths.some((p) => /players/.test(p)), `the staging catalog lists a players endpoint (${paths.filter((p) => /players/.test(p)).join(', ')})`);
      const text = JSON.stringify(catalog.paths);
      for (const field of ['secondary_collection', 'uses_summary', 'player_id']) {
        ensure(!text.includes(`"${field}"`), `the staging catalog still offers the primary-only parameter ${field}`);
      }
    },
  );

  check(
    { id: 'STAGE-006', level: 'MUST', section: '§2', title: 'the staging single-item read returns the full record', ...staging },
    async (t) => {
      const item = t.need(await t.discover.anyItem(), 'the collection is empty, so there is no item to read');
      const record = await t.discover.record(String(item.id));
      for (const field of ['id', 'Title', 'is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection', 'tags']) {
        ensure(field in record, `GET /artifact.php on staging lacks ${field}; the single read carries the full record`);
      }
      for (const field of ['is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection']) {
        ensure(flag(record[field]) !== undefined, `GET /artifact.php: ${field} is ${JSON.stringify(record[field])}, not a flag`);
      }
    },
  );
});

import {
  describe,
  check,
  ensure,
  foreignItems,
  ensureNo5xx,
  idOf,
  is2xx,
  is4xx,
  isModificationStamp,
  isSet,
  keptIn,
  profiles,
  recordOf,
  rowsOf,
  sameUnordered,
  sortedListsJson,
  typeIdsCarried,
  MAX_ROWS_PER_PAGE,
  type CheckContext,
  type CursorWindow,
  type Exchange,
  type Row,
  asJson,
  isKeptStateField,
} from '../src/harness/index.ts';

/** Fields the frame watches: all but the id, the kept state and modification stamps (§3). */
const watched = (name: string) => name !== 'id' && !isKeptStateField(name) && !isModificationStamp(name);

/**
 * Another value of the same kind, which a server that applied it would show: a flag flipped (in the
 * form it was served), a string marked, a number moved by one, a list with one more label. Null and
 * objects are sent unchanged: nothing of their kind could be told apart safely.
 */
function otherValue(value: unknown): unknown {
  if (value === 0 || value === 1) return 1 - value;
  if (typeof value === 'boolean') return !value;
  if (value === '0' || value === '1') return value === '0' ? '1' : '0';
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') return `${value} (conform probe)`;
  if (Array.isArray(value)) return [...value, 'conform-probe'];
  return value;
}

/** The record's independent flags (§2), the items' scores count and FRAME-001 also sends in the toggle's query string. */
const INDEPENDENT_FLAG_FIELDS = ['is_physical', 'is_digital', 'is_in_secondary_collection'] as const;

function changedFields(before: Row, after: Row): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => watched(name) && !sameUnordered(before[name], after[name]));
}

const describeChanges = (before: Row, after: Row, fields: readonly string[]) => fields.map((f) => `${f} ${asJson(before[f])} → ${asJson(after[f])}`).join(', ');

/** The second user's id where its household names it (players.represents_user_id), else a small id. */
async function otherUserId(t: CheckContext): Promise<string | number> {
  if (t.target.keys.other !== undefined && profiles[t.target.profile].has('players')) {
    const rows = rowsOf((await t.discover.shared('GET /players.php (second user)')).response.json) ?? [];
    const named = rows.find((r) => r.represents_user_id != null)?.represents_user_id;
    if (typeof named === 'string' || typeof named === 'number') return named;
  }
  return 2;
}

/** An item of the second user whose id the first user lacks (ids may be per user); the last one, away from SCOPE-006's. */
async function foreignItem(t: CheckContext): Promise<Row | undefined> {
  return (await foreignItems(t)).at(-1);
}

/**
 * The titled item a write names: the one whose row under fields "collection" (the run's shared page) holds the most
 * values, so that each field a wrong door applies has a value to show it (a null is sent back unchanged), then the one
 * with the most flags set and tags.
 */
async function fullestTitled(t: CheckContext, rows: readonly Row[]): Promise<Row | undefined> {
  const titled = rows.filter((r) => typeof r.Title === 'string');
  if (!profiles[t.target.profile].has('list-fields') || titled.length < 2) return titled[0];
  const ex = await t.discover.list({ per_page: MAX_ROWS_PER_PAGE, fields: 'collection' }, { usesKeptState: false });
  const wide = new Map((is2xx(ex) ? (rowsOf(ex.response.json) ?? []) : []).map((r) => [idOf(r.id), r]));
  const score = (r: Row) =>
    Object.values(wide.get(idOf(r.id)) ?? {}).filter((v) => v !== null && v !== '').length * 100 +
    INDEPENDENT_FLAG_FIELDS.filter((f) => isSet(r[f])).length * 10 +
    Math.min(9, Array.isArray(r.tags) ? r.tags.length : 0);
  return titled.reduce((best, r) => (score(r) > score(best) ? r : best), titled[0]!);
}

/**
 * An item of the second user for that key's own toggle: none SCOPE-006 or FRAME-001 names (they run beside it), an
 * unkept one first (the toggle then keeps it and the put-back unkeeps it), then a labelled one, with the most flags set, so that a
 * toggle that clears one has one to clear.
 */
async function secondUsersOwn(t: CheckContext): Promise<Row | undefined> {
  const [other, foreign] = await Promise.all([t.discover.collection('other'), foreignItems(t)]);
  const taken = new Set([foreign[0], foreign.at(-1)].map((row) => idOf(row?.id)));
  const free = other.rows.filter((row) => idOf(row.id) !== undefined && !taken.has(idOf(row.id)));
  const score = (r: Row) =>
    (isSet(r.is_kept) ? 0 : 1000) +
    (Array.isArray(r.tags) && r.tags.length > 0 ? 100 : 0) +
    INDEPENDENT_FLAG_FIELDS.filter((f) => isSet(r[f])).length * 10 +
    Math.min(9, Array.isArray(r.tags) ? r.tags.length : 0);
  return free.reduce<Row | undefined>((best, r) => (best === undefined || score(r) > score(best) ? r : best), undefined);
}

describe('frames of every write (§3, §4 "changes nothing else", §5)', () => {
  check(
    {
      id: 'FRAME-001',
      level: 'MUST',
      sections: ['§3', '§4'],
      title: 'a toggle whose body (and query string) carries other fields changes nothing but is_kept of the named item',
      toggles: true,
      lane: 'own-items',
      accepts: [
        'a toggle carrying fields beyond id and is_kept refused with a 4xx, as long as nothing changes',
        'any 2xx with any body for a toggle that is applied',
        'the single-item read bare or inside an envelope; a modification stamp or a stamp of the kept state that moves',
      ],
    },
    async (t) => {
      const rows = await t.discover.toggleRows();
      const item = t.need(await fullestTitled(t, rows), 'the collection has no titled item to toggle');
      const id = idOf(item.id)!;
      // The original values, read before anything is sent: what the failure reports and the put-back sends.
      // Reads that wait for nothing sent go out together (each costs a round trip on the run's longest chain).
      // A lean (budgeted) run names an absent id as artifact_id instead: the other user's item costs three reads and a sweep read.
      const found = t.target.lean ? Promise.resolve(undefined) : foreignItem(t);
      const [before, foreign, foreignBefore, userId] = await Promise.all([
        t.discover.record(id),
        found,
        found.then((other) => (other ? t.discover.record(idOf(other.id)!, 'other') : undefined)),
        otherUserId(t),
      ]);
      const start = isSet(before.is_kept) ? 1 : 0;
      const foreignId = foreign ? idOf(foreign.id)! : String(await t.discover.unusedId());
      // The read above is the item's value before the first change, though the write to the other user's item comes first.
      t.kept.remember([id]);
      // Journals the other user's item at the value just read (no write needed), so that a wrong door that toggled it
      // is put back when the check ends.
      if (foreign) await t.kept.atRisk(foreignId, 'a toggle body naming it as artifact_id', 'other');
      const extra = (values: (value: unknown, name: string) => unknown): Row => ({
        ...Object.fromEntries(
          Object.entries(before)
            .filter(([name]) => watched(name))
            .map(([name, value]) => [name, values(value, name)]),
        ),
        user_id: userId,
        artifact_id: foreign?.id ?? foreignId,
      });
      // type_id changes to another type the collection's items carry, in the form served: a server that applies only a
      // type_id its types hold shows it too (and the same door puts the original back).
      const otherType = typeIdsCarried((await t.discover.collection()).rows).find((typeId) => typeId !== idOf(before.type_id));
      const changedType = otherType === undefined || typeof before.type_id !== 'number' ? otherType : Number(otherType);
      const changedBody = {
        ...extra((value, name) => (name === 'type_id' && changedType !== undefined && idOf(value) !== undefined ? changedType : otherValue(value))),
        id: item.id,
        is_kept: 1 - start,
      };
      // The same door with the original values: a server that wrongly applies the fields puts them back.
      const originalBody = { ...extra((v) => v), id: item.id, is_kept: start };
      // The independent flags go in the query string too, changed in the toggle and as they were in the put-back: a server
      // that merges query and body input (PHP's $_REQUEST) applies them from there, and the same door puts them back.
      const flagsQuery = (values: (value: unknown) => unknown): Record<string, string> =>
        Object.fromEntries(
          INDEPENDENT_FLAG_FIELDS.filter((name) => typeof before[name] === 'number' || typeof before[name] === 'boolean').map((name) => [
            name,
            String(Number(values(before[name]))),
          ]),
        );
      const changedQuery = flagsQuery(otherValue);
      const sent = await t.kept.set(id, 1 - start, { body: changedBody, query: changedQuery });
      ensureNo5xx('C7.2', sent, 'POST /artifact-kept.php with every record field, a user id and another item id in the body');
      const [mid, foreignMid] = await Promise.all([t.discover.record(id), foreign ? t.discover.record(foreignId, 'other') : undefined]);
      const back = await t.kept.set(id, start, { body: originalBody, query: flagsQuery((v) => v) });
      const [after, foreignAfter] = await Promise.all([t.discover.record(id), foreign ? t.discover.record(foreignId, 'other') : undefined]);
      const what = `POST /artifact-kept.php?${new URLSearchParams(changedQuery).toString()} ${JSON.stringify(changedBody)}`;
      const changed = changedFields(before, mid);
      const still = changedFields(before, after);
      const putBack =
        still.length === 0
          ? 'sending the original values through the same body put them back'
          : `still changed after sending the original values back through the same body: ${describeChanges(before, after, still)}`;
      ensure('C3.2', changed.length === 0, `${what} on item ${id} also changed ${describeChanges(before, mid, changed)}; ${putBack}`, sent);
      ensure(
        'C3.2',
        still.length === 0,
        `sending the original values back through the toggle changed item ${id}: ${describeChanges(before, after, still)}`,
        back,
      );
      if (foreign) {
        const foreignChanged = [
          ...changedFields(foreignBefore!, foreignMid!),
          ...(isSet(foreignBefore!.is_kept) !== isSet(foreignMid!.is_kept) ? ['is_kept'] : []),
        ];
        const foreignStill = changedFields(foreignBefore!, foreignAfter!);
        ensure(
          'C5.2',
          foreignChanged.length === 0,
          `${what} (naming another user's item ${foreignId} as artifact_id) changed that item: ${describeChanges(foreignBefore!, foreignMid!, foreignChanged)}; ${foreignStill.length === 0 ? 'put back by the original values' : 'not put back by the original values'} (its kept value is restored when the check ends)`,
          sent,
        );
      }
      if (is4xx(sent)) {
        ensure('C3.2', isSet(mid.is_kept) === (start === 1), `${what} was refused (${sent.response.status}) but item ${id}'s is_kept changed`, sent);
        return;
      }
      ensure('C3.1', is2xx(sent), `${what}: expected success or a 4xx refusal, got ${sent.response.status}`, sent);
      ensure(
        'C3.1',
        isSet(mid.is_kept) === (start === 0),
        `${what}: item ${id} should now be is_kept=${1 - start}, a single read shows ${asJson(mid.is_kept)}`,
        sent,
      );
      ensure(
        'C3.1',
        isSet(after.is_kept) === (start === 1),
        `sending is_kept=${start} with the original values left item ${id} at is_kept=${asJson(after.is_kept)}`,
        back,
      );
    },
  );

  check(
    {
      id: 'FRAME-003',
      level: 'MUST',
      sections: ['§3', '§4', '§5'],
      title: "the second key's toggle of that user's own item sets is_kept, there and back, and changes nothing else of the item",
      needsOtherKey: true,
      toggles: true,
      lane: 'second-user',
      accepts: [
        'any 2xx with any body for the toggle',
        'the single-item read bare or inside an envelope; is_kept as 0/1, a boolean or null; a modification stamp or a stamp of the kept state that moves',
      ],
    },
    async (t) => {
      // Every agent key may toggle its own user's items (§5), not only the first: the second key keeps one of its
      // user's items and puts it back, and the record, read with that key, shows is_kept set and every other field as it was.
      const item = t.need(await secondUsersOwn(t), 'the second user has no item apart from those SCOPE-006 and FRAME-001 name');
      const id = idOf(item.id)!;
      const before = await t.discover.record(id, 'other');
      const start = isSet(before.is_kept) ? 1 : 0;
      for (const value of [1 - start, start]) {
        const sent = await t.kept.set(id, value, { as: 'other' });
        const what = `POST /artifact-kept.php {"id": ${asJson(item.id)}, "is_kept": ${value}} with the second key`;
        ensure('C3.1', is2xx(sent), `${what} (that user's own item): expected success, got ${sent.response.status}`, sent);
        const now = await t.discover.record(id, 'other');
        ensure('C3.1', isSet(now.is_kept) === (value === 1), `${what}: a single read with that key shows is_kept ${asJson(now.is_kept)}`, sent);
        const changed = changedFields(before, now);
        ensure(
          'C3.2',
          changed.length === 0,
          `${what}${value === start ? ' (putting the item back)' : ''} changed item ${id}: ${describeChanges(before, now, changed)}`,
          sent,
        );
      }
    },
  );

  check(
    {
      id: 'FRAME-002',
      level: 'MUST',
      sections: ['§1', '§4', '§5'],
      title: 'list requests whose bodies carry record fields, ids or user ids change nothing',
      toggles: true,
      accepts: ['any answer but a 5xx to a list body with fields the spec does not name (unknown fields may be refused or ignored)'],
    },
    async (t) => {
      const rows = await t.discover.toggleRows();
      const item = t.need(await fullestTitled(t, rows), 'the collection has no titled item for a list body to name');
      const id = idOf(item.id)!;
      const probeTitle = 'conform probe (a list request must not create it)';
      const [absentId, apartRows] = await Promise.all([t.discover.unusedId(), t.discover.setApart()]);
      const apart = new Set(apartRows.map((r) => idOf(r.id)));
      // A lean run reads the probe's search and uses once, after the bodies (the before window stands for them).
      const probe = { id: absentId, title: probeTitle };
      const snapshot = (searches: boolean) => listState(t, apart, id, searches ? probe : undefined);
      // The first snapshot's read of the item is its record: what the bodies restate, and its kept value before them.
      const before = await snapshot(!t.target.lean);
      const record = is2xx(before.read) ? recordOf(before.read.response.json, id) : undefined;
      ensure('C4.14', record !== undefined, `GET /artifact.php?id=${id}: expected the item record, got ${before.read.response.status}`, before.read);
      keptIn(before.read, id);
      const start = isSet(record.is_kept) ? 1 : 0;
      // Journaled at the value just read (no write needed): a list request that wrongly wrote is_kept is put back when the check ends.
      await t.kept.atRisk(id, 'list request bodies carrying is_kept');
      const fields = Object.entries(record).filter(([name]) => name !== 'id' && !isModificationStamp(name) && name !== 'type_id');
      const changed = Object.fromEntries(fields.map(([name, value]) => [name, otherValue(name === 'is_kept' ? start : value)]));
      const original = Object.fromEntries(fields);
      // type_id is a list filter (§4): the bodies carry another real type's id, so that the filter stays valid and
      // a server that wrote it from the body shows it (the put-backs carry the item's own).
      const otherType = await anotherTypeId(t, record.type_id);
      if (otherType !== undefined) {
        changed.type_id = otherType;
        original.type_id = record.type_id;
      }
      // A record of an existing item with other values, named by id (beside a user id) and by artifact_id (beside the
      // record nested), then the same doors with the original values (they put back what they changed); a lean run
      // names the item both ways in one body.
      const naming = (values: Row): Row[] => {
        const byId = { ...values, id: item.id, user_id: 2 };
        const byArtifact = { ...values, artifact_id: item.id, item: { ...values, id: item.id } };
        return t.target.lean ? [{ ...byArtifact, ...byId }] : [byId, byArtifact];
      };
      const bodies: Row[] = [
        ...naming(changed),
        // A record no item has: a server that created it leaves an item with this title.
        { id: absentId, Title: probeTitle, is_kept: 1, is_physical: 1, tags: ['conform-probe'] },
        { Title: probeTitle, type: record.type ?? 'game', user_id: 1, per_page: 1 },
      ];
      const putBacks = naming(original);
      // The bodies go out together (one round trip on the run's longest chain): those naming the item carry the same
      // values, and the others name no item it has, so whatever order they land in, a server that applies them ends
      // in the same state; the failure lists every body sent.
      const answers = await Promise.all(bodies.map((body) => t.api.list(body)));
      for (const ex of answers) ensureNo5xx('C7.2', ex, `POST /artifacts.php ${ex.request.body ?? ''}`);
      const [mid, created] = await Promise.all([snapshot(!t.target.lean), t.target.lean ? createdByProbe(t, probe, before) : undefined]);
      if (mid.state === before.state) {
        // Nothing was sent after this read: it is the check's last sight of the item's kept value, so that the
        // restore needs no read of its own (where the record cannot be read, the restore reads it).
        try {
          keptIn(mid.read, id);
        } catch {}
      }
      const after =
        mid.state === before.state
          ? mid
          : await t.putBack(async () => {
              await Promise.all(putBacks.map((body) => t.api.list(body)));
              return snapshot(!t.target.lean);
            });
      ensure(
        'C1.2',
        mid.state === before.state,
        `the collection changed after list requests (sent together) whose bodies carried record fields (${bodies.map((b) => JSON.stringify(b)).join(' ; ')}): ${firstDifference(before.state, mid.state)}; ${after.state === before.state ? 'the same bodies with the original values put it back' : `the same bodies with the original values did not put it back (${firstDifference(before.state, after.state)})`}`,
        answers.at(-1),
      );
      ensure('C1.2', created === undefined, `a list request whose body carried the title "${probeTitle}" created an item: ${created}`, answers.at(-1));
    },
  );
});

/** The id of a type other than `own`, of the same kind, from GET /types.php; none where type_id is no list filter. */
async function anotherTypeId(t: CheckContext, own: unknown): Promise<string | number | undefined> {
  if (own === null || own === undefined || !profiles[t.target.profile].has('list-filters')) return undefined;
  const types = await t.discover.shared('GET /types.php');
  const ids = (is2xx(types) ? (rowsOf(types.response.json) ?? []) : []).map((r) => r.id);
  return ids.find((id): id is string | number => typeof id === typeof own && (typeof id === 'string' || typeof id === 'number') && String(id) !== String(own));
}

/**
 * What a list request could have changed, read afresh: the first 1,000 items by id (the whole of a
 * smaller collection) but those set apart for the set-apart lane, which change beside this check, the
 * full record of the item the bodies name (it carries fields list rows do not: the collection columns,
 * get-rid-of), with, given a probe, the uses of its absent id and any item titled like it; with the
 * answer of that record's read, and the window's ids and whether it held the whole collection.
 */
async function listState(
  t: CheckContext,
  apart: ReadonlySet<string | undefined>,
  named: string,
  probe: { id: string | number; title: string } | undefined,
): Promise<{ state: string; read: Exchange; ids: ReadonlySet<string | undefined>; complete: boolean }> {
  // A lean (budgeted) run watches the named item's record only, not a fresh window of the collection (two reads less): the
  // probe's search still finds an item the bodies created, against the run's walk.
  const [window, read, ...others] = await Promise.all([
    t.target.lean ? walkAsWindow(t) : t.discover.freshWindow(5),
    t.api.item(named),
    ...(probe ? [t.api.uses({ artifact_id: probe.id }), t.api.list({ query: probe.title, per_page: MAX_ROWS_PER_PAGE })] : []),
  ]);
  const unstamped = (r: Row) => Object.fromEntries(Object.entries(r).filter(([name]) => !isModificationStamp(name)));
  const rows = (t.target.lean ? [] : window.pages)
    .flatMap((p) => p.rows)
    .filter((r) => !apart.has(idOf(r.id)))
    .map(unstamped);
  const record = is2xx(read) ? recordOf(read.response.json, named) : undefined;
  // The probe's search may find items set apart too (how a search matches is not shown: words as alternatives find
  // many): their kept flags change beside this check, so they are left out of its answer as of the window.
  const found = (e: Exchange) =>
    rowsOf(e.response.json)
      ?.filter((r) => !apart.has(idOf(r.id)))
      .map(unstamped) ?? e.response.json;
  // Tags and other lists of plain values may come in any order (§2 orders none of them).
  const [uses, search] = others;
  const state = sortedListsJson([
    rows,
    record ? unstamped(record) : read.response.status,
    ...(uses && search
      ? [
          // A refusal's body is no state (an error may carry a request id or a time that differs on every read).
          [uses.response.status, uses.response.status >= 400 ? null : (rowsOf(uses.response.json) ?? uses.response.json)],
          [search.response.status, found(search)],
        ]
      : []),
  ]);
  return { state, read, ids: new Set(window.pages.flatMap((p) => p.rows).map((r) => idOf(r.id))), complete: window.complete };
}

/** The run's walk as a window: the ids a lean run's probe search compares against. */
async function walkAsWindow(t: CheckContext): Promise<CursorWindow> {
  const { pages } = await t.discover.collection();
  return { pages, complete: pages.at(-1)?.hasMore === false };
}

/**
 * A lean run's search for the probe's title after the bodies: an item of that title the window before them
 * did not hold, described; undefined when there is none, or when the window did not hold the whole
 * collection (an item of that title beyond it may be older than this run).
 */
async function createdByProbe(
  t: CheckContext,
  probe: { title: string },
  before: { ids: ReadonlySet<string | undefined>; complete: boolean },
): Promise<string | undefined> {
  if (!before.complete) return undefined;
  const search = await t.api.list({ query: probe.title, per_page: MAX_ROWS_PER_PAGE });
  const created = (rowsOf(search.response.json) ?? []).filter((r) => r.Title === probe.title && !before.ids.has(idOf(r.id)));
  return created.length > 0 ? `${created.map((r) => asJson(r.id)).join(', ')} (found by POST /artifacts.php ${search.request.body ?? ''})` : undefined;
}

/** Where two snapshots first differ, in a few words: enough to find the change in the failure. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 80);
  return `before …${a.slice(from, i + 60)}… after …${b.slice(from, i + 60)}…`;
}

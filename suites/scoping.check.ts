import {
  COLLECTION_FIELDS,
  FILTER_FLAG_FIELDS,
  DEFAULT_ROWS_PER_PAGE,
  knownFieldValue,
  labelSet,
  describe,
  check,
  ensure,
  foreignItems,
  ensureNo5xx,
  idOf,
  is2xx,
  is4xx,
  itemFieldOf,
  itemRefOf,
  MAX_ROWS_PER_PAGE,
  playerIdsOf,
  okRows,
  profiles,
  readKept,
  recordOf,
  rowsOf,
  together,
  type CheckContext,
  type Exchange,
  type Row,
  asJson,
  asText,
  envelopeField,
  foreignTyped,
  flag,
  isObject,
  sortedListsJson,
} from '../src/harness/index.ts';

/** User ids to smuggle in: the real user ids the second user's household names, else small ids. */
async function foreignUserIds(t: CheckContext): Promise<(string | number)[]> {
  const ids: (string | number)[] = [];
  if (t.target.keys.other !== undefined && profiles[t.target.profile].has('players')) {
    const rows = rowsOf((await t.discover.shared('GET /players.php (second user)')).response.json) ?? [];
    for (const row of rows) if (row.represents_user_id != null) ids.push(row.represents_user_id as string | number);
  }
  return ids.length > 0 ? [...new Set(ids)] : [1, 2, 3];
}

/**
 * The user ids the second user's household names (represents_user_id) and the first user's does not: the second
 * user's own id among them where its household records itself, but also any other user it records (a friend who uses
 * the service, or the first user where the first household does not record itself). None without the players endpoint.
 */
async function ownerIds(t: CheckContext): Promise<(string | number)[]> {
  if (t.target.keys.other === undefined || !profiles[t.target.profile].has('players')) return [];
  const named = async (name: 'GET /players.php' | 'GET /players.php (second user)') =>
    (rowsOf((await t.discover.shared(name)).response.json) ?? [])
      .map((r) => r.represents_user_id)
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  const [own, theirs] = await Promise.all([named('GET /players.php'), named('GET /players.php (second user)')]);
  return [...new Set(theirs)].filter((v) => !own.map(String).includes(String(v)));
}

/**
 * What a row shows of its item: labels or none, each flag set or not (as the row carries it), and its formats together
 * (physical only, digital only, both or neither: the kinds of copy an item is).
 */
function traitsOf(row: Row): string[] {
  const flags = Object.values(FILTER_FLAG_FIELDS)
    .filter((name) => name in row)
    .map((name) => `${name}=${flag(row[name]) ?? false}`);
  const formats = 'is_physical' in row && 'is_digital' in row ? [`formats=${flag(row.is_physical) ?? false}/${flag(row.is_digital) ?? false}`] : [];
  return [...flags, ...formats, Array.isArray(row.tags) && row.tags.length > 0 ? 'labelled' : 'unlabelled'];
}

/**
 * Up to `count` of `rows`, the first of them first, then each time the one that shows the most traits those before it do
 * not (labels, a flag set or not), then the rest in order: an ownership check that fails for one kind of item only (a
 * tagged one, a kept one) shows on the items read.
 */
function coveringTraits(rows: readonly Row[], count: number): Row[] {
  const chosen: Row[] = rows.slice(0, 1);
  const shown = new Set(chosen.flatMap(traitsOf));
  const gain = (row: Row) => traitsOf(row).filter((trait) => !shown.has(trait)).length;
  while (chosen.length < count) {
    // The row that shows the most traits not yet shown (the earliest of equals); none left that shows one: the rest in order.
    const best = rows.reduce<Row | undefined>((a, b) => (chosen.includes(b) || gain(b) === 0 || (a !== undefined && gain(a) >= gain(b)) ? a : b), undefined);
    if (best === undefined) break;
    chosen.push(best);
    for (const trait of traitsOf(best)) shown.add(trait);
  }
  for (const row of rows) if (chosen.length < count && !chosen.includes(row)) chosen.push(row);
  return chosen;
}

/** What a read shows: its rows, or the record it holds, without the envelope (which may carry a volatile field). */
function shown(ex: Exchange): string {
  const value = rowsOf(ex.response.json) ?? recordOf(ex.response.json) ?? ex.response.json;
  // Lists of plain values (tags, players) have no stated order: only their content is compared.
  return `[${JSON.stringify(ex.response.status)},${sortedListsJson(value)}]`;
}

describe('user scoping (§4 rule 1, §5)', () => {
  check(
    {
      id: 'SCOPE-001',
      level: 'MUST',
      sections: ['§4'],
      title:
        "a user id in the list body is ignored: the key's own collection is read (and its own uses counted by include uses_summary), also under the names userId (beside owner_id and user_id as a list) and user (the last beside all_users true and user_id null)",
      accepts: [
        'userId, owner_id, user or all_users (names the spec does not use) refused with 400 or 422 as unknown fields (with them, user_id null)',
        'any of them refused with 403, read as an enumeration of users or a read of another user (§1, §5)',
      ],
    },
    async (t) => {
      // The spec's own name carries the id as text (a user id in any form is ignored, §4 rule 1): a body sanitiser that
      // strips a numeric user_id only, and a query that casts the text, show there; the other names carry it as found, and
      // SCOPE-007 sends numeric user ids in list bodies too.
      const probes = (await foreignUserIds(t)).flatMap((found) =>
        ['user_id', 'userId', 'user'].map((field) => ({ userId: field === 'user_id' ? String(found) : found, field })),
      );
      // Where include is offered, user_id rides beside include ["uses_summary"]: the plays and last_use it adds are the
      // key's own user's too (§4 rule 1: the key's own user is always read; §2: plays counts the item's recorded uses),
      // judged against the run's shared read of the same page with include and without user_id.
      const summary = profiles[t.target.profile].has('list-include') ? { include: ['uses_summary'] } : {};
      // The last spelling goes with all_users true, a flag an admin listing of the same service might honour, and user_id
      // null (no user named, which a query builder may read as no owner condition): no body widens what the key reads (§4:
      // all results are scoped to the key's user; rule 1: the key's own user is always read).
      const bodyOf = ({ userId, field }: { userId: string | number; field: string }) => ({
        per_page: MAX_ROWS_PER_PAGE,
        [field]: userId,
        ...(field === 'user_id' ? summary : {}),
        ...(field === 'user' ? { all_users: true, user_id: null } : {}),
        // owner_id rides beside userId: another name a user id goes by, as unknown to the spec (rule 1 ignores any); and
        // user_id as a list of the id, which a query builder may take as a set of owners where it drops a single value.
        ...(field === 'userId' ? { owner_id: userId, user_id: [userId] } : {}),
      });
      const summaryBody = { per_page: MAX_ROWS_PER_PAGE, ...summary };
      // The run's shared read of the page with include (FIELD-002 and LIST-002 read it too), where include is offered.
      const summarised = 'include' in summary ? t.discover.list(summaryBody) : undefined;
      const [plain, ...answers] = await together([
        // The run's shared read of the page (PAGE-003 reads it too).
        t.discover.list({ per_page: MAX_ROWS_PER_PAGE }),
        ...probes.map((probe) => t.api.list(bodyOf(probe))),
      ]);
      const expected = okRows('C4.9', plain!(), 'POST /artifacts.php');
      // Whether include is answered is FIELD-002's to judge: where the page with include is refused, so may the probe be.
      const summaryAnswer = await summarised;
      const summaryServed = summaryAnswer !== undefined && is2xx(summaryAnswer);
      const withSummary = summaryServed ? okRows('C4.9', summaryAnswer, `POST /artifacts.php ${JSON.stringify(summaryBody)}`) : [];
      const summaryOf = new Map(withSummary.map((r) => [idOf(r.id), r]));
      for (const [i, probe] of probes.entries()) {
        const { userId, field } = probe;
        const ex = answers[i]!();
        const what = `POST /artifacts.php ${JSON.stringify(bodyOf(probe))}`;
        ensureNo5xx('C7.2', ex, what);
        // user_id is the spec's own name and must be ignored; other spellings are unknown fields, which a strict server may
        // refuse (400 or 422), and all_users reads as a request to enumerate users, which §1 and §5 answer with 403.
        if (field !== 'user_id' && [400, 422, 403].includes(ex.response.status)) continue;
        if (field === 'user_id' && summaryAnswer !== undefined && !summaryServed && !is2xx(ex)) continue;
        ensure('C4.9', is2xx(ex), `${what}: a user id must be ignored, not refused (got ${ex.response.status})`, ex);
        const got = okRows('C4.9', ex, what);
        // Judged against the same body without the user id: the probe with include against the page with include, whose
        // items of equal titles may come in another order than without include (another query; §4 states no tie order).
        const [baseline, baselineBody] = field === 'user_id' && summaryServed ? [withSummary, summaryBody] : [expected, { per_page: MAX_ROWS_PER_PAGE }];
        ensure(
          'C4.9',
          JSON.stringify(got.map((r) => r.id)) === JSON.stringify(baseline.map((r) => r.id)),
          `${what} returned different rows than POST /artifacts.php ${JSON.stringify(baselineBody)}, the same body without ${field}=${userId}${field === 'userId' ? `, owner_id=${userId} and user_id=[${userId}]` : field === 'user' ? ', all_users and user_id' : ''} (${got.length} vs ${baseline.length})`,
          ex,
        );
        if (field !== 'user_id' || !('include' in summary)) continue;
        const differing = got.find((r) => {
          const own = summaryOf.get(idOf(r.id));
          return own !== undefined && (asJson(r.plays) !== asJson(own.plays) || asJson(r.last_use) !== asJson(own.last_use));
        });
        const own = summaryOf.get(idOf(differing?.id));
        ensure(
          'C4.9',
          differing === undefined,
          `${what} gives item ${asText(differing?.id)} plays ${asJson(differing?.plays)} and last_use ${asJson(differing?.last_use)}, but POST /artifacts.php ${JSON.stringify(summaryBody)} gives it plays ${asJson(own?.plays)} and last_use ${asJson(own?.last_use)}: the user id is ignored, the key's own user's uses are counted`,
          ex,
        );
      }
    },
  );

  check(
    {
      id: 'SCOPE-002',
      level: 'MUST',
      sections: ['§4', '§5'],
      title: 'user_id in the query string of any read changes nothing, also beside all_users=1 on the types, upcoming and players reads',
      accepts: [
        'user_id or all_users refused as an unknown query parameter (any 4xx)',
        'envelopes that differ between two reads (e.g. a time they were served): only the rows or the record are compared',
      ],
    },
    async (t) => {
      const item = await t.discover.anyItem();
      // The item of the latest use (USES-003, CAT-003 and ERR-003 read its uses too).
      const used = await t.discover.usesSampleItem();
      // Endpoints without paging answer the baseline from the run's shared read.
      const reads: { name: string; send: (extra: Record<string, string | number>) => Promise<Exchange>; baseline?: () => Promise<Exchange> }[] = [
        { name: 'GET /artifacts.php', send: (q) => t.api.get('/artifacts.php', q), baseline: () => t.discover.list(undefined) },
        // One item's uses: the same question as for the whole list, at a size that does not grow with it.
        {
          name: 'GET /uses.php',
          send: (q) => t.api.uses(used !== undefined ? { artifact_id: used, ...q } : q),
          ...(used !== undefined ? { baseline: () => t.discover.usesOf(used) } : {}),
        },
        {
          name: 'GET /proposals.php',
          send: (q) => t.api.proposals({ include_other: 1, ...q }),
          baseline: () => t.discover.shared('GET /proposals.php?include_other=1'),
        },
        // These two with a user id are the run's shared reads (SCOPE-007 may draw them too).
        {
          name: 'GET /types.php',
          send: (q) => (q.user_id !== undefined ? t.discover.withUserId('GET /types.php', q.user_id) : t.api.types('primary', q)),
          baseline: () => t.discover.shared('GET /types.php'),
        },
        {
          name: 'GET /upcoming-interactions.php',
          send: (q) => (q.user_id !== undefined ? t.discover.withUserId('GET /upcoming-interactions.php', q.user_id) : t.api.upcoming('primary', q)),
          baseline: () => t.discover.shared('GET /upcoming-interactions.php'),
        },
      ];
      if (item)
        reads.push({ name: 'GET /artifact.php', send: (q) => t.api.item(item.id as string, 'primary', q), baseline: () => t.discover.item(item.id as string) });
      if (profiles[t.target.profile].has('players'))
        // With a user id, the run's shared read (SCOPE-007 may draw it too).
        reads.push({
          name: 'GET /players.php',
          send: (q) => (q.user_id !== undefined ? t.discover.withUserId('GET /players.php', q.user_id) : t.api.players('primary', q)),
          baseline: () => t.discover.shared('GET /players.php'),
        });
      const userIds = await foreignUserIds(t);
      await Promise.all(
        reads.map(async (read) => {
          const [first, ...answers] = await together([(read.baseline ?? (() => read.send({})))(), ...userIds.map((userId) => read.send({ user_id: userId }))]);
          const baseline = shown(first!());
          for (const [i, userId] of userIds.entries()) {
            const ex = answers[i]!();
            const asked = `GET ${new URL(ex.request.url).pathname}${new URL(ex.request.url).search}`;
            ensureNo5xx('C7.2', ex, asked);
            // A parameter the spec does not name for these reads may be refused; what must not happen is another answer.
            if (is4xx(ex)) continue;
            ensure('C5.2', shown(ex) === baseline, `${asked} answered differently than without user_id`, ex);
          }
        }),
      );
    },
  );

  check(
    {
      id: 'SCOPE-003',
      level: 'MUST',
      sections: ['§4', '§5'],
      keptBlind: true,
      title:
        "another user's items cannot be read with the first key, also right after their owner read one and with an id zero-padded, nor the first user's with the second key",
      needsOtherKey: true,
      accepts: ["any status for another user's id (it is not shown, §7), 200 with null or an empty envelope included, as long as the record is not in it"],
    },
    async (t) => {
      // A lean (budgeted) run asks for two of them.
      const foreign = coveringTraits(await foreignItems(t), t.target.lean ? 2 : 5);
      if (foreign.length === 0) t.skip('the second user has no item whose id the first user lacks');
      // The first foreign item is also asked for with a user id beside it: the key still decides whose item is read.
      // The last of them (of several) is asked for zero-padded where ids are digits: the same id to a server that reads it as
      // a number, and an ownership check that compares the text sent with the stored id must still not let it through.
      const padded = (row: Row, i: number) => (i > 0 && i === foreign.length - 1 && /^\d+$/.test(String(row.id)) ? `0${String(row.id)}` : String(row.id));
      const probes: { row: Row; sentId: string; extra: Record<string, string | number> }[] = [
        ...foreign.map((row, i) => ({ row, sentId: padded(row, i), extra: {} })),
        ...(await foreignUserIds(t)).map((userId) => ({ row: foreign[0]!, sentId: String(foreign[0]!.id), extra: { user_id: userId } })),
      ];
      // Its owner reads the first one first (nothing is judged of that read): a record kept from it for later reads
      // must not reach another key (a cache keyed by the item id alone).
      // The run's shared read (SCOPE-005 compares that record with the item's row under fields "collection").
      await t.discover.item(foreign[0]!.id as string, 'other');
      // And the other way round: the first user's first item (by the walk) that the second user lacks, read with the second
      // key (§4: every key reads its own user's items only; a check of ownership that holds one way only shows here).
      const theirs = new Set((await t.discover.collection('other')).ids);
      const mine = (await t.discover.collection()).rows.find((r) => idOf(r.id) !== undefined && !theirs.has(idOf(r.id)!) && typeof r.Title === 'string');
      const [exchanges, reverse] = await Promise.all([
        Promise.all(probes.map(({ sentId, extra }) => t.api.item(sentId, 'primary', extra))),
        mine && !t.target.lean ? t.api.item(mine.id as string, 'other') : undefined,
      ]);
      if (mine && reverse) {
        const what = `GET /artifact.php?id=${asText(mine.id)} with the second key (an item of the first user)`;
        ensureNo5xx('C7.2', reverse, what);
        const record = recordOf(reverse.response.json, String(mine.id));
        const leaked = is2xx(reverse) && (record?.Title === mine.Title || reverse.response.text.includes(String(mine.Title)));
        ensure('C5.2', !leaked, `${what} returned the first user's item "${asText(mine.Title)}" (status ${reverse.response.status})`, reverse);
      }
      exchanges.forEach((ex, i) => {
        const { row, sentId, extra } = probes[i]!;
        const what = `GET /artifact.php?${new URLSearchParams({ id: sentId, ...extra } as Record<string, string>).toString()}`;
        ensureNo5xx('C7.2', ex, `${what} (another user's item)`);
        const record = recordOf(ex.response.json, String(row.id));
        const leaked = is2xx(ex) && (record?.Title === row.Title || ex.response.text.includes(String(row.Title)));
        ensure('C5.2', !leaked, `${what} returned another user's item "${asText(row.Title)}" (status ${ex.response.status})`, ex);
      });
    },
  );

  check(
    {
      id: 'SCOPE-004',
      level: 'MUST',
      sections: ['§4', '§5'],
      keptBlind: true,
      title:
        "another user's uses are not listed for the first key (under artifact_id, also beside a player_id of theirs), and their owner still gets them right after (those of its item with the most uses), with the players and the participants' names its unfiltered list gives",
      needsOtherKey: true,
      accepts: ["an empty list or any 4xx for another user's artifact_id", 'the item a use names under any field, as an id or a nested item'],
    },
    async (t) => {
      const foreign = await foreignItems(t);
      if (foreign.length === 0) t.skip('the second user has no item whose id the first user lacks');
      const foreignIds = new Set(foreign.map((r) => idOf(r.id)));
      const { rows: otherUses } = await t.discover.uses('other');
      const otherField = itemFieldOf(otherUses, new Set((await t.discover.collection('other')).ids), { ownId: true });
      // The foreign item with the most uses (the first of them): its owner's answer under artifact_id lists them all (§4),
      // however many, so an answer cut to a few recent uses shows there.
      const counted = new Map<string, number>();
      for (const u of otherUses) {
        const id = otherField === undefined ? undefined : itemRefOf(u[otherField]);
        if (id && foreignIds.has(id)) counted.set(id, (counted.get(id) ?? 0) + 1);
      }
      const usedForeign = [...counted].reduce<[string, number] | undefined>(
        (best, next) => (best === undefined || next[1] > best[1] ? next : best),
        undefined,
      )?.[0];
      const probeId = usedForeign ?? idOf(foreign[0]!.id)!;
      // Beside it, the same item with a player who took part in its uses (a player of the other household): the two
      // parameters together still read the key's own user's uses only (§4, §5).
      const theirPlayer =
        usedForeign !== undefined && otherField !== undefined
          ? otherUses.filter((u) => itemRefOf(u[otherField]) === usedForeign).flatMap((u) => playerIdsOf(u).map(String))[0]
          : undefined;
      const queries: Record<string, string>[] = [
        { artifact_id: probeId },
        ...(theirPlayer === undefined ? [] : [{ artifact_id: probeId, player_id: theirPlayer }]),
      ];
      const answers = await Promise.all(queries.map((query) => t.api.uses(query)));
      for (const [i, filtered] of answers.entries()) {
        const what = `GET /uses.php?${new URLSearchParams(queries[i]!).toString()}`;
        ensureNo5xx('C7.2', filtered, `${what} (another user's item)`);
        if (is2xx(filtered)) {
          const rows = okRows('C5.2', filtered, what);
          ensure('C5.2', rows.length === 0, `${what} listed ${rows.length} use(s) of another user's item`, filtered);
        } else {
          ensure('C5.2', is4xx(filtered), `${what}: expected an empty list or a 4xx, got ${filtered.response.status}`, filtered);
        }
      }
      // Right after the first key asked for it, the item's owner asks for the same used item: it gets that item's uses,
      // as its own unfiltered list names them (§4: artifact_id lists the item's uses; §5: each key its own user's data),
      // not what the first key was answered (an answer kept per item id, whoever asked).
      if (usedForeign !== undefined && otherField !== undefined) {
        const expected = otherUses.filter((u) => itemRefOf(u[otherField]) === usedForeign).length;
        const owned = await t.api.uses({ artifact_id: usedForeign }, 'other');
        const what = `GET /uses.php?artifact_id=${usedForeign} with the second key (its own item), right after the first key asked for it`;
        ensureNo5xx('C7.2', owned, what);
        const got = okRows('C5.2', owned, what);
        ensure(
          'C5.2',
          got.length === expected,
          `${what} listed ${got.length} use(s), but the second user's unfiltered GET /uses.php names that item in ${expected}: the owner's key reads its own item's uses`,
          owned,
        );
        // They are the same uses of the owner's own data, so they carry the same players (§2: each use carries players, the
        // ids of who took part; §4: artifact_id only selects uses; §5: the key reads its user's data), compared as the
        // item's uses' player sets, whatever the uses' ids.
        const playerSets = (uses: readonly Row[]) => JSON.stringify(uses.map((u) => JSON.stringify([...new Set(playerIdsOf(u).map(String))].sort())).sort());
        const unfiltered = otherUses.filter((u) => itemRefOf(u[otherField]) === usedForeign);
        ensure(
          'C5.2',
          playerSets(got) === playerSets(unfiltered),
          `${what}: the uses carry players ${playerSets(got)}, but the same item's uses in the second user's unfiltered GET /uses.php carry ${playerSets(unfiltered)}`,
          owned,
        );
        // And the same people by name: each use's participants (§2: id, FirstName, LastName), in any order, as the item's
        // uses in that unfiltered list name them (a participant is the same record whichever parameter chose its use).
        const person = (p: unknown) => (isObject(p) ? `${asText(idOf(p.id))} ${asJson(p.FirstName)} ${asJson(p.LastName)}` : asJson(p));
        const people = (uses: readonly Row[]) =>
          uses
            .map((u) => `[${(Array.isArray(u.participants) ? (u.participants as unknown[]) : []).map(person).sort().join(', ')}]`)
            .sort()
            .join('; ');
        ensure(
          'C5.2',
          people(got) === people(unfiltered),
          `${what}: the uses carry participants ${people(got)}, but the same item's uses in the second user's unfiltered GET /uses.php carry ${people(unfiltered)}`,
          owned,
        );
      }
      const { rows: own, exchange: all } = await t.discover.uses();
      // Identical records carry the same id (or none): only uses whose ids meet are compared whole.
      const idKey = (u: Row) => String(idOf(u.id));
      const otherIds = new Set(otherUses.map(idKey));
      const candidates = own.filter((u) => otherIds.has(idKey(u)));
      const candidateIds = new Set(candidates.map(idKey));
      const otherRecords = new Set(otherUses.filter((u) => candidateIds.has(idKey(u))).map((u) => JSON.stringify(u)));
      const shared = candidates.filter((u) => otherRecords.has(JSON.stringify(u)));
      ensure('C5.2', shared.length === 0, `GET /uses.php for the first key lists ${shared.length} use record(s) identical to the second user's`, all);
    },
  );

  check(
    {
      id: 'SCOPE-005',
      level: 'MUST',
      sections: ['§4', '§5'],
      keptBlind: true,
      title:
        "another user's items never appear in the first user's list, nor the first user's in the second user's GET listing, which holds 50 rows (or the whole collection when smaller) and whose has_more says whether the second user's collection holds more; the second key's per_page 200 is honoured (with fields \"collection\", whose rows of that user's first item and of its item of a type only it has agree with their records on which of the eight fields are known); both pages name each item's title, type and labels as that user's cursor walk does",
      needsOtherKey: true,
      accepts: [
        "ids shared between users (per-user ids): an item counts as the other's only with the same id and title",
        'has_more as a boolean or 0/1, at the top level or nested',
        'any type and unit for the eight fields of fields "collection": only whether a value is known (not null, an empty text, absent or zero) is compared with the record, where both carry the field',
      ],
    },
    async (t) => {
      const [own, other] = await Promise.all([t.discover.collection('primary'), t.discover.collection('other')]);
      if (other.rows.length === 0) t.skip('the second user has no items');
      const foreign = new Set(other.rows.map((r) => `${idOf(r.id)}\u0000${asText(r.Title)}`));
      const leaked = own.rows.filter((r) => foreign.has(`${idOf(r.id)}\u0000${asText(r.Title)}`));
      // The evidence is the first user's page that listed the first leaked item.
      const page = own.pages.find((p) => p.rows.includes(leaked[0]!))?.exchange;
      ensure('C5.2', leaked.length === 0, `the first user's list holds ${leaked.length} of the second user's items (e.g. id ${asText(leaked[0]?.id)})`, page);
      // The other way round through the GET listing (§4: a GET with no body lists page 1 for the key): the second key's page 1
      // holds none of the first user's items (an item counts as the first user's only where the second user's walk lacks it).
      const mine = new Set(own.rows.map((r) => `${idOf(r.id)}\u0000${asText(r.Title)}`));
      // Beside it, the second key's page 1 at the largest page size (§4 table, §8: per_page up to 200, whatever the key).
      // With fields "collection" where offered (it only adds the eight fields to each row, §4 table): the row of the second
      // user's first item (whose record SCOPE-003 has its owner read, the run's shared read) and that record describe the
      // same item (§2), whoever's key reads it, so they agree on which of the eight fields are known. A lean run reads no record.
      const withFields = profiles[t.target.profile].has('list-fields');
      const widest = { per_page: MAX_ROWS_PER_PAGE, ...(withFields ? { fields: 'collection' } : {}) };
      // And the second user's item of a type none of the first user's items has (whose record READ-001 reads, the run's
      // shared read): a row built from the first user's types shows there.
      const first = withFields && !t.target.lean ? (await foreignItems(t))[0] : undefined;
      const typed = withFields && !t.target.lean ? await foreignTyped(t) : undefined;
      const [viaGet, wide, firstRecord, typedRecord] = await Promise.all([
        t.api.list(undefined, 'other'),
        t.api.list(widest, 'other'),
        first ? t.discover.record(idOf(first.id)!, 'other') : undefined,
        typed && idOf(typed.id) !== idOf(first?.id) ? t.discover.record(idOf(typed.id)!, 'other') : undefined,
      ]);
      // Whether that GET answers with a page at all is PAGE-008's to judge (for the first key): here only what it holds.
      const theirs = is2xx(viaGet) ? (rowsOf(viaGet.response.json) ?? []) : [];
      const wrong = theirs.filter((r) => mine.has(`${idOf(r.id)}\u0000${asText(r.Title)}`) && !foreign.has(`${idOf(r.id)}\u0000${asText(r.Title)}`));
      ensure(
        'C5.2',
        wrong.length === 0,
        `GET /artifacts.php with the second key lists ${wrong.length} of the first user's items (e.g. id ${asText(wrong[0]?.id)}): a key reads its own user's items`,
        viaGet,
      );
      // A GET with no body lists page 1 (§4), at the default page size of 50 (§4 table, §8) for any key: as many of the
      // second user's items as its walk holds, up to 50 (PAGE-001 and PAGE-008 judge the first key's).
      const byDefault = Math.min(DEFAULT_ROWS_PER_PAGE, other.rows.length);
      ensure(
        'C4.3',
        !is2xx(viaGet) || theirs.length === byDefault,
        `GET /artifacts.php with the second key lists ${theirs.length} rows; a GET with no body lists page 1, and the default page size is ${DEFAULT_ROWS_PER_PAGE} (that user's cursor walk holds ${other.rows.length} items, so ${byDefault} were due)`,
        viaGet,
      );
      // The largest page size holds for the second key too: as many of that user's items as its walk holds, up to 200.
      const wideLabel = `POST /artifacts.php ${JSON.stringify(widest)} with the second key`;
      const wideRows = okRows('C4.3', wide, wideLabel);
      const upTo = Math.min(MAX_ROWS_PER_PAGE, other.rows.length);
      ensure(
        'C4.3',
        wideRows.length === upTo,
        `${wideLabel} returned ${wideRows.length} rows; per_page is honoured up to ${MAX_ROWS_PER_PAGE} for every key (that user's cursor walk holds ${other.rows.length} items, so ${upTo} were due)`,
        wide,
      );
      // One item, one title, one type name and one set of labels (§2), whatever the mode that lists it: the second key's
      // page rows (by title) name what that user's cursor walk names for the same item. A type blank in one and named in
      // the other differs too (§4 rule 3: every row carries type, the item type name).
      const walked = new Map(other.rows.map((r) => [idOf(r.id), r]));
      const named = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
      const differs = (r: Row, w: Row): string | undefined =>
        r.Title !== w.Title
          ? 'Title'
          : named(r.type) !== named(w.type) && (named(r.type) !== undefined || named(w.type) !== undefined)
            ? 'type'
            : Array.isArray(r.tags) && Array.isArray(w.tags) && labelSet(r.tags) !== labelSet(w.tags)
              ? 'tags'
              : undefined;
      for (const [rows, exchange, label] of [
        [wideRows, wide, wideLabel],
        [theirs, viaGet, 'GET /artifacts.php with the second key'],
      ] as const) {
        const unlike = rows.find((r) => {
          const w = walked.get(idOf(r.id));
          return w !== undefined && differs(r, w) !== undefined;
        });
        const w = unlike ? walked.get(idOf(unlike.id))! : undefined;
        const field = unlike && w ? differs(unlike, w)! : '';
        ensure(
          'C2.1',
          unlike === undefined,
          `${label}: row ${asJson(unlike?.id)} shows ${field} ${asJson(unlike?.[field])}, but that user's cursor walk shows ${asJson(w?.[field])} for the same item (§2: an item has one title, one type and one set of labels, whichever way it is listed)`,
          exchange,
        );
      }
      for (const [item, record] of [
        [first, firstRecord],
        [typed, typedRecord],
      ] as const) {
        const row = item ? wideRows.find((r) => idOf(r.id) === idOf(item.id)) : undefined;
        if (!item || !record || !row) continue;
        const unlike = COLLECTION_FIELDS.filter((name) => name in record && name in row && knownFieldValue(record[name]) !== knownFieldValue(row[name]));
        ensure(
          'C2.4',
          unlike.length === 0,
          `GET /artifact.php?id=${idOf(item.id)} with the second key: ${unlike.map((name) => `${name} is ${asJson(record[name])}`).join(', ')}, but its row in ${wideLabel} shows ${unlike.map((name) => `${name} ${asJson(row[name])}`).join(', ')}: the same item's value known in one and not in the other (fields "collection" adds the item's own MnP … Acq to its row, whoever's key reads it)`,
          wide,
        );
      }
      // And it says whether another page exists (§4 rule 2), as page 1 of that key's own collection: where the second
      // user's walk holds more items than this page, another page exists, so has_more is true (PAGE-008 judges the first key's).
      if (!is2xx(viaGet) || theirs.length === 0 || theirs.length >= other.rows.length) return;
      const hasMore = isObject(viaGet.response.json) ? flag(envelopeField(viaGet.response.json, 'has_more')) : undefined;
      ensure(
        'C4.4',
        hasMore === true,
        `GET /artifacts.php with the second key lists ${theirs.length} of that user's ${other.rows.length} items (its cursor walk), yet has has_more ${asJson(isObject(viaGet.response.json) ? envelopeField(viaGet.response.json, 'has_more') : undefined)}: another page exists, and has_more says so`,
        viaGet,
      );
    },
  );

  check(
    {
      id: 'SCOPE-006',
      level: 'MUST',
      sections: ['§3', '§5'],
      title: "the kept toggle cannot change another user's item, even when its body and query string name that user, nor with its id sent as a digit string",
      needsOtherKey: true,
      toggles: true,
      lane: 'second-user',
      accepts: [
        "any answer but a 5xx, a 2xx included, as long as the other user's item keeps its value (the status for an id the key's user lacks is not shown, §7)",
        'the single-item read bare or inside an envelope',
        "the body's and the query's user_id (the second user's id, where its household names exactly one user the first user's does not; none sent otherwise) refused or ignored, as long as the item keeps its value",
      ],
    },
    async (t) => {
      const target = t.need((await foreignItems(t))[0], 'the second user has no item whose id the first user lacks');
      const id = String(target.id);
      const value = (await readKept(t.api, id, 'other')).value;
      const flipped = value === 1 ? 0 : 1;
      // The body names the item's owner too (a user id the second user's household gives, and the first user's does not):
      // the key, not the body, decides whose item is written (§5), as a user id in a list body is ignored (§4 rule 1).
      // Only where that household names exactly one such user: a household may record a friend who uses the service too,
      // and a server that wrongly honours the body would then write the bystander's data, which no restore here covers.
      const candidates = await ownerIds(t);
      const userId = candidates.length === 1 ? candidates[0] : undefined;
      // The same user id goes in the query string too: a handler that reads request values from query and body alike
      // (PHP's $_REQUEST) must not let either pick the owner.
      const body = { id: target.id, is_kept: flipped, ...(userId === undefined ? {} : { user_id: userId }) };
      const query = userId === undefined ? undefined : { user_id: userId };
      const ex = await t.kept.set(id, flipped, { as: 'primary', owner: 'other', body, ...(query ? { query } : {}) });
      let sent = `POST /artifact-kept.php${query ? `?user_id=${String(userId)}` : ''} ${JSON.stringify(body)}`;
      ensureNo5xx('C7.2', ex, `${sent} on another user's item`);
      // Where the id is served as a number, the same toggle then names it as a digit string: an ownership check that
      // compares typed values (a number against a string) must not let the write through either (§5).
      if (typeof target.id === 'number') {
        const byText = { ...body, id: String(target.id) };
        const again = await t.kept.set(id, flipped, { as: 'primary', owner: 'other', body: byText, ...(query ? { query } : {}) });
        ensureNo5xx('C7.2', again, `POST /artifact-kept.php ${JSON.stringify(byText)} on another user's item`);
        sent += `, then ${JSON.stringify(byText)}`;
      }
      const after = (await readKept(t.api, id, 'other')).value;
      ensure('C5.2', after === value, `another user's item ${id} went from is_kept=${value} to ${after} after the first key sent ${sent}`, ex);
    },
  );
});

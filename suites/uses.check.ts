import {
  describe,
  check,
  ensure,
  ensureNo5xx,
  idOf,
  is2xx,
  is4xx,
  isObject,
  itemFieldOf,
  itemRefOf,
  okRows,
  participantIdsOf,
  playerIdsOf,
  profiles,
  rowsOf,
  shapeOf,
  together,
  type CheckContext,
  type Exchange,
  type Row,
  asText,
  asJson,
  isKeptStateField,
  isModificationStamp,
  sameLooseValue,
} from '../src/harness/index.ts';

/** Every use of the user: the run's one shared read of GET /uses.php. */
async function allUses(t: CheckContext): Promise<Row[]> {
  return (await t.discover.uses()).rows;
}

/** Uses the player_id answers of USES-004 may carry together, so that a large history stays bounded. */
const PLAYER_SAMPLE_USES = 20_000;

/** A use's value with its lists as multisets: the lists of a use (players, participants) have no stated order. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0))
    : isObject(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical(value[k])]),
        )
      : value;

/** How to tell uses apart: their own id when every use has a distinct one, else the whole record. */
function useKey(all: readonly Row[]): (use: Row) => string {
  const ids = all.map((u) => idOf(u.id));
  if (ids.every((id) => id !== undefined) && new Set(ids).size === ids.length) return (use) => `id ${idOf(use.id)}`;
  return (use) => JSON.stringify(canonical(use));
}

/** Multiset difference of two lists of uses under `key`. */
function difference(expected: readonly Row[], got: readonly Row[], key: (use: Row) => string): { missing: string[]; extra: string[] } {
  const left = new Map<string, number>();
  for (const k of expected.map(key)) left.set(k, (left.get(k) ?? 0) + 1);
  const extra: string[] = [];
  for (const k of got.map(key)) {
    const count = left.get(k) ?? 0;
    if (count > 0) left.set(k, count - 1);
    else extra.push(k);
  }
  return { missing: [...left].flatMap(([k, count]) => Array<string>(count).fill(k)), extra };
}

const playersOf = (use: Row): string[] => playerIdsOf(use).map((p) => p ?? '?');

/** What breaks §2's shape of a use (players: distinct ids; participants: id, FirstName, LastName), or undefined. */
function useProblemOf(use: Row): string | undefined {
  const where = () => `use ${asText(use.id ?? JSON.stringify(use).slice(0, 60))}`;
  if (!(Array.isArray(use.players) && use.players.every((p) => idOf(p) !== undefined)))
    return `${where()}: players is ${asJson(use.players)}, not a list of player ids`;
  const players = playersOf(use);
  if (new Set(players).size !== players.length) return `${where()}: players lists a player twice (${players.join(', ')}); it is deduplicated`;
  if (!Array.isArray(use.participants)) return `${where()}: participants is ${asJson(use.participants)}, not a list`;
  const name = (p: Record<string, unknown>, field: string) => field in p && (typeof p[field] === 'string' || p[field] === null);
  const bad = (use.participants as unknown[]).find((p) => !(isObject(p) && idOf(p.id) !== undefined && name(p, 'FirstName') && name(p, 'LastName')));
  return bad === undefined ? undefined : `${where()}: participant ${JSON.stringify(bad)} lacks id, FirstName or LastName`;
}

/** Where a use's players are not exactly its participants' distinct ids (§2), the message; else undefined. */
function playersMismatchOf(use: Row): string | undefined {
  const players = new Set(playersOf(use));
  const participants = new Set(participantIdsOf(use));
  const same = players.size === participants.size && [...players].every((p) => participants.has(p));
  return same ? undefined : `use ${asText(use.id)}: players ${[...players].join(', ')} differ from the participants' ids ${[...participants].join(', ')}`;
}

/**
 * Each use of a filtered answer names the same people as that use in the unfiltered list (matched by its own id, where
 * every use has a distinct one): a participant is the same record whichever parameter chose its use (§2 Use, §4). And it
 * carries the same values in the other fields both answers carry.
 */
function asListed(got: readonly Row[], listed: readonly Row[], label: string, listedLabel: string, ex: Exchange): void {
  const ids = listed.map((u) => idOf(u.id));
  if (ids.some((id) => id === undefined) || new Set(ids).size !== ids.length) return;
  const byId = new Map(listed.map((u) => [idOf(u.id), u]));
  const person = (p: unknown) => (isObject(p) ? `${asText(idOf(p.id))} ${asJson(p.FirstName)} ${asJson(p.LastName)}` : asJson(p));
  const people = (u: Row) => (Array.isArray(u.participants) ? (u.participants as unknown[]).map(person).sort().join(', ') : asJson(u.participants));
  const unlike = got.find((u) => byId.has(idOf(u.id)) && people(u) !== people(byId.get(idOf(u.id))!));
  ensure(
    'C2.9',
    unlike === undefined,
    `${label}: use ${asText(unlike?.id)} names participants [${unlike ? people(unlike) : ''}], but ${listedLabel} names [${unlike ? people(byId.get(idOf(unlike.id))!) : ''}] for it`,
    ex,
  );
  // And every other field both answers carry for the same use (its date, its item, whatever their names: §2 shows none),
  // compared loosely: a parameter selects recorded uses (§4), it does not rewrite them. A kept flag or a modification
  // stamp a use may carry of its item is left out: the run's toggles move them between the two reads.
  const differing = (u: Row) => {
    const whole = byId.get(idOf(u.id));
    return (
      whole &&
      Object.keys(u).find((f) => f !== 'participants' && f in whole && !isKeptStateField(f) && !isModificationStamp(f) && !sameLooseValue(u[f], whole[f]))
    );
  };
  const changed = got.find((u) => differing(u) !== undefined);
  const field = changed && differing(changed);
  ensure(
    'C4.15',
    changed === undefined,
    `${label}: use ${asText(changed?.id)} carries ${field} ${asJson(changed?.[field ?? ''])}, but ${listedLabel} carries ${asJson(byId.get(idOf(changed?.id))?.[field ?? ''])} for it: a parameter of GET /uses.php selects recorded uses, it does not change them (§4)`,
    ex,
  );
}

/** Every use of a filtered answer carries what §2 says every use carries, as in the unfiltered list (§4: each use carries them). */
function ensureUseShapes(got: readonly Row[], label: string, ex: Exchange): void {
  for (const use of got) {
    const problem = useProblemOf(use) ?? playersMismatchOf(use);
    ensure('C2.9', problem === undefined, `${label}: ${problem} (§2, §4: every use carries players and participants, under any parameter)`, ex);
  }
}

describe('uses (§2 Use, §4 GET /uses.php)', () => {
  check(
    {
      id: 'USES-001',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title: 'every use carries players (distinct ids) and participants (id, FirstName, LastName)',
      accepts: [
        'any envelope or a bare list',
        'ids as numbers or strings',
        'a name served as null',
        'fields the spec does not list (the item reference and date under any name)',
      ],
    },
    async (t) => {
      const uses = await allUses(t);
      t.need(uses[0], 'no use is recorded');
      for (const use of uses) {
        const problem = useProblemOf(use);
        ensure('C2.9', problem === undefined, problem!);
      }
      // A participant is a player (its id is among the use's players, §2): where the household lists that
      // player with names, the participant carries the same first and last name, not the display name.
      if (!profiles[t.target.profile].has('players')) return;
      const household = await t.discover.shared('GET /players.php');
      const players = new Map(((is2xx(household) ? rowsOf(household.response.json) : undefined) ?? []).map((p) => [idOf(p.id), p] as const));
      const named = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
      for (const use of uses)
        for (const participant of (use.participants as Row[]).filter(isObject)) {
          const player = players.get(idOf(participant.id));
          for (const field of ['FirstName', 'LastName']) {
            const [stated, listed] = [participant[field], player?.[field]];
            ensure(
              'C2.9',
              !named(stated) || !named(listed) || stated.trim() === listed.trim(),
              `use ${asText(use.id)}: participant ${asText(participant.id)} carries ${field} ${asJson(stated)}, but GET /players.php lists that player with ${field} ${asJson(listed)}`,
              household,
            );
          }
        }
    },
  );

  check(
    {
      id: 'USES-002',
      level: 'MUST',
      sections: ['§2'],
      keptBlind: true,
      title: "a use's players are exactly the distinct ids of its participants",
      accepts: ['any order of players'],
    },
    async (t) => {
      // The run's read of every use: its exchange is the evidence of a failure.
      const { rows: uses, exchange } = await t.discover.uses();
      t.need(uses[0], 'no use is recorded');
      for (const use of uses) {
        const mismatch = playersMismatchOf(use);
        ensure('C2.9', mismatch === undefined, mismatch!, exchange);
      }
    },
  );

  check(
    {
      id: 'USES-003',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title:
        'artifact_id returns exactly the uses of that item, each carrying players and participants as in §2, and the values the list of every use shows for it',
      accepts: [
        'fields an answer leaves out or adds: only fields both answers carry for a use are compared, loosely (a number and its text, a date and that date at midnight, lists in any order)',
        'the item a use names under any field, as an id or a nested item',
        'any order of uses',
        'uses told apart by their own ids, or whole when they carry none (their lists, players and participants, in any order)',
      ],
    },
    async (t) => {
      const [uses, { ids }] = await Promise.all([allUses(t), t.discover.collection()]);
      const field = t.need(
        itemFieldOf(uses, new Set(ids), { ownId: true }),
        `no use is recorded, or the uses name their item in no recognisable field (a use: ${shapeOf(uses[0])})`,
      );
      const byItem = new Map<string, Row[]>();
      for (const use of uses) byItem.set(itemRefOf(use[field])!, [...(byItem.get(itemRefOf(use[field])!) ?? []), use]);
      // The items with most uses first, ties by id (one in a lean, budgeted run): the items FIELD-003 reads the uses of
      // too, so that the run reads each once. And one item with none (its filtered list must be empty).
      const used = [...byItem.keys()]
        .sort((a, b) => byItem.get(b)!.length - byItem.get(a)!.length || a.localeCompare(b, 'en', { numeric: true }))
        .slice(0, t.target.lean ? 1 : 5);
      // And the item of the latest use: a date cut-off (today, a time zone) shows first on the newest use (CAT-003,
      // ERR-003 and SCOPE-002 read its uses too).
      const newest = t.target.lean ? undefined : await t.discover.newestUsedItem();
      // The unused item of least id: the item without uses FIELD-003 reads too.
      const unused = ids.filter((id) => !byItem.has(id)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))[0];
      const sample = [...used, ...(newest === undefined || used.includes(newest) ? [] : [newest]), ...(unused === undefined ? [] : [unused])];
      const key = useKey(uses);
      const answers = await Promise.all(sample.map((id) => t.discover.usesOf(id)));
      sample.forEach((id, i) => {
        const label = `GET /uses.php?artifact_id=${id}`;
        const got = okRows('C4.15', answers[i]!, label);
        const stranger = got.find((u) => field in u && itemRefOf(u[field]) !== id);
        ensure('C4.15', !stranger, `${label} returned a use of item ${asText(stranger?.[field])}`, answers[i]);
        ensureUseShapes(got, label, answers[i]!);
        asListed(got, uses, label, 'GET /uses.php without a parameter', answers[i]!);
        const expected = byItem.get(id) ?? [];
        const { missing, extra } = difference(expected, got, key);
        ensure(
          'C4.15',
          missing.length === 0 && extra.length === 0,
          `${label} returned ${got.length} use(s); the unfiltered list holds ${expected.length} for that item (${missing.length} of them missing, ${extra.length} returned that are not among them${missing[0] ? `, e.g. missing ${missing[0]}` : extra[0] ? `, e.g. extra ${extra[0]}` : ''})`,
          answers[i],
        );
      });
    },
  );

  check(
    {
      id: 'USES-004',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title:
        "player_id keeps exactly the uses the player took part in (one whose name holds a letter outside ASCII and the one with the highest id among those asked, where they took part; none for another household's player, nor for an id no player has that begins like one who took part; the second key's too), each carrying players and participants as in §2 and as the unfiltered list names them, with the values it shows for them",
      requires: ['uses-player-filter'],
      accepts: [
        'any order of uses',
        'ids as numbers or strings',
        'a player_id of another household (sent beside the artifact_id of a used item), or one no player has, refused with any 4xx, or answered with no use',
        'fields an answer leaves out or adds: only fields both answers carry for a use are compared, loosely (a number and its text, a date and that date at midnight, lists in any order)',
      ],
    },
    async (t) => {
      const [uses, household] = await Promise.all([allUses(t), t.discover.shared('GET /players.php')]);
      const tookPart = (use: Row): Set<string> => new Set([...playersOf(use), ...participantIdsOf(use)]);
      const counts = new Map<string, number>();
      for (const use of uses) for (const p of tookPart(use)) counts.set(p, (counts.get(p) ?? 0) + 1);
      // The most frequent players (up to three, while their answers stay within a bounded number of
      // uses; at least one; one in a lean run), and one player of the household who took part in nothing.
      const byFrequency = [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)!).slice(0, t.target.lean ? 1 : 3);
      let carried = 0;
      const frequent = byFrequency.filter((p, i) => (carried += counts.get(p)!) <= PLAYER_SAMPLE_USES || i === 0);
      const members = is2xx(household) ? (rowsOf(household.response.json) ?? []) : [];
      const idle = members.map((p) => idOf(p.id)).find((id) => id !== undefined && !counts.has(id));
      // After the most frequent player come a player whose name holds a letter outside ASCII and the player with the highest
      // id (where ids are numbers), where they took part in a use, in the places of the less frequent ones: player_id keeps
      // that player's uses as any other's (§4), whatever letters the name holds and whatever bound a server puts on ids.
      const outsideAscii = (p: Row) => [p.name, p.FirstName, p.LastName].some((n) => typeof n === 'string' && /[^\u0000-\u007f]/u.test(n));
      const accented = members
        .filter(outsideAscii)
        .map((p) => idOf(p.id))
        .find((id) => id !== undefined && counts.has(id) && !frequent.includes(id));
      const memberIds = members.map((p) => idOf(p.id)).filter((id): id is string => id !== undefined);
      const numbered = memberIds.every((id) => /^\d+$/.test(id)) ? memberIds.filter((id) => counts.has(id)) : [];
      const newest = numbered.length === 0 ? undefined : numbered.reduce((a, b) => (Number(b) > Number(a) ? b : a));
      const wanted = [accented, newest].filter((id, i, all): id is string => id !== undefined && all.indexOf(id) === i);
      const head = frequent[0]!;
      const chosen = [head, ...wanted.filter((id) => id !== head), ...frequent.slice(1).filter((id) => !wanted.includes(id))];
      const asked = chosen.slice(0, frequent.length);
      const sample = idle === undefined ? asked : [...asked, idle];
      t.need(sample[0], 'no use names a player and the household lists none');
      // A player of the second user's household (through the second key): not one of this household, so it took
      // part in none of these uses, and player_id must keep none of them (§4), if it is not refused.
      const own = new Set((is2xx(household) ? (rowsOf(household.response.json) ?? []) : []).map((p) => idOf(p.id)));
      const theirs = t.target.keys.other === undefined ? undefined : await t.discover.shared('GET /players.php (second user)');
      const foreign =
        theirs && is2xx(theirs)
          ? (rowsOf(theirs.response.json) ?? []).map((p) => idOf(p.id)).find((id) => id !== undefined && !own.has(id) && !counts.has(id))
          : undefined;
      const key = useKey(uses);
      // player_id beside artifact_id (§4: each keeps only the uses it names): an item whose uses the most
      // frequent player took part in only some of, where the uses name their item in a field told apart.
      const itemField = itemFieldOf(uses, new Set((await t.discover.collection()).ids), { ownId: true });
      const itemOfUse = (use: Row) => (itemField === undefined ? undefined : itemRefOf(use[itemField]));
      const mixedFor = (who: string) =>
        [...new Set(uses.map(itemOfUse))].find(
          (item) =>
            item !== undefined &&
            uses.some((u) => itemOfUse(u) === item && tookPart(u).has(who)) &&
            uses.some((u) => itemOfUse(u) === item && !tookPart(u).has(who)),
        );
      // Preferably a player a use records twice among its participants, with that use's item where the player took part in
      // only some of its uses: the answer's players list them once (§2: players is deduplicated), under both parameters too.
      const twice = uses.flatMap((u) => {
        const ids = participantIdsOf(u);
        const item = itemOfUse(u);
        return ids.filter((id, i) => ids.indexOf(id) !== i && item !== undefined && mixedFor(id) !== undefined).map((id) => ({ id, item: item! }));
      });
      const doubled = twice.find(({ id, item }) => uses.some((u) => itemOfUse(u) === item && !tookPart(u).has(id)));
      const player = doubled?.id ?? sample[0]!;
      const mixedItem = doubled?.item ?? mixedFor(player);
      // The second user's key under player_id too (§4: the key's user's uses the player took part in, whoever the key's
      // user is): the player who took part in most of that user's uses, read from the run's list of every use of it.
      const theirUses = theirs === undefined ? undefined : await t.discover.uses('other').catch(() => undefined);
      const theirCounts = new Map<string, number>();
      for (const use of theirUses?.rows ?? []) for (const p of tookPart(use)) theirCounts.set(p, (theirCounts.get(p) ?? 0) + 1);
      const theirPlayer = [...theirCounts.keys()].sort((a, b) => theirCounts.get(b)! - theirCounts.get(a)! || a.localeCompare(b, 'en', { numeric: true }))[0];
      // The player of the other household goes beside a used item of this user (the mixed one where there is one): it took
      // part in none of that item's uses either, so the answer holds none (a filter that widens an empty answer shows).
      const usedItem = mixedItem ?? uses.map(itemOfUse).find((item) => item !== undefined);
      const strangerQuery = { ...(usedItem === undefined ? {} : { artifact_id: usedItem }), player_id: foreign };
      // An id that only begins like that of a player who took part in a use, which no player of either household has (not in
      // a lean run): player_id names one player (§4), so the answer holds no use, whatever a filter by prefix would find.
      const theirIds = (theirs && is2xx(theirs) ? (rowsOf(theirs.response.json) ?? []) : []).map((p) => idOf(p.id));
      const knownPlayers = new Set([...own, ...theirIds, ...counts.keys()]);
      const prefix = t.target.lean ? undefined : [...counts.keys()].map((id) => id.slice(0, -1)).find((p) => /\d$/.test(p) && !knownPlayers.has(p));
      const [answers, combined, stranger, theirAnswer, prefixed] = await Promise.all([
        Promise.all(sample.map((id) => t.api.uses({ player_id: id }))),
        mixedItem === undefined ? undefined : t.api.uses({ artifact_id: mixedItem, player_id: player }),
        foreign === undefined ? undefined : t.api.uses(strangerQuery),
        theirPlayer === undefined ? undefined : t.api.uses({ player_id: theirPlayer }, 'other'),
        prefix === undefined ? undefined : t.api.uses({ player_id: prefix }),
      ]);
      if (prefixed) {
        const label = `GET /uses.php?player_id=${prefix} (no player has that id; it begins like the id of one who took part)`;
        ensureNo5xx('C7.2', prefixed, label);
        const got = is4xx(prefixed) ? [] : okRows('C4.15', prefixed, label);
        ensure(
          'C4.15',
          got.length === 0,
          `${label} returned ${got.length} use(s), e.g. ${asText(got[0]?.id)}: player_id keeps the uses of the player it names, and no player has that id`,
          prefixed,
        );
      }
      if (theirAnswer && theirUses && theirPlayer !== undefined) {
        const label = `GET /uses.php?player_id=${theirPlayer} with the second user's key`;
        const got = okRows('C4.15', theirAnswer, label);
        ensureUseShapes(got, label, theirAnswer);
        asListed(got, theirUses.rows, label, "the second user's GET /uses.php without a parameter", theirAnswer);
        const expected = theirUses.rows.filter((u) => tookPart(u).has(theirPlayer));
        const { missing, extra } = difference(expected, got, useKey(theirUses.rows));
        ensure(
          'C4.15',
          missing.length === 0 && extra.length === 0,
          `${label} returned ${got.length} use(s); GET /uses.php with that key lists ${expected.length} use(s) player ${theirPlayer} took part in (${missing.length} missing, ${extra.length} not among them): player_id keeps the uses of the key's user that the player took part in`,
          theirAnswer,
        );
      }
      if (stranger && !is4xx(stranger)) {
        const label = `GET /uses.php?${new URLSearchParams(strangerQuery as Record<string, string>).toString()} (a player of the second user's household)`;
        const got = okRows('C4.15', stranger, label);
        ensure(
          'C4.15',
          got.length === 0,
          `${label} returned ${got.length} use(s), e.g. ${asText(got[0]?.id)}, though that player took part in none of this user's uses: player_id keeps only the uses the player took part in`,
          stranger,
        );
      }
      if (combined) {
        const label = `GET /uses.php?artifact_id=${mixedItem}&player_id=${player}`;
        const got = okRows('C4.15', combined, label);
        ensureUseShapes(got, label, combined);
        asListed(got, uses, label, 'GET /uses.php without a parameter', combined);
        const expected = uses.filter((u) => itemOfUse(u) === mixedItem && tookPart(u).has(player));
        const { missing, extra } = difference(expected, got, key);
        ensure(
          'C4.15',
          missing.length === 0 && extra.length === 0,
          `${label} returned ${got.length} use(s); player ${player} took part in ${expected.length} use(s) of item ${mixedItem} (${missing.length} missing, ${extra.length} not among them)`,
          combined,
        );
      }
      // The household's names of each player (the run's shared read): a participant carries its player's names (§2 Use).
      const listed = new Map(((is2xx(household) ? rowsOf(household.response.json) : undefined) ?? []).map((p) => [idOf(p.id), p] as const));
      const named = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
      sample.forEach((id, i) => {
        const label = `GET /uses.php?player_id=${id}`;
        const got = okRows('C4.15', answers[i]!, label);
        for (const use of got)
          for (const participant of (Array.isArray(use.participants) ? use.participants : []).filter(isObject)) {
            const player = listed.get(idOf(participant.id));
            for (const field of ['FirstName', 'LastName']) {
              const [stated, names] = [participant[field], player?.[field]];
              ensure(
                'C2.9',
                !named(stated) || !named(names) || stated.trim() === names.trim(),
                `${label}: use ${asText(use.id)}: participant ${asText(participant.id)} carries ${field} ${asJson(stated)}, but GET /players.php lists that player with ${field} ${asJson(names)}`,
                answers[i],
              );
            }
          }
        const stranger = got.find((u) => !tookPart(u).has(id));
        ensure('C4.15', !stranger, `${label} returned use ${asText(stranger?.id)}, in which that player did not take part`, answers[i]);
        ensureUseShapes(got, label, answers[i]!);
        asListed(got, uses, label, 'GET /uses.php without a parameter', answers[i]!);
        const expected = uses.filter((u) => tookPart(u).has(id));
        const { missing, extra } = difference(expected, got, key);
        ensure(
          'C4.15',
          missing.length === 0 && extra.length === 0,
          `${label} returned ${got.length} use(s); player ${id} took part in ${expected.length} (${missing.length} missing, ${extra.length} not among them)`,
          answers[i],
        );
      });
    },
  );

  check(
    {
      id: 'USES-005',
      level: 'MUST',
      sections: ['§4', '§7'],
      keptBlind: true,
      title: "an artifact_id no item has (also one that begins like a used item's id) gives no use, and a malformed one is refused or ignored; never a 5xx",
      accepts: [
        'for a well-formed id no item has: an empty list or any 4xx (its status is not shown, §7)',
        'for a malformed id: any 4xx, an empty list, or every use (the parameter ignored)',
      ],
    },
    async (t) => {
      const [{ rows: all }, unused, { ids }] = await Promise.all([t.discover.uses(), t.discover.unusedId(), t.discover.collection()]);
      // An id that only begins like one of a used item: a filter that matches by prefix gives that item's uses.
      const field = itemFieldOf(all, new Set(ids), { ownId: true });
      const known = new Set(ids);
      const prefix = field
        ? all.map((u) => itemRefOf(u[field])?.slice(0, -1)).find((p): p is string => p !== undefined && /\d$/.test(p) && !known.has(p))
        : undefined;
      const probes: (readonly [string | number, boolean])[] = [
        [unused, false],
        ['not-an-id', true],
        ['-1', true],
        // Read as an id no item has, or as malformed (then ignored): never as a pattern.
        ...(prefix === undefined ? [] : [[prefix, true] as const]),
      ];
      const answers = await together(probes.map(([id]) => t.api.uses({ artifact_id: id })));
      for (const [i, [id, malformed]] of probes.entries()) {
        const label = `GET /uses.php?artifact_id=${id}`;
        const ex = answers[i]!();
        ensureNo5xx('C7.2', ex, label);
        if (is4xx(ex)) continue;
        const got = okRows('C4.15', ex, label);
        const ignored = malformed && got.length === all.length;
        ensure(
          'C4.15',
          got.length === 0 || ignored,
          `${label} listed ${got.length} use(s) for an item that does not exist${malformed ? ` (neither none nor all ${all.length}, as if the parameter were ignored)` : ''}`,
          ex,
        );
      }
    },
  );
});

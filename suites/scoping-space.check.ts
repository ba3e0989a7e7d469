import fc from 'fast-check';
import {
  describe,
  check,
  asJson,
  idOf,
  itemFieldOf,
  itemRefOf,
  ensure,
  ensureNo5xx,
  is2xx,
  itemFlag,
  MAX_ROWS_PER_PAGE,
  profiles,
  readOnce,
  recordOf,
  rowsOf,
  sortedKeysJson,
  type CheckContext,
  type Exchange,
  type Query,
  type Row,
} from '../src/harness/index.ts';

/**
 * Draws of the request space (each a request per endpoint and list parameter): one, for the request
 * budget; in the self-test a second draw killed no mutant the first left alive.
 */
const RUNS = 1;

/** A record written with its keys in order, so that the same record compares equal however it is served. */
const canonical = sortedKeysJson;

/** What the second user holds and the first does not: the values a leak would show. */
interface Foreign {
  /** Titles of the second user's items that no item of the first user has. */
  titles: Set<string>;
  /** Item ids of the second user that the first user lacks, with their titles. */
  items: Map<string, string>;
  /** Whole records (uses, players, proposal rows, upcoming rows, types) of the second user that no answer of the first user holds. */
  records: Set<string>;
  /** Rows of the second user's items that the first user lacks. */
  rows: Row[];
  /** Values to draw requests from. */
  typeIds: unknown[];
  itemIds: unknown[];
  playerIds: unknown[];
  /** Names of the second user's players the first household lacks, those who stand for a user of the service first. */
  playerNames: string[];
  userIds: unknown[];
  /** The first user's answers read to learn this (uses, proposals with include_other=1, upcoming, types, players). */
  ownReads: { name: string; exchange: Exchange }[];
  /** The second user's answers of the same reads that name items (uses, proposals with include_other=1, upcoming). */
  theirReads: { name: string; exchange: Exchange }[];
  /** Item ids of the first user that the second user lacks: the second key's answers name none of them. */
  mineOnly: Set<string>;
  /** Every item id of either user. */
  everyId: Set<string>;
}

const rowsIn = (ex: Exchange): Row[] => rowsOf(ex.response.json) ?? [];

/**
 * Display names (else first names) of players to search for: those that stand for a user of the service (the ones a
 * user search finds) where there are any, else all.
 */
function namesToSearch(players: readonly Row[]): string[] {
  const named = (p: Row) => [p.name, p.FirstName].find((n): n is string => typeof n === 'string' && n.trim() !== '');
  const users = players.filter((p) => p.represents_user_id !== null && p.represents_user_id !== undefined && named(p) !== undefined);
  return [...new Set((users.length > 0 ? users : players).map(named).filter((n): n is string => n !== undefined))];
}

async function learnForeign(t: CheckContext): Promise<Foreign> {
  const players = profiles[t.target.profile].has('players');
  const [own, other, ownUses, otherUses, ...reads] = await Promise.all([
    t.discover.collection('primary'),
    t.discover.collection('other'),
    t.discover.uses('primary'),
    t.discover.uses('other'),
    t.discover.shared('GET /proposals.php?include_other=1'),
    t.discover.shared('GET /proposals.php?include_other=1 (second user)'),
    t.discover.shared('GET /upcoming-interactions.php'),
    t.discover.shared('GET /upcoming-interactions.php (second user)'),
    t.discover.shared('GET /types.php'),
    t.discover.shared('GET /types.php (second user)'),
    ...(players ? [t.discover.shared('GET /players.php'), t.discover.shared('GET /players.php (second user)')] : []),
  ]);
  const ownTitles = new Set(own.rows.map((r) => r.Title).filter((x): x is string => typeof x === 'string'));
  const ownIds = new Set(own.ids);
  const items = new Map<string, string>();
  for (const row of other.rows) {
    const id = idOf(row.id);
    if (id !== undefined && !ownIds.has(id) && typeof row.Title === 'string') items.set(id, row.Title);
  }
  const titles = new Set([...items.values()].filter((title) => !ownTitles.has(title) && title.trim().length >= 4));
  // Pairs (the first user's answer, the second's): a record of the second that the first does not also hold.
  const pairs: [Row[], Row[]][] = [[ownUses.rows, otherUses.rows]];
  for (let i = 0; i + 1 < reads.length; i += 2) pairs.push([rowsIn(reads[i]!), rowsIn(reads[i + 1]!)]);
  const records = new Set<string>();
  for (const [mine, theirs] of pairs) {
    const shared = new Set(mine.map(canonical));
    for (const row of theirs) {
      const written = canonical(row);
      if (!shared.has(written)) records.add(written);
    }
  }
  const otherPlayers = players ? rowsIn(reads.at(-1)!) : [];
  const ownPlayers = new Set(players ? rowsIn(reads.at(-2)!).map((p) => idOf(p.id)) : []);
  return {
    titles,
    items,
    records,
    rows: other.rows.filter((r) => items.has(idOf(r.id) ?? '')),
    // Type ids of the second user's items, the first user's own included: a leak shows where they meet the second user's data.
    typeIds: [...new Set(other.rows.map((r) => JSON.stringify(r.type_id ?? null)))].map((x) => JSON.parse(x) as unknown),
    itemIds: other.rows.filter((r) => items.has(idOf(r.id) ?? '')).map((r) => r.id),
    playerIds: otherPlayers.filter((p) => !ownPlayers.has(idOf(p.id))).map((p) => p.id),
    playerNames: namesToSearch(otherPlayers.filter((p) => !ownPlayers.has(idOf(p.id)))),
    userIds: [...new Set(otherPlayers.map((p) => p.represents_user_id).filter((x) => x != null)), 2],
    theirReads: [
      { name: 'GET /uses.php', exchange: otherUses.exchange },
      { name: 'GET /proposals.php?include_other=1', exchange: reads[1]! },
      { name: 'GET /upcoming-interactions.php', exchange: reads[3]! },
    ],
    mineOnly: new Set(own.ids.filter((id) => !other.ids.includes(id))),
    everyId: new Set([...own.ids, ...other.ids]),
    ownReads: [
      { name: 'GET /uses.php', exchange: ownUses.exchange },
      ...reads
        .filter((_, i) => i % 2 === 0)
        .map((exchange) => ({ name: `GET ${new URL(exchange.request.url).pathname}${new URL(exchange.request.url).search}`, exchange })),
    ],
  };
}

/** A request of the drawn space: its name (for the failure) and how to send it. */
interface Drawn {
  name: string;
  send(t: CheckContext): Promise<Exchange>;
  /** A read of the household: its answer may list no player of the second user's household that the first user's lacks. */
  household?: true;
  /** A counterexample prints the request by its name, not the code that sends it. */
  [fc.toStringMethod](): string;
}

function drawn(name: string, send: (t: CheckContext) => Promise<Exchange>, household = false): Drawn {
  return { name, send, ...(household ? { household: true as const } : {}), [fc.toStringMethod]: () => name };
}

/**
 * One draw: a request for every endpoint and every list parameter, each with the second user's values
 * and decorations (page size, fields, include, a user id), so that every parameter is met in every draw.
 * A list parameter goes alone or beside parameters whose values all come from one item of the second
 * user, since a leak under one must not be hidden by another filter that empties the answer; each GET
 * endpoint goes with no parameter and with a user id.
 */
function requestSpace(t: CheckContext, f: Foreign): fc.Arbitrary<Drawn[]> {
  const has = (c: Parameters<(typeof profiles)['primary']['has']>[0]) => profiles[t.target.profile].has(c);
  const pick = <T>(values: readonly T[], fallback: T) => (values.length > 0 ? fc.constantFrom(...values) : fc.constant(fallback));
  const title = pick([...f.titles], 'conform');
  const itemId = pick(f.itemIds, 1);
  const typeId = pick(f.typeIds, 1);
  const userId = pick(f.userIds, 2);
  const playerId = pick(f.playerIds, 1);
  const perPage = fc.constantFrom(50, MAX_ROWS_PER_PAGE);
  // Each decoration is on some list requests and off others, in a fixed pattern, so that a leak under any one of
  // them (or under fields and include together) shows in every draw; only their values are drawn. A user id goes in
  // the body of every third request, and in the query string of each request after one of those: the key decides the
  // user wherever a user id is sent (§4: all results are scoped to the key's user; §5).
  const decorate = (body: Row, index: number): fc.Arbitrary<{ sent: Row; query?: Query }> =>
    fc.record({ per_page: perPage, user_id: userId }).map(({ per_page, user_id }) => ({
      sent: {
        ...(index % 3 === 0 ? { user_id } : { per_page }),
        ...(has('list-fields') && index % 4 < 2 ? { fields: 'collection' } : {}),
        ...(has('list-include') && index % 2 === 0 ? { include: ['uses_summary'] } : {}),
        ...body,
      },
      ...(index % 3 === 1 ? { query: { user_id } as Query } : {}),
    }));
  // One of the second user's items, for the requests that combine parameters: every value comes from it, so that
  // it matches all of them and a leak is not hidden by a filter that empties the answer.
  const item = pick(f.rows, { id: 1, Title: 'conform', type_id: 1, tags: [] });
  const flagOf = (row: Row, field: string): boolean => itemFlag(row[field]) === true;
  const tagged = pick(
    f.rows.filter((r) => Array.isArray(r.tags) && r.tags.length > 0),
    { tags: ['portable'] },
  );
  const focus: fc.Arbitrary<Row>[] = [
    fc.constant({}),
    fc.record({ query: title }),
    fc.record({ query: title.map((s) => s.slice(0, Math.max(3, Math.ceil(s.length / 2)))) }),
    fc.constant({ cursor: null }),
    fc.record({ cursor: itemId }),
    fc.record({ page: fc.integer({ min: 1, max: 2 }) }),
    fc.record({ id: itemId }),
    // The tag carries a user id in the body as well (the query string's comes from decorate): a label lookup keyed on the
    // body's user would list the second user's labelled items (§4 rule 1).
    fc
      .tuple(
        tagged.chain((r) => fc.constantFrom(...(r.tags as unknown[]).map(String))),
        userId,
      )
      .map(([label, user_id]) => ({ page: 1, tag: label, user_id })),
  ];
  if (has('list-filters'))
    focus.push(
      item.map((r) => ({ secondary_collection: flagOf(r, 'is_in_secondary_collection') })),
      fc.record({ type_id: fc.array(typeId, { minLength: 1, maxLength: 3 }) }),
      // Parameters together: a filter beside another filter, beside a cursor, beside a query.
      item.map((r) => ({ type_id: r.type_id ?? null, physical: flagOf(r, 'is_physical') })),
      item.map((r) => ({ cursor: null, digital: flagOf(r, 'is_digital') })),
      item.map((r) => ({ query: String(r.Title ?? ''), kept: flagOf(r, 'is_kept') })),
    );
  const q = (query: Record<string, unknown>) => query as Query;
  const list = focus.map((arb, index) =>
    arb
      .chain((body) => decorate(body, index))
      .map(({ sent, query }): Drawn => {
        const name = `POST /artifacts.php${query ? `?user_id=${String(query.user_id)}` : ''} ${JSON.stringify(sent)}`;
        return drawn(name, (c) => c.api.list(sent, 'primary', query));
      }),
  );
  // Each GET endpoint with a user id, and with no parameter where learnForeign did not send that request already
  // (its answers are searched too), so that a leak under either shows in every draw.
  // Types, upcoming and players with a user id are shared with SCOPE-002, which sends them too.
  const withUserId = (
    name: string,
    send: (c: CheckContext, query: Query) => Promise<Exchange>,
    shared?: 'GET /types.php' | 'GET /upcoming-interactions.php' | 'GET /players.php',
  ): fc.Arbitrary<Drawn> =>
    userId.map(
      (user_id): Drawn =>
        drawn(`GET ${name} ${JSON.stringify({ user_id })}`, (c) =>
          shared && (typeof user_id === 'string' || typeof user_id === 'number') ? c.discover.withUserId(shared, user_id) : send(c, q({ user_id })),
        ),
    );
  // A window wide enough to hold the second user's outcomes, or a leak under it would be hidden.
  const window = fc.record({ start: fc.constantFrom('1990-01-01', '2000-01-01'), end: fc.constantFrom('2099-12-31', '2100-01-01') });
  const others: fc.Arbitrary<Drawn>[] = [
    fc.constant(drawn('GET /artifacts.php', (c) => c.discover.list(undefined))),
    // A user id is no filter (the key decides the user): it rides along with the other user's item id.
    fc.record({ artifact_id: itemId, user_id: userId }).map((query): Drawn => drawn(`GET /uses.php ${JSON.stringify(query)}`, (c) => c.api.uses(q(query)))),
    fc.constant(drawn('GET /proposals.php {}', (c) => c.discover.shared('GET /proposals.php'))),
    fc
      .record({
        window,
        include_other: fc.constantFrom(0, 1),
        sort: fc.constantFrom('item_name', 'explicit_declines', 'chose_something_else'),
        direction: fc.constantFrom('asc', 'desc'),
        user_id: userId,
      })
      .map(({ window: w, ...rest }): Drawn => {
        const query = { ...w, ...rest };
        return drawn(`GET /proposals.php ${JSON.stringify(query)}`, (c) => c.api.proposals(q(query)));
      }),
    withUserId('/upcoming-interactions.php', (c, query) => c.api.upcoming('primary', query), 'GET /upcoming-interactions.php'),
    withUserId('/types.php', (c, query) => c.api.types('primary', query), 'GET /types.php'),
    itemId.map((id): Drawn => drawn(`GET /artifact.php?id=${String(id)}`, (c) => c.api.item(id as string | number))),
  ];
  if (has('uses-player-filter'))
    others.push(fc.record({ player_id: playerId }).map((query): Drawn => drawn(`GET /uses.php ${JSON.stringify(query)}`, (c) => c.api.uses(q(query)))));
  // The household read with a user id (and the names a household or an owner goes by), a player field naming it
  // (represents_user_id), a search for a name of the second user's household and all=1 (none is a parameter of GET
  // /players.php, §4, so a conforming server ignores or refuses them): a user search or an every-household listing behind
  // them (§1, §5: user enumeration is refused) lists players of another household, which no answer of the key may hold.
  if (has('players'))
    others.push(
      fc
        .record({
          user_id: userId,
          household_id: userId,
          owner_id: userId,
          represents_user_id: userId,
          q: pick(f.playerNames, 'conform'),
          all: fc.constant(1),
        })
        .map((query): Drawn => drawn(`GET /players.php ${JSON.stringify(query)}`, (c) => c.api.players('primary', q(query)), true)),
    );
  return fc.tuple(...list, ...others);
}

/** What of the second user's data an answer holds, or undefined when it holds none. */
function leakIn(ex: Exchange, f: Foreign): string | undefined {
  const body = ex.response.json;
  const records = rowsOf(body) ?? [];
  const record = recordOf(body);
  if (record) records.push(record);
  for (const row of records) {
    const written = canonical(row);
    if (f.records.has(written)) return `a record of the second user: ${written.slice(0, 200)}`;
    const id = idOf(row.id);
    if (id !== undefined && typeof row.Title === 'string' && f.items.get(id) === row.Title) return `the second user's item ${id} ("${String(row.Title)}")`;
    const title = titleIn(row, f.titles, 3);
    if (title !== undefined) return `a row naming the second user's item "${title}": ${canonical(row).slice(0, 200)}`;
  }
  return undefined;
}

/** A string field (at any depth up to `depth`) equal to one of `titles`. */
function titleIn(value: unknown, titles: ReadonlySet<string>, depth: number): string | undefined {
  if (typeof value === 'string') return titles.has(value) ? value : undefined;
  if (depth === 0 || value === null || typeof value !== 'object') return undefined;
  for (const v of Object.values(value)) {
    const found = titleIn(v, titles, depth - 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('user scoping over the request space (§4 "all results are scoped", §5)', () => {
  check(
    {
      id: 'SCOPE-007',
      level: 'MUST',
      sections: ['§4', '§5'],
      title:
        "no answer of any endpoint, under any parameters drawn from the second user's data, holds that user's items, uses, players, proposals or upcoming rows; nor do the second key's uses, proposals and upcoming rows name the first user's items",
      needsOtherKey: true,
      accepts: [
        'any status for a drawn request (parameters may be refused); only 2xx answers are searched',
        'titles, types and records both users hold: only what the second user alone has counts as a leak',
        "GET /players.php with a user id (as user_id, household_id and owner_id), represents_user_id, q (a name of the second user's household) and all=1 (none is a parameter of it, §4) ignored or refused; a player both households list is no leak",
      ],
    },
    async (t) => {
      const foreign = await learnForeign(t);
      if (foreign.items.size === 0 && foreign.records.size === 0)
        t.skip('the second user holds nothing the first user lacks, so a leak could not be told apart');
      // The first user's own reads made to learn the second user's data are searched too (their whole records
      // cannot tell a leak there, since a record both answers hold counts as shared; titles and items can).
      for (const { name, exchange } of foreign.ownReads) {
        if (!is2xx(exchange)) continue;
        const leak = leakIn(exchange, foreign);
        ensure('C5.2', leak === undefined, `${name} with the first user's key answered with ${leak}`, exchange);
      }
      // And the other way round: the second key's answers that name items (uses, outcome rows, upcoming rows) name none of
      // the first user's items (§4: all results are scoped to the key's user, whichever key it is). The field naming the
      // item is the one whose values all name an item of either user (field names are not shown, §2).
      for (const { name, exchange } of foreign.theirReads) {
        if (!is2xx(exchange)) continue;
        const rows = rowsIn(exchange);
        const field = itemFieldOf(rows, foreign.everyId, { ownId: name.includes('uses') });
        const stray = field === undefined ? undefined : rows.find((r) => foreign.mineOnly.has(itemRefOf(r[field]) ?? ''));
        ensure(
          'C5.2',
          stray === undefined,
          `${name} with the second key lists a row of item ${asJson(stray?.[field ?? ''])}, an item of the first user's collection that the second user's lacks: ${canonical(stray ?? {}).slice(0, 200)}`,
          exchange,
        );
      }
      const foreignPlayers = new Set(foreign.playerIds.map((id) => idOf(id)).filter((id): id is string => id !== undefined));
      const send = readOnce(
        (drawn: Drawn) => drawn.send(t),
        (drawn) => drawn.name,
      );
      await t.property(
        requestSpace(t, foreign),
        async (batch) => {
          const answers = await Promise.all(batch.map(send));
          batch.forEach((drawn, i) => {
            const ex = answers[i]!;
            ensureNo5xx('C7.2', ex, drawn.name);
            if (!is2xx(ex)) return;
            const leak = leakIn(ex, foreign);
            ensure('C5.2', leak === undefined, `${drawn.name} with the first user's key answered with ${leak}`, ex);
            if (drawn.household) {
              const strangers = rowsIn(ex).filter((p) => [idOf(p.id)].some((id) => id !== undefined && foreignPlayers.has(id)));
              ensure(
                'C5.2',
                strangers.length === 0,
                `${drawn.name} with the first user's key answered ${ex.response.status} listing player(s) of the second user's household that the first user's GET /players.php does not list: ${strangers
                  .map((p) => `${asJson(p.id)} (${asJson(p.name)})`)
                  .join(', ')}; the household listed is the key's own, and users are not enumerated`,
                ex,
              );
            }
          });
        },
        { runs: RUNS },
      );
    },
  );
});

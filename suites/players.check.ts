import {
  describe,
  check,
  ensure,
  idOf,
  is2xx,
  isObject,
  okRows,
  participantIdsOf,
  playerIdsOf,
  asText,
  asJson,
  type Exchange,
  type Row,
} from '../src/harness/index.ts';

/** represents_user_id is set when the player is a user (§2): it may be null or left out when unset. */
const FIELDS = ['id', 'name', 'FirstName', 'LastName', 'birth_year'];
const NAME_FIELDS = ['FirstName', 'LastName'] as const;

/** The earliest year of birth read as plausible for a living household member. */
const EARLIEST_BIRTH_YEAR = 1850;

/**
 * Why a birth_year value is no year of birth (§2), or undefined. Unset (null, empty, zero) passes; so does any
 * value that is not a number at all (its type is not shown). A number, or a numeric string (a date's leading
 * year counted), must be a whole year between EARLIEST_BIRTH_YEAR and this year: an age such as 35 is not one.
 */
function notABirthYear(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? (/^\s*(-?\d+(?:\.\d+)?)(?:-\d{1,2}-\d{1,2}.*)?\s*$/.exec(value)?.[1] ?? '') : '';
  const year = Number(text);
  // Zero is how a year column without a value reads (MySQL's YEAR, a NOT NULL integer): an unknown year, as null is.
  if (text === '' || year === 0) return undefined;
  const now = new Date().getUTCFullYear();
  return Number.isInteger(year) && year >= EARLIEST_BIRTH_YEAR && year <= now ? undefined : `not a year of birth between ${EARLIEST_BIRTH_YEAR} and ${now}`;
}

describe('players (§2 Player, §4 GET /players.php)', () => {
  check(
    {
      id: 'PLAY-001',
      level: 'MUST',
      sections: ['§2', '§4'],
      keptBlind: true,
      title:
        'every player carries id, name, FirstName, LastName and birth_year (represents_user_id where set); a birth_year that is set is a year; no id is listed twice',
      requires: ['players'],
      accepts: [
        'any envelope or a bare list',
        'any value of each field (types are not shown), ids as numbers or strings',
        'fields the spec does not list',
        'represents_user_id null or left out when the player is no user',
        `birth_year null, empty or zero (not set), a year as a number or a numeric string, or a date beginning with the year (${EARLIEST_BIRTH_YEAR} to this year); a value that is no number at all is not judged`,
      ],
    },
    async (t) => {
      const ex = await t.discover.shared('GET /players.php');
      const players = okRows('C4.17', ex, 'GET /players.php');
      t.need(players[0], 'the household has no players');
      // Each listed player is one person of the household with its own id (§2, §4): no id names two rows.
      const ids = players.map((p) => idOf(p.id)).filter((id) => id !== undefined);
      const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
      ensure(
        'C4.17',
        repeated === undefined,
        `GET /players.php lists player ${String(repeated)} more than once; each person of the household is one player`,
        ex,
      );
      for (const player of players) {
        const absent = FIELDS.filter((f) => !(f in player));
        ensure('C2.11', absent.length === 0, `player ${asText(player.id)} lacks ${absent.join(', ')}`, ex);
        ensure('C2.11', idOf(player.id) !== undefined, `a player's id is ${asJson(player.id)}`, ex);
        const wrongYear = notABirthYear(player.birth_year);
        ensure(
          'C2.11',
          wrongYear === undefined,
          `player ${asText(player.id)} has birth_year ${asJson(player.birth_year)}, ${wrongYear} (§2: it is the year of birth)`,
          ex,
        );
      }
    },
  );

  check(
    {
      id: 'PLAY-002',
      level: 'MUST',
      sections: ['§2', '§5'],
      keptBlind: true,
      title: "the household is the key's own: two users' players do not overlap",
      requires: ['players'],
      needsOtherKey: true,
      accepts: ['any envelope or a bare list'],
    },
    async (t) => {
      const [mine, theirs] = await Promise.all([t.discover.shared('GET /players.php'), t.discover.shared('GET /players.php (second user)')]);
      const own = okRows('C4.17', mine, 'GET /players.php');
      const other = okRows('C4.17', theirs, 'GET /players.php (second user)');
      t.need(own[0] && other[0] ? true : undefined, 'one of the two households has no players');
      const theirRecords = new Set(other.map((p) => JSON.stringify(p)));
      const shared = own.filter((p) => theirRecords.has(JSON.stringify(p)));
      ensure(
        'C5.2',
        shared.length === 0,
        `the first key's household lists ${shared.length} player record(s) of the second user's household (e.g. ${asText(shared[0]?.id)})`,
        mine,
      );
    },
  );

  check(
    {
      id: 'PLAY-003',
      level: 'MUST',
      sections: ['§2'],
      keptBlind: true,
      title:
        "every participant of a use is a player of the household, with that player's FirstName and LastName (the second user's uses and household too, where its key is given)",
      requires: ['players'],
      accepts: ['ids as numbers or strings', 'a name left out on either side (then not compared); null and an empty text as one blank name'],
    },
    async (t) => {
      // The second user's answers too, where its key is given: the run reads them anyway (for scoping), and §2 holds for
      // every key's household and uses alike. A failed read of them is the scoping checks' to judge, not this one's.
      const other = t.target.keys.other !== undefined;
      const [players, { rows, exchange: uses }, theirPlayers, theirUses] = await Promise.all([
        t.discover.shared('GET /players.php'),
        t.discover.uses(),
        other ? t.discover.shared('GET /players.php (second user)') : undefined,
        other ? t.discover.uses('other').catch(() => undefined) : undefined,
      ]);
      t.need(rows[0], 'no use is recorded');
      const judge = (household: Exchange, all: readonly Row[], evidence: Exchange, whose: string): void => {
        const byId = new Map(okRows('C4.17', household, `GET /players.php${whose}`).map((p) => [idOf(p.id), p]));
        for (const use of all) {
          const named = [...playerIdsOf(use), ...participantIdsOf(use)];
          const strangers = [...new Set(named.filter((p) => !byId.has(p)))];
          ensure(
            'C2.11',
            strangers.length === 0,
            `use ${asText(use.id)}${whose} names player(s) ${strangers.join(', ')} who are not in the household`,
            evidence,
          );
          // A participant is a player of the household (§2): the same person has the same first and last name in both.
          for (const participant of Array.isArray(use.participants) ? use.participants : []) {
            const player = isObject(participant) ? byId.get(idOf(participant.id)) : undefined;
            if (!player || !isObject(participant)) continue;
            // A blank (null or empty) name is the same lack of a name on either side; a name on one side and a blank on the
            // other is not the same person's name.
            const said = (v: unknown) => (typeof v === 'string' ? v : v === null ? '' : undefined);
            const differs = NAME_FIELDS.filter(
              (f) => said(participant[f]) !== undefined && said(player[f]) !== undefined && said(participant[f]) !== said(player[f]),
            );
            ensure(
              'C2.11',
              differs.length === 0,
              `use ${asText(use.id)}${whose}: participant ${asText(participant.id)} has ${differs.map((f) => `${f} ${asJson(participant[f])}`).join(', ')} but GET /players.php${whose} gives ${differs.map((f) => `${f} ${asJson(player[f])}`).join(', ')} (§2: both are that person's first and last name)`,
              household,
            );
          }
        }
      };
      judge(players, rows, uses, '');
      if (theirPlayers && theirUses && is2xx(theirPlayers)) judge(theirPlayers, theirUses.rows, theirUses.exchange, ' (second user)');
    },
  );
});

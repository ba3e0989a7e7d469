import {
  describe,
  check,
  ensure,
  ensureNo5xx,
  everyEndpoint,
  fingerprints,
  is4xx,
  itemFlag,
  profiles,
  readKept,
  rowsOf,
  userDataIn,
  commonTitleWord,
  tagsOf,
  credentialSends,
  listRequest,
  MALFORMED_HEADERS,
  NO_HEADER,
  sendProbe,
  UNKNOWN_KEY,
  UNKNOWN_KEY_HEADER,
  type CheckContext,
  type CredentialKind,
  type Exchange,
  type Row,
} from '../src/harness/index.ts';

/**
 * Sends every endpoint a request with each kind of credential (credentialSends); each must be refused with a 4xx and
 * no user data. `keyInBody` adds a list request that carries the key in its body instead of the header (§5: the key
 * travels in the Authorization header; the client masks it in every report).
 */
async function refusedEverywhere(t: CheckContext, kinds: readonly CredentialKind[], keyInBody = false): Promise<void> {
  const { rows } = await t.discover.collection();
  const known = fingerprints(rows);
  // An empty collection still has endpoints to guard: the single read then asks for an id no item has.
  const absentId = await t.discover.unusedId();
  // The household's first player, from the players read other checks share (none on staging, which lacks the endpoint).
  const players = profiles[t.target.profile].has('players') ? (rowsOf((await t.discover.shared('GET /players.php')).response.json) ?? []) : [];
  const playerId = players.map((p) => p.id).find((id): id is string | number => typeof id === 'string' || typeof id === 'number');
  // The first item with the kept value its row shows, for the toggle (where rows carry is_kept: not on staging).
  const keptNow = rows[0] === undefined ? undefined : itemFlag(rows[0].is_kept);
  const kept = keptNow === undefined || keptNow === null ? undefined : { id: rows[0]!.id as string | number, value: keptNow ? (1 as const) : (0 as const) };
  const probes = everyEndpoint(t.target.profile, { itemId: (rows[0]?.id as string | undefined) ?? absentId, absentId, playerId, kept });
  // Beside the key, a user id in the same body (rule 1: a user id in the body is ignored; §5: the key is still required): a
  // user the key's household names (represents_user_id: a user of the service, often the key's own), else 1.
  const userId = players.map((p) => p.represents_user_id).find((id): id is string | number => typeof id === 'string' || typeof id === 'number') ?? 1;
  // And a search (a word of the titles, else a letter), with a label an item it finds carries (so that a server that
  // serves labelled items without a key answers with rows): the refusal holds whatever the body asks (§5).
  const query = commonTitleWord(rows) ?? 'a';
  const tag = labelOfTitleWord(rows, query);
  // And the uses summary where the profile offers it: a summary join may find its user apart from the key.
  const summary = profiles[t.target.profile].has('list-include') ? { include: ['uses_summary'] } : {};
  if (keyInBody)
    probes.push({
      name: `POST /artifacts.php with the key as api_key, user_id ${JSON.stringify(userId)}, query ${JSON.stringify(query)}${tag === undefined ? '' : `, tag ${JSON.stringify(tag)}`}${'include' in summary ? ' and include uses_summary' : ''} in the body`,
      request: (auth) => listRequest({ api_key: t.target.keys.primary, user_id: userId, query, ...(tag === undefined ? {} : { tag }), ...summary }, auth),
      dataFree: false,
    });
  const exchanges = await Promise.all(
    credentialSends(kinds, probes).map(async ({ label, auth, probe }) => ({ label, probe, ex: await sendProbe(t.api, probe, auth) })),
  );
  for (const { label, probe, ex } of exchanges) {
    ensureNo5xx('C7.2', ex, `${probe.name} with ${label}`);
    ensure('C5.1', isRefusal(ex), `${probe.name} with ${label}: expected a refusal (a 4xx, or a redirect to log in), got ${ex.response.status}`, ex);
    const leak = userDataIn(ex, known);
    ensure('C5.1', leak === undefined, `${probe.name} with ${label}: refused, but ${leak}`, ex);
  }
}

/** The label most often carried by the items whose titles hold `word`; none where they carry no label. */
function labelOfTitleWord(rows: readonly Row[], word: string): string | undefined {
  const counts = new Map<string, number>();
  for (const row of rows)
    if (typeof row.Title === 'string' && row.Title.toLowerCase().includes(word))
      for (const label of tagsOf(row)) if (label !== '') counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/**
 * A refusal of a missing or invalid key: its status is not shown (§7), so any 4xx, or a redirect (a login
 * page, as a browser-facing service answers), as long as the body holds no user data.
 */
const isRefusal = (ex: Exchange): boolean => is4xx(ex) || (ex.response.status >= 300 && ex.response.status < 400);

/** The status of a refused key is not shown (§7). */
const REFUSAL_FREEDOMS = [
  'any 4xx status (401, 403 or another) and any body that holds no user data',
  'a redirect (302 to a login page …) that carries no user data',
  'an echo of the request (its path, query or body) in the answer',
];

describe('authentication (§5)', () => {
  check(
    {
      id: 'AUTH-001',
      level: 'MUST',
      sections: ['§5'],
      keptBlind: true,
      title:
        'every endpoint refuses a request without an Authorization header and returns no user data, also with the key, a user id, a search, a label and the uses summary in a list body and for the uses of a real item with a player of the household',
      accepts: REFUSAL_FREEDOMS,
    },
    (t) => refusedEverywhere(t, NO_HEADER, true),
  );

  check(
    {
      id: 'AUTH-002',
      level: 'MUST',
      sections: ['§5'],
      keptBlind: true,
      title: 'every endpoint refuses a malformed Authorization header and returns no user data',
      accepts: REFUSAL_FREEDOMS,
    },
    (t) => refusedEverywhere(t, MALFORMED_HEADERS),
  );

  check(
    {
      id: 'AUTH-003',
      level: 'MUST',
      sections: ['§5'],
      keptBlind: true,
      title: 'every endpoint refuses an unknown key and returns no user data',
      accepts: REFUSAL_FREEDOMS,
    },
    (t) => refusedEverywhere(t, UNKNOWN_KEY),
  );

  check(
    {
      id: 'AUTH-004',
      level: 'MUST',
      sections: ['§3', '§5'],
      title: 'the kept toggle without a valid key changes nothing',
      toggles: true,
      lane: 'own-items',
      accepts: [...REFUSAL_FREEDOMS, 'the single-item read bare or inside an envelope; is_kept as 0/1, a boolean or null'],
    },
    async (t) => {
      const item = t.need((await t.discover.toggleRows())[0], 'the collection is empty, so there is no item to toggle');
      const id = String(item.id);
      const before = (await readKept(t.api, id)).value;
      const flipped = before === 1 ? 0 : 1;
      const sent: { label: string; ex: Exchange }[] = [];
      for (const { label, auth } of [
        { label: 'no Authorization header', auth: 'none' as const },
        { label: 'an unknown key', auth: { header: UNKNOWN_KEY_HEADER } },
      ]) {
        const ex = await t.kept.set(id, flipped, { as: auth, owner: 'primary' });
        ensureNo5xx('C7.2', ex, `POST /artifact-kept.php with ${label}`);
        ensure(
          'C5.1',
          isRefusal(ex),
          `POST /artifact-kept.php with ${label}: expected a refusal (a 4xx, or a redirect to log in), got ${ex.response.status}`,
          ex,
        );
        sent.push({ label, ex });
      }
      // One read after both: each sent the same other value, so a write by either leaves the item at it.
      const after = await readKept(t.api, id);
      ensure(
        'C5.1',
        after.value === before,
        `POST /artifact-kept.php with ${sent.map((s) => s.label).join(', then with ')} (each is_kept=${flipped}) changed is_kept of item ${id} from ${before} to ${after.value}`,
        sent[0]?.ex,
      );
    },
  );
});

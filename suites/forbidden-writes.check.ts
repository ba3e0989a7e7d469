import {
  describe,
  answersAsAbsent,
  check,
  endpoints,
  ensure,
  ensureNo5xx,
  fingerprints,
  idOf,
  is2xx,
  isObject,
  itemRefOf,
  atHostRoot,
  LISTING_QUERY,
  NO_SUCH_PATH,
  ROOT_ONLY_LISTING_PATHS,
  USER_BY_ID_PATH,
  USER_LISTING_PATHS,
  USER_LISTING_VARIANTS,
  USER_REST_PATH,
  profiles,
  recordOf,
  rowsOf,
  sameAnswer,
  sharedStateSnapshot,
  stateSnapshot,
  useDateFieldOf,
  userDataIn,
  type CheckContext,
  type Exchange,
  type Method,
  type Row,
} from '../src/harness/index.ts';

const READ_ONLY_PATHS = [endpoints.item, endpoints.uses, endpoints.proposals, endpoints.types, endpoints.upcoming, endpoints.players];
const ALL_PATHS = [endpoints.list, endpoints.kept, ...READ_ONLY_PATHS];

interface WriteProbe {
  method: Method;
  path: string;
}

/** A flag value flipped in the form it was served (0/1, a boolean or "0"/"1"), or undefined for any other value. */
function flipped(value: unknown): unknown {
  if (value === 0 || value === 1) return 1 - value;
  if (typeof value === 'boolean') return !value;
  if (value === '0' || value === '1') return value === '0' ? '1' : '0';
  return undefined;
}

/**
 * Sends each probe with a payload that does no harm even if a broken server accepts it: an id no
 * item has, and fields that restate nothing real. Every pair not answered 403 is reported, and the
 * whole visible state must be unchanged after. `flipping` names a real item and flips one independent
 * flag, since a server that writes before it refuses shows only on a real change: if the state moved, the
 * same door then sends the original value, which puts back what it wrote (§1: nothing but the toggle writes).
 */
async function refusedWithForbidden(
  t: CheckContext,
  probes: readonly WriteProbe[],
  restating?: WriteProbe,
  flipping?: WriteProbe,
  labelling?: string,
  restatingUse?: WriteProbe,
  restatingPlayer?: WriteProbe,
  restatingInstead = false,
  flagPaths: readonly { path: string; field: string }[] = [],
): Promise<void> {
  const absentId = await t.discover.unusedId();
  const payload = { id: absentId, artifact_id: absentId, Title: 'conform probe (must be refused)', is_kept: 0 };
  const traces = { id: absentId, title: payload.Title };
  // `restatingUse` names a real use (the first of GET /uses.php with an id of its own and a date) and restates its own
  // date: a server with an edit door for uses shows it only on a real use, and wrongly accepting it writes what is there.
  // The id must be the use's own (§2 shows no id of a use): one no other use carries and no other field of the use holds
  // (not its item's id, as from a join whose id columns collide), else the edit could land on another record.
  const uses = restatingUse ? (await t.discover.uses()).rows : [];
  const dateField = useDateFieldOf(uses);
  const idCount = new Map<string, number>();
  for (const u of uses) if (idOf(u.id) !== undefined) idCount.set(idOf(u.id)!, (idCount.get(idOf(u.id)!) ?? 0) + 1);
  const ownIdOf = (u: Row) => {
    const id = idOf(u.id);
    return id !== undefined && idCount.get(id) === 1 && Object.entries(u).every(([key, value]) => key === 'id' || itemRefOf(value) !== id) ? id : undefined;
  };
  const use = dateField === undefined ? undefined : uses.find((u) => ownIdOf(u) !== undefined && typeof u[dateField] === 'string');
  // The whole use as listed, its date included: a server that wrongly reads the body as a full replace writes it all back.
  const useEdit = restatingUse && use && dateField !== undefined ? { query: { id: idOf(use.id)! }, json: { ...use } } : undefined;
  // `restatingPlayer` names a real player of the household (the first with an id and a name) and restates its whole
  // record as GET /players.php lists it: an edit door for the household shows only on a real player, and wrongly
  // accepting it writes what is there, also where the server reads the body as a full replace (a body of the name alone
  // would then blank the player's FirstName, LastName, birth_year and represents_user_id).
  const household =
    restatingPlayer && profiles[t.target.profile].has('players') ? (rowsOf((await t.discover.shared('GET /players.php')).response.json) ?? []) : [];
  const player = household.find((p) => idOf(p.id) !== undefined && typeof p.name === 'string');
  const playerEdit = restatingPlayer && player ? { query: { id: idOf(player.id)! }, json: { ...player } } : undefined;
  const payloadOf = (p: WriteProbe) =>
    flagsRestated && p.method === 'PATCH' && p.path === endpoints.list
      ? flagsRestated
      : keptRestated && p.method === 'PATCH' && p.path === endpoints.kept
        ? keptRestated
        : useEdit && p.method === restatingUse?.method && p.path === restatingUse.path
          ? useEdit
          : playerEdit && p.method === restatingPlayer?.method && p.path === restatingPlayer.path
            ? playerEdit
            : // The id no item has is named in the query under both names an item reference takes (id, and artifact_id as GET /uses.php
              // takes it, §4): a door keyed by artifact_id (a DELETE of an upcoming reminder) shows as surely as one keyed by id. The
              // proposals path also gets a window of its own parameters (§4 start, end) that ends before it starts, so holds no outcome
              // however a server reads its bounds: a door that deletes a window, and checks the key per row it deletes, shows.
              {
                query: { id: absentId, artifact_id: absentId, ...(p.path === endpoints.proposals ? { start: '2000-01-02', end: '2000-01-01' } : {}) },
                // The PUT of the kept path carries a kept value the toggle refuses (§4: only 0 or 1): the method is refused
                // before the body is looked at, so a door that validates the toggle's body for every method shows.
                json: p.method === 'PUT' && p.path === endpoints.kept ? { ...payload, is_kept: 2 } : payload,
              };
  // A write may be refused only for an id no item has: `restating` names a real item and restates its own
  // title, so that a server wrongly accepting it writes what is already there.
  const real = restating || flipping ? (await t.discover.toggleRows())[0] : undefined;
  const realId = real ? idOf(real.id) : undefined;
  // Each write to the real item carries its whole record as the single read shows it (the list row where it cannot be
  // read): a server that wrongly reads the body as a full replace writes back every field it shows, and the put-back
  // of a flip, the same door with the original value, restores all of them. The kept flag is left out: it is the
  // toggle's alone, and a value read now must not be written back over a kept write of another moment.
  const whole = real && realId !== undefined ? withoutKept({ ...real, ...(await t.discover.record(realId).catch(() => ({}))), id: real.id }) : undefined;
  const flip = flipping && whole && flipped(real!.is_physical) !== undefined ? { ...whole, is_physical: real!.is_physical } : undefined;
  // Where a real item is named, the PATCH of the list path restates its flags as its row and record show them, beside a
  // search no title matches: an edit door keyed by a real id shows only there and writes what is there, and a bulk-edit
  // door that applies is_kept to the items its list filters find finds none.
  const flags = whole ? Object.fromEntries(INDEPENDENT_FLAGS.filter((f) => flipped(whole[f]) !== undefined).map((f) => [f, whole[f]])) : {};
  const kept = real && flipped(real.is_kept) !== undefined ? { is_kept: real.is_kept } : {};
  const flagsRestated =
    whole && Object.keys(flags).length > 0 ? { query: { id: realId! }, json: { id: real!.id, ...flags, ...kept, query: payload.Title } } : undefined;
  // And the PATCH of the kept path names the same item with the kept value it has: a door that lets through a write that
  // changes nothing shows only there, and wrongly accepting it writes what is there.
  const keptRestated = whole && 'is_kept' in kept ? { query: { id: realId! }, json: { id: real!.id, ...kept } } : undefined;
  // `flagPaths`: toggle-shaped paths of the independent flags, each sent the real item and its flag's value (judged below).
  const flagWrites = whole
    ? flagPaths.filter(({ field }) => flipped(whole[field]) !== undefined).map(({ path, field }) => ({ path, json: { id: real!.id, [field]: whole[field] } }))
    : [];
  // `labelling` is a tag-writing path the spec does not name, sent the one label an item already carries (judged below).
  const labelled = labelling
    ? (await t.discover.toggleRows()).find((r) => Array.isArray(r.tags) && r.tags.length === 1 && typeof r.tags[0] === 'string')
    : undefined;
  const label = labelled ? { artifact_id: labelled.id, tag: (labelled.tags as string[])[0] } : undefined;
  const restates = restating && real && realId !== undefined && typeof real.Title === 'string';
  // `restatingInstead`: the restating write takes the place of the same method and path sent for an id no item has (a door
  // that accepts a write shows on a real item as surely; a door that edits only real items shows there alone).
  const sent = restates && restatingInstead ? probes.filter((p) => p.method !== restating.method || p.path !== restating.path) : probes;
  const before = await sharedStateSnapshot(t.api, t.discover, t.target.profile, traces);
  const flagSent = Promise.all(flagWrites.map(({ path, json }) => t.api.probe('POST', path, { json })));
  const exchanges = await Promise.all([
    ...sent.map(async (p) => ({ p, ex: await t.api.probe(p.method, p.path, payloadOf(p)) })),
    ...(restates
      ? [
          {
            p: { ...restating, path: `${restating.path}?id=${realId} restating its record` },
            ex: await t.api.probe(restating.method, restating.path, { query: { id: realId! }, json: { ...whole, Title: real.Title } }),
          },
        ]
      : []),
    ...(flipping && flip
      ? [
          {
            p: flipping,
            ex: await t.api.probe(flipping.method, flipping.path, { query: { id: realId! }, json: { ...flip, is_physical: flipped(flip.is_physical) } }),
          },
        ]
      : []),
  ]);
  const flagAnswers = await flagSent;
  const labelAnswer = labelling && label ? await t.api.probe('POST', labelling, { json: label }) : undefined;
  const labelled2xx = labelAnswer !== undefined && is2xx(labelAnswer) && labelling !== undefined && label !== undefined;
  // A label door that answered 2xx may have toggled the label off: the item's own record shows it (the snapshot of a
  // large collection need not hold the item). Only then is the same label sent again, which takes it back; a door that
  // added or set the label left it in place, and is not sent it twice (one that appends would add a second copy).
  // Both are sent even once --budget is spent.
  let labelNote = '';
  const putLabelBack = async (what: string): Promise<true> => {
    const gone = await t.putBack(async () => {
      await t.api.probe('POST', labelling!, { json: label });
      return labelGone(t, label!);
    });
    labelNote = `; ${what}, and POST ${labelling} sent again ${gone === false ? 'put it back' : gone ? 'did not put it back' : 'was not verified (the record could not be read)'}`;
    return true;
  };
  const labelSeen = labelled2xx ? await t.putBack(() => labelGone(t, label!)) : undefined;
  let labelLost = labelSeen === true ? await putLabelBack(`item ${String(idOf(label!.artifact_id))} lost its label ${JSON.stringify(label!.tag)}`) : false;
  // The path is not named by the spec, so a 404 (or any refusal) is as good as the 403; a 2xx is the write accepted,
  // unless it is the answer a POST to a path no API serves gets (a catch-all page, judged by catchAllAnswer).
  const labelBaseline = labelled2xx ? await t.api.probe('POST', NO_SUCH_PATH, { json: label }) : undefined;
  const flagBaseline = flagAnswers.some(is2xx) ? (labelBaseline ?? (await t.api.probe('POST', NO_SUCH_PATH, { json: flagWrites[0]!.json }))) : undefined;
  const wrong = exchanges.filter(({ ex }) => ex.response.status !== 403);
  // The state is compared, and put back where it moved, before any verdict: a failure leaves no accepted write in place.
  // After a flip of a real item the comparison is what decides the put-back, so it too is read once --budget is spent.
  const snapshotAfter = () => stateSnapshot(t.api, 'primary', t.target.profile, traces);
  const after = flipping && flip ? await t.putBack(snapshotAfter) : await snapshotAfter();
  let putBack = '';
  if (after !== before && flipping && flip) {
    // Sent even once --budget is spent: a wrongly accepted flip must not stay in place.
    const again = await t.putBack(async () => {
      await t.api.probe(flipping.method, flipping.path, { query: { id: realId! }, json: flip });
      return stateSnapshot(t.api, 'primary', t.target.profile, traces);
    });
    putBack = again === before ? '; the same door with the original value put it back' : '; the same door with the original value did not put it back';
  }
  // A flag door that answered 2xx and moved the collection flipped its flag: sending the same again flips it back.
  // Sent even once --budget is spent.
  const flagDoors = flagWrites.filter((_, i) => is2xx(flagAnswers[i]!));
  if (after !== before && flagDoors.length > 0) {
    const again = await t.putBack(async () => {
      await Promise.all(flagDoors.map(({ path, json }) => t.api.probe('POST', path, { json })));
      return stateSnapshot(t.api, 'primary', t.target.profile, traces);
    });
    putBack +=
      again === before
        ? `; ${flagDoors.map((w) => `POST ${w.path}`).join(', ')} sent again put it back`
        : `; ${flagDoors.map((w) => `POST ${w.path}`).join(', ')} sent again did not put it back`;
  }
  // Where the record cannot be read, a changed collection stands for a lost label.
  if (labelSeen === undefined && labelled2xx && after !== before) labelLost = await putLabelBack('the collection changed');
  ensure(
    'C1.3',
    wrong.length === 0,
    `${wrong.length} of ${exchanges.length} writes other than the kept toggle were not answered 403: ${wrong.map(({ p, ex }) => `${p.method} ${p.path} → ${ex.response.status}${ex.response.status >= 500 ? ' (a server error)' : ''}`).join(', ')}`,
    wrong[0]?.ex,
  );
  if (labelAnswer && labelBaseline)
    ensure(
      'C1.3',
      catchAllAnswer(labelAnswer, labelBaseline),
      `POST ${labelling} ${JSON.stringify(label)} was accepted (${labelAnswer.response.status}), while POST ${NO_SUCH_PATH} got ${labelBaseline.response.status}: a write other than the kept toggle must be refused (403, or 404 where the path is not served)${after === before && !labelLost ? '; the collection did not change' : `${putBack}${labelNote}`}`,
      labelAnswer,
    );
  const flipNote = `${restates ? `, ${restating.method} ${restating.path}?id=${realId} restating its record` : ''}${flipping && flip ? `, ${flipping.method} ${flipping.path}?id=${realId} flipping is_physical` : ''}${label ? `, POST ${labelling} restating a label` : ''}${flagWrites.map((w) => `, POST ${w.path} restating a flag`).join('')}`;
  ensure(
    'C1.2',
    after === before && !labelLost,
    `the collection changed after the forbidden-write probes (${sent.map((p) => `${p.method} ${p.path}`).join(', ')}${flipNote})${putBack}${labelNote}`,
    exchanges.at(-1)?.ex,
  );
  for (const [i, { path, json }] of flagWrites.entries()) {
    const answer = flagAnswers[i]!;
    if (flagBaseline)
      ensure(
        'C1.3',
        !is2xx(answer) || catchAllAnswer(answer, flagBaseline),
        `POST ${path} ${JSON.stringify(json)} (a path the spec does not name, restating the item's flag) was accepted (${answer.response.status}), while POST ${NO_SUCH_PATH} got ${flagBaseline.response.status}: a write other than the kept toggle must be refused (403, or 404 where the path is not served)${after === before ? '; the collection did not change' : putBack}`,
        answer,
      );
  }
  for (const [i, { path, json }] of flagWrites.entries()) ensureNo5xx('C7.2', flagAnswers[i]!, `POST ${path} ${JSON.stringify(json)}`);
}

/** Whether the labelled item's record lacks the label; undefined where the record cannot be read. */
async function labelGone(t: CheckContext, label: { artifact_id: unknown; tag: unknown }): Promise<boolean | undefined> {
  const id = idOf(label.artifact_id);
  if (id === undefined) return undefined;
  const read = await t.api.item(label.artifact_id as string | number);
  const tags = is2xx(read) ? recordOf(read.response.json, id)?.tags : undefined;
  return Array.isArray(tags) ? !tags.map(String).includes(String(label.tag)) : undefined;
}

/** The media type of an answer, without its parameters. */
function mediaType(ex: Exchange): string {
  const header = Object.entries(ex.response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return header.split(';')[0]!.trim().toLowerCase();
}

/**
 * Whether a 2xx answer of a path the spec does not name is the answer every path the target does not serve gets
 * (a catch-all page): the very answer a path no API serves got, or, where that page carries something fresh on
 * each answer (a CSRF token, a time), one of the same status and media type, neither of them JSON.
 */
function catchAllAnswer(answer: Exchange, baseline: Exchange): boolean {
  if (sameAnswer(answer, baseline)) return true;
  const pages = answer.response.json === undefined && baseline.response.json === undefined;
  return pages && answer.response.status === baseline.response.status && mediaType(answer) === mediaType(baseline);
}

/**
 * A tag-writing path the spec does not name (tags are the owner's, §2; an agent key writes only the kept flag, §1). It
 * is sent an item with exactly one label and that label, so that a door wrongly accepting it writes what is there
 * (adding, or setting the item's labels to it), or, toggling the label, takes it back when sent the same again.
 */
const TAGS_PATH = '/tags.php';

/**
 * Paths the spec does not name, shaped like the kept toggle's, one for each independent flag (§3: this interface does
 * not change them; §1: the toggle is the only write). Each is sent a real item's id and the flag's value as the item's
 * record shows it, so that a door wrongly accepting it writes what is there (one that flips whatever it is sent is
 * flipped back by sending the same again).
 */
const FLAG_TOGGLE_PATHS = [
  { path: '/artifact-physical.php', field: 'is_physical' },
  { path: '/artifact-digital.php', field: 'is_digital' },
  { path: '/artifact-secondary.php', field: 'is_in_secondary_collection' },
] as const;

/** The independent flags (§2), restated by the PATCH of the list path with their current values. */
const INDEPENDENT_FLAGS = ['is_physical', 'is_digital', 'is_in_secondary_collection'] as const;

function applicablePaths(t: CheckContext, paths: readonly string[]): string[] {
  return paths.filter((p) => p !== endpoints.players || profiles[t.target.profile].has('players'));
}

/**
 * The second user's ids where its household names them (represents_user_id), else a small id; never an id the key's own
 * household names as its user's (the key's own user record is no enumeration), where the players are offered.
 */
async function otherUserIds(t: CheckContext): Promise<(string | number)[]> {
  if (!profiles[t.target.profile].has('players')) return [2];
  const own = new Set((rowsOf((await t.discover.shared('GET /players.php')).response.json) ?? []).map((r) => String(r.represents_user_id)));
  const theirs = t.target.keys.other === undefined ? [] : (rowsOf((await t.discover.shared('GET /players.php (second user)')).response.json) ?? []);
  const ids = theirs
    .map((r) => r.represents_user_id)
    .filter((id): id is string | number => (typeof id === 'string' || typeof id === 'number') && !own.has(String(id)));
  return ids.length > 0 ? [...new Set(ids)] : [[2, 3, 1].find((id) => !own.has(String(id)))!];
}

/**
 * The second user's ids that are surely not the key's own: those its household names (represents_user_id) that the
 * key's household does not. A household may record another user of the service as a player (§2), and a route that
 * answers the key's own user is no enumeration (§5), so an id both households name may be the key's own. None
 * without the second user's key or the players endpoint: a guessed id may be the key's own too.
 */
async function strangerIds(t: CheckContext, otherIds: (string | number)[]): Promise<(string | number)[]> {
  if (t.target.keys.other === undefined || !profiles[t.target.profile].has('players')) return [];
  const own = new Set((rowsOf((await t.discover.shared('GET /players.php')).response.json) ?? []).map((r) => String(r.represents_user_id)));
  return otherIds.filter((id) => !own.has(String(id)));
}

/** Describes the record of the user asked for by id in a 2xx answer (an object with that id and text beside it), or undefined. */
function userRecordIn(ex: Exchange, userId: string | number | undefined): string | undefined {
  const body = ex.response.json;
  if (userId === undefined || !is2xx(ex) || !isObject(body)) return undefined;
  const hit = [body, ...Object.values(body).filter(isObject)].find(
    (o) => String(o.id) === String(userId) && Object.entries(o).some(([k, v]) => k !== 'id' && typeof v === 'string' && v.trim() !== ''),
  );
  return hit ? `the body carries the record of user ${userId}` : undefined;
}

interface EnumerationProbes {
  answers: Exchange[];
  /** Per answer, the user id it asked for (undefined for a listing). */
  userIds: (string | number | undefined)[];
  /** The answer to a path no API serves: how the target answers paths it does not serve. */
  baseline: Exchange;
  known: string[];
}

/** A user search sent as a POST (§1: any enumeration of users is refused, whatever the method). */
const USER_SEARCH: { method: Method; path: string; query: Record<string, string | number>; userId: undefined } = {
  method: 'POST',
  path: '/users.php',
  query: {},
  userId: undefined,
};

/** The listing path asked with OPTIONS (a CORS preflight handler may fall through to the listing behind it): a safe method. */
const USER_OPTIONS: typeof USER_SEARCH = { method: 'OPTIONS', path: '/users.php', query: {}, userId: undefined };

async function enumerationProbes(t: CheckContext, withSearch = false): Promise<EnumerationProbes> {
  const atRoot = atHostRoot(t.target.baseUrl);
  const listings = [...USER_LISTING_PATHS, ...(atRoot ? ROOT_ONLY_LISTING_PATHS : [])].map((path) => ({
    method: 'GET' as Method,
    path,
    query: { ...LISTING_QUERY } as Record<string, string | number>,
    userId: undefined,
  }));
  const variants = USER_LISTING_VARIANTS.map((path) => ({ method: 'GET' as Method, path, query: {} as Record<string, string | number>, userId: undefined }));
  const otherIds = await otherUserIds(t);
  const byId = otherIds.map((userId) => ({
    method: 'GET' as Method,
    path: USER_BY_ID_PATH,
    query: { id: userId } as Record<string, string | number>,
    userId,
  }));
  // A REST-style route to one user (/users/<id>), where a refusal that compares the listing paths exactly does not look.
  // Only an id that is surely not the key's own: the key's own user record there would be no enumeration.
  const restById = (withSearch ? (await strangerIds(t, otherIds)).slice(0, 1) : []).map((userId) => ({
    method: 'GET' as Method,
    path: `${USER_REST_PATH}/${encodeURIComponent(String(userId))}`,
    query: {} as Record<string, string | number>,
    userId,
  }));
  // ENUM-001 asks /user.php by id only: ENUM-002 refuses its listing (any status but 403 where it is served).
  const probes = [
    ...listings.filter((p) => !withSearch || byId.length === 0 || p.path !== USER_BY_ID_PATH),
    ...byId,
    ...(withSearch ? [USER_SEARCH, USER_OPTIONS, ...variants, ...restById] : []),
  ];
  // ENUM-001 and ENUM-002 send the same GETs: each is sent once for both (no write can change a path the spec does not name).
  const [{ rows }, baseline, ...answers] = await Promise.all([
    t.discover.collection(),
    t.discover.unnamedPath(NO_SUCH_PATH, { ...LISTING_QUERY }),
    // The REST-style read is ENUM-001's own (no other check sends it), so it is no shared read of the run.
    ...probes.map(({ method, path, query }) =>
      method !== 'GET'
        ? t.api.probe(method, path, method === 'OPTIONS' ? { query } : { query, json: {} })
        : path.startsWith(`${USER_REST_PATH}/`)
          ? t.api.get(path, query)
          : t.discover.unnamedPath(path, query),
    ),
  ]);
  return { answers, userIds: probes.map((p) => p.userId), baseline, known: fingerprints(rows) };
}

describe('forbidden writes and user enumeration (§1, §5, §7)', () => {
  check(
    {
      id: 'WRITE-001',
      level: 'MUST',
      sections: ['§1', '§7'],
      title:
        'PUT, PATCH and DELETE on every endpoint (and DELETE on the catalog path) answer 403 and change nothing, also a PUT of the kept path with a kept value the toggle refuses, a PUT that restates the whole record of a real item, a PATCH that flips a flag of a real item, a PATCH of the list path that restates its flags, one of the kept path that restates its kept value, one that restates the date of a real use and one that restates the name of a real player',
      accepts: [
        'any body with the 403',
        "PATCH /uses.php sent for the first use with an id of its own (carried by no other use and held by no other field of it, such as its item's id) and a date (a use's date under any name, §2 does not show it), restating that date; for an id no item has where no use has both",
        'PATCH /players.php sent for the first player of the household with an id and a name, restating its whole record as listed (primary profile); for an id no item has where no player has both',
        'PUT /artifact.php sent for the first item the check may write, restating its whole record as the single read serves it (the list row where it cannot be read), kept flag left out; for an id no item has where the collection is empty',
        'PATCH /artifacts.php sent for the same item with its kept flag and its three independent flags as its row and record show them, beside a search no title matches; for an id no item has where the collection is empty',
        'PATCH /artifact-kept.php sent for the same item with the kept value its row shows; for an id no item has where rows carry no kept flag (staging) or the collection is empty',
      ],
    },
    (t) =>
      refusedWithForbidden(
        t,
        [
          ...applicablePaths(t, ALL_PATHS).flatMap((path) => (['PUT', 'PATCH', 'DELETE'] as const).map((method) => ({ method, path }))),
          // The catalog's path too (§1, §9: served at /api-docs; §7: any write other than the toggle answers 403).
          { method: 'DELETE' as const, path: endpoints.catalog },
        ],
        // A PUT of a real item's whole record (§1: a write, whatever it writes): a door that stores the body as the record
        // shows only on a real item, and wrongly accepting it writes what is there. It takes the place of the PUT for an id no item has.
        { method: 'PUT', path: endpoints.item },
        { method: 'PATCH', path: endpoints.item },
        undefined,
        { method: 'PATCH', path: endpoints.uses },
        { method: 'PATCH', path: endpoints.players },
        true,
      ),
  );

  check(
    {
      id: 'WRITE-002',
      level: 'MUST',
      sections: ['§1', '§7'],
      title:
        'POST to every read-only endpoint answers 403 and changes nothing, also a POST /artifact.php naming a real item; a POST /tags.php restating the one label of a real item and POSTs to /artifact-physical.php, /artifact-digital.php and /artifact-secondary.php restating its flags (paths the spec does not name) are not accepted',
      accepts: [
        'any body with the 403',
        'POST /tags.php answered with any status but a 2xx (a 404 where the path is not served, 405, the 403), or with the answer a POST to a path no API serves gets (a catch-all page: the very same, or, carrying a fresh token, one of the same status and media type, neither JSON)',
        'no item with exactly one label: then /tags.php is not probed',
        'the flag paths answered with any status but a 2xx (a 404 where they are not served, 405, the 403), or with the catch-all answer of a path no API serves',
      ],
    },
    (t) =>
      refusedWithForbidden(
        t,
        applicablePaths(t, READ_ONLY_PATHS).map((path) => ({ method: 'POST' as const, path })),
        { method: 'POST', path: endpoints.item },
        undefined,
        TAGS_PATH,
        undefined,
        undefined,
        false,
        FLAG_TOGGLE_PATHS,
      ),
  );

  check(
    {
      id: 'ENUM-001',
      level: 'MUST',
      sections: ['§1', '§5'],
      keptBlind: true,
      title:
        'no attempt at user enumeration lists users or other user data, also a user search sent as a POST, the listing path asked with OPTIONS, the listing path with a trailing slash, in another letter case, with a .json suffix and with its dot percent-encoded, a REST-style read of one user, and the listing path with the second key',
      accepts: [
        'any status but a 5xx (the paths probed are not named by the spec)',
        "a 200 catch-all page that holds no records and none of the user's data",
        "the /api/… path is probed only under a base URL at a host's root",
        "/user.php asked for the second user's ids (from its household's represents_user_id): any answer without that user's record",
        'a POST /users.php (a user search) answered with any status, as long as it lists no users',
        'OPTIONS /users.php answered with any status but a 5xx (a 204 preflight, a 405, the 403), as long as it lists no users',
        'GET /users.php/ answered with any status but a 5xx (a 404, a redirect, the 403), as long as it lists no users',
        'GET /Users.php answered with any status but a 5xx (a 404 where paths are case-sensitive, the 403), as long as it lists no users',
        'GET /users.json answered with any status but a 5xx (a 404 where no format suffix is routed, the 403), as long as it lists no users',
        'GET /users%2Ephp answered with any status but a 5xx (a 404 where the path is not decoded, the 403 where it is), as long as it lists no users',
        "GET /users/<id> (the second user's id) answered with any status but a 5xx (a 404, a 405, the 403), as long as it carries no record of that user",
        "GET /users/<id> sent only for an id the second user's household names and the key's household does not (a household may record another user; the key's own record is no enumeration); not sent without the second user's key",
      ],
    },
    async (t) => {
      // The main listing path with the second key too: whoever the key's user is, enumeration is refused (§5).
      const [{ answers, userIds, baseline, known }, second] = await Promise.all([
        enumerationProbes(t, true),
        t.target.keys.other !== undefined ? t.api.get(USER_LISTING_PATHS[0], { ...LISTING_QUERY }, 'other') : undefined,
      ]);
      if (second) {
        const what = `GET ${new URL(second.request.url).pathname} with the second key`;
        ensureNo5xx('C7.2', second, what);
        const leak = sameAnswer(second, baseline) ? undefined : userDataIn(second, known);
        ensure('C1.3', leak === undefined, `${what} answered ${second.response.status} and ${leak}: enumerating users must be refused, for every key`, second);
      }
      for (const [i, ex] of answers.entries()) {
        const what = `${ex.request.method} ${ex.request.url}`;
        ensureNo5xx('C7.2', ex, what);
        // The answer every unknown path gets holds no user listing, whatever it holds.
        const leak = sameAnswer(ex, baseline) ? undefined : (userDataIn(ex, known) ?? userRecordIn(ex, userIds[i]));
        ensure('C1.3', leak === undefined, `${what} answered ${ex.response.status} and ${leak}: enumerating users must be refused`, ex);
      }
    },
  );

  check(
    {
      id: 'ENUM-002',
      level: 'MUST',
      sections: ['§1', '§5', '§7'],
      keptBlind: true,
      title: 'a user enumeration path the target serves answers 403',
      accepts: [
        'no enumeration path at all: 404, 410, a 200 catch-all page without user data, or the answer a path no API serves gets (the check then skips)',
        'a route without an extension (/users) redirected elsewhere, as a front controller sends unknown routes to its login page',
      ],
    },
    async (t) => {
      const { answers, baseline, known } = await enumerationProbes(t);
      // A path without an extension (/users) redirected elsewhere (a front controller sending unknown routes to its login
      // page) is no endpoint of the target: the made-up path it is compared with ends in .php, which such a server may 404.
      const redirectedRoute = (ex: Exchange) => ex.response.status >= 300 && ex.response.status < 400 && !/\.[a-z]+$/i.test(new URL(ex.request.url).pathname);
      const served = answers.filter((ex) => !answersAsAbsent(ex, known, baseline) && !redirectedRoute(ex));
      t.need(
        served[0],
        `no user enumeration path exists on this target (${answers.map((ex) => `${new URL(ex.request.url).pathname} → ${ex.response.status}`).join(', ')}: each absent or a catch-all page)`,
      );
      const wrong = served.filter((ex) => ex.response.status !== 403);
      ensure(
        'C1.3',
        wrong.length === 0,
        `user enumeration must answer 403 where the path exists: ${wrong.map((ex) => `GET ${new URL(ex.request.url).pathname} → ${ex.response.status}`).join(', ')}`,
        wrong[0],
      );
    },
  );
});

function withoutKept(record: Row): Row {
  const { is_kept: _kept, ...rest } = record;
  return rest;
}

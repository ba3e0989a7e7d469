import { describe } from 'vitest';
import { check, type CheckContext } from '../src/check.ts';
import { ensure, ensureNo5xx, is2xx, is4xx } from '../src/expect.ts';
import { endpoints } from '../src/http/api.ts';
import type { Exchange, Method } from '../src/http/exchange.ts';
import { fingerprints, stateSnapshot, userDataIn } from '../src/probes.ts';
import { profiles } from '../src/profiles.ts';

const READ_ONLY_PATHS = [endpoints.item, endpoints.uses, endpoints.proposals, endpoints.types, endpoints.upcoming, endpoints.players];
const ALL_PATHS = [endpoints.list, endpoints.kept, ...READ_ONLY_PATHS];

interface WriteProbe {
  method: Method;
  path: string;
}

/**
 * Sends each probe with a payload that does no harm even if a broken server accepts it: an id no
 * item has, and fields that restate nothing real. The whole visible state must be unchanged after.
 */
async function refusedWithForbidden(t: CheckContext, probes: readonly WriteProbe[]): Promise<void> {
  const absentId = await t.discover.unusedId();
  const payload = { id: absentId, artifact_id: absentId, Title: 'conform probe (must be refused)', is_kept: 0 };
  const traces = { id: absentId, title: payload.Title };
  const before = await stateSnapshot(t.api, 'primary', t.target.profile, traces);
  const exchanges = await Promise.all(
    probes.map(async (p) => ({ p, ex: await t.api.probe(p.method, p.path, { query: { id: absentId }, json: payload }) })),
  );
  for (const { p, ex } of exchanges) {
    ensureNo5xx(ex, `${p.method} ${p.path}`);
    ensure(ex.response.status === 403, `${p.method} ${p.path} is a write other than the kept toggle: expected 403, got ${ex.response.status}`, ex);
  }
  const after = await stateSnapshot(t.api, 'primary', t.target.profile, traces);
  ensure(after === before, `the collection changed after the forbidden-write probes (${probes.map((p) => `${p.method} ${p.path}`).join(', ')})`, exchanges.at(-1)?.ex);
}

function applicablePaths(t: CheckContext, paths: readonly string[]): string[] {
  return paths.filter((p) => p !== endpoints.players || profiles[t.target.profile].has('players'));
}

const USER_ENUMERATION_PATHS = ['/users.php', '/user.php', '/users', '/api/users.php'];

async function enumerationProbes(t: CheckContext): Promise<Exchange[]> {
  return Promise.all(USER_ENUMERATION_PATHS.map((path) => t.api.probe('GET', path, { query: { all: 1 } })));
}

describe('forbidden writes and user enumeration (§1, §5, §7)', () => {
  check(
    { id: 'WRITE-001', level: 'MUST', section: '§1, §7', title: 'PUT, PATCH and DELETE on every endpoint answer 403 and change nothing' },
    (t) => refusedWithForbidden(t, applicablePaths(t, ALL_PATHS).flatMap((path) => (['PUT', 'PATCH', 'DELETE'] as const).map((method) => ({ method, path })))),
  );

  check(
    { id: 'WRITE-002', level: 'MUST', section: '§1, §7', title: 'POST to every read-only endpoint answers 403 and changes nothing' },
    (t) => refusedWithForbidden(t, applicablePaths(t, READ_ONLY_PATHS).map((path) => ({ method: 'POST' as const, path }))),
  );

  check(
    { id: 'ENUM-001', level: 'MUST', section: '§1, §5', title: 'user enumeration is refused and lists no users' },
    async (t) => {
      const { rows } = await t.discover.collection();
      const known = fingerprints(rows);
      for (const ex of await enumerationProbes(t)) {
        ensureNo5xx(ex, `GET ${ex.request.url}`);
        ensure(!is2xx(ex), `GET ${ex.request.url} answered ${ex.response.status}: enumerating users must be refused`, ex);
        ensure(is4xx(ex), `GET ${ex.request.url}: expected a 4xx refusal, got ${ex.response.status}`, ex);
        const leak = userDataIn(ex, known);
        ensure(leak === undefined, `GET ${ex.request.url}: refused, but ${leak}`, ex);
      }
    },
  );

  check(
    { id: 'ENUM-002', level: 'SHOULD', section: '§1, §5, §7', title: 'user enumeration answers 403 rather than another refusal' },
    async (t) => {
      for (const ex of await enumerationProbes(t)) {
        ensure(ex.response.status === 403, `GET ${ex.request.url}: a user enumeration attempt should answer 403, got ${ex.response.status}`, ex);
      }
    },
  );
});

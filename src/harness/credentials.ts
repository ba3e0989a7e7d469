import type { Auth, RequestSpec } from '../http/exchange.ts';
import type { ProfileName } from '../spec/profiles.ts';
import { everyEndpoint, type EndpointProbe } from './endpoint-probes.ts';

/**
 * The credentials the authentication checks (suites/auth.check.ts) send every endpoint, each to be refused (§5). They
 * live here so that a full run can send the probes that name nothing the target holds while its checks load
 * (discovery's prefetchedReads) and hand each answer to the check that sends the same request.
 */
export interface Credential {
  label: string;
  auth: Auth;
}

/** The spellings of one kind of credential: they take turns across the endpoints. */
export type CredentialKind = readonly Credential[];

export const UNKNOWN_KEY_HEADER = 'Bearer conform-unknown-key-7f3a9c21e5d04b8f';

/** AUTH-001: no Authorization header at all. */
export const NO_HEADER: readonly CredentialKind[] = [[{ label: 'no Authorization header', auth: 'none' }]];

/**
 * AUTH-002: two kinds of malformed header: no token (two spellings), and a credential that is not a key (another
 * scheme, or a word a client writes for a missing value: three spellings). Every endpoint meets both kinds; each
 * spelling of the second reaches a third of the endpoints.
 */
export const MALFORMED_HEADERS: readonly CredentialKind[] = [
  [
    { label: 'a bare "Bearer"', auth: { header: 'Bearer' } },
    { label: 'an empty bearer token', auth: { header: 'Bearer   ' } },
  ],
  [
    { label: 'Basic credentials', auth: { header: 'Basic Y29uZm9ybTpwcm9iZQ==' } },
    { label: 'the token "null"', auth: { header: 'Bearer null' } },
    { label: 'the token "undefined"', auth: { header: 'Bearer undefined' } },
  ],
];

/** AUTH-003: a key no user has. */
export const UNKNOWN_KEY: readonly CredentialKind[] = [[{ label: 'an unknown key', auth: { header: UNKNOWN_KEY_HEADER } }]];

export interface CredentialSend extends Credential {
  probe: EndpointProbe;
}

/**
 * Every endpoint meets every kind; the spellings of one kind take turns across the endpoints (the first endpoint gets
 * the first spelling, the next the second, …), so that every spelling meets several endpoints.
 */
export function credentialSends(kinds: readonly CredentialKind[], probes: readonly EndpointProbe[]): CredentialSend[] {
  return kinds.flatMap((spellings) => probes.map((probe, i) => ({ probe, ...spellings[i % spellings.length]! })));
}

/** The authentication checks' requests that name nothing the target holds, as the checks send them. */
export function dataFreeCredentialRequests(profile: ProfileName): RequestSpec[] {
  // The sample only shapes the probes that name data, which are left out here.
  const probes = everyEndpoint(profile, { itemId: 0, absentId: 0 });
  return [NO_HEADER, MALFORMED_HEADERS, UNKNOWN_KEY].flatMap((kinds) =>
    credentialSends(kinds, probes).flatMap(({ probe, auth }) => (probe.dataFree ? [probe.request(auth)] : [])),
  );
}

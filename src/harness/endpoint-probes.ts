import { endpoints, getRequest, listRequest, probeRequest, type Api } from '../http/api.ts';
import type { Auth, Exchange, RequestSpec } from '../http/exchange.ts';
import { profiles, type ProfileName } from '../spec/profiles.ts';

/** One request to every endpoint of the profile (§4), parameterised by credentials. */
export interface EndpointProbe {
  name: string;
  request(auth: Auth): RequestSpec;
  /** Whether the request names nothing the target holds (no item, player or absent id): a run may send it early. */
  dataFree: boolean;
}

/** Sends an endpoint probe with the given credentials. */
export const sendProbe = (api: Api, probe: EndpointProbe, auth: Auth): Promise<Exchange> => api.client.send(probe.request(auth));

export function everyEndpoint(
  profile: ProfileName,
  sample: { itemId: string | number; absentId: string | number; playerId?: string | number; kept?: { id: string | number; value: 0 | 1 } },
): EndpointProbe[] {
  // A player of the household as well (where players are offered): a server that finds the owner from the player shows it too.
  const usesQuery =
    sample.playerId === undefined || !profiles[profile].has('uses-player-filter')
      ? { artifact_id: sample.itemId }
      : { artifact_id: sample.itemId, player_id: sample.playerId };
  const probes: EndpointProbe[] = [
    { name: `GET ${endpoints.list}`, request: (auth) => getRequest(endpoints.list, {}, auth), dataFree: true },
    { name: `POST ${endpoints.list}`, request: (auth) => listRequest({}, auth), dataFree: true },
    { name: `GET ${endpoints.item}`, request: (auth) => getRequest(endpoints.item, { id: sample.itemId }, auth), dataFree: false },
    // The uses of an item of the user: a server that finds the owner from the item (a "share link") shows it (§5).
    {
      name: `GET ${endpoints.uses}?${new URLSearchParams(Object.entries(usesQuery).map(([k, v]) => [k, String(v)]))}`,
      request: (auth) => getRequest(endpoints.uses, usesQuery, auth),
      dataFree: false,
    },
    { name: `GET ${endpoints.proposals}`, request: (auth) => getRequest(endpoints.proposals, { include_other: 1 }, auth), dataFree: true },
    // With the catalog's query (§9: /api-docs?format=json): a server that exempts the catalog from the key by its query
    // string, not its path, serves this without a key.
    { name: `GET ${endpoints.types}?format=json`, request: (auth) => getRequest(endpoints.types, { format: 'json' }, auth), dataFree: true },
    { name: `GET ${endpoints.upcoming}`, request: (auth) => getRequest(endpoints.upcoming, {}, auth), dataFree: true },
    // An item of the user with the kept value it has (where rows show it), else an id no item has: harmless even if a broken
    // server accepted the write, so a probe (and resent on transient faults). A server that checks the key only for a write
    // that would change something serves the first.
    {
      name: `POST ${endpoints.kept}`,
      request: (auth) =>
        probeRequest('POST', endpoints.kept, {
          json: sample.kept ? { id: sample.kept.id, is_kept: sample.kept.value } : { id: sample.absentId, is_kept: 0 },
          auth,
        }),
      dataFree: false,
    },
  ];
  if (profiles[profile].has('players'))
    probes.push({ name: `GET ${endpoints.players}`, request: (auth) => getRequest(endpoints.players, {}, auth), dataFree: true });
  return probes;
}

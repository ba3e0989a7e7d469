import { assertMayToggle, currentCheck } from './check-scope.ts';
import type { ApiClient } from './client.ts';
import type { Auth, Exchange, Method, RequestSpec } from './exchange.ts';

/** The Agent API's endpoints (§4) as calls. Checks use these; only the client builds requests. */
export const endpoints = {
  list: '/artifacts.php',
  item: '/artifact.php',
  uses: '/uses.php',
  players: '/players.php',
  proposals: '/proposals.php',
  types: '/types.php',
  upcoming: '/upcoming-interactions.php',
  kept: '/artifact-kept.php',
  catalog: '/api-docs',
} as const;

export type Query = Record<string, string | number | undefined>;

/** The request of POST /artifacts.php with a JSON body (Api.list). */
export function listRequest(body: unknown, auth: Auth = 'primary'): RequestSpec {
  return { method: 'POST', path: endpoints.list, json: body, auth, idempotent: true };
}

/** A GET of an endpoint with a query (Api.get). */
export function getRequest(path: string, query: Query = {}, auth: Auth = 'primary'): RequestSpec {
  return { method: 'GET', path, query, auth, idempotent: true };
}

/** A deliberate probe of something the spec forbids (Api.probe). */
export function probeRequest(method: Method, path: string, rest: Omit<RequestSpec, 'method' | 'path' | 'intent'> = {}): RequestSpec {
  return { method, path, ...rest, intent: 'probe' };
}

/** The request of POST /artifacts.php with a verbatim body (Api.listRaw). */
export function rawListRequest(rawBody: string, auth: Auth = 'primary'): RequestSpec {
  return { method: 'POST', path: endpoints.list, rawBody, auth, idempotent: true };
}

export class Api {
  constructor(readonly client: ApiClient) {}

  /** POST /artifacts.php with a JSON body; `body: undefined` sends a GET with no body (§4). `query`: a query string beside it. */
  list(body?: unknown, auth: Auth = 'primary', query?: Query): Promise<Exchange> {
    const beside = query === undefined ? {} : { query };
    if (body === undefined) return this.client.send({ ...getRequest(endpoints.list, undefined, auth), ...beside });
    return this.client.send({ ...listRequest(body, auth), ...beside });
  }

  /** POST /artifacts.php with a verbatim body (malformed JSON probes). */
  listRaw(rawBody: string, auth: Auth = 'primary'): Promise<Exchange> {
    return this.client.send(rawListRequest(rawBody, auth));
  }

  item(id: string | number, auth: Auth = 'primary', extra: Query = {}): Promise<Exchange> {
    return this.get(endpoints.item, { id, ...extra }, auth);
  }

  uses(query: Query = {}, auth: Auth = 'primary'): Promise<Exchange> {
    return this.get(endpoints.uses, query, auth);
  }

  players(auth: Auth = 'primary', query: Query = {}): Promise<Exchange> {
    return this.get(endpoints.players, query, auth);
  }

  proposals(query: Query = {}, auth: Auth = 'primary'): Promise<Exchange> {
    return this.get(endpoints.proposals, query, auth);
  }

  types(auth: Auth = 'primary', query: Query = {}): Promise<Exchange> {
    return this.get(endpoints.types, query, auth);
  }

  upcoming(auth: Auth = 'primary', query: Query = {}): Promise<Exchange> {
    return this.get(endpoints.upcoming, query, auth);
  }

  catalog(): Promise<Exchange> {
    return this.get(endpoints.catalog, { format: 'json' }, 'primary');
  }

  /** POST /artifact-kept.php. Checks reach this through KeptWriter, which journals and restores. */
  setKept(body: unknown, auth: Auth = 'primary', query?: Query): Promise<Exchange> {
    return this.toggle({ method: 'POST', path: endpoints.kept, json: body, auth, intent: 'kept-toggle', ...(query ? { query } : {}) });
  }

  setKeptRaw(rawBody: string, auth: Auth = 'primary'): Promise<Exchange> {
    return this.toggle({ method: 'POST', path: endpoints.kept, rawBody, auth, intent: 'kept-toggle' });
  }

  /**
   * No background read may be in flight when a check writes, and a write makes whatever the check
   * saw of kept values stale, before and after it lands.
   */
  private async toggle(spec: RequestSpec): Promise<Exchange> {
    assertMayToggle();
    await currentCheck()?.quiet();
    currentCheck()?.seenKept.clear();
    try {
      return await this.client.send(spec);
    } finally {
      currentCheck()?.seenKept.clear();
    }
  }

  get(path: string, query: Query, auth: Auth = 'primary'): Promise<Exchange> {
    return this.client.send(getRequest(path, query, auth));
  }

  /**
   * A deliberate probe of something the spec forbids. The caller vouches that the payload is
   * harmless even if a broken server accepted it (an id no item has, current values).
   */
  probe(method: Method, path: string, rest: Omit<RequestSpec, 'method' | 'path' | 'intent'> = {}): Promise<Exchange> {
    return this.client.send(probeRequest(method, path, rest));
  }
}

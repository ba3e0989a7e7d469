import { HTTPResponseStatusClass, MatchersV3, type PactV4 } from '@pact-foundation/pact';
import { ensure } from '../harness/expect.ts';
import { endpoints, type Api } from '../http/api.ts';
import type { Exchange } from '../http/exchange.ts';
import { errorsList, flag, isObject, itemFlag, recordOf } from '../spec/lenient.ts';
import type { Capability } from '../spec/profiles.ts';
import { examples, PLACEHOLDER_AUTHORIZATION, states, UNKNOWN_KEY_AUTHORIZATION, type StateName } from './contract.ts';
import { anyList, injected, isoDate, matchStatus, present, yesNo } from './matchers.ts';

type V4UnconfiguredInteraction = ReturnType<PactV4['addInteraction']>;
type V4InteractionWithResponse = ReturnType<ReturnType<V4UnconfiguredInteraction['withRequest']>['willRespondWith']>;

/**
 * One interaction of the agent's contract: the request and the answer as the pact records them, the
 * call the agent makes through its own client (src/http/api.ts), and what it relies on in the answer.
 */
export interface ContractInteraction {
  description: string;
  states: StateName[];
  /** Capabilities of a deployment the interaction needs (§4, §9); a profile without them leaves it out. */
  requires?: readonly Capability[];
  declare(interaction: V4UnconfiguredInteraction): V4InteractionWithResponse;
  call(api: Api): Promise<Exchange>;
  /** Throws when the agent could not use the answer the mock gave it. */
  expect(exchange: Exchange): void;
}

const withKey = { Authorization: MatchersV3.regex('^Bearer \\S+$', PLACEHOLDER_AUTHORIZATION) };

function status(exchange: Exchange, expected: number): void {
  ensure(exchange.response.status === expected, `expected ${expected}, got ${exchange.response.status}`, exchange);
}

function body(exchange: Exchange): Record<string, unknown> {
  const json = exchange.response.json;
  ensure(isObject(json), 'expected a JSON object', exchange);
  return json;
}

/** A list answer: the agent pages with has_more (§4 rule 2). The rows' key is not shown (§4 rule 5), so the pact leaves it out. */
function listInteraction(
  description: string,
  requestBody: Record<string, unknown> | undefined,
  cursor = false,
  requires: readonly Capability[] = [],
): ContractInteraction {
  const envelope = { has_more: yesNo(false), ...(cursor ? { next_cursor: present(null) } : {}) };
  return {
    description,
    states: [],
    ...(requires.length > 0 ? { requires } : {}),
    declare: (i) =>
      i
        .uponReceiving(description)
        .withRequest(requestBody === undefined ? 'GET' : 'POST', endpoints.list, (r) => {
          r.headers(withKey);
          if (requestBody !== undefined) r.jsonBody(requestBody);
        })
        .willRespondWith(200, (r) => r.jsonBody(envelope)),
    call: (api) => api.list(requestBody),
    expect(exchange) {
      status(exchange, 200);
      const envelopeRead = body(exchange);
      ensure(flag(envelopeRead.has_more) !== undefined, 'has_more is not a yes/no value', exchange);
      if (cursor) ensure('next_cursor' in envelopeRead, 'next_cursor is missing', exchange);
    },
  };
}

/** A read whose answer's shape the spec does not show (envelope or fields): the pact holds it to a 200. */
function plainRead(
  description: string,
  path: string,
  query: Record<string, unknown>,
  call: (api: Api) => Promise<Exchange>,
  given: StateName[] = [],
  requires: readonly Capability[] = [],
): ContractInteraction {
  return {
    description,
    states: given,
    ...(requires.length > 0 ? { requires } : {}),
    declare: (i) =>
      given
        .reduce((acc, state) => acc.given(state), i)
        .uponReceiving(description)
        .withRequest('GET', path, (r) => {
          r.headers(withKey);
          if (Object.keys(query).length > 0) r.query(query as Parameters<typeof r.query>[0]);
        })
        .willRespondWith(200),
    call,
    expect: (exchange) => status(exchange, 200),
  };
}

const reads: ContractInteraction[] = [
  listInteraction('a GET of the item list without a body', undefined),
  listInteraction('a POST of the item list with an empty body', {}),
  listInteraction('a POST of the item list paged by cursor', { per_page: 5, cursor: null }, true),
  listInteraction(
    'a POST of the item list with every filter',
    {
      page: 1,
      per_page: 5,
      query: 'a',
      tag: 'portable',
      kept: true,
      physical: false,
      digital: false,
      secondary_collection: false,
    },
    false,
    ['list-filters'],
  ),
  listInteraction('a POST of the item list with the optional fields', { per_page: 5, fields: 'collection', include: ['uses_summary'] }, false, [
    'list-fields',
    'list-include',
  ]),
  {
    description: 'a GET of one item',
    states: [states.hasItem],
    declare: (i) =>
      i
        .given(states.hasItem)
        .uponReceiving('a GET of one item')
        .withRequest('GET', endpoints.item, (r) => r.headers(withKey).query({ id: injected('itemId', String(examples.itemId)) }))
        // The record may come bare or inside an envelope whose name is not shown (§4): the pact holds the
        // answer to a 200 with a JSON object, and the agent finds the record in it by its structure.
        .willRespondWith(200, (r) => r.jsonBody({})),
    call: (api) => api.item(examples.itemId),
    expect(exchange) {
      status(exchange, 200);
      const record = recordOf(body(exchange));
      if (record === undefined) return;
      for (const name of ['is_kept', 'is_physical', 'is_digital', 'is_in_secondary_collection']) {
        ensure(itemFlag(record[name]) !== undefined, `${name} is not a flag`, exchange);
      }
      ensure(Array.isArray(record.tags), 'tags is not a list', exchange);
    },
  },
  plainRead('a GET of every use', endpoints.uses, {}, (api) => api.uses()),
  plainRead(
    'a GET of the uses of one item',
    endpoints.uses,
    { artifact_id: injected('itemId', String(examples.itemId)) },
    (api) => api.uses({ artifact_id: examples.itemId }),
    [states.hasItem],
  ),
  plainRead('a GET of the players', endpoints.players, {}, (api) => api.players(), [], ['players']),
  plainRead('a GET of the proposal outcomes', endpoints.proposals, {}, (api) => api.proposals()),
  plainRead(
    'a GET of the proposal outcomes in a date window, sorted by name',
    endpoints.proposals,
    { start: isoDate('2024-01-01'), end: isoDate('2024-12-31'), include_other: MatchersV3.regex('^[01]$', '1'), sort: 'item_name', direction: 'desc' },
    (api) => api.proposals({ start: '2024-01-01', end: '2024-12-31', include_other: 1, sort: 'item_name', direction: 'desc' }),
  ),
  plainRead('a GET of the item types', endpoints.types, {}, (api) => api.types()),
  plainRead('a GET of the upcoming interactions', endpoints.upcoming, {}, (api) => api.upcoming()),
  {
    description: 'a GET of the machine-readable catalog',
    states: [],
    declare: (i) =>
      i
        .uponReceiving('a GET of the machine-readable catalog')
        .withRequest('GET', endpoints.catalog, (r) => r.headers(withKey).query({ format: 'json' }))
        // Its content and format are not shown (§1): a JSON object, OpenAPI or not.
        .willRespondWith(200, (r) => r.jsonBody({})),
    call: (api) => api.catalog(),
    expect(exchange) {
      status(exchange, 200);
      body(exchange);
    },
  },
];

const keptBody = (isKept: unknown) => ({ id: injected('itemId', examples.itemId), is_kept: isKept });

const writes: ContractInteraction[] = [
  {
    description: 'a POST of the kept toggle that sets the value the item already has',
    states: [states.hasItemWithKnownKept],
    declare: (i) =>
      i
        .given(states.hasItemWithKnownKept)
        .uponReceiving('a POST of the kept toggle that sets the value the item already has')
        .withRequest('POST', endpoints.kept, (r) => r.headers(withKey).jsonBody(keptBody(injected('kept', examples.kept))))
        // The status of a successful toggle and its body are not shown (§4): any 2xx.
        .willRespondWith(matchStatus(200, HTTPResponseStatusClass.Success)),
    call: (api) => api.setKept({ id: examples.itemId, is_kept: examples.kept }),
    expect: (exchange) => ensure(exchange.response.status >= 200 && exchange.response.status < 300, 'expected a 2xx', exchange),
  },
  {
    description: 'a POST of the kept toggle with is_kept outside 0 and 1',
    states: [states.hasItemWithKnownKept],
    declare: (i) =>
      i
        .given(states.hasItemWithKnownKept)
        .uponReceiving('a POST of the kept toggle with is_kept outside 0 and 1')
        .withRequest('POST', endpoints.kept, (r) => r.headers(withKey).jsonBody(keptBody(2)))
        // Invalid, but its status is not stated (§7): any 4xx.
        .willRespondWith(matchStatus(400, HTTPResponseStatusClass.ClientError)),
    call: (api) => api.setKept({ id: examples.itemId, is_kept: 2 }),
    expect: (exchange) => ensure(exchange.response.status >= 400 && exchange.response.status < 500, 'expected a 4xx', exchange),
  },
];

const refusals: ContractInteraction[] = [
  {
    description: 'a POST of the item list with an invalid filter value',
    states: [],
    requires: ['list-filters'],
    declare: (i) =>
      i
        .uponReceiving('a POST of the item list with an invalid filter value')
        .withRequest('POST', endpoints.list, (r) => r.headers(withKey).jsonBody({ kept: 'not-a-boolean' }))
        .willRespondWith(400, (r) => r.jsonBody({ errors: anyList() })),
    call: (api) => api.list({ kept: 'not-a-boolean' }),
    expect(exchange) {
      status(exchange, 400);
      ensure(errorsList(exchange.response.json) !== undefined, 'the 400 carries no errors list', exchange);
    },
  },
  {
    description: 'a DELETE of an item (a forbidden write)',
    states: [states.hasAbsentId],
    declare: (i) =>
      i
        .given(states.hasAbsentId)
        .uponReceiving('a DELETE of an item (a forbidden write)')
        .withRequest('DELETE', endpoints.item, (r) => r.headers(withKey).query({ id: injected('absentId', String(examples.absentId)) }))
        .willRespondWith(403),
    call: (api) => api.probe('DELETE', endpoints.item, { query: { id: examples.absentId } }),
    expect: (exchange) => status(exchange, 403),
  },
  {
    description: 'a POST to a read-only endpoint (a forbidden write)',
    states: [states.hasAbsentId],
    declare: (i) =>
      i
        .given(states.hasAbsentId)
        .uponReceiving('a POST to a read-only endpoint (a forbidden write)')
        .withRequest('POST', endpoints.uses, (r) => r.headers(withKey).jsonBody({ artifact_id: injected('absentId', examples.absentId) }))
        .willRespondWith(403),
    call: (api) => api.probe('POST', endpoints.uses, { json: { artifact_id: examples.absentId } }),
    expect: (exchange) => status(exchange, 403),
  },
  {
    description: 'a GET of the item list without an Authorization header',
    states: [],
    declare: (i) =>
      i
        .uponReceiving('a GET of the item list without an Authorization header')
        .withRequest('GET', endpoints.list)
        // The status of a missing or invalid key is not shown (§7): 401 or 403.
        .willRespondWith(matchStatus(401, [401, 403])),
    call: (api) => api.list(undefined, 'none'),
    expect: (exchange) => ensure([401, 403].includes(exchange.response.status), 'expected 401 or 403', exchange),
  },
  {
    description: 'a GET of the item list with a key no deployment issued',
    states: [],
    declare: (i) =>
      i
        .uponReceiving('a GET of the item list with a key no deployment issued')
        .withRequest('GET', endpoints.list, (r) => r.headers({ Authorization: UNKNOWN_KEY_AUTHORIZATION }))
        .willRespondWith(matchStatus(401, [401, 403])),
    call: (api) => api.list(undefined, { header: UNKNOWN_KEY_AUTHORIZATION }),
    expect: (exchange) => ensure([401, 403].includes(exchange.response.status), 'expected 401 or 403', exchange),
  },
];

/** The agent's whole contract, in the order the pact records it. */
export const contract: readonly ContractInteraction[] = [...reads, ...writes, ...refusals];

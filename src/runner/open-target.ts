import type { TargetChoice } from '../config/plan.ts';
import { NoVerdictError, TransportError, UsageError } from '../core/errors.ts';
import { Api, endpoints } from '../http/api.ts';
import { ApiClient, type RateLimitNotice, type TransportCounts } from '../http/client.ts';
import { proxyFor, type NetworkOptions } from '../http/network.ts';
import type { Exchange } from '../http/exchange.ts';
import { isObject, rowsOf } from '../spec/lenient.ts';
import type { KeyRef } from '../safety/journal.ts';
import type { ProfileName } from '../spec/profiles.ts';
import { WALK_BODY, type PreflightAnswers } from '../harness/target.ts';
import { isCheckRequest, prefetchedReads } from '../harness/discovery.ts';
import type { PrefetchSent } from '../harness/prefetch-channel.ts';

/** A reachable target for the CLI's own requests (pre-flight, restores), plus how to close it. */
export interface OpenTarget {
  baseUrl: string;
  label: string;
  profile: ProfileName;
  keys: { primary: string; other?: string };
  /** Where the primary key came from (`--key`, an environment variable), for the refused-key message. */
  keySource?: string;
  /** Where the second user's key came from, for the same message about it. */
  otherKeySource?: string;
  network?: NetworkOptions;
  api(user: KeyRef): Api | undefined;
  /** The pre-flight's answers the checks take instead of reading them again (filled by preflight() and readAhead()). */
  preflightAnswers: PreflightAnswers;
  /** Shared reads the CLI sent while the checks loaded (prefetchSharedReads), by discovery key. */
  prefetched: Record<string, Exchange>;
  /** Set while those reads are on the network (prefetchSharedReads): the run may start, its checks wait for them. */
  prefetching?: Prefetch;
  /** What the CLI's own client (pre-flight, end-of-run restores) met on the way. */
  counts(): TransportCounts;
  close(): Promise<void>;
}

export async function openTarget(
  choice: TargetChoice,
  options: {
    timeoutMs?: number;
    /** The run's --concurrency and --rps, for its pre-flight and end-of-run restores (default: 2 connections, no pace). */
    politeness?: { connections: number; rps: number };
    onRateLimit?: (notice: RateLimitNotice) => void;
  } = {},
): Promise<OpenTarget> {
  let baseUrl: string;
  let keys: { primary: string; other?: string };
  let stopReference = async () => {};
  if (choice.kind === 'embedded') {
    const { startReference } = await import('../../fixtures/reference/server.ts');
    // Hidden, for scripts/bench.ts: the embedded reference with a larger collection per user.
    const itemsPerUser = Number(process.env.CONFORM_REFERENCE_ITEMS);
    const dataset =
      Number.isSafeInteger(itemsPerUser) && itemsPerUser > 0 ? (await import('../../fixtures/dataset.ts')).buildDataset({ itemsPerUser }) : undefined;
    const reference = await startReference({ profile: choice.profile, ...(dataset ? { dataset } : {}) });
    baseUrl = reference.url;
    keys = { primary: reference.keys.primary, other: reference.keys.other };
    stopReference = () => reference.close();
  } else {
    baseUrl = choice.baseUrl;
    keys = choice.keys;
  }
  const clients: Partial<Record<KeyRef, Api>> = {};
  const client = new ApiClient({
    baseUrl,
    keys,
    timeoutMs: options.timeoutMs ?? 10_000,
    connections: options.politeness?.connections ?? 2,
    ...(options.politeness?.rps ? { rps: options.politeness.rps } : {}),
    ...(choice.network ? { network: choice.network } : {}),
    ...(options.onRateLimit ? { onRateLimit: options.onRateLimit } : {}),
  });
  const api = new Api(client);
  clients.primary = api;
  if (keys.other) clients.other = api;
  return {
    baseUrl,
    label: choice.label,
    profile: choice.profile,
    keys,
    ...(choice.kind === 'remote' && choice.keySource ? { keySource: choice.keySource } : {}),
    ...(choice.kind === 'remote' && choice.otherKeySource ? { otherKeySource: choice.otherKeySource } : {}),
    ...(choice.network ? { network: choice.network } : {}),
    api: (user) => clients[user],
    preflightAnswers: {},
    prefetched: {},
    counts: () => client.counts(),
    async close() {
      await client.close();
      await stopReference();
    },
  };
}

/**
 * Reads before the run: an unreachable target is no verdict; a refused key, or a base URL with no
 * Agent API behind it, is a configuration error (exit 2), not a deployment that breaks the spec.
 */
export async function preflight(target: OpenTarget): Promise<void> {
  const api = target.api('primary')!;
  const other = target.keys.other !== undefined ? target.api('other') : undefined;
  const proxy = proxyFor(target.baseUrl, target.network?.proxy);
  // The client's message names the proxy and where it was set.
  const unreachable = proxy ? 'no answer through the proxy' : 'target unreachable';
  // Every read goes out together (one round trip); each answer is judged only once the keys are known to be accepted.
  // The list read is the first page of the checks' collection walk, which they take from here (readAhead).
  const [types, list, otherTypes, otherList] = await Promise.allSettled([
    answer(() => api.types(), unreachable),
    answer(() => api.list(WALK_START), unreachable),
    ...(other ? [answer(() => other.types('other'), unreachable), answer(() => other.list(WALK_START, 'other'), unreachable)] : []),
  ]);
  if (types!.status === 'rejected') throw types!.reason;
  target.preflightAnswers['GET /types.php'] = types!.value;
  if (otherTypes?.status === 'fulfilled') target.preflightAnswers['GET /types.php (second user)'] = otherTypes.value;
  if (list!.status === 'fulfilled') target.preflightAnswers['collection walk, first page'] = list!.value;
  if (otherList?.status === 'fulfilled') target.preflightAnswers['collection walk (second user), first page'] = otherList.value;
  const status = types!.value.response.status;
  if (status === 401 || status === 403)
    throw new UsageError(`the target refused the key (GET /types.php answered ${status}); check ${keyOrigin(target.keySource)}`);
  // 501 says the server does not implement the method at all: a static file server, not a sick Agent API.
  if (status >= 500 && status !== 501) throw new NoVerdictError(`the target is not healthy: GET /types.php answered ${status}`);
  if (list!.status === 'rejected') throw list!.reason;
  ensureAgentApi(target.baseUrl, types!.value, list!.value);
  if (otherTypes && otherList) checkOtherKey(target, otherTypes, otherList, list!.value);
}

/**
 * The catalog, read beside the pre-flight (its declared rate limit paces the run); its answer is kept for
 * the checks. An unreachable catalog is no answer: a check reads it again and judges that.
 */
export async function readCatalog(target: OpenTarget): Promise<Exchange | undefined> {
  try {
    const exchange = await target.api('primary')!.catalog();
    target.preflightAnswers['GET /api-docs?format=json'] = exchange;
    return exchange;
  } catch {
    return undefined;
  }
}

/**
 * For a run that made no pre-flight (the self-test, scripts that open the reference themselves): the reads
 * the CLI's pre-flight would have handed to the checks, sent the same way, so that the checks send and
 * a budget pays what they would in a run of the CLI. A read that gets no answer is left to the checks.
 */
export async function readAhead(target: OpenTarget): Promise<void> {
  const api = target.api('primary')!;
  const other = target.keys.other !== undefined ? target.api('other') : undefined;
  const keep = (read: keyof PreflightAnswers, send: () => Promise<Exchange>) =>
    send().then(
      (exchange) => {
        target.preflightAnswers[read] = exchange;
      },
      () => undefined,
    );
  await Promise.all([
    keep('GET /types.php', () => api.types()),
    keep('collection walk, first page', () => api.list(WALK_START)),
    ...(other
      ? [
          keep('GET /types.php (second user)', () => other.types('other')),
          keep('collection walk (second user), first page', () => other.list(WALK_START, 'other')),
        ]
      : []),
    readCatalog(target),
  ]);
}

/**
 * Sends the run's shared reads that depend on nothing the target holds (prefetchedReads) while the checks load, and
 * keeps their answers for them: the pace a run is held to starts on them instead of waiting for the checks. Only for a
 * run of every check of the primary profile, which takes every one of them (each counted among the requests of the
 * first check that takes it); a read that gets no answer is left to the checks.
 */
/**
 * The prefetch under way: `answered` settles once every answer is in, `shared` once the shared reads' answers are (the
 * requests the checks send themselves go out last), `sent` once the last request is on the network (the checks' client
 * takes over the pace from there).
 */
export interface Prefetch {
  answered: Promise<void>;
  shared: Promise<void>;
  sent: Promise<PrefetchSent>;
}

export function prefetchSharedReads(target: OpenTarget): Prefetch {
  const reads = prefetchedReads(target.baseUrl).filter(({ user }) => target.api(user) !== undefined && (user === 'primary' || target.keys.other !== undefined));
  const client = target.api('primary')!.client;
  const answers = reads.map(async ({ key, user, send }) => {
    const exchange = await send(target.api(user)!).catch(() => undefined);
    if (exchange) target.prefetched[key] = exchange;
  });
  const answered = Promise.all(answers).then(() => undefined);
  // Under 429s the CLI's client paused and slowed: the checks then wait for every answer, so that the two never overlap.
  const paced = () => client.counts().rateLimited === 0;
  return {
    answered,
    shared: Promise.all(answers.filter((_, i) => !isCheckRequest(reads[i]!.key))).then(() => undefined),
    sent: client.whenDispatched().then(async () => {
      if (!paced()) await answered;
      return { keys: reads.map((r) => r.key), notBefore: paced() ? client.nextSlotAt : Date.now() };
    }),
  };
}

/** The first rows each key reads before the run, to tell whether the second key reads the first key's user. */
const SAME_USER_ROWS = 20;
/** The pre-flight's list read: the first page of the checks' collection walk. */
const WALK_START = { ...WALK_BODY, cursor: null };

/**
 * The second user's key is a configuration like the first: refused (401/403), or reading the very rows
 * the first key reads, every cross-user check would fail or pass for the wrong reason.
 */
function checkOtherKey(target: OpenTarget, types: PromiseSettledResult<Exchange>, list: PromiseSettledResult<Exchange>, primaryList: Exchange): void {
  const origin = keyOrigin(target.otherKeySource ?? '--other-key / CONFORM_OTHER_API_KEY');
  if (types.status === 'rejected') throw types.reason;
  const status = types.value.response.status;
  if (status === 401 || status === 403) throw new UsageError(`the target refused the second user's key (GET /types.php answered ${status}); check ${origin}`);
  if (status >= 500) throw new NoVerdictError(`the target is not healthy: GET /types.php answered ${status} to the second user's key`);
  if (list.status === 'rejected') throw list.reason;
  const listStatus = list.value.response.status;
  // A list the first key may not read either is the target's fault (a check judges it), not the second key's.
  const primaryListOk = primaryList.response.status >= 200 && primaryList.response.status < 300;
  if ((listStatus === 401 || listStatus === 403) && primaryListOk)
    throw new UsageError(`the target refused the second user's key (POST /artifacts.php answered ${listStatus}); check ${origin}`);
  const mine = rowIdentity(primaryList);
  if (mine !== undefined && mine === rowIdentity(list.value)) {
    throw new UsageError(
      `the second user's key reads the same collection as the first key (the same ${SAME_USER_ROWS} first rows): it must be a key of another user (or the target ignores which key it is sent); check ${origin}`,
    );
  }
}

/** The ids and titles of a list answer's rows, in order; undefined when there are none to compare. */
function rowIdentity(exchange: Exchange): string | undefined {
  if (exchange.response.status < 200 || exchange.response.status >= 300) return undefined;
  const rows = rowsOf(exchange.response.json)?.slice(0, SAME_USER_ROWS);
  if (!rows || rows.length === 0) return undefined;
  return JSON.stringify(rows.map((row) => (isObject(row) ? [row.id, row.Title] : row)));
}

async function answer(send: () => Promise<Exchange>, unreachable: string): Promise<Exchange> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof TransportError) throw new NoVerdictError(`${unreachable}: ${error.message}`);
    throw error;
  }
}

/**
 * The list endpoint must answer like a list of rows, or this is not the Agent API's base URL. A list
 * refused with 401/403 while /types.php accepted the key is left for the checks; refused while
 * /types.php was not found either, it is no Agent API.
 */
function ensureAgentApi(baseUrl: string, types: Exchange, list: Exchange): void {
  const { status } = list.response;
  const sent = `POST ${baseUrl}${endpoints.list}`;
  if (status >= 500 && status !== 501) throw new NoVerdictError(`the target is not healthy: ${sent} answered ${status}`);
  const typesProblem = notAList(types.response);
  let problem = status === 401 || status === 403 ? (typesProblem ? `answered ${status}` : undefined) : notAList(list.response);
  if (problem === undefined) return;
  if (typesProblem) problem += ` and GET ${baseUrl}${endpoints.types} ${typesProblem}`;
  throw new UsageError(`no Agent API at ${baseUrl}: ${sent} ${problem}; ${pathHint(baseUrl)}`);
}

/**
 * Why an answer of the list endpoint cannot come from the Agent API: not found, HTML, not JSON, or
 * JSON holding no rows in any shape. An empty collection is an answer like any other: an empty list
 * under some key, or has_more / next_cursor, is accepted (the envelope is not shown, §4 rule 5).
 * Other refusals (400 …) are left for the checks to judge.
 */
export function notAList(response: Exchange['response']): string | undefined {
  const { status } = response;
  const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim();
  const typed = type ? ` (${type})` : '';
  if (status === 404 || status === 405 || status === 410 || status === 501) return `answered ${status}${typed}`;
  if (/html/i.test(type) || /^\s*<(!doctype|html)/i.test(response.text)) return `answered ${status} with an HTML page`;
  if (status < 200 || status >= 300) return undefined;
  const body = response.json;
  if (body === undefined) return `answered ${status} with a body that is not JSON${typed}`;
  if (rowsOf(body) !== undefined) return undefined;
  if (isObject(body) && ('has_more' in body || 'next_cursor' in body || Object.entries(body).some(([key, value]) => key !== 'errors' && Array.isArray(value))))
    return undefined;
  return `answered ${status} with JSON that holds no rows in any shape`;
}

function pathHint(baseUrl: string): string {
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return path === ''
    ? `is a path prefix missing from the base URL (e.g. ${baseUrl}/api)? The list endpoint is <base URL>${endpoints.list}`
    : `is the path prefix ${path} right? The list endpoint is <base URL>${endpoints.list}`;
}

function keyOrigin(source: string | undefined): string {
  if (source === undefined) return '--key / CONFORM_API_KEY';
  if (source.includes(' / ')) return source;
  return source.startsWith('--') ? `the key given with ${source}` : `the key in $${source}`;
}

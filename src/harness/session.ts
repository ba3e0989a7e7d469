import { afterAll, inject } from 'vitest';
import { Api } from '../http/api.ts';
import { ApiClient, type TransportTally } from '../http/client.ts';
import { encodeNotice } from '../http/notice.ts';
import { Journal } from '../safety/journal.ts';
import type { TargetContext } from './target.ts';
import { checkRequestKey, Discovery, isCheckRequest } from './discovery.ts';
import type { Schedule } from './schedule.ts';
import { currentCheck, isRunShared, outsideChecks } from '../http/check-scope.ts';
import { singleReads, verifyJournal, type KeptReader } from '../safety/restore.ts';
import { listenForStop } from './stop.ts';
import { awaitPrefetched } from './prefetch-channel.ts';
import { tellUnscopedTransport } from './run-transport-channel.ts';
import type { Exchange } from '../http/exchange.ts';
import { markBudgetSpent } from '../http/request-budget.ts';

/** Per-worker state shared by all checks: one client (one keep-alive pool), one journal, one discovery cache. */
export interface Session {
  target: TargetContext;
  client: ApiClient;
  api: Api;
  journal: Journal;
  discovery: Discovery;
  /** When each check may start; made by the first check of the run, which sees what the run selected. */
  schedule?: Schedule;
  /** The journal's items read once every toggler has ended (verifyJournal); the run ends after it. */
  verifying?: Promise<void>;
  /** What requests sent outside any check met (the journal's verification): told to the CLI once the run's work is over. */
  unscoped: TransportTally;
}

let current: Session | undefined;
let stopListening = () => {};

export function session(): Session {
  const target = inject('conform');
  if (current?.target.runId === target.runId) return current;
  void current?.client.close();
  stopListening();
  const journal = new Journal(target.journalPath);
  const client = new ApiClient({
    baseUrl: target.baseUrl,
    keys: target.keys,
    timeoutMs: target.timeoutMs,
    deadline: target.deadline,
    connections: target.concurrency,
    rps: target.rps,
    ...(target.startRps !== undefined ? { startRps: target.startRps } : {}),
    ...(target.network ? { network: target.network } : {}),
    maxRequests: target.maxRequests,
    ...(target.checkBudget !== undefined
      ? { budget: target.checkBudget, budgetKeptBack: () => journal.requestsToSettle, onBudgetSpent: () => markBudgetSpent(currentCheck()) }
      : {}),
    // The worker has no terminal of its own: vitest carries console lines to the CLI's progress reporter.
    onRateLimit: (notice) => console.info(encodeNotice(notice)),
    onSend: (seq) => {
      const scope = currentCheck();
      scope?.seqs.push(seq);
      if (scope && isRunShared()) scope.sharedSeqs.push(seq);
    },
    inBackground: () => currentCheck()?.background === true,
    owner: () => currentCheck()?.id,
    onTransport: (share) => {
      const tally = currentCheck()?.transport ?? current?.unscoped;
      if (!tally) return;
      tally.retries += share.retries;
      tally.rateLimited += share.rateLimited;
      tally.rateLimitWaitMs += share.rateLimitWaitMs;
    },
  });
  const api = new Api(client);
  const discovery = new Discovery(
    api,
    target.keys.other ? ['primary', 'other'] : ['primary'],
    target.lean !== true,
    // Taken in by the client, so that a failure naming one of them still shows it.
    Object.fromEntries(Object.entries(target.preflight ?? {}).map(([read, exchange]) => [read, client.adopt(exchange)])),
  );
  const takePrefetched = (prefetched: Record<string, Exchange>) => {
    for (const [read, exchange] of Object.entries(prefetched)) {
      if (isCheckRequest(read)) client.adoptAnswer(checkRequestKey(read), exchange);
      else discovery.takePrefetched(read, client.adopt(exchange));
    }
  };
  if (target.prefetchedLater) {
    const offer = awaitPrefetched(target.runId);
    // The reads a shared answer may hold wait for those answers; the checks send once the CLI's last prefetched request is
    // on the network, and a request of theirs that the CLI sent waits for its answer.
    discovery.awaitPrefetched(offer.shared.then(takePrefetched));
    const arrival = offer.requests.then(takePrefetched);
    const inFlight = (keys: readonly string[]) => new Set(keys.filter(isCheckRequest).map(checkRequestKey));
    client.holdUntil(offer.sent.then(({ keys, notBefore }) => ({ inFlight: inFlight(keys), arrival, notBefore })));
  }
  current = { target, client, api, journal, discovery, unscoped: { retries: 0, rateLimited: 0, rateLimitWaitMs: 0 } };
  // The journal first: once the CLI hears that the run stopped, no change may be journaled any more.
  stopListening = listenForStop(target.runId, (why) => {
    journal.stop(why);
    client.stop();
  });
  return current;
}

/**
 * Once the run's kept writes are over (its last toggler ended), reads the items the journal names while the
 * last checks still read, so that the end-of-run sweep has nothing left to read on a run that restored
 * everything. Not in a budgeted run: its sweep is counted in its budget, in the CLI.
 */
export function verifyWhenWritesEnd(s: Session, schedule: Schedule): void {
  if (s.target.lean || s.verifying) return;
  const apiFor = (user: 'primary' | 'other') => (user === 'primary' || s.target.keys.other !== undefined ? s.api : undefined);
  const single = singleReads(apiFor);
  // A walk of the user's collection reads every item's kept flag at once: when it takes fewer pages than there are items to read.
  const read: KeptReader = async (user, ids) => {
    const pages = s.discovery.walkPages(user);
    if (pages === undefined || pages >= ids.length || !apiFor(user)) return single(user, ids);
    const values = await s.discovery.keptNow(user);
    const missing = ids.filter((id) => !values.has(id));
    return missing.length === 0 ? values : new Map([...values, ...(await single(user, missing))]);
  };
  s.verifying = schedule
    .togglersEnded()
    .then(() => outsideChecks(() => verifyJournal(s.target.journalPath, read)))
    .catch(() => undefined);
}

/** For the suites' entry: the run ends once its own work is over (verifyWhenWritesEnd), not only its checks. */
export function awaitRunWork(): void {
  afterAll(async () => {
    await current?.verifying;
    if (current) tellUnscopedTransport(current.target.runId, current.unscoped);
  });
}

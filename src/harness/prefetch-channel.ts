import { BroadcastChannel } from 'node:worker_threads';
import type { Exchange } from '../http/exchange.ts';

/**
 * How the answers the CLI prefetched reach the checks' worker thread after the run has started: the worker loads the
 * checks while the CLI's requests are on the network and asks once it is ready. The CLI answers in three parts: the
 * shared reads' answers once they are in (the checks start on them while the CLI still sends the requests the checks
 * would send themselves, last in its list); once its last request is on the network, which requests are still out and
 * its next slot (the worker's client takes over the pace from there, so that the two never send faster than the run's
 * pace together); and the answers to those requests once they are in.
 */
const CHANNEL = 'conform-prefetched';

/** The CLI's prefetch, all of it on the network. */
export interface PrefetchSent {
  /** The keys of the reads sent (prefetchedReads' keys). */
  keys: string[];
  /** The CLI client's next free slot (epoch ms). */
  notBefore: number;
}

/** What the CLI offers a run: each part settles once it can be told. */
export interface PrefetchOffer {
  /** The shared reads' answers (the discovery's keys). */
  shared: Promise<Record<string, Exchange>>;
  sent: Promise<PrefetchSent>;
  /** The answers to the requests the checks send themselves (CHECK_REQUEST keys). */
  requests: Promise<Record<string, Exchange>>;
}

type PrefetchMessage =
  | { kind: 'ask'; runId: string }
  | ({ kind: 'sent'; runId: string } & PrefetchSent)
  | { kind: 'shared' | 'requests'; runId: string; answers: Record<string, Exchange> };

/** In the CLI, before the run starts: tells the worker of run `runId` each part of `offer` as it settles. Returns how to stop. */
export function offerPrefetched(runId: string, offer: PrefetchOffer): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const message = (event as { data: PrefetchMessage }).data;
    if (message.kind !== 'ask' || message.runId !== runId) return;
    const post = (part: PrefetchMessage) => channel.postMessage(part);
    // In this order whatever settles first: the checks take the shared answers before they may send.
    void offer.shared
      .then((answers) => post({ kind: 'shared', runId, answers }))
      .then(() => offer.sent)
      .then((notice) => post({ kind: 'sent', runId, ...notice }))
      .then(() => offer.requests)
      .then((answers) => post({ kind: 'requests', runId, answers }));
  };
  return () => channel.close();
}

/** In the worker: run `runId`'s prefetch, each part as the CLI tells it. */
export function awaitPrefetched(runId: string): PrefetchOffer {
  const channel = new BroadcastChannel(CHANNEL);
  let onShared: (answers: Record<string, Exchange>) => void = () => {};
  let onSent: (notice: PrefetchSent) => void = () => {};
  let onRequests: (answers: Record<string, Exchange>) => void = () => {};
  const offer: PrefetchOffer = {
    shared: new Promise((resolve) => (onShared = resolve)),
    sent: new Promise((resolve) => (onSent = resolve)),
    requests: new Promise((resolve) => (onRequests = resolve)),
  };
  channel.onmessage = (event) => {
    const message = (event as { data: PrefetchMessage }).data;
    if (message.runId !== runId) return;
    if (message.kind === 'shared') onShared(message.answers);
    if (message.kind === 'sent') onSent({ keys: message.keys, notBefore: message.notBefore });
    if (message.kind !== 'requests') return;
    channel.close();
    onRequests(message.answers);
  };
  channel.postMessage({ kind: 'ask', runId } satisfies PrefetchMessage);
  return offer;
}

import { BroadcastChannel } from 'node:worker_threads';
import type { Exchange } from '../http/exchange.ts';

/**
 * How the answers the CLI prefetched reach the checks' worker thread after the run has started: the worker loads the
 * checks while the CLI's requests are on the network and asks once it is ready. The CLI answers twice: once its last
 * request is on the network (which requests are still out, and its next slot: the worker's client takes over the pace
 * from there, so that the two clients never send faster than the run's pace together), and once the last answer is in.
 */
const CHANNEL = 'conform-prefetched';

/** The CLI's prefetch, all of it on the network. */
export interface PrefetchSent {
  /** The keys of the reads sent (prefetchedReads' keys). */
  keys: string[];
  /** The CLI client's next free slot (epoch ms). */
  notBefore: number;
}

type PrefetchMessage =
  | { kind: 'ask'; runId: string }
  | ({ kind: 'sent'; runId: string } & PrefetchSent)
  | { kind: 'answers'; runId: string; answers: Record<string, Exchange> };

/** In the CLI, before the run starts: answers the worker of run `runId` once `sent` and once `answers` settle. Returns how to stop. */
export function offerPrefetched(runId: string, sent: Promise<PrefetchSent>, answers: Promise<Record<string, Exchange>>): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const message = (event as { data: PrefetchMessage }).data;
    if (message.kind !== 'ask' || message.runId !== runId) return;
    void sent
      .then((notice) => channel.postMessage({ kind: 'sent', runId, ...notice } satisfies PrefetchMessage))
      .then(() => answers)
      .then((found) => channel.postMessage({ kind: 'answers', runId, answers: found } satisfies PrefetchMessage));
  };
  return () => channel.close();
}

/** In the worker: run `runId`'s prefetch once all of it is on the network, and its answers once the last has arrived. */
export function awaitPrefetched(runId: string): { sent: Promise<PrefetchSent>; answers: Promise<Record<string, Exchange>> } {
  const channel = new BroadcastChannel(CHANNEL);
  let onSent: (notice: PrefetchSent) => void = () => {};
  let onAnswers: (answers: Record<string, Exchange>) => void = () => {};
  const sent = new Promise<PrefetchSent>((resolve) => (onSent = resolve));
  const answers = new Promise<Record<string, Exchange>>((resolve) => (onAnswers = resolve));
  channel.onmessage = (event) => {
    const message = (event as { data: PrefetchMessage }).data;
    if (message.runId !== runId) return;
    if (message.kind === 'sent') onSent({ keys: message.keys, notBefore: message.notBefore });
    if (message.kind !== 'answers') return;
    channel.close();
    onAnswers(message.answers);
  };
  channel.postMessage({ kind: 'ask', runId } satisfies PrefetchMessage);
  return { sent, answers };
}

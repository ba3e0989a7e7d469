import { BroadcastChannel } from 'node:worker_threads';
import type { Exchange } from '../http/exchange.ts';

/**
 * How the answers the CLI prefetched reach the checks' worker thread after the run has started: the worker loads the
 * checks while the CLI's requests are on the network, asks for the answers once it is ready, and the CLI answers when
 * the last of them has arrived. The checks send nothing before they have them, so the two clients never overlap and
 * the run's pace holds.
 */
const CHANNEL = 'conform-prefetched';

type PrefetchMessage = { kind: 'ask'; runId: string } | { kind: 'answers'; runId: string; answers: Record<string, Exchange> };

/** In the CLI, before the run starts: answers the worker of run `runId` with `answers` once they are in. Returns how to stop. */
export function offerPrefetched(runId: string, answers: Promise<Record<string, Exchange>>): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const message = (event as { data: PrefetchMessage }).data;
    if (message.kind !== 'ask' || message.runId !== runId) return;
    void answers.then((found) => channel.postMessage({ kind: 'answers', runId, answers: found } satisfies PrefetchMessage));
  };
  return () => channel.close();
}

/** In the worker: the answers the CLI prefetched for run `runId`, once the last of them has arrived. */
export function awaitPrefetched(runId: string): Promise<Record<string, Exchange>> {
  const channel = new BroadcastChannel(CHANNEL);
  return new Promise((resolve) => {
    channel.onmessage = (event) => {
      const message = (event as { data: PrefetchMessage }).data;
      if (message.kind !== 'answers' || message.runId !== runId) return;
      channel.close();
      resolve(message.answers);
    };
    channel.postMessage({ kind: 'ask', runId } satisfies PrefetchMessage);
  });
}

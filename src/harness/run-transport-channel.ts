import { BroadcastChannel } from 'node:worker_threads';
import type { TransportTally } from '../http/client.ts';

/**
 * How the checks' worker tells the CLI what its requests outside any check met (the journal's verification once the
 * last toggler has ended): retries, 429s and rate-limit waits that no check's share holds, so that the report counts
 * every 429 the target served.
 */
const CHANNEL = 'conform-run-transport';

type Message = TransportTally & { runId: string };

/** In the worker, once its own work is over. */
export function tellUnscopedTransport(runId: string, counts: TransportTally): void {
  if (counts.retries + counts.rateLimited + counts.rateLimitWaitMs === 0) return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ runId, ...counts } satisfies Message);
  channel.unref();
}

/** In the CLI, from before the run starts: the worker's counts outside any check, summed as they come. */
export function hearUnscopedTransport(runId: string): { counts: TransportTally; stop: () => void } {
  const counts: TransportTally = { retries: 0, rateLimited: 0, rateLimitWaitMs: 0 };
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const message = (event as { data: Message }).data;
    if (message.runId !== runId) return;
    counts.retries += message.retries;
    counts.rateLimited += message.rateLimited;
    counts.rateLimitWaitMs += message.rateLimitWaitMs;
  };
  return { counts, stop: () => channel.close() };
}

import { BroadcastChannel } from 'node:worker_threads';

/**
 * How an interrupted run reaches its checks: they run in vitest's worker thread, where the CLI's
 * signal handler cannot touch their client. A "stop" on this channel makes the worker's client
 * abort what is in flight and refuse the rest, and its journal refuse new changes; the worker answers
 * "stopped" once nothing more can be journaled, and the CLI restores from the journal at once.
 */
const CHANNEL = 'conform-stop';

type StopMessage = { kind: 'stop'; runId: string; why: string } | { kind: 'stopped'; runId: string };

/** In the worker: calls `onStop` when the CLI stops the run `runId`, then answers. Returns how to stop listening. */
export function listenForStop(runId: string, onStop: (why: string) => void): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  // The channel must not keep a worker alive that has nothing else to do.
  channel.unref();
  channel.onmessage = (event) => {
    const message = (event as { data: StopMessage }).data;
    if (message.kind !== 'stop' || message.runId !== runId) return;
    onStop(message.why);
    channel.postMessage({ kind: 'stopped', runId } satisfies StopMessage);
  };
  return () => channel.close();
}

/**
 * In the CLI: tells the checks of run `runId` to stop and waits until they have (true), or for at most
 * `waitMs` (false: no worker answered, e.g. the run had not started its checks yet).
 */
export function stopRun(runId: string, why: string, waitMs: number): Promise<boolean> {
  const channel = new BroadcastChannel(CHANNEL);
  return new Promise<boolean>((resolve) => {
    const done = (answered: boolean) => {
      clearTimeout(timer);
      channel.close();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), waitMs);
    channel.onmessage = (event) => {
      const message = (event as { data: StopMessage }).data;
      if (message.kind === 'stopped' && message.runId === runId) done(true);
    };
    channel.postMessage({ kind: 'stop', runId, why } satisfies StopMessage);
  });
}

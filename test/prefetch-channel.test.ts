import { describe, expect, it } from 'vitest';
import { startReference } from '../fixtures/reference/server.ts';
import { Api } from '../src/http/api.ts';
import { ApiClient } from '../src/http/client.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { awaitPrefetched, offerPrefetched } from '../src/harness/prefetch-channel.ts';
import { dataFreeCredentialRequests } from '../src/harness/credentials.ts';
import { requestKey } from '../src/http/exchange.ts';

describe('prefetched answers reach the checks once they are all in', () => {
  it('answers the run that asks, only when the last answer has arrived, and no other run', async () => {
    let release: (answers: Record<string, Exchange>) => void = () => {};
    const answers = new Promise<Record<string, Exchange>>((resolve) => (release = resolve));
    const stop = offerPrefetched('run-a', answers);
    try {
      let arrived: Record<string, Exchange> | undefined;
      const asked = awaitPrefetched('run-a').then((found) => (arrived = found));
      let otherArrived = false;
      void awaitPrefetched('run-b').then(() => (otherArrived = true));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(arrived).toBeUndefined();
      const exchange = { seq: 7 } as unknown as Exchange;
      release({ 'shared GET /players.php': exchange });
      await asked;
      expect(arrived).toEqual({ 'shared GET /players.php': exchange });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(otherArrived).toBe(false);
    } finally {
      stop();
    }
  });

  it('a held client sends nothing until the arrival settles, then takes a prefetched answer instead of sending', async () => {
    const reference = await startReference();
    const client = new ApiClient({ baseUrl: reference.url, keys: { primary: reference.keys.primary }, timeoutMs: 5_000 });
    try {
      const api = new Api(client);
      const early = await api.types();
      let arrive: () => void = () => {};
      const arrival = new Promise<void>((resolve) => (arrive = resolve)).then(() => {
        client.adoptAnswer(requestKey({ method: 'GET', path: '/types.php', query: {}, auth: 'primary', idempotent: true }), early);
      });
      client.holdUntil(arrival);
      const sentBefore = client.counts().requests;
      const read = api.types();
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(client.counts().requests).toBe(sentBefore);
      arrive();
      const taken = await read;
      expect(client.counts().requests).toBe(sentBefore);
      expect(taken.response.text).toBe(early.response.text);
    } finally {
      await client.close();
      await reference.close();
    }
  });

  it('the data-free credential probes are requests no two of which are the same, none with a real key', () => {
    const keys = dataFreeCredentialRequests('primary').map(requestKey);
    expect(keys.length).toBe(30);
    expect(new Set(keys).size).toBe(keys.length);
    for (const spec of dataFreeCredentialRequests('primary')) expect(spec.auth === 'none' || typeof spec.auth === 'object').toBe(true);
  });
});

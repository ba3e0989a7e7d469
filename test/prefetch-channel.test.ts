import { describe, expect, it } from 'vitest';
import { startReference } from '../fixtures/reference/server.ts';
import { Api } from '../src/http/api.ts';
import { ApiClient } from '../src/http/client.ts';
import type { Exchange } from '../src/http/exchange.ts';
import { awaitPrefetched, offerPrefetched, type PrefetchSent } from '../src/harness/prefetch-channel.ts';
import { dataFreeCredentialRequests } from '../src/harness/credentials.ts';
import { requestKey } from '../src/http/exchange.ts';

describe('prefetched answers reach the checks once they are all in', () => {
  it('tells the run that asks the shared answers, then that all is sent, then the other answers, and no other run', async () => {
    let giveShared: (answers: Record<string, Exchange>) => void = () => {};
    let sendAll: (sent: PrefetchSent) => void = () => {};
    let release: (answers: Record<string, Exchange>) => void = () => {};
    const stop = offerPrefetched('run-a', {
      shared: new Promise((resolve) => (giveShared = resolve)),
      sent: new Promise((resolve) => (sendAll = resolve)),
      requests: new Promise((resolve) => (release = resolve)),
    });
    try {
      const told: string[] = [];
      const asked = awaitPrefetched('run-a');
      let shared: Record<string, Exchange> | undefined;
      let sent: PrefetchSent | undefined;
      let requests: Record<string, Exchange> | undefined;
      void asked.shared.then((found) => told.push('shared') && (shared = found));
      void asked.sent.then((notice) => told.push('sent') && (sent = notice));
      const took = asked.requests.then((found) => told.push('requests') && (requests = found));
      let otherTold = false;
      const other = awaitPrefetched('run-b');
      for (const part of [other.shared, other.sent, other.requests]) void part.then(() => (otherTold = true));
      const tick = () => new Promise((resolve) => setTimeout(resolve, 30));
      // The hand-over waits for the shared answers even when it is ready first.
      sendAll({ keys: ['shared GET /players.php', 'request GET /types.php'], notBefore: 1234 });
      await tick();
      expect(told).toEqual([]);
      const players = { seq: 7 } as unknown as Exchange;
      giveShared({ 'shared GET /players.php': players });
      await tick();
      expect(told).toEqual(['shared', 'sent']);
      expect(shared).toEqual({ 'shared GET /players.php': players });
      expect(sent).toEqual({ keys: ['shared GET /players.php', 'request GET /types.php'], notBefore: 1234 });
      const types = { seq: 8 } as unknown as Exchange;
      release({ 'request GET /types.php': types });
      await took;
      expect(told).toEqual(['shared', 'sent', 'requests']);
      expect(requests).toEqual({ 'request GET /types.php': types });
      await tick();
      expect(otherTold).toBe(false);
    } finally {
      stop();
    }
  });

  it('a held client sends nothing until the hand-over, then sends at once, except a request still in flight, which takes its answer', async () => {
    const reference = await startReference();
    const client = new ApiClient({ baseUrl: reference.url, keys: { primary: reference.keys.primary }, timeoutMs: 5_000 });
    try {
      const api = new Api(client);
      const early = await api.types();
      const typesKey = requestKey({ method: 'GET', path: '/types.php', query: {}, auth: 'primary', idempotent: true });
      let handOver: () => void = () => {};
      let arrive: () => void = () => {};
      const arrival = new Promise<void>((resolve) => (arrive = resolve)).then(() => client.adoptAnswer(typesKey, early));
      client.holdUntil(new Promise<void>((resolve) => (handOver = resolve)).then(() => ({ inFlight: new Set([typesKey]), arrival, notBefore: 0 })));
      const sentBefore = client.counts().requests;
      const read = api.types();
      const other = api.players();
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(client.counts().requests).toBe(sentBefore);
      handOver();
      await other;
      // The players read went out on the hand-over; the types read, in flight for the other client, still waits.
      expect(client.counts().requests).toBe(sentBefore + 1);
      arrive();
      const taken = await read;
      expect(client.counts().requests).toBe(sentBefore + 1);
      expect(taken.response.text).toBe(early.response.text);
    } finally {
      await client.close();
      await reference.close();
    }
  });

  it('whenDispatched waits until every request sent is on the network, and the pace goes on from the hand-over slot', async () => {
    const reference = await startReference();
    const client = new ApiClient({ baseUrl: reference.url, keys: { primary: reference.keys.primary }, timeoutMs: 5_000, rps: 20 });
    const taker = new ApiClient({ baseUrl: reference.url, keys: { primary: reference.keys.primary }, timeoutMs: 5_000, rps: 20 });
    try {
      const api = new Api(client);
      const started = Date.now();
      const reads = Promise.all([api.types(), api.players(), api.types()]);
      await client.whenDispatched();
      // Three requests at 20 a second: the third goes out 100 ms after the first.
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
      expect(client.counts().requests).toBe(3);
      const notBefore = client.nextSlotAt;
      expect(notBefore).toBeGreaterThan(Date.now() - 5);
      taker.holdUntil(Promise.resolve({ inFlight: new Set<string>(), arrival: Promise.resolve(), notBefore }));
      await new Api(taker).types();
      expect(Date.now()).toBeGreaterThanOrEqual(notBefore);
      await reads;
    } finally {
      await client.close();
      await taker.close();
      await reference.close();
    }
  });

  it('the data-free credential probes are requests no two of which are the same, none with a real key', () => {
    const keys = dataFreeCredentialRequests('primary').map(requestKey);
    // Four kinds of credential (no header, no token, a credential that is not a key, an unknown key) at the six endpoints
    // whose probes name nothing the target holds.
    expect(keys.length).toBe(24);
    expect(new Set(keys).size).toBe(keys.length);
    for (const spec of dataFreeCredentialRequests('primary')) expect(spec.auth === 'none' || typeof spec.auth === 'object').toBe(true);
  });
});

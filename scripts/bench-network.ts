/**
 * What the bench needs to measure conform over a network on one machine (issue 15):
 *  - a loopback HTTP proxy that makes a local target look remote: each request reaches the target
 *    `oneWayMs` late and each answer reaches the client `oneWayMs` late (a round trip of twice that),
 *    and a new connection costs one round trip before its first request, like a TCP handshake;
 *  - the critical path of a run, from the log of what passed through;
 *  - a replay of a run's requests with undici and no checks at all: the floor the harness is held to.
 */
import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { RateLimiter } from '../src/http/rate-limit.ts';

/** A request as a client sent it: enough to send it again. */
export interface SentRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ProxiedExchange extends SentRequest {
  /** ms since the proxy started: the client sent the request (it reached the proxy over loopback) … */
  startMs: number;
  /** … and had the whole answer (the proxy wrote it after the delay): the client's view of the exchange. */
  endMs: number;
}

export interface DelayProxy {
  url: string;
  log: ProxiedExchange[];
  close(): Promise<void>;
}

/** Headers that belong to one connection, or that the sender recomputes. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer', 'host', 'content-length']);

export function forwardable(headers: SentRequest['headers']): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !NOT_FORWARDED.has(name.toLowerCase())) kept[name] = value;
  return kept;
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function startDelayProxy(targetUrl: string, { oneWayMs }: { oneWayMs: number }): Promise<DelayProxy> {
  const target = new URL(targetUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const log: ProxiedExchange[] = [];
  const origin = performance.now();
  const sockets = new Set<Socket>();
  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    void (async () => {
      const body = await readAll(req);
      const startMs = performance.now() - origin;
      await sleep(oneWayMs);
      const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const out = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...forwardable(req.headers), host: target.host, ...(body.length > 0 ? { 'content-length': String(body.length) } : {}) },
            agent,
          },
          (upstream) => {
            readAll(upstream).then((b) => resolve({ status: upstream.statusCode ?? 502, headers: upstream.headers, body: b }), reject);
          },
        );
        out.on('error', reject);
        out.end(body);
      });
      await sleep(oneWayMs);
      res.writeHead(answer.status, { ...forwardable(answer.headers), 'content-length': String(answer.body.length) });
      res.end(answer.body);
      log.push({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
        startMs,
        endMs: performance.now() - origin,
      });
    })().catch(() => res.destroy());
  });
  // A new connection is usable one round trip after it was opened (the handshake of a real network).
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.pause();
    setTimeout(() => socket.resume(), 2 * oneWayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`,
    log,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/**
 * The length of the longest chain of requests that waited for each other: each one sent only after
 * the previous one's answer had arrived. Times its round trip, it is what no concurrency can hide.
 */
export function criticalPath(log: readonly Pick<ProxiedExchange, 'startMs' | 'endMs'>[]): number {
  const byStart = [...log].sort((a, b) => a.startMs - b.startMs);
  const byEnd = [...log].sort((a, b) => a.endMs - b.endMs);
  const chainEndingAt = new Map<object, number>();
  let longestEnded = 0;
  let ended = 0;
  for (const exchange of byStart) {
    while (ended < byEnd.length && byEnd[ended]!.endMs <= exchange.startMs) {
      longestEnded = Math.max(longestEnded, chainEndingAt.get(byEnd[ended]!) ?? 0);
      ended++;
    }
    chainEndingAt.set(exchange, longestEnded + 1);
  }
  return Math.max(0, ...chainEndingAt.values());
}

/**
 * Sends `requests` again, in their order, with `connections` in flight and at most `rps` a second
 * (0: no limit), reading every answer whole and checking nothing: the floor of a run that sends them.
 * Returns the wall time in seconds.
 */
export async function replay(baseUrl: string, requests: readonly SentRequest[], { connections, rps }: { connections: number; rps: number }): Promise<number> {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, { connections });
  const limiter = new RateLimiter({ ceiling: rps });
  let next = 0;
  const started = performance.now();
  const lane = async (): Promise<void> => {
    for (let i = next++; i < requests.length; i = next++) {
      const { method, path, headers, body } = requests[i]!;
      await limiter.take();
      const answer = await pool.request({ method: method as 'GET', path: prefix + path, headers: forwardable(headers), ...(body !== '' ? { body } : {}) });
      await answer.body.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, connections) }, lane));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return seconds;
}

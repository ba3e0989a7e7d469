/**
 * A loopback HTTP proxy that makes a local target look remote: every request reaches the target
 * `oneWayMs` late and every response reaches the client `oneWayMs` late (a round trip of twice that),
 * and a new connection costs one round trip before its first request, like a TCP handshake. It keeps
 * a log of what passed through: each request as sent and when the target started and finished it, so
 * that the bench can compute the run's critical path and replay its requests (the floor row).
 */
import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ProxiedExchange {
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** ms since the proxy started: the client sent the request (it reached the proxy over loopback) … */
  startMs: number;
  /** … and received the whole answer (the proxy wrote it after the delay): the client's view. */
  endMs: number;
  status: number;
}

export interface DelayProxy {
  url: string;
  log: ProxiedExchange[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer']);

function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
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
      const upstream = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const out = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...forwardable(req.headers), host: target.host }, agent },
          (answer) => {
            readAll(answer).then((b) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: b }), reject);
          },
        );
        out.on('error', reject);
        out.end(body);
      });
      await sleep(oneWayMs);
      res.writeHead(upstream.status, { ...forwardable(upstream.headers), 'content-length': String(upstream.body.length) });
      res.end(upstream.body);
      log.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, startMs, endMs: performance.now() - origin, status: upstream.status });
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
 * The longest chain of requests that waited for each other: each one sent only after the previous
 * one's answer had arrived. Its length times the round trip is what no concurrency can hide.
 * Returns the chain's length in requests.
 */
export function criticalPath(log: readonly Pick<ProxiedExchange, 'startMs' | 'endMs'>[]): number {
  const byEnd = [...log].sort((a, b) => a.endMs - b.endMs);
  const byStart = [...log].sort((a, b) => a.startMs - b.startMs);
  // Longest chain ending at each request, in order of start; the best chain among requests that ended before.
  let best = 0;
  let e = 0;
  const chainEndingAt = new Map<(typeof log)[number], number>();
  for (const x of byStart) {
    while (e < byEnd.length && byEnd[e]!.endMs <= x.startMs) {
      best = Math.max(best, chainEndingAt.get(byEnd[e]!) ?? 0);
      e++;
    }
    chainEndingAt.set(x, best + 1);
  }
  return Math.max(0, ...chainEndingAt.values());
}

import { Pool, errors as undiciErrors } from 'undici';
import { TransportError } from '../errors.ts';
import { MASK, redactor } from '../redact.ts';
import type { Auth, Exchange, RecordedRequest, RequestSpec } from './exchange.ts';

export interface ClientOptions {
  baseUrl: string;
  keys: { primary: string; other?: string };
  timeoutMs: number;
  /** Bodies larger than this end the request with a TransportError. */
  maxBodyBytes?: number;
  connections?: number;
}

const DEFAULT_MAX_BODY = 32 * 1024 * 1024;

/**
 * The only place that builds HTTP requests. One keep-alive pool per target; every exchange is
 * recorded with credentials masked so that a failing check can show it and reproduce it with curl.
 */
export class ApiClient {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly redact: (text: string) => string;
  private readonly log: Exchange[] = [];
  private seq = 0;

  constructor(private readonly options: ClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.redact = redactor([options.keys.primary, options.keys.other]);
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? 8,
      keepAliveTimeout: 4_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  get hasOtherKey(): boolean {
    return this.options.keys.other !== undefined;
  }

  /** Exchanges recorded since `fromSeq` (exclusive), oldest first. */
  exchangesSince(fromSeq: number): Exchange[] {
    return this.log.filter((e) => e.seq > fromSeq);
  }

  get lastSeq(): number {
    return this.seq;
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    const seq = ++this.seq;
    const path = this.pathWithQuery(spec);
    const headers: Record<string, string> = { accept: 'application/json' };
    const shown: Record<string, string> = {};
    const authorization = this.authorization(spec.auth ?? 'primary');
    if (authorization) {
      headers.authorization = authorization.sent;
      shown.Authorization = authorization.shown;
    }
    let body: string | undefined;
    if (spec.rawBody !== undefined) body = spec.rawBody;
    else if (spec.json !== undefined) body = JSON.stringify(spec.json);
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      shown['Content-Type'] = 'application/json';
    }
    const request: RecordedRequest = {
      method: spec.method,
      url: this.redact(this.origin + path),
      headers: shown,
      ...(body !== undefined ? { body: this.redact(body) } : {}),
    };

    const started = performance.now();
    try {
      const res = await this.pool.request({
        path,
        method: spec.method,
        headers,
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const text = await this.readBody(res.body, spec);
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) responseHeaders[name] = this.redact(Array.isArray(value) ? value.join(', ') : value);
      }
      const exchange: Exchange = {
        seq,
        request,
        response: { status: res.statusCode, headers: responseHeaders, text: this.redact(text), ...parseJson(text) },
        durationMs: Math.round(performance.now() - started),
      };
      this.log.push(exchange);
      return exchange;
    } catch (error) {
      if (error instanceof TransportError) throw error;
      throw new TransportError(`${spec.method} ${request.url}: ${this.describe(error)}`);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private pathWithQuery(spec: RequestSpec): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) params.append(name, String(value));
    }
    const qs = params.toString();
    return `${this.prefix}${spec.path}${qs ? `?${qs}` : ''}`;
  }

  private authorization(auth: Auth): { sent: string; shown: string } | undefined {
    if (auth === 'none') return undefined;
    if (typeof auth === 'object') return { sent: auth.header, shown: this.redact(auth.header) };
    const key = auth === 'primary' ? this.options.keys.primary : this.options.keys.other;
    if (key === undefined) throw new TransportError('no key configured for the second user (--other-key)');
    return { sent: `Bearer ${key}`, shown: `Bearer ${MASK}` };
  }

  private async readBody(body: AsyncIterable<Buffer> & { destroy(): void }, spec: RequestSpec): Promise<string> {
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) {
        body.destroy();
        throw new TransportError(`${spec.method} ${spec.path}: response body larger than ${limit} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private describe(error: unknown): string {
    if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
      return `no answer within ${this.options.timeoutMs} ms`;
    }
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      return `no answer within ${this.options.timeoutMs} ms`;
    }
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    const message = error instanceof Error ? `${error.message}${cause}` : String(error);
    return this.redact(message);
  }
}

function parseJson(text: string): { json?: unknown; parseError?: string } {
  if (text.trim() === '') return {};
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (error) {
    return { parseError: error instanceof Error ? error.message : String(error) };
  }
}

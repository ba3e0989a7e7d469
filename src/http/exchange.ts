export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Whose credentials a request carries. `header` sends a literal Authorization value (for auth probes). */
export type Auth = 'primary' | 'other' | 'none' | { header: string };

/** Which of the run's users a request, a kept change or a read belongs to. */
export type KeyRef = 'primary' | 'other';

export interface RequestSpec {
  method: Method;
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Serialised as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent verbatim (malformed JSON probes). Takes precedence over json. */
  rawBody?: string;
  auth?: Auth;
  /**
   * Why the request is sent; the client's write firewall only lets writes through with an intent:
   * `kept-toggle` (KeptWriter, the one write of §3) or `probe` (a deliberate, harmless forbidden-write probe).
   */
  intent?: 'read' | 'kept-toggle' | 'probe';
  /** Safe to repeat: retried on connection errors, 429 and 502/503/504. */
  idempotent?: boolean;
}

/** A request's identity as sent: method, path and query, body, and whose credentials (by name, or the header sent). */
export function requestKey(spec: RequestSpec): string {
  const query = Object.entries(spec.query ?? {}).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]]));
  const body = spec.rawBody ?? (spec.json === undefined ? '' : JSON.stringify(spec.json));
  const auth = spec.auth ?? 'primary';
  return JSON.stringify([spec.method, spec.path, query, body, typeof auth === 'object' ? auth.header : auth]);
}

export interface RecordedRequest {
  method: Method;
  url: string;
  /** Headers as sent, with credentials masked. */
  headers: Record<string, string>;
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body when it is JSON; undefined otherwise (see parseError). */
  json?: unknown;
  parseError?: string;
}

/** An earlier attempt of the same request that got no clean answer and was retried. */
export interface RetriedAttempt {
  status?: number;
  error?: string;
  waitedMs: number;
}

export interface Exchange {
  seq: number;
  retries?: RetriedAttempt[];
  request: RecordedRequest;
  response: RecordedResponse;
  durationMs: number;
}

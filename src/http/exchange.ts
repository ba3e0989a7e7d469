export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Whose credentials a request carries. `header` sends a literal Authorization value (for auth probes). */
export type Auth = 'primary' | 'other' | 'none' | { header: string };

export interface RequestSpec {
  method: Method;
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Serialised as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent verbatim (malformed JSON probes). Takes precedence over json. */
  rawBody?: string;
  auth?: Auth;
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

export interface Exchange {
  seq: number;
  request: RecordedRequest;
  response: RecordedResponse;
  durationMs: number;
}

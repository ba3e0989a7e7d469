import { CheckFailure } from './errors.ts';
import type { Exchange } from './http/exchange.ts';
import { errorsList, isObject, rowsOf, type Row } from './lenient.ts';

/** Fails the check: the target broke the clause. The exchange, if given, is shown and reproduced. */
export function fail(message: string, exchange?: Exchange): never {
  throw new CheckFailure(message, exchange?.seq);
}

export function ensure(condition: unknown, message: string, exchange?: Exchange): asserts condition {
  if (!condition) fail(message, exchange);
}

export const is2xx = (ex: Exchange): boolean => ex.response.status >= 200 && ex.response.status < 300;
export const is4xx = (ex: Exchange): boolean => ex.response.status >= 400 && ex.response.status < 500;

/** Never acceptable for anything a client sends. */
export function ensureNo5xx(ex: Exchange, what: string): void {
  ensure(ex.response.status < 500, `${what}: the server answered ${ex.response.status}; client input must never cause a 5xx`, ex);
}

/** A successful JSON answer; returns the parsed body. */
export function okJson(ex: Exchange, what: string): unknown {
  ensure(is2xx(ex), `${what}: expected a 2xx answer, got ${ex.response.status}`, ex);
  ensure(ex.response.json !== undefined, `${what}: the body is not JSON (${ex.response.parseError ?? 'empty body'})`, ex);
  return ex.response.json;
}

/** A successful list answer; returns its rows, wherever the envelope keeps them. */
export function okRows(ex: Exchange, what: string): Row[] {
  const rows = rowsOf(okJson(ex, what));
  ensure(rows, `${what}: no list of records found in the body`, ex);
  return rows;
}

export function okObject(ex: Exchange, what: string): Record<string, unknown> {
  const body = okJson(ex, what);
  ensure(isObject(body), `${what}: expected a JSON object`, ex);
  return body;
}

/** A 4xx refusal (the exact status is not shown unless the caller asks for one). */
export function refused(ex: Exchange, what: string, status?: number): void {
  ensureNo5xx(ex, what);
  if (status !== undefined) ensure(ex.response.status === status, `${what}: expected ${status}, got ${ex.response.status}`, ex);
  else ensure(is4xx(ex), `${what}: expected a 4xx refusal, got ${ex.response.status}`, ex);
}

/** 400 with a non-empty errors list (§4 rule 4, §7). */
export function badRequestWithErrors(ex: Exchange, what: string): void {
  refused(ex, what, 400);
  const errors = errorsList(ex.response.json);
  ensure(errors && errors.length > 0, `${what}: the 400 body must carry a non-empty errors list`, ex);
}

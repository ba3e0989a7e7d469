import { CheckFailure, RobustnessFailure } from '../core/errors.ts';
import type { Exchange } from '../http/exchange.ts';
import { asJson, errorsList, idOf, isObject, itemFieldOf, itemRefOf, rowsOf, shapeOf, useDateFieldOf, type Row } from '../spec/lenient.ts';

/**
 * The id of the clause (src/spec/clauses.ts) that makes an assertion necessary. Every assertion in suites/
 * names one as its first argument; test/clauses.test.ts holds each to the registry.
 */
export type ClauseId = `C${number}.${number}`;

const CLAUSE = /^C\d+\.\d+$/;
const isClause = (value: unknown): value is ClauseId => typeof value === 'string' && CLAUSE.test(value);

/** Splits optional leading clause ids off an argument list (the clause-less forms are kept for callers outside suites/). */
function clauseAnd<T extends unknown[]>(args: unknown[]): [ClauseId | undefined, ...T] {
  return (isClause(args[0]) ? args : [undefined, ...args]) as [ClauseId | undefined, ...T];
}

/** Fails the check: the target broke the clause. The exchange, if given, is shown and reproduced. */
export function fail(clause: ClauseId, message: string, exchange?: Exchange): never;
export function fail(message: string, exchange?: Exchange): never;
export function fail(...args: unknown[]): never {
  const [clause, message, exchange] =
    isClause(args[0]) && typeof args[1] === 'string' ? (args as [ClauseId, string, Exchange?]) : ([undefined, ...args] as [undefined, string, Exchange?]);
  throw new CheckFailure(message, exchange?.seq, clause);
}

export function ensure(clause: ClauseId, condition: unknown, message: string, exchange?: Exchange): asserts condition;
export function ensure(condition: unknown, message: string, exchange?: Exchange): asserts condition;
export function ensure(...args: unknown[]): void {
  const [clause, condition, message, exchange] =
    isClause(args[0]) && typeof args[2] === 'string'
      ? (args as [ClauseId, unknown, string, Exchange?])
      : ([undefined, ...args] as [undefined, unknown, string, Exchange?]);
  if (!condition) throw new CheckFailure(message, exchange?.seq, clause);
}

export const is2xx = (ex: Exchange): boolean => ex.response.status >= 200 && ex.response.status < 300;
export const is4xx = (ex: Exchange): boolean => ex.response.status >= 400 && ex.response.status < 500;

/**
 * No 5xx for client input: a rule of HTTP practice, not a sentence of the spec (§7 leaves these statuses
 * open). A 5xx ends the check as a robustness failure, reported as advice (level ROBUSTNESS); where the
 * spec demands a refusal (refused, badRequestWithErrors) a 5xx stays a MUST failure.
 */
export function ensureNo5xx(clause: ClauseId, ex: Exchange, what: string): void;
export function ensureNo5xx(ex: Exchange, what: string): void;
export function ensureNo5xx(...args: unknown[]): void {
  const [clause, ex, what] = clauseAnd<[Exchange, string]>(args);
  if (ex.response.status >= 500)
    throw new RobustnessFailure(
      `robustness advice (HTTP practice, not a sentence of the spec): ${what}: the server answered ${ex.response.status}; client input should never cause a 5xx`,
      ex.seq,
      clause,
    );
}

/** A successful JSON answer; returns the parsed body. */
export function okJson(clause: ClauseId, ex: Exchange, what: string): unknown;
export function okJson(ex: Exchange, what: string): unknown;
export function okJson(...args: unknown[]): unknown {
  const [clause, ex, what] = clauseAnd<[Exchange, string]>(args);
  return jsonOf(clause, ex, what);
}

function jsonOf(clause: ClauseId | undefined, ex: Exchange, what: string): unknown {
  if (!is2xx(ex)) throw new CheckFailure(`${what}: expected a 2xx answer, got ${ex.response.status}`, ex.seq, clause);
  if (ex.response.json === undefined) throw new CheckFailure(`${what}: the body is not JSON (${ex.response.parseError ?? 'empty body'})`, ex.seq, clause);
  return ex.response.json;
}

/** A successful list answer; returns its rows, wherever the envelope keeps them. */
export function okRows(clause: ClauseId, ex: Exchange, what: string): Row[];
export function okRows(ex: Exchange, what: string): Row[];
export function okRows(...args: unknown[]): Row[] {
  const [clause, ex, what] = clauseAnd<[Exchange, string]>(args);
  const body = jsonOf(clause, ex, what);
  const rows = rowsOf(body);
  if (!rows)
    throw new CheckFailure(
      `${what}: looked for a list of records (a bare list, or the one list of objects in the envelope); found ${shapeOf(body)}`,
      ex.seq,
      clause,
    );
  return rows;
}

export function okObject(clause: ClauseId, ex: Exchange, what: string): Record<string, unknown>;
export function okObject(ex: Exchange, what: string): Record<string, unknown>;
export function okObject(...args: unknown[]): Record<string, unknown> {
  const [clause, ex, what] = clauseAnd<[Exchange, string]>(args);
  const body = jsonOf(clause, ex, what);
  if (!isObject(body)) throw new CheckFailure(`${what}: expected a JSON object, found ${shapeOf(body)}`, ex.seq, clause);
  return body;
}

/** A 4xx refusal (the exact status is not shown unless the caller asks for one). */
export function refused(clause: ClauseId, ex: Exchange, what: string, status?: number): void;
export function refused(ex: Exchange, what: string, status?: number): void;
export function refused(...args: unknown[]): void {
  const [clause, ex, what, status] = (isClause(args[0]) ? args : [undefined, ...args]) as [ClauseId | undefined, Exchange, string, number?];
  if (ex.response.status >= 500)
    throw new CheckFailure(`${what}: the server answered ${ex.response.status}; client input must never cause a 5xx`, ex.seq, clause);
  if (status !== undefined && ex.response.status !== status) throw new CheckFailure(`${what}: expected ${status}, got ${ex.response.status}`, ex.seq, clause);
  if (!is4xx(ex)) throw new CheckFailure(`${what}: expected a 4xx refusal, got ${ex.response.status}`, ex.seq, clause);
}

/** 400 with a non-empty errors list (§4 rule 4, §7); the shape of its entries is not shown. */
export function badRequestWithErrors(clause: ClauseId, ex: Exchange, what: string): void;
export function badRequestWithErrors(ex: Exchange, what: string): void;
export function badRequestWithErrors(...args: unknown[]): void {
  const [clause, ex, what] = clauseAnd<[Exchange, string]>(args);
  if (clause) refused(clause, ex, what, 400);
  else refused(ex, what, 400);
  const errors = errorsList(ex.response.json);
  if (!(errors && errors.length > 0))
    throw new CheckFailure(`${what}: the 400 body must carry a non-empty errors list; found ${shapeOf(ex.response.json)}`, ex.seq, clause);
}

/**
 * A value as a failure message shows it: `absent` for a missing field, JSON for objects and lists
 * (cut to a readable length), never JavaScript's `undefined`, `[object Object]` or `NaN`.
 */
export function asText(value: unknown): string {
  if (value === undefined) return 'absent';
  if (typeof value === 'number' && Number.isNaN(value)) return 'not a number';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  }
  return String(value);
}

/**
 * Each listed row's plays and last_use against the list of every use of the key's user, where the uses name their item
 * (FIELD-003's oracle, §2: plays counts the item's recorded uses, last_use is the latest of their dates). Nothing is
 * judged where no field of the uses names the listed items; last_use only where the uses carry a date and the item has
 * uses.
 */
export function summariesAgreeWithUses(
  listed: readonly Row[],
  all: { rows: Row[]; exchange: Exchange },
  itemIds: readonly string[],
  what: string,
  sent?: string,
): void {
  const itemField = itemFieldOf(all.rows, new Set(itemIds), { ownId: true });
  if (itemField === undefined) return;
  const usesOfItem = new Map<string, Row[]>();
  for (const use of all.rows) usesOfItem.set(itemRefOf(use[itemField])!, [...(usesOfItem.get(itemRefOf(use[itemField])!) ?? []), use]);
  const everyDate = useDateFieldOf(all.rows);
  const where = sent ? `${sent}: ` : '';
  for (const row of listed) {
    const own = usesOfItem.get(String(idOf(row.id))) ?? [];
    ensure(
      'C2.6',
      Number(row.plays) === own.length,
      `${where}item ${asText(row.id)}: plays is ${asText(row.plays)} but ${what} lists ${own.length} use(s) of it`,
      all.exchange,
    );
    if (everyDate === undefined || own.length === 0) continue;
    const latest = own
      .map((u) => String(u[everyDate]).slice(0, 10))
      .sort()
      .at(-1);
    ensure(
      'C2.6',
      // §2: last_use is a date, YYYY-MM-DD.
      row.last_use === latest,
      `${where}item ${asText(row.id)}: last_use is ${asJson(row.last_use)} but its latest use in ${what} is on ${latest}`,
      all.exchange,
    );
  }
}

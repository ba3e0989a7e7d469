import { CheckFailure, NoVerdictError, TransportError } from '../core/errors.ts';
import type { Api } from '../http/api.ts';
import type { Exchange } from '../http/exchange.ts';
import { isObject, type Row } from '../spec/lenient.ts';
import { MAX_ROWS_PER_PAGE } from '../spec/limits.ts';
import { cursorStepProblem, fetchPage } from '../harness/paging.ts';
import type { ProfileName } from '../spec/profiles.ts';
import type { SideName } from './compare.ts';

/** One deployment as the diff reads it. */
export interface DiffSide {
  name: SideName;
  label: string;
  baseUrl: string;
  profile: ProfileName;
  api: Api;
}

const MAX_PAGES = 250;

/** Every request the diff sends is counted against --max-requests, so a diff is always bounded. */
export class RequestBudget {
  used = 0;
  constructor(readonly limit: number) {}

  take(what: string): void {
    if (this.used >= this.limit) throw new NoVerdictError(`the request budget of ${this.limit} was spent before ${what}; raise --max-requests`);
    this.used++;
  }
}

/** Runs one read; a transport fault or an unusable answer means there is nothing to compare (exit 3). */
async function readOrGiveUp<T>(side: DiffSide, what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof TransportError) throw new NoVerdictError(`${side.name} (${side.label}) unreachable while reading ${what}: ${error.message}`);
    if (error instanceof CheckFailure) throw new NoVerdictError(`cannot read ${what} on ${side.name} (${side.label}): ${error.message}`);
    throw error;
  }
}

/** The whole collection by a cursor walk (§4 rule 2), bounded by page count and the budget. */
export async function readCollection(side: DiffSide, budget: RequestBudget): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: unknown = null;
  for (let page = 1; page <= MAX_PAGES; page++) {
    budget.take(`page ${page} of the ${side.name} collection`);
    const current = await readOrGiveUp(side, 'the collection', () => fetchPage(side.api, { per_page: MAX_ROWS_PER_PAGE, cursor }));
    rows.push(...current.rows);
    const problem = cursorStepProblem(current);
    if (problem) throw new NoVerdictError(`cannot walk the ${side.name} collection (${side.label}): ${problem}`);
    if (!current.hasMore) return rows;
    cursor = current.nextCursor;
  }
  throw new NoVerdictError(`the ${side.name} collection did not end within ${MAX_PAGES} pages of ${MAX_ROWS_PER_PAGE}`);
}

export interface SingleRead {
  status: number;
  record?: Row;
}

/** GET /artifact.php for one id; the record only when the answer is a 2xx JSON object. */
export async function readRecord(side: DiffSide, id: string, budget: RequestBudget): Promise<SingleRead> {
  budget.take(`the single read of item ${id} on ${side.name}`);
  const exchange: Exchange = await readOrGiveUp(side, `item ${id}`, () => side.api.item(id));
  const { status, json } = exchange.response;
  return status >= 200 && status < 300 && isObject(json) ? { status, record: json } : { status };
}

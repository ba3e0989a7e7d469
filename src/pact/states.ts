import { Discovery } from '../harness/discovery.ts';
import type { Api } from '../http/api.ts';
import { readKept, restoreOne } from '../safety/kept.ts';
import { idOf, rowsOf } from '../spec/lenient.ts';
import { states } from './contract.ts';

/** What a state handler returns: the values the verifier injects into the request (contract.ts `states`). */
export type StateValues = Record<string, unknown>;
export type StateFunction = (params?: unknown) => Promise<StateValues | undefined>;
export type StateHandler = StateFunction | { setup?: StateFunction; teardown?: StateFunction };
export type StateHandlers = Record<string, StateHandler>;

export interface StateContext {
  /** The target's base URL. */
  baseUrl: string;
  /** The project's client, already carrying the key: reads, and the kept toggle via `setKept`. */
  api: Api;
}

/**
 * The built-in provider states, data-agnostic: each finds what it needs through the API itself, with
 * the key under test, so they work on the reference and on any real deployment. Nothing is created;
 * the only write is the kept toggle's teardown, which puts back the value read at setup.
 */
export function builtInStates({ api }: StateContext): StateHandlers {
  let firstItem: Promise<unknown> | undefined;
  const anyItemId = () => (firstItem ??= findAnyItemId(api));
  let absent: Promise<string | number> | undefined;
  let remembered: { itemId: unknown; kept: 0 | 1 } | undefined;

  return {
    [states.hasItem]: async () => ({ itemId: await anyItemId() }),
    [states.hasItemWithKnownKept]: {
      async setup() {
        const itemId = await anyItemId();
        const kept = (await readKept(api, String(itemId))).value;
        remembered = { itemId, kept };
        return { itemId, kept };
      },
      async teardown() {
        if (!remembered) return undefined;
        const { itemId, kept } = remembered;
        remembered = undefined;
        await restoreOne(api, undefined, 'primary', String(itemId), kept, itemId);
        return undefined;
      },
    },
    [states.hasAbsentId]: async () => ({ absentId: await (absent ??= new Discovery(api).unusedId()) }),
  };
}

async function findAnyItemId(api: Api): Promise<unknown> {
  const exchange = await api.list({ per_page: 1, cursor: null });
  const rows = exchange.response.status === 200 ? rowsOf(exchange.response.json) : undefined;
  if (rows === undefined) throw new Error(`cannot list the collection (POST /artifacts.php answered ${exchange.response.status})`);
  const id = rows[0]?.id;
  if (idOf(id) === undefined) throw new Error("the collection of the key's user is empty, so there is no item to use");
  return id;
}

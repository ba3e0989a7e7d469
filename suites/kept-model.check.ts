import fc from 'fast-check';
import { describe } from 'vitest';
import {
  check,
  ensure,
  idOf,
  is2xx,
  okRows,
  profiles,
  readKept,
  together,
  type CheckContext,
  type Row,
} from '../src/harness/index.ts';

/**
 * The model: only what the spec promises, each item's kept flag (§3); `null` for a flag served as null
 * (not set) and not written since, which a kept=false filter may list or not.
 */
type Model = Map<string, 0 | 1 | null>;
interface Real {
  t: CheckContext;
  /** The items of the run's lane: a command names an item by its place here, so a run can be given any lane. */
  items: readonly Row[];
}

/** How a command names its item: by its place in the lane, and with the item's id once it is known. */
const named = (slot: number, items: readonly Row[]) => `item ${slot + 1} (id ${String(items[slot]!.id)})`;

class SetKept implements fc.AsyncCommand<Model, Real> {
  constructor(readonly slot: number, readonly value: 0 | 1) {}
  check = () => true;
  async run(model: Model, { t, items }: Real): Promise<void> {
    const id = String(items[this.slot]!.id);
    const ex = await t.kept.set(id, this.value);
    ensure('C3.1', is2xx(ex), `set(${named(this.slot, items)}, ${this.value}): expected success, got ${ex.response.status}`, ex);
    model.set(id, this.value);
  }
  toString = () => `set(item ${this.slot + 1}, ${this.value})`;
}

class ReadOne implements fc.AsyncCommand<Model, Real> {
  constructor(readonly slot: number) {}
  check = () => true;
  async run(model: Model, { t, items }: Real): Promise<void> {
    const id = String(items[this.slot]!.id);
    const { value, exchange } = await readKept(t.api, id);
    const expected = model.get(id) ?? 0;
    ensure('C3.4', value === expected, `read(${named(this.slot, items)}): the single read shows is_kept=${value}, expected ${expected}`, exchange);
  }
  toString = () => `read(item ${this.slot + 1})`;
}

class ListKept implements fc.AsyncCommand<Model, Real> {
  constructor(readonly slot: number, readonly kept: boolean) {}
  check = () => true;
  async run(model: Model, { t, items }: Real): Promise<void> {
    const item = items[this.slot]!;
    const id = String(item.id);
    const ex = await t.api.list({ query: item.Title, kept: this.kept, per_page: 200 });
    const what = `list(kept=${this.kept}, query=${JSON.stringify(item.Title)})`;
    const listed = okRows('C3.4', ex, what).some((r) => idOf(r.id) === id);
    if (model.get(id) === null && !this.kept) return;
    const expected = (model.get(id) === 1) === this.kept;
    ensure('C3.4', listed === expected, `${what}: ${named(this.slot, items)} is ${listed ? '' : 'not '}listed, but its kept flag is ${model.get(id)}`, ex);
  }
  toString = () => `list(kept=${this.kept}, query=title of item ${this.slot + 1})`;
}

/** Items each run toggles: a run's commands draw from the items of its lane. */
const ITEMS_PER_RUN = 3;
/**
 * Lanes of model runs that overlap, each on items of its own (run i in lane i % LANES): a run still
 * finds its items as the lane's previous run left them. More lanes would shorten the chain further but
 * touch more of a real user's items.
 */
const LANES = 5;

describe('kept toggle as a state machine (§3)', () => {
  check(
    {
      id: 'KEPT-006',
      level: 'MUST',
      section: '§3, §4',
      title: 'any sequence of toggles, single reads and kept-filtered lists agrees with a model of the kept flags',
      accepts: [
        'any 2xx for a toggle, with any body',
        'the single-item read bare or inside an envelope',
        'is_kept as 0/1, a boolean or null; a null never written since may be listed by kept=false or not',
      ],
      toggles: true,
    },
    async (t) => {
      const { rows } = await t.discover.collection();
      const titled = rows.filter((r) => typeof r.Title === 'string');
      t.need(titled[0], 'the collection is empty, so there is nothing to toggle');
      // Disjoint items for each lane, as many lanes as the data allows (one lane of up to 3 items at least).
      const laneCount = Math.max(1, Math.min(LANES, Math.floor(titled.length / ITEMS_PER_RUN)));
      const lanes = Array.from({ length: laneCount }, (_, l) => titled.slice(l * ITEMS_PER_RUN, (l + 1) * ITEMS_PER_RUN));
      const withLists = profiles[t.target.profile].has('list-filters');
      const slot = fc.integer({ min: 0, max: lanes[0]!.length - 1 });
      const commands = [
        fc.tuple(slot, fc.constantFrom<0 | 1>(0, 1)).map(([i, v]) => new SetKept(i, v)),
        slot.map((i) => new ReadOne(i)),
        ...(withLists ? [fc.tuple(slot, fc.boolean()).map(([i, k]) => new ListKept(i, k))] : []),
      ];
      await t.property(fc.commands(commands, { maxCommands: 12 }), async (sequence, lane) => {
        const items = lanes[lane]!;
        const setup = async () => {
          const model: Model = new Map();
          const reads = await together(items.map((i) => readKept(t.api, String(i.id))));
          items.forEach((i, n) => {
            const { value, unset } = reads[n]!();
            model.set(String(i.id), unset ? null : value);
          });
          return { model, real: { t, items } };
        };
        await fc.asyncModelRun(setup, sequence);
      }, { runs: Math.min(t.target.runs, 15), lanes: laneCount });
    },
  );
});

import fc from 'fast-check';
import {
  describe,
  check,
  ensure,
  idOf,
  is2xx,
  MAX_ROWS_PER_PAGE,
  okRows,
  profiles,
  readKept,
  recordOf,
  succeeded,
  caught,
  together,
  type CheckContext,
  type ClauseId,
  type Exchange,
  type Row,
  asText,
  asJson,
  labelSet,
} from '../src/harness/index.ts';

/**
 * The model: only what the spec promises, each item's kept flag (§3); `null` for a flag served as null
 * (not set) and not written since, which a kept=false filter may list or not. Each run starts knowing
 * no flag, not what an earlier run left (fast-check reruns a sequence on its own when it shrinks or
 * replays it): the first command on an item learns it with a single read (for a read, that read itself),
 * so an item the run leaves alone costs nothing.
 */
type Model = Map<string, 0 | 1 | null>;
interface Real {
  t: CheckContext;
}

async function establish(model: Model, t: CheckContext, item: Row) {
  const id = String(item.id);
  const { value, unset, exchange } = await readKept(t.api, id);
  // The read is the item's value before its first toggle, though toggles of the other items go out in between.
  t.kept.remember([id]);
  model.set(id, unset ? null : value);
  sameTitleAndTags('C4.14', item, recordOf(exchange.response.json, id), `read(${asText(item.id)})`, exchange);
  return exchange;
}

/**
 * A read shows the item's title and labels as the collection walk did, before any toggle: no toggle changes them (§3:
 * the toggle changes nothing but the kept flag; §1: it is the only write an agent key has), and the single read holds
 * the item's tags (§4). Labels compare as sets; neither is judged where the read does not hold it.
 */
function sameTitleAndTags(tagsClause: ClauseId, item: Row, shown: Row | undefined, what: string, exchange: Exchange): void {
  if (shown === undefined) return;
  if (typeof shown.Title === 'string' && typeof item.Title === 'string')
    ensure(
      'C3.2',
      shown.Title === item.Title,
      `${what}: item ${asText(item.id)} is titled ${asJson(shown.Title)}, but the collection walk showed ${asJson(item.Title)} before any toggle: a toggle changes no title`,
      exchange,
    );
  if (!Array.isArray(shown.tags) || !Array.isArray(item.tags)) return;
  ensure(
    tagsClause,
    labelSet(shown.tags) === labelSet(item.tags),
    `${what}: item ${asText(item.id)} carries tags ${asJson(shown.tags)}, but the collection walk showed ${asJson(item.tags)} before any toggle: a read holds the item's own labels, and a toggle changes none`,
    exchange,
  );
}

class SetKept implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly item: Row,
    readonly value: 0 | 1,
  ) {}
  check = () => true;
  async run(model: Model, { t }: Real): Promise<void> {
    const id = String(this.item.id);
    // The toggle needs no prior value, but without a read before it a later read could not show a stale
    // copy (single reads answered from a cache the toggle left alone).
    if (!model.has(id)) await establish(model, t, this.item);
    const ex = await t.kept.set(id, this.value);
    ensure('C3.1', is2xx(ex), `${this.toString()}: expected success, got ${ex.response.status}`, ex);
    model.set(id, this.value);
  }
  toString = () => `set(${asText(this.item.id)}, ${this.value})`;
}

class ReadOne implements fc.AsyncCommand<Model, Real> {
  constructor(readonly item: Row) {}
  check = () => true;
  async run(model: Model, { t }: Real): Promise<void> {
    const id = String(this.item.id);
    if (!model.has(id)) {
      await establish(model, t, this.item);
      return;
    }
    const { value, exchange } = await readKept(t.api, id);
    const expected = model.get(id) ?? 0;
    ensure('C3.4', value === expected, `${this.toString()}: the single read shows is_kept=${value}, expected ${expected}`, exchange);
    sameTitleAndTags('C4.14', this.item, recordOf(exchange.response.json, id), this.toString(), exchange);
  }
  toString = () => `read(${asText(this.item.id)})`;
}

class ListKept implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly item: Row,
    readonly kept: boolean,
  ) {}
  check = () => true;
  async run(model: Model, { t }: Real): Promise<void> {
    const id = String(this.item.id);
    // An item listed before anything else is read alongside, so that a list that disagrees with the record shows before any write.
    const answers = await together([
      ...(model.has(id) ? [] : [establish(model, t, this.item)]),
      t.api.list({ query: this.item.Title, kept: this.kept, per_page: MAX_ROWS_PER_PAGE }),
    ]);
    const ex = answers.map((answer) => answer()).pop()!;
    const row = okRows('C3.4', ex, this.toString()).find((r) => idOf(r.id) === id);
    const listed = row !== undefined;
    sameTitleAndTags('C4.10', this.item, row, this.toString(), ex);
    if (model.get(id) === null && !this.kept) return;
    const expected = (model.get(id) === 1) === this.kept;
    ensure('C3.4', listed === expected, `${this.toString()}: item ${id} is ${listed ? '' : 'not '}listed, but its kept flag is ${model.get(id)}`, ex);
  }
  toString = () => `list(kept=${this.kept}, query=${asJson(this.item.Title)})`;
}

type Step = fc.AsyncCommand<Model, Real>;

/** The item a command works on; fast-check hands commands over wrapped (the wrapper marks them as run). */
function itemOf(step: Step): string | undefined {
  const command = (step as { cmd?: unknown }).cmd ?? step;
  return command instanceof SetKept || command instanceof ReadOne || command instanceof ListKept ? String(command.item.id) : undefined;
}

/**
 * fc.asyncModelRun, with the commands of different items sent at once: each item's commands run in
 * their order, one at a time, and the items overlap. A command reads or writes its own item's flag only,
 * and the model keeps each item's flag apart (a toggle changes no other item, §3, which KEPT-005 checks
 * alone), so every item goes through exactly what it went through in the sequential run, and what a run
 * leaves carries over to the next run as before. The failure reported is that of the earliest command
 * in the sequence; the other items still run their commands, so which commands ran (what fast-check
 * shrinks) does not depend on timing. A command without an item makes the run sequential.
 */
async function runItemByItem(setup: () => Promise<{ model: Model; real: Real }>, sequence: Iterable<Step>): Promise<void> {
  const steps = [...sequence];
  if (steps.some((step) => itemOf(step) === undefined)) return fc.asyncModelRun(setup, steps);
  const { model, real } = await setup();
  const failure = await runChains(model, real, [steps]);
  if (failure) throw failure.error;
}

interface ChainFailure {
  run: number;
  index: number;
  error: unknown;
}

/**
 * Runs several sequences as if one after another with the model carried over, each item's commands of
 * every sequence in order, the items all at once: an item may be in the third sequence while another is
 * still in the first, since no command of one item reads or writes another's flag. Returns the failure
 * of the earliest sequence that failed (its earliest command); an item stops at its own first failure.
 * With `readsAtOnce` (the runs made ahead), an item's reads that follow one another go out together
 * (readsAhead); a sequence run for fast-check to print and shrink runs each command alone.
 */
async function runChains(model: Model, real: Real, sequences: readonly Step[][], readsAtOnce = false): Promise<ChainFailure | undefined> {
  const chains = new Map<string, { step: Step; run: number; index: number }[]>();
  for (const [run, steps] of sequences.entries())
    for (const [index, step] of steps.entries()) chains.set(itemOf(step)!, [...(chains.get(itemOf(step)!) ?? []), { step, run, index }]);
  const failures: ChainFailure[] = [];
  await Promise.all(
    [...chains.entries()].map(async ([id, chain]) => {
      for (let next = 0; next < chain.length; ) {
        const batch = readsAtOnce ? readsAhead(chain, next, model.has(id)) : [chain[next]!];
        next += batch.length;
        // A read that repeats one of the same batch (the same command, no write of the item between) is answered by it.
        const firsts = new Map<string, number>();
        for (const [i, { step }] of batch.entries()) if (!firsts.has(String(step))) firsts.set(String(step), i);
        const unique = await together(
          batch.map(({ step }, i) => (firsts.get(String(step)) === i && step.check(model) ? step.run(model, real) : Promise.resolve())),
        );
        const outcomes = batch.map(({ step }) => unique[firsts.get(String(step))!]!);
        const failed = batch.findIndex((_, i) => !succeeded(outcomes[i]!));
        if (failed >= 0) {
          const { run, index } = batch[failed]!;
          failures.push({ run, index, error: caught(outcomes[failed]!) });
          return;
        }
      }
    }),
  );
  return failures.sort((a, b) => a.run - b.run || a.index - b.index)[0];
}

/**
 * The commands of one item's chain to send at once from `next`: the reads (single reads and lists) that follow
 * one another, once the model knows the item's flag. None of them changes the flag or the model, so each sees the
 * state the write before them left, as it would one after the other; a write, and the command that first learns
 * the flag, go alone. Which commands share a round trip follows from the sequence alone, never from timing.
 */
function readsAhead<T extends { step: Step }>(chain: readonly T[], next: number, known: boolean): T[] {
  if (!known || !isRead(chain[next]!.step)) return [chain[next]!];
  let end = next;
  while (end < chain.length && isRead(chain[end]!.step)) end++;
  return chain.slice(next, end);
}

function isRead(step: Step): boolean {
  const command = (step as { cmd?: unknown }).cmd ?? step;
  return command instanceof ReadOne || command instanceof ListKept;
}

/** A drawn sequence by its commands (fast-check prints only the commands that ran). */
const signature = (sequence: Iterable<Step>): string => [...sequence].map(String).join(',');

/**
 * The runs fast-check will make, drawn the same way (fc.sample with the run's seed) and run ahead as one
 * set of item chains (runChains): a run of passing sequences costs the longest item's chain, not the sum
 * of each sequence's, and reads that follow one another on an item cost one round trip. Returns each
 * sequence's signature and the run that failed first, if one did.
 */
async function runAhead(t: CheckContext, draw: fc.Arbitrary<Iterable<Step>>, runs: number): Promise<Ahead | undefined> {
  const sequences = fc.sample(draw, { seed: t.target.seed, numRuns: runs }).map((sequence) => [...sequence]);
  if (sequences.some((steps) => steps.some((step) => itemOf(step) === undefined))) return undefined;
  const failure = await runChains(new Map(), { t }, sequences, true);
  return { signatures: sequences.map(signature), ...(failure ? { failure } : {}) };
}

interface Ahead {
  signatures: string[];
  failure?: ChainFailure;
}

describe('kept toggle as a state machine (§3)', () => {
  check(
    {
      id: 'KEPT-006',
      level: 'MUST',
      sections: ['§3', '§4'],
      title:
        'any sequence of toggles, single reads and kept-filtered lists agrees with a model of the kept flags, and shows each title and each set of tags as before any toggle',
      accepts: [
        'any 2xx for a toggle, with any body',
        'the single-item read bare or inside an envelope',
        'is_kept as 0/1, a boolean or null; a null never written since may be listed by kept=false or not',
      ],
      toggles: true,
      lane: 'set-apart',
    },
    async (t) => {
      // The first titled items: set apart for this check (Discovery.setApart) unless the collection is small.
      const { rows } = await t.discover.collection();
      const items = rows.filter((r) => typeof r.Title === 'string').slice(0, 3);
      t.need(items[0], 'the collection is empty, so there is nothing to toggle');
      const withLists = profiles[t.target.profile].has('list-filters');
      const item = fc.constantFrom(...items);
      const commands = [
        fc.tuple(item, fc.constantFrom<0 | 1>(0, 1)).map(([i, v]) => new SetKept(i, v)),
        item.map((i) => new ReadOne(i)),
        ...(withLists ? [fc.tuple(item, fc.boolean()).map(([i, k]) => new ListKept(i, k))] : []),
      ];
      // A run that passed leaves the flags its model holds: the next run starts knowing them, so it pays
      // no read to learn them again (and its first read of an item is judged, not only learnt). Once a run
      // has failed, fast-check shrinks and replays sequences on their own: each run then starts knowing nothing.
      let carried: Model | undefined;
      let failed = false;
      const runs = Math.min(t.target.runs, 10);
      const draw = t.commands(commands, { maxCommands: 12 });
      // The passing runs are made ahead, all at once item by item (runAhead); fast-check then meets each
      // sequence already judged. The first that failed ahead is run again for real, from a model that
      // knows nothing, so that what fast-check prints and shrinks are commands that ran, with their answers.
      const ahead = t.target.fcPath === undefined && t.target.fcReplayPath === undefined ? await runAhead(t, draw, runs) : undefined;
      let next = 0;
      await t.property(
        draw,
        async (sequence) => {
          const run = next++;
          const judged = ahead && !failed && run < ahead.signatures.length && signature(sequence) === ahead.signatures[run];
          if (judged && run !== ahead.failure?.run) return;
          const model: Model = failed || !carried || ahead ? new Map() : new Map(carried);
          try {
            await runItemByItem(async () => ({ model, real: { t } }), sequence);
          } catch (error) {
            failed = true;
            carried = undefined;
            throw error;
          }
          if (judged) {
            // Failed ahead, passed again now: what was seen ahead still stands.
            failed = true;
            throw ahead.failure!.error;
          }
          if (!failed) carried = model;
        },
        { runs },
      );
    },
  );
});

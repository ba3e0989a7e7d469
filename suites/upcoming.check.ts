import {
  describe,
  check,
  ensure,
  idOf,
  is2xx,
  isDateOrDateTime,
  itemFieldOf,
  itemFlag,
  itemRefOf,
  okRows,
  readKept,
  rowsOf,
  shapeOf,
  useDateFieldOf,
  type CheckContext,
  type Exchange,
  type Row,
  asJson,
  countFieldOf,
} from '../src/harness/index.ts';

/** Upcoming rows and the field naming their item (names not shown, §2). */
async function upcoming(t: CheckContext): Promise<{ rows: Row[]; itemField: string; exchange: Awaited<ReturnType<CheckContext['api']['upcoming']>> }> {
  const [exchange, { ids }] = await Promise.all([t.discover.shared('GET /upcoming-interactions.php'), t.discover.collection()]);
  const rows = listedRows(t, exchange);
  const itemField = t.need(itemFieldOf(rows, new Set(ids)), `the upcoming rows name their item in no recognisable field (a row: ${shapeOf(rows[0])})`);
  return { rows, itemField, exchange };
}

/** The rows of the upcoming answer; with none listed there is nothing to judge. */
function listedRows(t: CheckContext, exchange: Exchange): Row[] {
  const rows = okRows('C4.23', exchange, 'GET /upcoming-interactions.php');
  t.need(rows[0], 'no upcoming interaction is listed (no kept item has a recorded use)');
  return rows;
}

const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}/;
const INTERACT_NAME = /interact|due|next|upcoming|(^|_)by($|_)|deadline/i;
/** Dates of the past beside it: the latest use (last_use, most_recent_interaction …) and record stamps. */
const PAST_NAME = /last|recent|latest|prev|first|earliest|created|updated|modified|added|acquired|bought|purchased/i;
const dateLike = (v: unknown): boolean => typeof v === 'string' && DATE_LIKE.test(v);

/**
 * The fields that may hold the interact-by date (names not shown, §2), found by what they hold: fields
 * written like a date in some row and empty (null) or written like a date in every other, leaving out
 * those named for a past date when any other is left. The interact-by date is one of them that holds a
 * date in every row (`complete`, those named for it first), whatever the others hold.
 */
function interactByCandidates(rows: readonly Row[]): { candidates: string[]; complete: string[] } {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const dated = keys.filter((k) => rows.some((r) => dateLike(r[k])) && rows.every((r) => r[k] === null || r[k] === undefined || dateLike(r[k])));
  const ahead = dated.filter((k) => !PAST_NAME.test(k));
  const candidates = ahead.length > 0 ? ahead : dated;
  const complete = candidates.filter((k) => rows.every((r) => dateLike(r[k])));
  return { candidates, complete: [...complete.filter((k) => INTERACT_NAME.test(k)), ...complete.filter((k) => !INTERACT_NAME.test(k))] };
}

/**
 * The interact-by field the date checks compare days of: the candidate named for it, else the only one that holds a date
 * in every row, and only where it is written YYYY-MM-DD (with or without a time); several unnamed ones are not told apart.
 */
function dueField(rows: readonly Row[]): string | undefined {
  const { complete } = interactByCandidates(rows);
  const due = complete[0] !== undefined && (INTERACT_NAME.test(complete[0]) || complete.length === 1) ? complete[0] : undefined;
  return due !== undefined && rows.every((r) => isDateOrDateTime(r[due])) ? due : undefined;
}

/** Whether a date is a calendar date written year first (YYYY-MM-DD, YYYY/MM/DD, YYYY.MM.DD) or year last (day and month either way). */
function isCalendarDate(value: unknown): boolean {
  if (isDateOrDateTime(value)) return true;
  if (typeof value !== 'string') return false;
  const real = (y: number, m: number, d: number) => {
    const day = new Date(Date.UTC(y, m - 1, d));
    return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
  };
  const yearFirst = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})(?:[ T].*)?$/.exec(value);
  if (yearFirst) return real(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
  const yearLast = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[ T].*)?$/.exec(value);
  if (!yearLast) return false;
  const [a, b, y] = [Number(yearLast[1]), Number(yearLast[2]), Number(yearLast[3])];
  return real(y, b, a) || real(y, a, b);
}

/** The day (YYYY-MM-DD) of each item's latest use, the uses naming their item in `useItem` and their date in `useDate`. */
function latestUseByItem(uses: readonly Row[], useItem: string, useDate: string): Map<string, string> {
  const latest = new Map<string, string>();
  for (const use of uses) {
    const item = itemRefOf(use[useItem]);
    const day = String(use[useDate]).slice(0, 10);
    if (item !== undefined && day > (latest.get(item) ?? '')) latest.set(item, day);
  }
  return latest;
}

interface Gap {
  whose: string;
  item: string;
  last: string;
  expected: string;
  interval: number;
  from: string;
  to: string;
  exchange?: Exchange;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string): number => Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

/**
 * A kept item with a use that the upcoming rows leave out although its date falls among theirs, judged only where
 * every listed row lies one interval after its item's latest use (then the rule is that interval, and a window of
 * dates, whatever it is, holds every date between its first and last). Returns true where judged and whole, or why not judged.
 */
function coverageGap(
  rows: readonly Row[],
  itemField: string,
  uses: readonly Row[],
  walk: readonly Row[],
  ids: readonly string[],
  exchange?: Exchange,
  whose = 'the',
): Gap | true | string {
  const due = dueField(rows);
  const useItem = itemFieldOf(uses, new Set(ids), { ownId: true });
  const useDate = useDateFieldOf(uses);
  if (due === undefined || useItem === undefined || useDate === undefined)
    return `${whose} upcoming rows or uses carry no recognisable interact-by date, item or use date`;
  const latest = latestUseByItem(uses, useItem, useDate);
  const listed = new Map<string, string>();
  for (const row of rows) {
    const item = itemRefOf(row[itemField]);
    if (item !== undefined && latest.has(item)) listed.set(item, String(row[due]).slice(0, 10));
  }
  const intervals = new Set([...listed].map(([item, by]) => dayNumber(by) - dayNumber(latest.get(item)!)));
  if (listed.size < 2 || intervals.size !== 1)
    return `${whose} upcoming rows show no one interval after the latest use (${listed.size} row(s) with a use, ${intervals.size} interval(s))`;
  if (!walk.some((r) => 'is_kept' in r)) return `${whose} list rows carry no is_kept`;
  const interval = [...intervals][0]!;
  const dates = [...listed.values()].sort();
  const [from, to] = [dates[0]!, dates.at(-1)!];
  for (const row of walk) {
    const item = idOf(row.id);
    const last = item === undefined ? undefined : latest.get(item);
    if (last === undefined || listed.has(item!) || itemFlag(row.is_kept) !== true) continue;
    const expected = dayOf(dayNumber(last) + interval);
    if (expected >= from && expected <= to)
      return { whose: whose === 'the' ? 'The' : `With ${whose}, the`, item: item!, last, expected, interval, from, to, exchange };
  }
  return true;
}

describe('upcoming interactions (§2, §4 GET /upcoming-interactions.php)', () => {
  check(
    {
      id: 'UPCOMING-001',
      level: 'MUST',
      sections: ['§2', '§4'],
      title: "every upcoming interaction is for a kept item, the second key's too",
      accepts: [
        'any envelope or a bare list',
        'the item named under any field, as an id or a nested item',
        'is_kept as 0/1, a boolean or null (not set, so not kept)',
      ],
    },
    async (t) => {
      const { rows, itemField, exchange } = await upcoming(t);
      const { rows: collection } = await t.discover.collection();
      const byId = new Map(collection.map((r) => [idOf(r.id), r]));
      const referenced = [...new Set(rows.map((row) => itemRefOf(row[itemField])!))];
      // Judged by the list rows' kept flag where they carry it, else by single reads of a sample (staging).
      const keptInRow = (id: string) => {
        const row = byId.get(id);
        return row && 'is_kept' in row ? itemFlag(row.is_kept) : undefined;
      };
      const unflagged = referenced.filter((id) => keptInRow(id) === undefined).slice(0, 10);
      const reads = await Promise.all(unflagged.map((id) => readKept(t.api, id)));
      const keptOf = new Map(unflagged.map((id, i) => [id, reads[i]!.value === 1]));
      for (const id of referenced) {
        const inRow = keptInRow(id);
        const kept = inRow === undefined ? keptOf.get(id) : inRow === true;
        if (kept === undefined) continue;
        ensure('C2.15', kept, `the upcoming interactions list item ${id}, which is not kept`, exchange);
      }
      // The second key's list too (the run's shared read), held to that user's walk (a shared read too): upcoming dates are
      // for kept items whoever's key asks (§4: the endpoint lists interact-by dates for kept items; all results are scoped to
      // the key's user). Judged where that user's list rows carry is_kept, and its upcoming rows name items of its walk.
      if (t.target.keys.other === undefined) return;
      const [theirs, { rows: theirWalk, ids: theirIds }] = await Promise.all([
        t.discover.shared('GET /upcoming-interactions.php (second user)'),
        t.discover.collection('other'),
      ]);
      const what = 'GET /upcoming-interactions.php with the second key';
      const theirRows = okRows('C4.23', theirs, what);
      const theirField = itemFieldOf(theirRows, new Set(theirIds));
      if (theirField === undefined) return;
      const theirById = new Map(theirWalk.map((r) => [idOf(r.id), r]));
      for (const id of new Set(theirRows.map((row) => itemRefOf(row[theirField])))) {
        const row = id === undefined ? undefined : theirById.get(id);
        if (row === undefined || !('is_kept' in row)) continue;
        ensure(
          'C2.15',
          itemFlag(row.is_kept) === true,
          `${what} lists item ${id}, which the second user's walk shows with is_kept ${asJson(row.is_kept)}: upcoming interactions are for kept items, for every key`,
          theirs,
        );
      }
    },
  );

  check(
    {
      id: 'UPCOMING-002',
      level: 'MUST',
      sections: ['§2', '§4'],
      title: 'every upcoming row carries a valid interact-by date (its format is not shown)',
      accepts: [
        'a date or a date-time under any name: YYYY-MM-DD, ISO 8601 with any time zone or none, SQL DATETIME ("2025-11-25 00:00:00"), YYYY/MM/DD, or the year last (25.11.2025, 11/25/2025)',
        'other date fields beside it, null in some rows: the interact-by date is a field that holds a date in every row, whatever it is named',
      ],
    },
    async (t) => {
      const exchange = await t.discover.shared('GET /upcoming-interactions.php');
      const rows = listedRows(t, exchange);
      const { candidates, complete } = interactByCandidates(rows);
      t.need(candidates[0], `no field of the upcoming rows is written like a date (a row: ${shapeOf(rows[0])}; field names are not shown)`);
      const gaps = candidates.map(
        (k) => `${k} is ${JSON.stringify(rows.find((r) => !dateLike(r[k]))?.[k] ?? null)} in ${rows.filter((r) => !dateLike(r[k])).length} row(s)`,
      );
      ensure('C2.15', complete.length > 0, `no field holds an interact-by date in every upcoming row: ${gaps.join('; ')}`, exchange);
      const valid = complete.filter((k) => rows.every((r) => isCalendarDate(r[k])));
      const bad = rows.find((row) => !isCalendarDate(row[complete[0]!]));
      ensure('C2.15', valid.length > 0, `an upcoming row has ${complete[0]} ${asJson(bad?.[complete[0]!])}, not a valid calendar date`, exchange);
    },
  );

  check(
    {
      id: 'UPCOMING-003',
      level: 'SHOULD',
      sections: ['§1', '§4'],
      title: 'upcoming dates come from uses: every listed item has a recorded use',
      accepts: ['any envelope of uses or a bare list'],
    },
    async (t) => {
      const [{ rows, itemField }, uses, { ids }] = await Promise.all([upcoming(t), t.discover.uses().catch(() => undefined), t.discover.collection()]);
      const sample = rows.slice(0, 10).map((r) => itemRefOf(r[itemField])!);
      // The run's read of every use answers where the uses name their item in a field told apart (as
      // USES-003 finds it); otherwise each item's uses are read alone.
      const useField = uses && itemFieldOf(uses.rows, new Set(ids), { ownId: true });
      if (uses && useField !== undefined) {
        const used = new Set(uses.rows.map((u) => itemRefOf(u[useField])));
        for (const id of sample)
          ensure(
            'C4.23',
            used.has(id),
            `item ${id} has an upcoming interaction but no recorded use in GET /uses.php (advice: its date should come from uses; a use recorded before the service kept uses may explain it)`,
            uses.exchange,
          );
        return;
      }
      const answers = await Promise.all(sample.map((id) => t.discover.usesOf(id)));
      sample.forEach((id, i) => {
        ensure(
          'C4.23',
          okRows('C4.15', answers[i]!, `GET /uses.php?artifact_id=${id}`).length > 0,
          `item ${id} has an upcoming interaction but no recorded use (advice: its date should come from uses; a use recorded before the service kept uses may explain it)`,
          answers[i],
        );
      });
    },
  );

  check(
    {
      id: 'UPCOMING-004',
      level: 'MUST',
      sections: ['§3', '§4'],
      keptBlind: true,
      title: "an interact-by date is not before the item's latest recorded use (a use restarts the time since last use)",
      accepts: [
        'any interval after the latest use, the same day included (its length is not shown)',
        "a use's date and the interact-by date under any name, as a date or a date-time",
        'an item listed without a recorded use (judged as advice by UPCOMING-003)',
      ],
    },
    async (t) => {
      const [{ rows, itemField, exchange }, { rows: uses }, { ids }] = await Promise.all([upcoming(t), t.discover.uses(), t.discover.collection()]);
      const due = t.need(
        dueField(rows),
        'no field holds an interact-by date written YYYY-MM-DD in every upcoming row, named for it or the only one (UPCOMING-002 judges the dates)',
      );
      const useItem = t.need(itemFieldOf(uses, new Set(ids), { ownId: true }), 'no use is recorded, or the uses name their item in no recognisable field');
      const useDate = t.need(useDateFieldOf(uses), 'the uses carry no field recognisable as their date (their fields are not shown, §2)');
      const latest = latestUseByItem(uses, useItem, useDate);
      for (const row of rows) {
        const item = itemRefOf(row[itemField]);
        const last = item === undefined ? undefined : latest.get(item);
        if (last === undefined) continue;
        const by = String(row[due]).slice(0, 10);
        ensure(
          'C2.15',
          by >= last,
          `item ${item} is due by ${by} (${due}), before its latest recorded use on ${last}: a use restarts the time since last use (§3), so the date must follow it`,
          exchange,
        );
      }
    },
  );

  check(
    {
      id: 'UPCOMING-006',
      level: 'MUST',
      sections: ['§2', '§3', '§4'],
      title:
        "where every listed interact-by date lies the same number of days after its item's latest use, no kept item with a use whose date would fall between the first and last listed ones is left out, the second key's list too",
      accepts: [
        'any interval after the latest use, when it is one for every listed row (a rule that differs by item is not judged)',
        'any window of dates: overdue dates and dates beyond a horizon may be left out (which dates are upcoming is not shown)',
        "a use's date and the interact-by date under any name, as a date or a date-time",
      ],
    },
    async (t) => {
      const [{ rows, itemField, exchange }, uses, walk] = await Promise.all([upcoming(t), t.discover.uses(), t.discover.collection()]);
      const judged = [coverageGap(rows, itemField, uses.rows, walk.rows, walk.ids)];
      if (t.target.keys.other !== undefined) {
        const [theirs, theirUses, theirWalk] = await Promise.all([
          t.discover.shared('GET /upcoming-interactions.php (second user)'),
          t.discover.uses('other'),
          t.discover.collection('other'),
        ]);
        const theirRows = okRows('C4.23', theirs, 'GET /upcoming-interactions.php with the second key');
        const theirField = itemFieldOf(theirRows, new Set(theirWalk.ids));
        if (theirField !== undefined) judged.push(coverageGap(theirRows, theirField, theirUses.rows, theirWalk.rows, theirWalk.ids, theirs, 'the second key'));
      }
      const gaps = judged.filter((g): g is Gap => typeof g === 'object');
      t.need(gaps.length > 0 || judged.includes(true), judged.filter((g) => typeof g === 'string').join('; '));
      const gap = gaps[0];
      if (gap === undefined) return;
      ensure(
        'C4.23',
        false,
        `${gap.whose} upcoming interactions list every date ${gap.interval} day(s) after its item's latest use, from ${gap.from} to ${gap.to}, but leave out kept item ${gap.item}, last used on ${gap.last}: its date, ${gap.expected}, falls among theirs (interact-by dates are listed for kept items and derive from their uses; a use restarts the time since last use)`,
        gap.exchange ?? exchange,
      );
    },
  );

  check(
    {
      id: 'UPCOMING-005',
      level: 'MUST',
      sections: ['§2', '§3', '§4'],
      title:
        'an item listed in the upcoming interactions leaves them once it is no longer kept, and leaves the default proposal outcomes too unless it is in the secondary collection, while include_other=1 still counts its outcomes as before; kept again, the default outcomes count them as before; a kept item of the secondary collection unkept beside it stays covered by default',
      toggles: true,
      lane: 'own-items',
      accepts: [
        'any 2xx for the toggle, with any body',
        'the item named under any field, as an id or a nested item',
        'proposal outcomes judged only for an item with outcome rows (include_other=1) outside the secondary collection',
      ],
    },
    async (t) => {
      // The run's read of the list, made before any toggle, names the items listed; one of this check's own.
      const [{ rows, itemField }, share, wide, { ids }, everyUse] = await Promise.all([
        upcoming(t),
        t.discover.toggleRows(),
        t.discover.shared('GET /proposals.php?include_other=1'),
        t.discover.collection(),
        t.discover.uses(),
      ]);
      const mine = new Map(share.map((r) => [idOf(r.id), r]));
      const listed = rows.map((r) => itemRefOf(r[itemField])).filter((ref): ref is string => ref !== undefined && mine.has(ref));
      // Outcome rows (their field names are not shown, §2) name their item in a field found by what it holds.
      const outcomes = is2xx(wide) ? (rowsOf(wide.response.json) ?? []) : [];
      const outcomeField = itemFieldOf(outcomes, new Set(ids));
      const proposed = new Set(outcomeField === undefined ? [] : outcomes.map((r) => itemRefOf(r[outcomeField])));
      // Preferably an item that has outcome rows and is outside the secondary collection: unkept, the default
      // proposal outcomes no longer cover it (§4: by default only kept and secondary-collection items).
      const judged = listed.find((ref) => proposed.has(ref) && itemFlag(mine.get(ref)!.is_in_secondary_collection) !== true);
      // Whether it is shown outside the secondary collection: by its row, or where rows carry no flags (staging, §2) by its
      // record, read before the toggles (a record carries the independent flags, §4).
      const shelfOf = async (ref: string) =>
        'is_in_secondary_collection' in mine.get(ref)! ? mine.get(ref)!.is_in_secondary_collection : (await t.discover.record(ref)).is_in_secondary_collection;
      const outsideShown = judged !== undefined && [false, null].includes(itemFlag(await shelfOf(judged)) ?? true);
      const id = t.need(judged ?? listed[0], "no item of this check's share of the collection is listed in the upcoming interactions");
      // Beside it, where the share holds one, a kept item of the secondary collection that has outcome rows: unkept, the
      // default proposal outcomes still cover it (§4: by default kept items and the secondary collection), as before.
      const shelved =
        judged === undefined
          ? undefined
          : share.find((r) => {
              const ref = idOf(r.id);
              return ref !== undefined && ref !== id && proposed.has(ref) && itemFlag(r.is_kept) === true && itemFlag(r.is_in_secondary_collection) === true;
            });
      const shelvedId = shelved === undefined ? undefined : idOf(shelved.id)!;
      // Its uses before the toggle, from the run's list of every use (the field naming their item is found by what it holds).
      const useField = itemFieldOf(everyUse.rows, new Set(ids), { ownId: true });
      const usesBefore = useField === undefined ? undefined : everyUse.rows.filter((u) => itemRefOf(u[useField]) === id).length;
      // The item (and the shelved one beside it) set to `value` at once, each toggle held to succeed (§4).
      const setBoth = async (value: 0 | 1): Promise<void> => {
        const targets = [id, ...(shelvedId === undefined ? [] : [shelvedId])];
        const sent = await Promise.all(targets.map((item) => t.kept.set(item, value)));
        for (const [i, ex] of sent.entries())
          ensure('C3.1', is2xx(ex), `POST /artifact-kept.php {is_kept: ${value}} on item ${targets[i]}: expected success, got ${ex.response.status}`, ex);
      };
      await setBoth(0);
      const [after, byDefault, usesAfter, wideAfter] = await Promise.all([
        t.api.upcoming(),
        judged === undefined ? undefined : t.api.proposals({}),
        usesBefore === undefined ? undefined : t.api.uses({ artifact_id: id }),
        judged === undefined ? undefined : t.api.proposals({ include_other: 1 }),
      ]);
      // With include_other=1 the item's outcomes are still counted as before the toggle: an outcome is a recorded
      // proposal, which the toggle does not touch (§3: the only state an agent changes is the kept flag; §4: the toggle
      // changes nothing else), and include_other=1 covers the items that are not kept. The counts are the two fields the
      // proposal checks read (the row's field names are not shown, §2): the first whole-number field of every row named
      // for declines, and the first named for something else or other; not every such field, as a row may also carry a
      // field that follows the kept flag (such as an is_other flag of the items only include_other=1 covers).
      const whole = (row: Row, k: string) => row[k] !== null && row[k] !== '' && Number.isInteger(Number(row[k]));
      const countKeys = [countFieldOf(outcomes, /declin/i), countFieldOf(outcomes, /else|other/i)].filter((k): k is string => k !== undefined);
      const counts = (row: Row | undefined): [string, number][] | undefined =>
        row === undefined ? undefined : countKeys.map((k) => [k, whole(row, k) ? Number(row[k]) : Number.NaN]);
      const rowOf = (rows: readonly Row[]) => (outcomeField === undefined ? undefined : rows.find((r) => itemRefOf(r[outcomeField]) === id));
      const before = counts(rowOf(outcomes));
      if (wideAfter && before?.some(([, n]) => n > 0)) {
        const [wasCounted, now] = [
          JSON.stringify(before),
          JSON.stringify(counts(rowOf(okRows('C4.18', wideAfter, 'GET /proposals.php?include_other=1'))) ?? null),
        ];
        ensure(
          'C3.2',
          now === wasCounted,
          `after setting is_kept=0 on item ${id}, GET /proposals.php?include_other=1 counts its outcomes as ${now === 'null' ? 'no row' : now}, before the toggle ${wasCounted}: the toggle changes nothing else (§4), and an outcome is a recorded proposal`,
          wideAfter,
        );
      }
      if (usesAfter) {
        const listedUses = okRows('C4.15', usesAfter, `GET /uses.php?artifact_id=${id}`).length;
        ensure(
          'C3.2',
          listedUses === usesBefore,
          `after setting is_kept=0 on item ${id}, GET /uses.php?artifact_id=${id} lists ${listedUses} use(s), but before the toggle GET /uses.php named that item in ${usesBefore}: the toggle changes nothing else (§4), and uses are recorded interactions`,
          usesAfter,
        );
      }
      const still = okRows('C4.23', after, 'GET /upcoming-interactions.php').some((r) => itemRefOf(r[itemField]) === id);
      ensure(
        'C2.15',
        !still,
        `after setting is_kept=0 on item ${id}, GET /upcoming-interactions.php still lists it (upcoming interactions are for kept items)`,
        after,
      );
      if (byDefault && outcomeField !== undefined) {
        const covered = okRows('C4.18', byDefault, 'GET /proposals.php').some((r) => itemRefOf(r[outcomeField]) === id);
        ensure(
          'C4.18',
          !outsideShown || !covered,
          `after setting is_kept=0 on item ${id} (not in the secondary collection), GET /proposals.php still covers it: by default only kept and secondary-collection items are covered (§3: is_kept now equals 0)`,
          byDefault,
        );
        const stillCovered = okRows('C4.18', byDefault, 'GET /proposals.php').some((r) => itemRefOf(r[outcomeField]) === shelvedId);
        ensure(
          'C4.18',
          shelvedId === undefined || stillCovered,
          `after setting is_kept=0 on item ${shelvedId} (in the secondary collection, with outcome rows), GET /proposals.php no longer covers it: by default kept items and the secondary collection are covered (§4), and the toggle changed only is_kept (§3)`,
          byDefault,
        );
      }
      // Kept again, the item's interact-by date is the one it had: it derives from recorded uses (§2), which neither
      // toggle changed. Judged where the date's field is plain: named for it, or the only date every row holds.
      const due = dueField(rows);
      const dates = (list: readonly Row[]) =>
        list
          .filter((r) => itemRefOf(r[itemField]) === id)
          .map((r) => String(r[due ?? '']).slice(0, 10))
          .sort();
      await setBoth(1);
      // The reads of the records are the check's last sight of the kept values: the restore needs no read of its own.
      // Kept again, the item is covered by default once more, with the counts include_other=1 gave before the toggles (§3:
      // the toggle changes only is_kept; §4: a row counts the item's recorded outcomes).
      const [, , again, defaultAgain] = await Promise.all([
        t.discover.record(id),
        shelvedId === undefined ? undefined : t.discover.record(shelvedId),
        due === undefined ? undefined : t.api.upcoming(),
        judged === undefined ? undefined : t.api.proposals({}),
      ]);
      if (defaultAgain && before?.some(([, n]) => n > 0)) {
        const now = JSON.stringify(counts(rowOf(okRows('C4.18', defaultAgain, 'GET /proposals.php'))) ?? null);
        ensure(
          'C3.2',
          now === JSON.stringify(before),
          `after setting is_kept=0 and back to 1 on item ${id}, GET /proposals.php counts its outcomes as ${now === 'null' ? 'no row' : now}, GET /proposals.php?include_other=1 before the toggles ${JSON.stringify(before)}: the toggle changes nothing else (§4), and an outcome is a recorded proposal`,
          defaultAgain,
        );
      }
      if (due === undefined || again === undefined) return;
      const datesAgain = dates(okRows('C4.23', again, 'GET /upcoming-interactions.php'));
      ensure(
        'C2.15',
        JSON.stringify(datesAgain) === JSON.stringify(dates(rows)),
        `item ${id} set to is_kept=0 and back to 1: GET /upcoming-interactions.php lists its ${due} as ${asJson(datesAgain)}, before the toggles ${asJson(dates(rows))}; an interact-by date derives from recorded uses (§2), which the toggle does not change`,
        again,
      );
    },
  );
});

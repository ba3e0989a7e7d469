import { describe, expect, it } from 'vitest';
import { namedPaths, unnamedPaths } from '../src/spec/catalog.ts';
import type { Exchange } from '../src/http/exchange.ts';
import fc from 'fast-check';
import {
  isDateOrDateTime,
  itemFlag,
  isSet,
  looseFieldValue,
  recordOf,
  sameLooseValue,
  shapeOf,
  sortedKeysJson,
  sortedListsJson,
  withSortedLists,
} from '../src/spec/lenient.ts';
import { directionOf, windowBound, type CursorWindow } from '../src/harness/paging.ts';
import { answersAsAbsent, sameAnswer } from '../src/harness/probes.ts';

const record = { id: 7, Title: 'Copper Gardens', is_kept: 1, tags: [] };

describe('recordOf: the single-item record wherever the answer keeps it (§4: its envelope is not shown)', () => {
  it('takes the body itself when it is the record', () => {
    expect(recordOf(record, '7')).toBe(record);
  });

  it('finds the record inside an envelope of any name, also one level deeper or as the only entry of a list', () => {
    expect(recordOf({ artifact: record, meta: { served_at: 'now' } }, '7')).toBe(record);
    expect(recordOf({ data: { item: record } })).toBe(record);
    expect(recordOf({ data: [record] })).toBe(record);
  });

  it('prefers the record with the id asked for, and gives up when records are ambiguous', () => {
    const other = { ...record, id: 8 };
    expect(recordOf({ a: other, b: record }, '7')).toBe(record);
    expect(recordOf({ a: other, b: record })).toBeUndefined();
    expect(recordOf({ id: 'req-1', type: 'artifact', data: record }, '7')).toBe(record);
  });

  it('finds none in null, an empty envelope or an object without an id', () => {
    expect(recordOf(null)).toBeUndefined();
    expect(recordOf({ artifact: null })).toBeUndefined();
    expect(recordOf({ Title: 'no id', is_kept: 1 })).toBeUndefined();
  });
});

describe('item flags', () => {
  it('reads 0/1, booleans and "0"/"1", and null as not set', () => {
    expect([1, true, '1', 0, false, '0', null, 'yes', undefined].map(itemFlag)).toEqual([true, true, true, false, false, false, null, undefined, undefined]);
    expect([1, null, 0].map(isSet)).toEqual([true, false, false]);
  });
});

describe('dates whose format the spec does not fix', () => {
  it('accepts ISO dates, ISO date-times in any zone and SQL DATETIME, and refuses other forms and impossible dates', () => {
    const good = ['2025-11-25', '2025-11-25T00:00:00Z', '2025-11-25T10:30+02:00', '2025-11-25T10:30:00.123-0500', '2025-11-25 00:00:00', '2025-11-25 23:59'];
    const bad = ['25/11/2025', '2025-02-30', '2025-11-25T25:00:00', '2025-11-25x', '', null, 20251125];
    expect(good.filter((v) => !isDateOrDateTime(v))).toEqual([]);
    expect(bad.filter((v) => isDateOrDateTime(v))).toEqual([]);
  });
});

describe('shapeOf: what a failure says it found', () => {
  it('describes objects by their keys and kinds, lists by their entries, and scalars by value', () => {
    expect(shapeOf({ status: 'ok', data: { id: 1 }, rows: [1, 2] })).toBe('an object with status (string), data (object), rows (list of 2)');
    expect(shapeOf([{}, {}])).toBe('a list of 2 object entries');
    expect(shapeOf(undefined)).toBe('no JSON body');
    expect(shapeOf('<html>')).toBe('the string "<html>"');
  });
});

describe('catalog paths, whatever its format (§1: its content is not shown)', () => {
  it('finds endpoints named as keys, paths, URLs or "METHOD /path", and not in prose', () => {
    const doc = {
      endpoints: [{ path: 'GET /v1/uses.php' }, 'https://api.example.org/types.php?x=1', 'artifact.php'],
      paths: { '/artifacts.php': {} },
      note: 'see /players.php for people',
    };
    expect([...namedPaths(doc)].sort()).toEqual(['/artifact.php', '/artifacts.php', '/types.php', '/v1/uses.php']);
    expect(unnamedPaths(doc, ['/uses.php', '/types.php', '/artifact.php', '/players.php'])).toEqual(['/players.php']);
  });
});

function exchange(path: string, status: number, text: string): Exchange {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    seq: 1,
    request: { method: 'GET', url: `http://host${path}`, headers: {} },
    response: { status, headers: {}, text, json },
    durationMs: 1,
  } as unknown as Exchange;
}

describe('paths a target does not serve', () => {
  const baseline = exchange('/no-such.php', 200, '<html>Nothing at /no-such.php</html>');

  it('reads 404, a catch-all page without data, or the answer every unknown path gets as no endpoint', () => {
    expect(answersAsAbsent(exchange('/users.php', 404, '{}'), [])).toBe(true);
    expect(answersAsAbsent(exchange('/users.php', 200, '<html>Welcome</html>'), ['Copper Gardens'])).toBe(true);
    expect(sameAnswer(exchange('/users.php', 200, '<html>Nothing at /users.php</html>'), baseline)).toBe(true);
  });

  it('reads a refusal other than 404, or a page of records or user data, as an endpoint', () => {
    expect(answersAsAbsent(exchange('/users.php', 405, '{}'), [], baseline)).toBe(false);
    expect(answersAsAbsent(exchange('/users.php', 200, '{"users":[{"id":1,"name":"Ada"}]}'), [], baseline)).toBe(false);
    expect(answersAsAbsent(exchange('/users.php', 200, '<p>Copper Gardens</p>'), ['Copper Gardens'], baseline)).toBe(false);
  });
});

describe('cursor direction (§4: paging by id, its direction not shown)', () => {
  const window = (ids: string[]): CursorWindow => ({
    complete: false,
    pages: [{ rows: ids.map((id) => ({ id })), hasMore: true, nextCursor: 'x', exchange: exchange('/artifacts.php', 200, '{}') }],
  });

  it('reads the direction from the first and last ids, numerically or by code units', () => {
    expect(directionOf(['2', '10', '11'])).toBe('ascending');
    expect(directionOf(['11', '10', '2'])).toBe('descending');
    expect(directionOf(['itm-999', 'itm-1063'])).toBe('descending');
  });

  it("bounds a window at the last id in the walk's direction", () => {
    const ascending = windowBound(window(['1', '2', '5']), (r) => String(r.id));
    expect(['4', '5', '6'].map(ascending)).toEqual([true, true, false]);
    const descending = windowBound(window(['9', '7', '5']), (r) => String(r.id), 'descending');
    expect(['6', '5', '4'].map(descending)).toEqual([true, true, false]);
  });
});

describe('answers written for comparison', () => {
  /** The same value with every object's keys in another order. */
  const reversedKeys = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reversedKeys)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([k, v]) => [k, reversedKeys(v)]),
          )
        : value;

  it('sortedListsJson writes exactly what JSON.stringify(withSortedLists(…)) writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(sortedListsJson(value)).toBe(JSON.stringify(withSortedLists(value)));
      }),
      { numRuns: 500, seed: 1 },
    );
    expect(sortedListsJson({ tags: ['b', 'a'], rows: [{ tags: ['z', 'y'] }] })).toBe('{"tags":["a","b"],"rows":[{"tags":["y","z"]}]}');
  });

  it('sortedKeysJson keeps the value and ignores the order of keys: equal strings exactly for equal records', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const written = sortedKeysJson(value);
        expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(sortedKeysJson(reversedKeys(value))).toBe(written);
      }),
      { numRuns: 500, seed: 1 },
    );
    expect(sortedKeysJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});

describe("a use's other fields read loosely at any depth (§2: they are not shown)", () => {
  it('takes ids as numbers or digit strings, flags as booleans or 1/0, lists in any order, an item nested or by id', () => {
    expect(sameLooseValue([3, 5], ['5', '3'])).toBe(true);
    expect(sameLooseValue({ id: 5, Title: 'A' }, { id: '5', Title: 'A', note: null })).toBe(true);
    expect(sameLooseValue({ id: 5, is_kept: 1, updated_at: '2026-01-01' }, { id: 5, is_kept: 0, updated_at: '2026-02-01' })).toBe(true);
    expect(sameLooseValue(5, { id: 5, Title: 'A' })).toBe(true);
    expect(sameLooseValue(true, 1)).toBe(true);
    expect(sameLooseValue('2020-01-05', '2020-01-05 00:00:00')).toBe(true);
  });

  it('keeps apart what differs: another date, another item, another player, a nested title', () => {
    expect(sameLooseValue('2020-01-05', '2020-01-06')).toBe(false);
    expect(sameLooseValue(5, { id: 6 })).toBe(false);
    expect(sameLooseValue([3, 5], [3, 6])).toBe(false);
    expect(sameLooseValue({ id: 5, Title: 'A' }, { id: 5, Title: 'B' })).toBe(false);
    expect(sameLooseValue(null, { id: 5 })).toBe(false);
  });
});

describe('collection values read loosely (§2 shows none of their types)', () => {
  it('takes a number and its decimal text, a date and that date at midnight, and every blank as one value each', () => {
    expect(looseFieldValue(2.5)).toBe(looseFieldValue('2.50'));
    expect(looseFieldValue('2020-01-05')).toBe(looseFieldValue('2020-01-05 00:00:00'));
    expect(looseFieldValue('2020-01-05')).toBe(looseFieldValue('2020-01-05T00:00:00Z'));
    expect([null, undefined, '', '  '].map(looseFieldValue)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('keeps apart what differs: another day, a time other than midnight, a year for a date, a blank for a value', () => {
    expect(looseFieldValue('2020-01-05')).not.toBe(looseFieldValue('2020-01-06'));
    expect(looseFieldValue('2020-01-05')).not.toBe(looseFieldValue('2020-01-05 13:30:00'));
    expect(looseFieldValue('2020-01-05')).not.toBe(looseFieldValue('2020'));
    expect(looseFieldValue(0)).not.toBe(looseFieldValue(null));
    expect(looseFieldValue(2.5)).not.toBe(looseFieldValue(2.4));
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { runCli } from './support/cli.ts';

/** A key the reference does not know, and one that the wrapped reference reads as the primary user's. */
const WRONG_KEY = 'conform-mistyped-other-key-0001';
const ALIAS_KEY = 'conform-second-key-of-the-first-user';

let reference: RunningReference;
let requests = 0;

beforeAll(async () => {
  reference = await startReference({
    wrap: (inner) => (req) => {
      requests++;
      // A user may mint several keys: this one reads the primary user's collection.
      if (req.headers.authorization === `Bearer ${ALIAS_KEY}`)
        return inner({ ...req, headers: { ...req.headers, authorization: `Bearer ${reference.keys.primary}` } });
      return inner(req);
    },
  });
});
afterAll(() => reference.close());

type Case = [label: string, key: () => string, how: 'flag' | 'env' | 'config', message: RegExp, source: RegExp];

/** The second key's value never appears; where it came from always does. */
const cases: Case[] = [
  ['refused, from --other-key', () => WRONG_KEY, 'flag', /refused the second user's key \(GET \/types\.php answered 401\)/, /the key given with --other-key/],
  ['refused, from CONFORM_OTHER_API_KEY', () => WRONG_KEY, 'env', /refused the second user's key/, /the key in \$CONFORM_OTHER_API_KEY/],
  [
    'refused, from the variable the config names',
    () => WRONG_KEY,
    'config',
    /refused the second user's key/,
    /\$SHOP_OTHER_KEY \(named by otherKeyEnv in the config file\)/,
  ],
  ["reading the first key's user, from --other-key", () => ALIAS_KEY, 'flag', /reads the same collection as the first key/, /the key given with --other-key/],
  ["reading the first key's user, from the config", () => ALIAS_KEY, 'config', /reads the same collection as the first key/, /\$SHOP_OTHER_KEY/],
];

describe('the second key is checked before the run', () => {
  it.each(cases)('a second key %s is exit 2, naming its source and never its value', async (_label, key, how, message, source) => {
    const dir = mkdtempSync(join(tmpdir(), 'conform-other-key-'));
    writeFileSync(join(dir, 'conform.config.json'), JSON.stringify({ targets: { shop: { url: reference.url, otherKeyEnv: 'SHOP_OTHER_KEY' } } }));
    const args =
      how === 'config'
        ? ['--target', 'shop', '--config', join(dir, 'conform.config.json'), '--key', reference.keys.primary]
        : ['--target', reference.url, '--key', reference.keys.primary, ...(how === 'flag' ? ['--other-key', key()] : [])];
    const env = how === 'env' ? { CONFORM_OTHER_API_KEY: key() } : how === 'config' ? { SHOP_OTHER_KEY: key() } : {};
    const before = requests;
    const run = await runCli(args, env);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(source);
    expect(run.stdout + run.stderr).not.toContain(key());
    // Only the pre-flight's four reads and the catalog read were sent: no check ran.
    expect(requests - before).toBeLessThanOrEqual(5);
  });

  it('a second key of another user passes the pre-flight and the run goes on', async () => {
    const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--other-key', reference.keys.other, '--only', 'SCOPE-*']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference, type ReferenceOptions } from '../fixtures/reference/server.ts';
import type { Handler } from '../fixtures/reference/types.ts';
import { variants } from '../fixtures/variants.ts';
import { PACT_FILE, states } from '../src/pact/contract.ts';
import { reproduceInteraction, type PactInteraction } from '../src/pact/reproduce.ts';
import { pactForProfile } from '../src/pact/subset.ts';
import { WriteGuard } from '../src/pact/guard.ts';
import { describeVerification, judge, verifyPact, type Verification } from '../src/pact/verify.ts';
import { runCli } from './support/cli.ts';

/** Starts the reference with `options`, verifies the pact against it with `key` (default: the primary user's). */
async function verifyAgainst(
  options: ReferenceOptions,
  pick: (keys: { primary: string; empty: string }) => string = (k) => k.primary,
  providerStates?: string,
) {
  const reference = await startReference(options);
  const key = pick(reference.keys);
  try {
    const verification = await verifyPact({ baseUrl: reference.url, key, ...(providerStates ? { providerStates } : {}) });
    return { verification, key, reference };
  } finally {
    await reference.close();
  }
}

async function mutant(id: string): Promise<ReferenceOptions> {
  const found = (await loadMutants()).find((m) => m.id === id);
  if (!found?.wrap) throw new Error(`no mutant ${id} with a wrap`);
  return { wrap: found.wrap };
}

const failed = (v: Verification) => v.outcomes.filter((o) => o.status === 'failed').map((o) => o.description);

describe('conform pact verify', () => {
  it.concurrent('passes against the embedded reference through the CLI (exit 0), without printing its key', async () => {
    const run = await runCli(['pact', 'verify']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/21 passed, 0 failed, 0 not judged of 21 interactions/);
    expect(run.stdout).not.toMatch(/ref-key-/);
  });

  for (const id of ['alternative-choices', 'other-choices-everywhere']) {
    it.concurrent(`passes against a reference that makes the other choices the spec leaves open (${id})`, async () => {
      const alternative = variants.find((v) => v.id === id)!;
      const { verification } = await verifyAgainst({ variant: alternative.variant });
      expect(failed(verification)).toEqual([]);
      expect(verification.exitCode).toBe(0);
    });
  }

  it.concurrent('fails against a mutant that serves requests without a key (exit 1)', async () => {
    const { verification } = await verifyAgainst(await mutant('auth-missing-header-served'));
    expect(verification.exitCode).toBe(1);
    expect(failed(verification)).toEqual(['a GET of the item list without an Authorization header']);
  });

  it.concurrent("fails against a mutant that accepts is_kept 2, and puts the item's kept value back", async () => {
    let keptBefore: unknown[] = [];
    const options = await mutant('kept-coerces-truthy');
    const reference = await startReference(options);
    const user = reference.store.userByKey(reference.keys.primary)!;
    keptBefore = reference.store.items(user.id).map((i) => i.is_kept);
    try {
      const verification = await verifyPact({ baseUrl: reference.url, key: reference.keys.primary });
      expect(verification.exitCode).toBe(1);
      expect(failed(verification)).toEqual(['a POST of the kept toggle with is_kept outside 0 and 1']);
      expect(reference.store.items(user.id).map((i) => i.is_kept)).toEqual(keptBefore);
    } finally {
      await reference.close();
    }
  });

  it.concurrent('gives no verdict (exit 3) when the states cannot be set up, and sends no write for them', async () => {
    const writes: string[] = [];
    const recordWrites =
      (inner: Handler): Handler =>
      (req) => {
        if (req.method !== 'GET' && req.path !== '/artifacts.php') writes.push(`${req.method} ${req.path}`);
        return inner(req);
      };
    // The empty user has no item: "the user has an item" cannot be set up.
    const { verification } = await verifyAgainst({ wrap: recordWrites }, (k) => k.empty);
    expect(verification.exitCode).toBe(3);
    expect(verification.stateErrors.map((e) => e.state)).toContain(states.hasItem);
    expect(verification.outcomes.find((o) => o.description === 'a GET of one item')?.status).toBe('not judged');
    expect(verification.heldBack.length).toBeGreaterThan(0);
    expect(writes.filter((w) => w.includes('artifact-kept'))).toEqual([]);
  });

  it.concurrent('masks the key even when a target echoes it back', async () => {
    const echo =
      (inner: Handler): Handler =>
      async (req) =>
        req.path === '/types.php' ? { status: 500, body: { errors: [{ message: `refused ${req.headers.authorization}` }] } } : inner(req);
    const { verification, key } = await verifyAgainst({ wrap: echo });
    expect(verification.exitCode).toBe(1);
    const text = describeVerification(verification);
    expect(text).toContain('a GET of the item types');
    expect(text).not.toContain(key);
  });

  it.concurrent("uses a vendor's provider-states module in place of the built-in handler", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conform-states-'));
    const module = join(dir, 'states.mjs');
    // An id no item has: the single read must then fail, which proves the vendor's handler was used.
    writeFileSync(module, `export default () => ({ '${states.hasItem}': async () => ({ itemId: 5 }) });\n`);
    const { verification } = await verifyAgainst({}, undefined, module);
    expect(failed(verification)).toContain('a GET of one item');
    expect(verification.stateErrors).toEqual([]);
  });
});

describe('judging a verification report', () => {
  const report = (results: [string, 'OK' | 'Error'][]) => ({
    interactionResults: results.map(([description, result]) => ({ description, result })),
    errors: results
      .filter(([, r]) => r === 'Error')
      .map(([d]) => ({
        interaction: `Verifying a pact between agent and agent-api - ${d}`,
        mismatch: { mismatches: [{ mismatch: 'expected 200 but was 404', path: '' }] },
      })),
  });
  const stateOf = new Map([
    ['a GET of one item', [states.hasItem]],
    ['a GET of the item types', []],
  ]);

  it('fails (1) on a failed interaction whose state was set up, and names its mismatch', () => {
    const v = judge(
      {
        report: report([
          ['a GET of one item', 'Error'],
          ['a GET of the item types', 'OK'],
        ]),
        stateErrors: [],
        heldBack: [],
      },
      stateOf,
    );
    expect(v.exitCode).toBe(1);
    expect(v.outcomes[0]).toEqual({ description: 'a GET of one item', status: 'failed', problems: ['expected 200 but was 404'] });
  });

  it('does not hold a failure against the target when its state could not be set up (3)', () => {
    const v = judge(
      {
        report: report([
          ['a GET of one item', 'Error'],
          ['a GET of the item types', 'OK'],
        ]),
        stateErrors: [{ state: states.hasItem, action: 'setup', message: 'empty' }],
        heldBack: [],
      },
      stateOf,
    );
    expect(v.outcomes.map((o) => o.status)).toEqual(['not judged', 'passed']);
    expect(v.exitCode).toBe(3);
  });

  it('never passes when a teardown could not put a kept value back (3)', () => {
    const v = judge(
      {
        report: report([['a GET of the item types', 'OK']]),
        stateErrors: [{ state: states.hasItemWithKnownKept, action: 'teardown', message: 'could not restore' }],
        heldBack: [],
      },
      stateOf,
    );
    expect(v.exitCode).toBe(3);
  });
});

describe('the write guard', () => {
  it('lets reads through and writes only with ids a provider state prepared', () => {
    const guard = new WriteGuard();
    expect(guard.refusal('GET', '/artifact.php', { id: '5' }, undefined)).toBeUndefined();
    expect(guard.refusal('POST', '/artifacts.php', {}, { kept: true })).toBeUndefined();
    expect(guard.refusal('POST', '/artifact-kept.php', {}, { id: 987654321, is_kept: 1 })).toMatch(/no provider state/);
    guard.prepare(states.hasItemWithKnownKept, { itemId: 1063, kept: 1 });
    expect(guard.refusal('POST', '/artifact-kept.php', {}, { id: 1063, is_kept: 1 })).toBeUndefined();
    expect(guard.refusal('POST', '/artifact-kept.php', {}, { id: 1, is_kept: 1 })).toMatch(/id 1,/);
    expect(guard.refusal('DELETE', '/artifact.php', {}, undefined)).toMatch(/names no id/);
    guard.reset();
    expect(guard.refusal('POST', '/artifact-kept.php', {}, { id: 1063, is_kept: 1 })).toMatch(/no provider state/);
  });
});

describe('pact verify: the staging subset and reproductions', () => {
  it('holds a staging target to the interactions staging offers (§9)', () => {
    expect(pactForProfile(PACT_FILE, 'primary')).toEqual({ file: PACT_FILE, verified: 21, leftOut: [] });
    const staging = pactForProfile(PACT_FILE, 'staging');
    expect(staging.file).not.toBe(PACT_FILE);
    expect(staging.leftOut.map((l) => l.description).sort()).toEqual([
      'a GET of the players',
      'a POST of the item list with an invalid filter value',
      'a POST of the item list with every filter',
      'a POST of the item list with the optional fields',
    ]);
    const subset = JSON.parse(readFileSync(staging.file, 'utf8')) as { interactions: unknown[] };
    expect(subset.interactions).toHaveLength(17);
    expect(staging.verified).toBe(17);
  });

  it.concurrent('passes a staging deployment with --profile staging (exit 0), listing what it left out', async () => {
    const run = await runCli(['pact', 'verify', '--profile', 'staging']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^n\/a {2}a GET of the players \(needs players\)$/m);
    expect(run.stdout).toMatch(/17 passed, 0 failed, 0 not judged of 17 interactions: the target honours the pact/);
  });

  it.concurrent('prints the request and a curl for a failed interaction, with the ids the states handed out and the key masked', async () => {
    const reference = await startReference(await mutant('kept-coerces-truthy'));
    try {
      const verification = await verifyPact({ baseUrl: reference.url, key: reference.keys.primary });
      const failure = verification.outcomes.find((o) => o.status === 'failed')!;
      const firstItem = reference.store
        .items(reference.store.userByKey(reference.keys.primary)!.id)
        .map((i) => i.id)
        .sort((a, b) => Number(a) - Number(b))[0];
      expect(failure.request).toBe(`POST /artifact-kept.php {"id":${JSON.stringify(firstItem)},"is_kept":2}`);
      expect(failure.reproduction).toBe(
        `curl -sS -i -X POST '${reference.url}/artifact-kept.php' -H 'Authorization: Bearer ***' -H 'Content-Type: application/json' --data-raw '{"id":${JSON.stringify(firstItem)},"is_kept":2}'`,
      );
      const text = describeVerification(verification);
      expect(text).toContain(`       reproduce: ${failure.reproduction}`);
      expect(text).not.toContain(reference.keys.primary);
      expect(verification.outcomes.filter((o) => o.status === 'passed').every((o) => o.reproduction === undefined)).toBe(true);
    } finally {
      await reference.close();
    }
  });

  it('rebuilds a request from the pact: state values into the query, the placeholder key masked, other headers kept', () => {
    const pact = JSON.parse(readFileSync(PACT_FILE, 'utf8')) as { interactions: PactInteraction[] };
    const byName = (d: string) => pact.interactions.find((i) => i.description === d)!;
    expect(reproduceInteraction(byName('a GET of one item'), 'http://h', { itemId: 17 })).toEqual({
      request: 'GET /artifact.php?id=17',
      curl: "curl -sS -i -X GET 'http://h/artifact.php?id=17' -H 'Authorization: Bearer ***'",
    });
    expect(reproduceInteraction(byName('a GET of one item'), 'http://h', {}).request).toBe('GET /artifact.php?id=987654321');
    expect(reproduceInteraction(byName('a GET of the item list without an Authorization header'), 'http://h', {}).curl).toBe(
      "curl -sS -i -X GET 'http://h/artifacts.php'",
    );
    expect(reproduceInteraction(byName('a GET of the item list with a key no deployment issued'), 'http://h', {}).curl).toContain(
      "-H 'Authorization: Bearer pact-unknown-key-5c1e0b7d93a24f68'",
    );
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDataset } from '../fixtures/dataset.ts';
import { loadMutants } from '../fixtures/mutants/index.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { runCli } from './support/cli.ts';
import { readJournal } from '../src/safety/journal.ts';
import { CHECK_REQUEST, prefetchedReads } from '../src/harness/discovery.ts';

const allKeys = buildDataset().users.map((u) => u.key);

/** The embedded reference, and every request it answers as "<user> <method> <path>?<query> <body>". */
async function loggingReference(): Promise<{ served: Awaited<ReturnType<typeof startReference>>; seen: string[] }> {
  const seen: string[] = [];
  const served = await startReference({
    wrap: (inner) => (req) => {
      const user = req.headers.authorization?.includes(served.keys.other) ? 'other' : 'primary';
      seen.push(`${user} ${req.method} ${req.path}?${req.query.toString()} ${req.bodyText}`);
      return inner(req);
    },
  });
  return { served, seen };
}

function everyOutput(run: { stdout: string; stderr: string; outDir: string }): string {
  const files = readdirSync(run.outDir).map((f) => readFileSync(join(run.outDir, f), 'utf8'));
  return [run.stdout, run.stderr, ...files].join('\n');
}

describe('conform against the embedded reference', () => {
  it('passes every check, writes report.json and junit.xml, and never prints a key', async () => {
    const run = await runCli([]);
    expect(run.stderr).toBe('');
    expect(run.code, run.stdout).toBe(0);
    const report = run.report();
    expect(report.verdict).toBe('conforms');
    expect(report.checks.filter((c) => c.status === 'failed' || c.status === 'error')).toEqual([]);
    expect(report.counts.passed).toBeGreaterThan(10);
    expect(readFileSync(join(run.outDir, 'junit.xml'), 'utf8')).toContain('<testsuites');
    // The model-based check draws its commands from the seed; the missing-key probe sends one fixed request.
    expect(report.checks.find((c) => c.id === 'KEPT-006')?.seeded).toBe(true);
    expect(report.checks.find((c) => c.id === 'AUTH-001')?.seeded).toBeUndefined();
    const output = everyOutput(run);
    for (const key of allKeys) expect(output).not.toContain(key);
  });
});

describe('conform against a reference it does not own', () => {
  it('restores every kept value it changed', async () => {
    const reference = await startReference();
    try {
      const before = JSON.stringify(reference.store.snapshot());
      const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--other-key', reference.keys.other]);
      expect(run.code, run.stdout).toBe(0);
      const stripStamps = (text: string) => text.replace(/"updated_at":"[^"]*"/g, '');
      expect(stripStamps(JSON.stringify(reference.store.snapshot()))).toBe(stripStamps(before));
      const output = everyOutput(run);
      expect(output).not.toContain(reference.keys.primary);
      expect(output).not.toContain(reference.keys.other);
      expect(run.report().safety.problems).toEqual([]);
    } finally {
      await reference.close();
    }
  });

  it('skips the cross-user checks, with the reason, when no second key is given: the run is incomplete', async () => {
    const reference = await startReference();
    try {
      const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'SCOPE-*']);
      expect(run.code).toBe(3);
      expect(run.report().verdict).toBe('incomplete');
      const skipped = run.report().checks.filter((c) => c.status === 'skipped');
      expect(skipped.length).toBeGreaterThan(0);
      for (const c of skipped) expect(c.message).toMatch(/second user's key/);
    } finally {
      await reference.close();
    }
  });

  it('never fails a user with an empty collection: checks needing data are skipped', async () => {
    const reference = await startReference();
    try {
      const run = await runCli(['--target', reference.url, '--key', reference.keys.empty, '--other-key', reference.keys.other]);
      expect(run.code, run.stdout).toBe(3);
      const report = run.report();
      expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
      expect(report.checks.some((c) => c.status === 'skipped' && /empty/.test(c.message ?? ''))).toBe(true);
    } finally {
      await reference.close();
    }
  });
});

describe('failures report whole, and say what they could not read', () => {
  it('lists every forbidden write not answered 403, and the shape of a single read it could not interpret', async () => {
    const deleteMutant = (await loadMutants()).find((m) => m.id === 'write-delete-404-before-permission')!;
    const reference = await startReference({
      wrap: (inner, ctx) => {
        const mutated = deleteMutant.wrap!(inner, ctx);
        return (req) => (req.method === 'GET' && req.path === '/artifact.php' ? { status: 200, body: { status: 'ok', result: 'see /items' } } : mutated(req));
      },
    });
    try {
      const run = await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'WRITE-001,KEPT-001']);
      expect(run.code).toBe(1);
      const byId = new Map(run.report().checks.map((c) => [c.id, c]));
      const write = byId.get('WRITE-001')!.message ?? '';
      expect(write).toMatch(/^9 of 26 writes other than the kept toggle were not answered 403/);
      for (const path of [
        '/artifacts.php',
        '/artifact-kept.php',
        '/artifact.php',
        '/uses.php',
        '/proposals.php',
        '/types.php',
        '/upcoming-interactions.php',
        '/players.php',
        '/api-docs',
      ]) {
        expect(write).toContain(`DELETE ${path} → 404`);
      }
      expect(byId.get('KEPT-001')!.message).toMatch(
        /looked for a 2xx answer holding the item record .* found an object with status \(string\), result \(string\)/,
      );
    } finally {
      await reference.close();
    }
  });
});

describe('user enumeration probes', () => {
  it("probes /api/… only under a base URL at a host's root, never under one that already names the API root", async () => {
    const seen: string[] = [];
    const reference = await startReference({
      wrap: (inner) => (req) => {
        seen.push(req.path);
        return inner({ ...req, path: req.path.replace(/^\/api(?=\/)/, '') });
      },
    });
    try {
      const run = await runCli(['--target', `${reference.url}/api`, '--key', reference.keys.primary, '--only', 'ENUM-*']);
      expect(run.code, run.stdout).toBe(0);
      expect(seen).toContain('/api/users.php');
      expect(seen.filter((p) => p.startsWith('/api/api/'))).toEqual([]);
      seen.length = 0;
      expect((await runCli(['--target', reference.url, '--key', reference.keys.primary, '--only', 'ENUM-002'])).code).toBe(0);
      expect(seen).toEqual(expect.arrayContaining(['/users.php', '/api/users.php']));
    } finally {
      await reference.close();
    }
  });
});

describe('the gate fails closed', () => {
  it('exits 3 when the target is unreachable', async () => {
    const run = await runCli(['--target', 'http://127.0.0.1:9', '--key', 'conform-test-key', '--timeout', '2000']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/unreachable/);
    expect(run.stderr).not.toContain('conform-test-key');
  });

  it('exits 2 when the key is refused', async () => {
    const reference = await startReference();
    try {
      const run = await runCli(['--target', reference.url, '--key', 'wrong-key-123456']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/refused the key/);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await reference.close();
    }
  });

  it("hands the pre-flight's answers to the checks: the catalog is read once, and each user's walk starts from the pre-flight's first page", async () => {
    const { served, seen } = await loggingReference();
    try {
      const run = await runCli(['--target', served.url, '--key', served.keys.primary, '--other-key', served.keys.other, '--seed', '1', '-q']);
      expect(run.code, run.stdout).toBe(0);
      expect(run.report().checks.filter((c) => c.id.startsWith('CAT-') && c.status === 'passed').length).toBeGreaterThan(0);
      const count = (pattern: RegExp) => seen.filter((line) => pattern.test(line)).length;
      expect(count(/ GET \/api-docs\?format=json /)).toBe(1);
      // The second user's walk is read twice in all: the pre-flight's first page, which the checks' walk starts from, and
      // once the kept writes are over, the walk that verifies that user's changed items (its 120 items fit one page).
      // Other list requests of that user are the checks' own (numbered pages, include).
      expect(count(/^other POST \/artifacts\.php\? \{"per_page":200,"cursor":null\}$/)).toBe(2);
      expect(readJournal(join(run.outDir, 'journal.jsonl')).some((e) => e.op === 'verified' && e.user === 'other')).toBe(true);
    } finally {
      await served.close();
    }
  });

  it('sends the data-free shared reads while the checks load, each counted among the requests of the check that takes it', async () => {
    const { served, seen } = await loggingReference();
    try {
      const run = await runCli(['--target', served.url, '--key', served.keys.primary, '--other-key', served.keys.other, '--seed', '1', '-q']);
      expect(run.code, run.stdout).toBe(0);
      const report = run.report();
      // Right after the pre-flight (5 reads, the catalog among them), before any check: players, proposals, uses, list probes.
      const prefetched = prefetchedReads(served.url);
      const early = seen.slice(5, 5 + prefetched.length);
      for (const read of [
        'primary GET /players.php? ',
        'other GET /players.php? ',
        'primary GET /uses.php? ',
        'primary POST /artifacts.php? {"per_page":1000000}',
        'primary GET /users.php?all=1 ',
        'primary GET /users%2Ephp? ',
      ])
        expect(early, read).toContain(read);
      // The list reads of the run and the list requests of ERR-002 and ERR-004, whose answers the client hands to them.
      const listBodies = prefetched.filter((r) => r.key.startsWith('list {') || r.key.startsWith(`${CHECK_REQUEST} ["POST","/artifacts.php"`)).length;
      expect(early.filter((line) => line.startsWith('primary POST /artifacts.php? ')).length).toBe(listBodies);
      // Nothing is sent twice for it, and nothing goes uncounted: beyond the checks' requests only the pre-flight and the
      // post-toggle verification's walk of each user (one page each).
      expect(seen.length - (report.requests ?? 0)).toBe(5 + 2);
    } finally {
      await served.close();
    }
  });

  it('exits 2 when the selection matches no check', async () => {
    const run = await runCli(['--only', 'NOPE-999']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/matches no check/);
  });

  it('exits 2 on an unknown flag, with one line and no stack trace', async () => {
    const run = await runCli(['--frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toMatch(/unknown option '--frobnicate'/);
  });

  it('lists the checks with id, level and sections without a target', async () => {
    const run = await runCli(['--list', '--format', 'json']);
    expect(run.code).toBe(0);
    const checks = JSON.parse(run.stdout) as { id: string; level: string; sections: string[] }[];
    expect(checks.length).toBeGreaterThan(10);
    for (const c of checks) {
      expect(c.id).toMatch(/^[A-Z]+-\d{3}$/);
      expect(['MUST', 'SHOULD']).toContain(c.level);
      expect(c.sections.length).toBeGreaterThan(0);
      for (const s of c.sections) expect(s).toMatch(/^§\d+$/);
    }
  });
});

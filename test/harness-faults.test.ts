import { readdirSync, readFileSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handler } from '../fixtures/reference/types.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/cli/args.ts';
import { loadTargets, resolveRunConfig } from '../src/config/resolve.ts';
import { HarnessError, UsageError } from '../src/core/errors.ts';
import { ApiClient } from '../src/http/client.ts';
import { SuiteRunner } from '../src/runner/vitest-host.ts';
import { runCli, spawnCli } from './support/cli.ts';
import { keyArgs, withReference } from './support/reference.ts';
import { stateOf } from './support/state.ts';

function everyOutput(outDir: string, ...streams: string[]): string {
  return [...streams, ...readdirSync(outDir).map((f) => readFileSync(join(outDir, f), 'utf8'))].join('\n');
}

describe('transient faults', () => {
  // Each run waits mostly on the faults' pauses (a 429 asks for a second): the three run side by side.
  it.concurrent.each([1, 2, 3])('against mild chaos (seed %i) the verdict is 0 or 3, never 1, and the state is intact', async (seed) => {
    await withReference({ chaos: { seed, rate: 0.05 } }, async (reference) => {
      const before = stateOf(reference);
      const run = await runCli([...keyArgs(reference), '--seed', '7', '--rps', '0']);
      expect([0, 3], run.stdout + run.stderr).toContain(run.code);
      expect(run.stderr).not.toMatch(/internal error/);
      expect(stateOf(reference)).toBe(before);
    });
  });

  it('retries a read that met 503, 429 and a reset, and records each retry', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      if (calls === 1) return res.writeHead(503, { 'retry-after': '0' }).end();
      if (calls === 2) return res.writeHead(429, { 'retry-after': '0' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"types":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys: { primary: 'k-123456' }, timeoutMs: 2000 });
    try {
      const ex = await client.send({ method: 'GET', path: '/types.php', idempotent: true });
      expect(ex.response.status).toBe(200);
      expect(ex.retries?.map((r) => r.status)).toEqual([503, 429]);
      calls = 0;
      await expect(client.send({ method: 'POST', path: '/artifact-kept.php', intent: 'kept-toggle', json: {} })).resolves.toMatchObject({
        response: { status: 503 },
      });
    } finally {
      await client.close();
      server.close();
    }
  });
});

describe('faults that sending again would not cure', () => {
  it('an answer over the size limit is not resent, and names the request', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(`[${'1,'.repeat(5000)}1]`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      keys: { primary: 'k-123456' },
      timeoutMs: 2000,
      maxBodyBytes: 1000,
    });
    try {
      await expect(client.send({ method: 'GET', path: '/uses.php', idempotent: true })).rejects.toThrow(
        /GET \/uses\.php: response body larger than 1000 bytes/,
      );
      expect(calls).toBe(1);
    } finally {
      await client.close();
      server.close();
    }
  });
});

describe('bounded time', () => {
  async function hangingServer(trickle: boolean): Promise<{ server: Server; url: string }> {
    const server = createServer((_req, res) => {
      if (!trickle) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it.each([false, true])('a target that hangs (trickling: %s) gives exit 3 in bounded time, naming what hung', async (trickle) => {
    const { server, url } = await hangingServer(trickle);
    try {
      const started = Date.now();
      const run = await runCli(['--target', url, '--key', 'conform-test-key', '--timeout', '800', '--deadline', '5']);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/GET \/types\.php: no answer within 800 ms/);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('interruption', () => {
  it('starting the suite runner never installs a signal handler, not even for a moment (a signal then ended the run with 143)', async () => {
    const added: (string | symbol)[] = [];
    const watch = (event: string | symbol) => {
      if (event === 'SIGINT' || event === 'SIGTERM') added.push(event);
    };
    process.on('newListener', watch);
    try {
      const runner = await SuiteRunner.create({ checkTimeoutMs: 1_000 });
      await runner.close();
    } finally {
      process.off('newListener', watch);
    }
    expect(added).toEqual([]);
  });

  it.each([900, 1800, 2600])('SIGTERM after %i ms: the run restores every kept value and exits 3', async (delay) => {
    await withReference({}, async (reference) => {
      const before = stateOf(reference);
      const outDir = mkdtempSync(join(tmpdir(), 'conform-int-'));
      const { child, done } = spawnCli(keyArgs(reference), outDir);
      setTimeout(() => child.kill('SIGTERM'), delay);
      const { code, output } = await done;
      expect([0, 3], output).toContain(code);
      expect(stateOf(reference)).toBe(before);
      expect(everyOutput(outDir, output)).not.toContain(reference.keys.primary);
    });
  });

  it('SIGKILL mid-run: conform restore --journal puts every kept value back', async () => {
    await withReference({}, async (reference) => {
      const before = stateOf(reference);
      const outDir = mkdtempSync(join(tmpdir(), 'conform-kill-'));
      const { child, done } = spawnCli([...keyArgs(reference), '--only', 'KEPT-*'], outDir);
      const journal = join(outDir, 'journal.jsonl');
      // Kill as soon as the journal records a change that has not been restored yet.
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          let text = '';
          try {
            text = readFileSync(journal, 'utf8');
          } catch {
            return;
          }
          const lines = text.trim().split('\n');
          if (lines.length > 0 && lines.at(-1)!.includes('"change"')) {
            child.kill('SIGKILL');
            clearInterval(timer);
            resolve();
          }
        }, 5);
      });
      await done;
      const restore = await runCli(['restore', '--journal', journal, ...keyArgs(reference)]);
      expect(restore.code, restore.stdout + restore.stderr).toBe(0);
      expect(restore.stdout).toMatch(/put back/);
      expect(stateOf(reference)).toBe(before);
    });
  });
});

describe('write firewall', () => {
  it('refuses writes that are neither the kept toggle nor a declared probe', async () => {
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9', keys: { primary: 'k-123456' }, timeoutMs: 500 });
    for (const spec of [
      { method: 'POST' as const, path: '/uses.php' },
      { method: 'DELETE' as const, path: '/artifact.php' },
      { method: 'PUT' as const, path: '/artifact-kept.php', intent: 'kept-toggle' as const },
      { method: 'POST' as const, path: '/artifact.php', intent: 'kept-toggle' as const },
    ]) {
      await expect(client.send(spec)).rejects.toThrow(HarnessError);
    }
    await client.close();
  });
});

describe('bad input to the suite itself', () => {
  it('never answers random argv or config with anything but a usage error', () => {
    const token = fc.oneof(
      fc.constantFrom(
        '--target',
        '--profile',
        '--key',
        '--seed',
        '--runs',
        '--timeout',
        '--deadline',
        '--rps',
        '--only',
        '--config',
        '--out',
        'serve',
        'restore',
        '-h',
        '--',
        '-x',
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 6 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 })), (argv, env) => {
        try {
          resolveRunConfig(parseCommandLine(argv).values, env, tmpdir());
        } catch (error) {
          if (!(error instanceof UsageError)) throw error;
        }
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('never answers a random targets file with anything but a usage error', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'conform-cfg-'));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ targets: v })),
        ),
        (text) => {
          writeFileSync(join(dir, 'c.json'), text);
          try {
            loadTargets('c.json', dir);
          } catch (error) {
            if (!(error instanceof UsageError)) throw error;
          }
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  it.each([
    [['--out', '/proc/conform-cannot-write'], /cannot write to the report folder/],
    [['--target', 'primary', '--config', '/nonexistent/conform.json', '--key', 'k'], /cannot read targets file/],
    [['--target', 'not a url'], /unknown target|cannot read targets file/],
  ])('%j exits 2 with one clear line', async (args, message) => {
    const run = await runCli(args, { CONFORM_API_KEY: 'conform-test-key' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toContain('conform-test-key');
  });
});

describe('key secrecy', () => {
  // A hostile target: every answer reflects the caller's Authorization header in a header, in the body
  // and, for the list, in an error message. Nothing the suite writes may carry it on.
  const echoKey =
    (inner: Handler): Handler =>
    async (req) => {
      const answer = await inner(req);
      const auth = req.headers.authorization ?? '';
      const body =
        req.path === '/artifacts.php' && answer.status === 200
          ? { errors: [`bad request from ${auth}`] }
          : { ...(typeof answer.body === 'object' && answer.body !== null ? answer.body : {}), echoed: auth };
      return { ...answer, status: req.path === '/artifacts.php' ? 400 : answer.status, headers: { ...answer.headers, 'x-echo': auth }, body };
    };

  it('a failing run against a target that echoes the key leaks it nowhere', async () => {
    await withReference({ wrap: echoKey }, async (reference) => {
      const run = await runCli([...keyArgs(reference), '--reporter', 'terminal,json,junit,html', '--seed', '3']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const everything = everyOutput(run.outDir, run.stdout, run.stderr);
      expect(everything).toContain('Bearer ***');
      for (const key of [reference.keys.primary, reference.keys.other]) expect(everything).not.toContain(key);
    });
  });

  it('a run that crashes on an unreachable target leaks the key nowhere', async () => {
    const key = 'conform-secret-key-5d1e';
    const run = await runCli(['--target', 'http://127.0.0.1:9', '--key', key, '--timeout', '500']);
    expect(run.code).toBe(3);
    expect(everyOutput(run.outDir, run.stdout, run.stderr)).not.toContain(key);
  });
});

describe('responses that are not what they claim', () => {
  const lying =
    (inner: Handler): Handler =>
    async (req) => {
      if (req.path === '/types.php' && req.headers.authorization?.startsWith('Bearer ') && req.query.has('probe-html') === false && req.method === 'GET') {
        const answer = await inner(req);
        if (answer.status !== 200) return answer;
        return { status: 200, headers: { 'content-type': 'text/html' }, rawBody: '<html><body>Welcome</body></html>' };
      }
      if (req.path === '/players.php' && req.method === 'GET') {
        const answer = await inner(req);
        if (answer.status !== 200) return answer;
        return { ...answer, headers: { 'content-type': 'text/plain' }, rawBody: JSON.stringify(answer.body) };
      }
      if (req.path === '/upcoming-interactions.php' && req.method === 'GET') {
        const answer = await inner(req);
        if (answer.status !== 200) return answer;
        return { status: 200, headers: { 'content-type': 'application/json' }, rawBody: `[${'0,'.repeat(20_000_000)}0]` };
      }
      return inner(req);
    };

  it('non-JSON, mislabelled and huge bodies give failures naming the endpoint, not a crash', async () => {
    await withReference({ wrap: lying }, async (reference) => {
      const run = await runCli([...keyArgs(reference), '--only', 'TYPE-*,UPCOMING-*,PLAY-*', '--seed', '3']);
      expect(run.stderr).not.toMatch(/internal error|harness error|at .*\.ts:\d+/);
      expect([1, 3]).toContain(run.code);
      const checks = run.report().checks;
      const byArea = (prefix: string) => checks.filter((c) => c.id.startsWith(prefix));
      expect(byArea('TYPE-').some((c) => c.status === 'failed' && /types\.php/.test(c.message ?? ''))).toBe(true);
      expect(byArea('UPCOMING-').every((c) => c.status === 'error' || c.status === 'failed' || c.status === 'skipped')).toBe(true);
      expect(byArea('UPCOMING-').some((c) => /upcoming-interactions\.php/.test(c.message ?? ''))).toBe(true);
    });
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { Handler } from '../fixtures/reference/types.ts';
import { parseCommandLine } from '../src/cli/args.ts';
import { resolveRunConfig } from '../src/config/resolve.ts';
import { runCli } from './support/cli.ts';
import { stateOf } from './support/state.ts';

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const SELECTION = ['--only', 'AUTH-001,KEPT-001', '--seed', '5'];
const keyArgs = (r: RunningReference, url = r.url) => ['--target', url, '--key', r.keys.primary, '--other-key', r.keys.other];

function everyOutput(outDir: string, ...streams: string[]): string {
  return [...streams, ...readdirSync(outDir).map((f) => readFileSync(join(outDir, f), 'utf8'))].join('\n');
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A forward proxy on loopback: CONNECT tunnels and absolute-form requests; it records what it carried. */
async function startProxy() {
  const seen: { method: string; target: string; authorization?: string }[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      target: req.url ?? '',
      ...(req.headers['proxy-authorization'] ? { authorization: req.headers['proxy-authorization'] } : {}),
    });
    const url = new URL(req.url ?? '');
    const upstream = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push({
      method: 'CONNECT',
      target: req.url ?? '',
      ...(req.headers['proxy-authorization'] ? { authorization: req.headers['proxy-authorization'] } : {}),
    });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await close(server);
    },
  };
}

describe.skipIf(!hasOpenssl)('a target behind TLS with a private certificate authority', () => {
  let reference: RunningReference;
  let tlsServer: Server;
  let httpsUrl: string;
  let caFile: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conform-tls-'));
    caFile = join(dir, 'ca.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=conform-test-ca',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        caFile,
      ],
      { stdio: 'ignore' },
    );
    reference = await startReference();
    const upstreamPort = Number(new URL(reference.url).port);
    // TLS in front of the reference, as a load balancer would terminate it.
    tlsServer = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(caFile) }, (req, res) => {
      const upstream = httpRequest({ host: '127.0.0.1', port: upstreamPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    httpsUrl = `https://127.0.0.1:${await listen(tlsServer)}`;
  });

  afterAll(async () => {
    await close(tlsServer);
    await reference.close();
  });

  it('without --ca-cert the certificate is refused: no verdict, with a hint', async () => {
    const run = await runCli([...keyArgs(reference, httpsUrl), ...SELECTION]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/self.signed certificate.*--ca-cert FILE/);
  });

  it('--ca-cert FILE trusts the private CA: a verdict, exit 0', async () => {
    const before = stateOf(reference);
    const run = await runCli([...keyArgs(reference, httpsUrl), ...SELECTION, '--ca-cert', caFile]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.report().target.url).toBe(httpsUrl);
    expect(stateOf(reference)).toBe(before);
  });

  it('--insecure skips verification, and says so', async () => {
    const run = await runCli([...keyArgs(reference, httpsUrl), ...SELECTION, '--insecure']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warning: --insecure/);
  });

  it('--ca-cert with a file that is not a certificate is a usage error', async () => {
    const run = await runCli([...keyArgs(reference, httpsUrl), ...SELECTION, '--ca-cert', join(import.meta.dirname, 'network.test.ts')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--ca-cert: .* holds no PEM certificate/);
  });

  it('HTTPS_PROXY: the run tunnels through the proxy with CONNECT, and the proxy password is masked', async () => {
    const proxy = await startProxy();
    const password = 'proxy-pass-5e1f0c';
    try {
      const proxyUrl = proxy.url.replace('http://', `http://conform:${password}@`);
      const run = await runCli([...keyArgs(reference, httpsUrl), ...SELECTION, '--ca-cert', caFile], { HTTPS_PROXY: proxyUrl });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(proxy.seen.length).toBeGreaterThan(0);
      expect(proxy.seen.every((s) => s.method === 'CONNECT' && s.target === httpsUrl.replace('https://', ''))).toBe(true);
      expect(proxy.seen[0]!.authorization).toBe(`Basic ${Buffer.from(`conform:${password}`).toString('base64')}`);
      expect(everyOutput(run.outDir, run.stdout, run.stderr)).not.toContain(password);
    } finally {
      await proxy.close();
    }
  });
});

describe('proxies from the environment', () => {
  it('HTTP_PROXY carries every request; NO_PROXY naming the target bypasses it', async () => {
    const reference = await startReference();
    const proxy = await startProxy();
    try {
      const through = await runCli([...keyArgs(reference), ...SELECTION], { HTTP_PROXY: proxy.url });
      expect(through.code, through.stdout + through.stderr).toBe(0);
      const carried = proxy.seen.length;
      expect(carried).toBeGreaterThan(0);
      expect(proxy.seen.every((s) => s.target.includes(new URL(reference.url).host))).toBe(true);

      const bypassed = await runCli([...keyArgs(reference), ...SELECTION], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
      expect(bypassed.code, bypassed.stdout + bypassed.stderr).toBe(0);
      expect(proxy.seen.length).toBe(carried);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });

  it('a proxy that cannot be reached is no verdict, not a failure', async () => {
    const reference = await startReference();
    try {
      const run = await runCli([...keyArgs(reference), ...SELECTION, '--timeout', '1000'], { HTTP_PROXY: 'http://127.0.0.1:9' });
      expect(run.code).toBe(3);
    } finally {
      await reference.close();
    }
  });
});

describe('--header', () => {
  const token = 'gw-token-3b9d2e71';
  /** A gateway in front of the reference: refuses requests without its token, and echoes it back in answers. */
  const gateway =
    (inner: Handler): Handler =>
    async (req) => {
      if (req.headers['x-gateway-token'] !== token) return { status: 401, body: { errors: ['gateway: missing token'] } };
      const answer = await inner(req);
      // A defect on /types.php, so that the reports show a request, its reproduction and the echo.
      if (req.path === '/types.php' && req.method === 'GET' && answer.status === 200) {
        return { status: 200, headers: { 'x-echo': token }, body: { echoed: token } };
      }
      return answer;
    };

  it('is sent with every request, and its value is masked in every output', async () => {
    const reference = await startReference({ wrap: gateway });
    try {
      const run = await runCli([
        ...keyArgs(reference),
        '--only',
        'AUTH-001,TYPE-*',
        '--seed',
        '5',
        '--header',
        `X-Gateway-Token: ${token}`,
        '--reporter',
        'terminal,json,junit,html',
      ]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const report = run.report();
      expect(report.checks.find((c) => c.id === 'AUTH-001')?.status).toBe('passed');
      const failed = report.checks.find((c) => c.status === 'failed' && c.id.startsWith('TYPE-'));
      expect(failed?.reproduction).toContain("-H 'X-Gateway-Token: ***'");
      expect(everyOutput(run.outDir, run.stdout, run.stderr)).not.toContain(token);
    } finally {
      await reference.close();
    }
  });

  it('comes from the targets file by environment variable name', async () => {
    const reference = await startReference({ wrap: gateway });
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'conform-cfg-'));
      writeFileSync(
        join(cwd, 'conform.config.json'),
        JSON.stringify({ targets: { gw: { url: reference.url, keyEnv: 'GW_KEY', headers: { 'X-Gateway-Token': 'GW_TOKEN' } } } }),
      );
      const run = await runCli(['--target', 'gw', '--only', 'AUTH-001', '--seed', '5'], { GW_KEY: reference.keys.primary, GW_TOKEN: token }, cwd);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const missing = await runCli(['--target', 'gw', '--only', 'AUTH-001'], { GW_KEY: reference.keys.primary }, cwd);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/header X-Gateway-Token takes its value from GW_TOKEN, which is not set/);
    } finally {
      await reference.close();
    }
  });

  it.each([
    ['Authorization: Bearer x', /Authorization is set by conform from the key; use --key/],
    ['no colon here', /--header must look like 'Name: value'/],
    ['Bad Name: x', /'Bad Name' is not a valid header name/],
  ])('%j is a usage error', async (flag, message) => {
    const run = await runCli(['--target', 'http://127.0.0.1:9', '--key', 'conform-test-key', '--header', flag]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

describe('network settings are resolved once, from flags, the targets file and the environment', () => {
  const resolve = (argv: string[], env: Record<string, string> = {}, cwd = tmpdir()) => resolveRunConfig(parseCommandLine(argv).values, env, cwd).target;

  it('reads proxies from the environment, lower-case spellings first, for remote targets only', () => {
    const env = {
      CONFORM_API_KEY: 'k',
      HTTPS_PROXY: 'http://upper.test:1',
      https_proxy: 'http://lower.test:2',
      HTTP_PROXY: 'http://plain.test:3',
      NO_PROXY: 'internal.test',
    };
    expect(resolve(['--target', 'https://a.test'], env).network).toEqual({
      proxy: { https: 'http://lower.test:2', http: 'http://plain.test:3', noProxy: 'internal.test' },
    });
    expect(resolve([], env).network).toBeUndefined();
    expect(() => resolve(['--target', 'https://a.test'], { CONFORM_API_KEY: 'k', HTTPS_PROXY: 'not a url' })).toThrow(/HTTPS_PROXY is not a valid URL/);
  });

  it("merges the entry's headers with --header, which wins for the same name", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-cfg-'));
    writeFileSync(
      join(cwd, 'conform.config.json'),
      JSON.stringify({ targets: { gw: { url: 'https://gw.test', headers: { 'X-Tenant': 'TENANT', 'X-Token': 'TOKEN' } } } }),
    );
    const target = resolve(
      ['--target', 'gw', '--header', 'x-token: from-flag', '--header', 'X-Extra:  spaced  '],
      { CONFORM_API_KEY: 'k', TENANT: 't-1', TOKEN: 'from-env' },
      cwd,
    );
    expect(target.network?.headers).toEqual({ 'X-Tenant': 't-1', 'x-token': 'from-flag', 'X-Extra': 'spaced' });
  });

  it.each([
    [{ headers: { 'X-Token': 'lower case is fine but not-a-var!' } }, /"headers.X-Token" must be the name of an environment variable/],
    [{ headers: { Authorization: 'TOKEN' } }, /Authorization is set by conform/],
    [{ headers: ['X-Token'] }, /"headers" must be a map from header names to the environment variables that hold their values/],
  ])('a targets-file entry %j is a configuration error', (extra, message) => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-cfg-'));
    writeFileSync(join(cwd, 'conform.config.json'), JSON.stringify({ targets: { gw: { url: 'https://gw.test', ...extra } } }));
    expect(() => resolve(['--target', 'gw'], { CONFORM_API_KEY: 'k', TOKEN: 'x' }, cwd)).toThrow(message);
  });
});

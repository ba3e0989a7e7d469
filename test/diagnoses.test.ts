import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { main } from '../src/cli/main.ts';
import { runCli } from './support/cli.ts';

/** A server that is not the Agent API: what a wrong base URL or a static file server answers. */
async function notTheApi(answer: (method: string) => { status: number; type: string; body: string }): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const { status, type, body } = answer(req.method ?? 'GET');
    req.resume();
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const html = (title: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body>${title}</body></html>`;
const servers: Server[] = [];
const urls: Record<string, string> = {};
let reference: RunningReference;
const dir = mkdtempSync(join(tmpdir(), 'conform-diagnoses-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

beforeAll(async () => {
  reference = await startReference();
  const statics = {
    // python -m http.server: GET of a missing file is a 404 page, POST is not implemented.
    'static-501': (method: string) =>
      method === 'GET' ? { status: 404, type: 'text/html', body: html('404') } : { status: 501, type: 'text/html', body: html('501') },
    // A static host that serves every GET and refuses other methods.
    'static-405': (method: string) =>
      method === 'GET' ? { status: 200, type: 'text/html', body: html('home') } : { status: 405, type: 'text/html', body: html('405') },
    // Another JSON API at that URL.
    'json-404': () => ({ status: 404, type: 'application/json', body: '{"error":"not found"}' }),
  };
  for (const [name, answer] of Object.entries(statics)) {
    const started = await notTheApi(answer);
    servers.push(started.server);
    urls[name] = started.url;
  }
});
afterAll(async () => {
  await reference?.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

interface Diagnosis {
  name: string;
  argv: () => string[];
  env?: () => Record<string, string>;
  code: number;
  says: RegExp[];
  never?: RegExp[];
}

const key = () => ['--key', reference.keys.primary];
const TWO_PROBLEMS = '{\n  "targets": {\n    "prod": { "url": 5, "colour": "blue" }\n  }\n}\n';
const BROKEN_JSON = '{\n  "targets": {\n    "prod": { "url": "http://a.test" },\n  }\n}\n';
const TWO_BAD_WAIVERS =
  '{\n  "waivers": [\n    { "check": "AUTH-001", "reason": "r", "expires": "31/01/2999" },\n    { "check": "nope", "reason": "r", "expires": "2999-01-01", "extra": 1 }\n  ]\n}\n';

const diagnoses: Diagnosis[] = [
  {
    name: 'a dead proxy is named, its password masked',
    argv: () => ['--target', reference.url, ...key(), '--only', 'AUTH-001', '--timeout', '1000'],
    env: () => ({ HTTP_PROXY: 'http://bob:pr0xy-s3cret@127.0.0.1:9' }),
    code: 3,
    says: [/through the proxy http:\/\/bob:\*\*\*@127\.0\.0\.1:9 from HTTP_PROXY/],
    never: [/pr0xy-s3cret/, /^conform: no verdict: target unreachable/m],
  },
  {
    name: 'a target without a scheme is told to add one',
    argv: () => ['--target', '127.0.0.1:8080', '--key', 'k'],
    code: 2,
    says: [/--target '127\.0\.0\.1:8080' has no scheme: write http:\/\/127\.0\.0\.1:8080 or https:\/\/127\.0\.0\.1:8080/],
    never: [/conform\.config\.json/, /config file/],
  },
  {
    name: 'localhost:PORT without a scheme too',
    argv: () => ['diff', '--target', 'localhost:8080', '--key', 'k', '--against', 'http://b.test'],
    code: 2,
    says: [/has no scheme: write http:\/\/localhost:8080/],
  },
  ...(['static-501', 'static-405', 'json-404'] as const).map(
    (name): Diagnosis => ({
      name: `${name}: not the Agent API, exit 2 with the path-prefix hint`,
      argv: () => ['--target', urls[name]!, ...key(), '--only', 'AUTH-001'],
      code: 2,
      says: [/no Agent API at http:\/\/127\.0\.0\.1:\d+/, /is a path prefix missing from the base URL/],
      never: [/not healthy/, /internal error/],
    }),
  ),
  ...(['diff', 'pact', 'init', 'explain', 'matrix', 'restore', 'serve'] as const).map(
    (command): Diagnosis => ({
      name: `${command} --help is the command's own`,
      argv: () => [command, '--help'],
      code: 0,
      says: [new RegExp(`^Usage: conform ${command}`), new RegExp(`^${command}: `, 'm')],
      never: [/^Commands:/m],
    }),
  ),
  {
    name: 'diff --help lists its own options only',
    argv: () => ['diff', '--help'],
    code: 0,
    says: [/--ignore-field <name>/, /--against <name\|url>/],
    never: [/--workflow/, /--fail-on/],
  },
  {
    name: 'a config file with several schema errors lists each with its line and column',
    argv: () => ['--target', 'prod', '--config', file('two-problems.json', TWO_PROBLEMS)],
    code: 2,
    says: [/2 problems:/, /line 3, column 15: target 'prod': "url" must be/, /line 3, column 25: target 'prod': unknown field 'colour'/],
  },
  {
    name: 'a config file that is not JSON says where',
    argv: () => ['--target', 'prod', '--config', file('broken.json', BROKEN_JSON)],
    code: 2,
    says: [/is not valid JSON: line 4, column 3: /],
    never: [/at position/],
  },
  {
    name: 'a waivers file lists every problem with its line and column',
    argv: () => ['--target', reference.url, ...key(), '--waivers', file('waivers.json', TWO_BAD_WAIVERS), '--config', file('empty.json', '{ "targets": {} }')],
    code: 2,
    says: [
      /line 3, column \d+: \/waivers\/0\/expires must be a date YYYY-MM-DD \(got "31\/01\/2999"\)/,
      /line 4, column \d+: \/waivers\/1\/check must be a check id/,
      /line 4, column \d+: \/waivers\/1: unknown field "extra"/,
    ],
  },
];

describe('each diagnosis names the real cause', () => {
  it.each(diagnoses.map((d) => [d.name, d] as const))('%s', async (_name, d) => {
    const run = await runCli(d.argv(), d.env?.() ?? {}, dir);
    const output = run.stdout + run.stderr;
    expect(run.code, output).toBe(d.code);
    for (const pattern of d.says) expect(output).toMatch(pattern);
    for (const pattern of d.never ?? []) expect(output).not.toMatch(pattern);
  });

  it('Ctrl-C at the init prompt exits 130 quietly and writes nothing', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    let stderr = '';
    let stdout = '';
    const cwd = mkdtempSync(join(tmpdir(), 'conform-init-ctrlc-'));
    const done = main(['init'], {
      stdout: { write: (t: string) => (stdout += t), isTTY: true },
      stderr: { write: (t: string) => (stderr += t), isTTY: true },
      env: {},
      cwd,
      stdin,
    });
    // The first question comes once init is loaded; under load that takes a while.
    for (let waited = 0; !/Base URL of the deployment/.test(stderr) && waited < 20_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stderr).toMatch(/Base URL of the deployment/);
    stdin.write('\u0003');
    expect(await done).toBe(130);
    expect(stderr + stdout).not.toMatch(/internal error|conform:/);
    expect(stdout).not.toMatch(/wrote/);
  });
});

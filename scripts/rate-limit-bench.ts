/**
 * A full run against the reference behind a fixed-window rate limit (issue 13): wall time, verdict,
 * the 429s the target sent and whether its data is intact. The default is the case from the field:
 * 60 requests per 60 s, 429 without Retry-After, the default deadline (900 s).
 *
 *   node --import tsx scripts/rate-limit-bench.ts [--limit 60] [--window 60] [--retry-after]
 *        [--declare description|extension] [-- <extra conform flags, e.g. --only AUTH-* --deadline 120>]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rateLimited } from '../fixtures/rate-limit.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { packageRoot } from '../src/runner/vitest-host.ts';

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const own = split === -1 ? argv : argv.slice(0, split);
const extra = split === -1 ? [] : argv.slice(split + 1);
const option = (name: string) => {
  const i = own.indexOf(`--${name}`);
  return i === -1 ? undefined : own[i + 1];
};
const limit = Number(option('limit') ?? 60);
const windowS = Number(option('window') ?? 60);
const declare = (option('declare') ?? 'none') as 'none' | 'description' | 'extension';
const retryAfter = own.includes('--retry-after');

let answers = 0;
let tooMany = 0;
const reference = await startReference({
  wrap: rateLimited({ limit, windowMs: windowS * 1000, retryAfter, declare, onAnswer: (_req, status) => (status === 429 ? tooMany++ : answers++) }),
});
const before = JSON.stringify(reference.store.snapshot()).replace(/"updated_at":"[^"]*"/g, '');
const outDir = mkdtempSync(join(tmpdir(), 'conform-ratelimit-'));
const args = ['--target', reference.url, '--key', reference.keys.primary, '--other-key', reference.keys.other, '--out', outDir, ...extra];
console.log(`target: reference behind ${limit} requests per ${windowS} s, ${retryAfter ? 'with' : 'without'} Retry-After, declared: ${declare}`);
console.log(`conform ${args.join(' ').replace(reference.keys.primary, '***').replace(reference.keys.other, '***')}`);
const started = performance.now();
const code = await new Promise<number | null>((resolve) => {
  const child = spawn(process.execPath, [join(packageRoot, 'bin', 'conform.js'), ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  child.on('close', resolve);
});
const wallS = (performance.now() - started) / 1000;
const after = JSON.stringify(reference.store.snapshot()).replace(/"updated_at":"[^"]*"/g, '');
await reference.close();
const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as { verdict: string; counts: unknown; requests: number; transport: unknown };
console.log(
  JSON.stringify(
    {
      exitCode: code,
      wallS: Math.round(wallS),
      verdict: report.verdict,
      counts: report.counts,
      requests: report.requests,
      transport: report.transport,
      served: answers,
      answered429: tooMany,
      dataIntact: before === after,
    },
    null,
    1,
  ),
);

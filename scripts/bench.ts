/**
 * Speed and scale of a full primary run, by collection size (issue 4) and over a network (issue 15).
 * Prints median wall time, CPU time, requests and peak memory of the conform process, the floor of
 * each served run, the critical path of each networked run, the ratios between sizes, and the targets.
 *
 *   npm run bench -- [--sizes 120,5000,50000] [--repeat 3] [--mode served|embedded] [--rows user,served,network,cancel] [--tries 10] [--rtt 40] [--json]
 *
 * Every run is the real CLI (`node bin/conform.js`) in a child process. The ways it reaches a collection:
 *  - user path (120 items): `conform` with no target, so the embedded reference starts inside
 *    the child: start-up of conform and of the reference are both in the time.
 *  - served (default for the sizes): the bench builds the dataset once per size and starts a fresh
 *    reference per run in its own process; the child gets `--target URL --key … --rps 0 --concurrency 8`
 *    (the embedded reference's pacing). The child's time is conform's alone (the 50,000-item dataset
 *    takes seconds to build, which says nothing of conform).
 *  - embedded (--mode embedded): the child builds the bigger dataset itself (CONFORM_REFERENCE_ITEMS),
 *    so the time includes building it.
 *  - network (120 items): served, through a loopback proxy that delays each direction by half of
 *    --rtt, once with --rps 0 --concurrency 32 and once with the remote defaults (--concurrency 6
 *    --rps 100). The critical path is the longest chain of requests that waited for each other.
 *  - cancel (issue 24; only with --rows cancel): through the same proxy with the remote defaults, a signal at
 *    a random moment of the toggling phase, as a cancelled CI job sends them: SIGINT (or SIGTERM),
 *    SIGTERM 7.5 s later and SIGKILL 2.5 s after that if the process is still there; one try in three
 *    adds a SIGTERM during the restore. Time from the first signal to exit, exit code, and the items
 *    whose kept flag differs from before the run once the process is gone (must be 0). See cancel-bench.ts.
 * Every served and networked run also has a floor: the same requests sent again with undici, in
 * order, with the same --concurrency and --rps and through the same kind of proxy, checking nothing.
 * "× floor" is the harness's overhead: its own work plus the requests that had to wait for others.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDataset, type Dataset } from '../fixtures/dataset.ts';
import { referenceTargetArgs, startReference, type RunningReference } from '../fixtures/reference/server.ts';
import { DEFAULT_MAX_REQUESTS } from '../src/config/resolve.ts';
import { packageRoot } from '../src/runner/vitest-host.ts';
import { criticalPath, replay, startDelayProxy, type DelayProxy, type SentRequest } from './bench-network.ts';
import { measureCancel, renderCancel, type CancelTry } from './cancel-bench.ts';

const USER_PATH_TARGET_S = 2.5;
const SCALE_TARGET = 1.5;
/** The largest served size may take at most this many times its floor. */
const FLOOR_TARGET = 2;
const NETWORK_ITEMS = 120;
/** The network rows: conform's pacing flags and the wall-time target of each (40 ms round trip). */
const NETWORK_ROWS = [
  { name: 'rps 0', args: ['--rps', '0', '--concurrency', '32'], connections: 32, rps: 0, targetS: 5, laterTargetS: 4 },
  { name: 'remote defaults', args: ['--rps', '100', '--concurrency', '6'], connections: 6, rps: 100, targetS: 8, paceTarget: 1.15 },
] as const;
/**
 * Requests the checks sent in a served 120-item run (seed 1) with today's checks before the speed work of
 * issue 15 (a1e1c30): no run may send more. Issue 14 added checks after the issue was written; the count
 * when it was written, with fewer checks, is printed beside it.
 */
const REQUESTS_BEFORE = 803;
const REQUESTS_WHEN_ISSUE_15_WAS_WRITTEN = 650;

type RowKind = 'user' | 'served' | 'network' | 'cancel';

interface Options {
  sizes: number[];
  repeat: number;
  mode: 'served' | 'embedded';
  rows: RowKind[];
  rttMs: number;
  /** Tries of the cancel row. */
  tries: number;
  json: boolean;
}

interface Sample {
  wallS: number;
  cpuS: number;
  /** Requests the checks sent, from report.json. */
  requests: number | undefined;
  /** Requests the reference answered (served mode only): preflight and the restore sweep included. */
  served: number | undefined;
  /** Served and network rows: the same requests sent again without checks (seconds). */
  floorS?: number;
  /** Network rows: the longest chain of requests that waited for each other. */
  criticalPath?: number;
  peakRssMb: number;
  exitCode: number | null;
  verdict: string;
}

interface Row {
  /** Shown instead of the mode where two rows share one. */
  name?: string;
  label: string;
  mode: 'user path' | 'served' | 'embedded' | 'network';
  items: number;
  samples: Sample[];
  /** Network rows: the wall-time target. */
  targetS?: number;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { sizes: [120, 5_000, 50_000], repeat: 3, mode: 'served', rows: ['user', 'served', 'network'], rttMs: 40, tries: 10, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--sizes')
      options.sizes = value()
        .split(',')
        .map((s) => positive(s.replace(/_/g, ''), '--sizes'));
    else if (arg === '--repeat') options.repeat = positive(value(), '--repeat');
    else if (arg === '--mode') {
      const mode = value();
      if (mode !== 'served' && mode !== 'embedded') throw new Error('--mode is served or embedded');
      options.mode = mode;
    } else if (arg === '--rows') {
      const rows = value().split(',');
      const unknown = rows.filter((r) => !['user', 'served', 'network', 'cancel'].includes(r));
      if (unknown.length > 0 || rows.length === 0) throw new Error('--rows is a list of user, served, network, cancel');
      options.rows = rows as RowKind[];
    } else if (arg === '--rtt') options.rttMs = positive(value(), '--rtt');
    else if (arg === '--tries') options.tries = positive(value(), '--tries');
    else if (arg === '--json') options.json = true;
    else throw new Error(`unknown option ${arg} (options: --sizes, --repeat, --mode, --rows, --tries, --rtt, --json)`);
  }
  return options;
}

function positive(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name}: '${text}' is not a positive integer`);
  return n;
}

/** Records the child's own resource usage at exit (peak RSS of the process, all its threads). */
const usageProbe = (file: string) =>
  `data:text/javascript,${encodeURIComponent(`import { writeFileSync } from 'node:fs'; process.on('exit', () => writeFileSync(${JSON.stringify(file)}, JSON.stringify(process.resourceUsage())));`)}`;

async function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<Omit<Sample, 'served'>> {
  const dir = mkdtempSync(join(tmpdir(), 'conform-bench-'));
  const usageFile = join(dir, 'usage.json');
  const outDir = join(dir, 'out');
  const started = performance.now();
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', usageProbe(usageFile), join(packageRoot, 'bin', 'conform.js'), ...args, '--seed', '1', '--out', outDir, '--quiet'],
      {
        cwd: packageRoot,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (stderr.trim()) process.stderr.write(`bench: conform said: ${stderr.trim().split('\n').slice(0, 3).join(' | ')}\n`);
      resolve(code);
    });
  });
  const wallS = (performance.now() - started) / 1000;
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as NodeJS.ResourceUsage;
  let report: { requests?: number; verdict?: string } = {};
  try {
    report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as typeof report;
  } catch {
    // No report: the verdict column says so.
  }
  rmSync(dir, { recursive: true, force: true });
  return {
    wallS,
    cpuS: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    requests: report.requests,
    peakRssMb: usage.maxRSS / 1024,
    exitCode,
    verdict: report.verdict ?? `no report (exit ${exitCode})`,
  };
}

/** One run against a fresh reference started here, counting the requests it answers, then its floor. */
async function runServed(dataset: Dataset): Promise<Sample> {
  const sent: SentRequest[] = [];
  const reference = await startReference({
    dataset,
    wrap: (inner) => (req) => {
      const query = req.query.toString();
      sent.push({ method: req.method, path: `${req.path}${query ? `?${query}` : ''}`, headers: req.headers, body: req.bodyText });
      return inner(req);
    },
  });
  let sample: Omit<Sample, 'served'>;
  try {
    // The embedded reference's pacing (no rate limit, 8 connections), not the politer remote default.
    sample = await runCli([...referenceTargetArgs(reference), '--rps', '0', '--concurrency', '8']);
  } finally {
    await reference.close();
  }
  const fresh = await startReference({ dataset });
  try {
    return { ...sample, served: sent.length, floorS: await replay(fresh.url, sent, { connections: 8, rps: 0 }) };
  } finally {
    await fresh.close();
  }
}

/** A fresh reference behind a fresh delaying proxy, for one body. */
async function behindProxy<T>(dataset: Dataset, rttMs: number, body: (proxy: DelayProxy, keys: RunningReference['keys']) => Promise<T>): Promise<T> {
  const reference = await startReference({ dataset });
  const proxy = await startDelayProxy(reference.url, { oneWayMs: rttMs / 2 });
  try {
    return await body(proxy, reference.keys);
  } finally {
    await proxy.close();
    await reference.close();
  }
}

/** One run through the proxy: its critical path from the proxy's log, then its floor. */
async function runNetworked(dataset: Dataset, row: (typeof NETWORK_ROWS)[number], rttMs: number): Promise<Sample> {
  const { sample, log } = await behindProxy(dataset, rttMs, async (proxy, keys) => ({
    sample: await runCli(['--target', proxy.url, '--key', keys.primary, '--other-key', keys.other, ...row.args]),
    log: proxy.log,
  }));
  const floorS = await behindProxy(dataset, rttMs, (proxy) => replay(proxy.url, log, { connections: row.connections, rps: row.rps }));
  return { ...sample, served: log.length, criticalPath: criticalPath(log), floorS };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const medianOf = (row: Row, pick: (s: Sample) => number | undefined): number | undefined => {
  const values = row.samples.map(pick).filter((v): v is number => v !== undefined);
  return values.length === 0 ? undefined : median(values);
};

async function measure(options: Options, log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  if (options.rows.includes('user')) {
    const userPath: Row = { label: 'user path: conform (embedded reference, start-up included)', mode: 'user path', items: 120, samples: [] };
    for (let i = 0; i < options.repeat; i++) {
      userPath.samples.push({ ...(await runCli([])), served: undefined });
      log(`  user path, 120 items, run ${i + 1}/${options.repeat}: ${userPath.samples.at(-1)!.wallS.toFixed(2)} s`);
    }
    rows.push(userPath);
  }
  if (options.rows.includes('network')) {
    const dataset = buildDataset({ itemsPerUser: NETWORK_ITEMS });
    for (const network of NETWORK_ROWS) {
      const row: Row = {
        name: `network, ${network.name}`,
        label: `${options.rttMs} ms round trip (a loopback proxy), ${network.args.join(' ')}`,
        mode: 'network',
        items: NETWORK_ITEMS,
        samples: [],
        targetS: network.targetS,
      };
      for (let i = 0; i < options.repeat; i++) {
        row.samples.push(await runNetworked(dataset, network, options.rttMs));
        const last = row.samples.at(-1)!;
        log(
          `  network (${network.name}), ${NETWORK_ITEMS} items, run ${i + 1}/${options.repeat}: ${last.wallS.toFixed(2)} s, critical path ${last.criticalPath} of ${last.served} requests, floor ${last.floorS!.toFixed(2)} s`,
        );
      }
      rows.push(row);
    }
  }
  for (const size of options.rows.includes('served') ? options.sizes : []) {
    const row: Row = { label: '', mode: options.mode, items: size, samples: [] };
    if (options.mode === 'served') {
      const started = performance.now();
      const dataset = buildDataset({ itemsPerUser: size });
      row.label = `served: reference in the bench process, --rps 0 --concurrency 8 (dataset built in ${((performance.now() - started) / 1000).toFixed(1)} s, not counted)`;
      for (let i = 0; i < options.repeat; i++) {
        row.samples.push(await runServed(dataset));
        log(
          `  served, ${size} items, run ${i + 1}/${options.repeat}: ${row.samples.at(-1)!.wallS.toFixed(2)} s, floor ${row.samples.at(-1)!.floorS!.toFixed(2)} s`,
        );
      }
    } else {
      row.label = 'embedded: CONFORM_REFERENCE_ITEMS, dataset build and reference start-up included';
      for (let i = 0; i < options.repeat; i++) {
        row.samples.push({ ...(await runCli([], { CONFORM_REFERENCE_ITEMS: String(size) })), served: undefined });
        log(`  embedded, ${size} items, run ${i + 1}/${options.repeat}: ${row.samples.at(-1)!.wallS.toFixed(2)} s`);
      }
    }
    rows.push(row);
  }
  return rows;
}

const fmt = (value: number | undefined, digits = 2): string => (value === undefined ? '-' : value.toFixed(digits));

function render(rows: readonly Row[], options: Options, load: { before: number; after: number }): string {
  const lines: string[] = [];
  lines.push(
    `conform bench: full primary run, ${options.repeat} run(s) per row, medians; ${availableParallelism()} cores, load average ${load.before.toFixed(1)} before, ${load.after.toFixed(1)} after${load.before > availableParallelism() * 0.75 ? ' (the machine was busy: timings are noisy)' : ''}`,
  );
  lines.push('');
  const header = ['mode', 'items/user', 'wall s', 'floor s', 'x floor', 'cpu s', 'requests', 'served', 'critical path', 'peak RSS MB', 'verdict'];
  const table = rows.map((row) => [
    row.name ?? row.mode,
    String(row.items),
    fmt(medianOf(row, (s) => s.wallS)),
    fmt(medianOf(row, (s) => s.floorS)),
    fmt(medianOf(row, (s) => (s.floorS === undefined ? undefined : s.wallS / s.floorS))),
    fmt(medianOf(row, (s) => s.cpuS)),
    fmt(
      medianOf(row, (s) => s.requests),
      0,
    ),
    fmt(
      medianOf(row, (s) => s.served),
      0,
    ),
    fmt(
      medianOf(row, (s) => s.criticalPath),
      0,
    ),
    fmt(
      medianOf(row, (s) => s.peakRssMb),
      0,
    ),
    [...new Set(row.samples.map((s) => s.verdict))].join(', '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i < 2 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  lines.push(line(header), ...table.map(line));
  lines.push('');
  for (const row of rows) lines.push(`${row.name ?? row.mode} ${row.items}: ${row.label}`);
  lines.push(
    'requests: sent by the checks (report.json); served: answered by the reference (through the proxy on network rows), the pre-flight read and the restore sweep included.',
  );
  lines.push('floor: the same requests sent again with undici in order, same --concurrency and --rps (and proxy), no checks; x floor: wall / floor, per run.');
  lines.push(
    `critical path: the longest chain of requests each sent after the previous one's answer arrived; each costs at least one ${options.rttMs} ms round trip.`,
  );

  const sized = rows.filter((r) => r.mode === 'served' || r.mode === 'embedded');
  const base = sized.find((r) => r.items === Math.min(...options.sizes));
  lines.push('');
  if (base) {
    for (const row of sized.filter((r) => r !== base)) {
      const wall = (medianOf(row, (s) => s.wallS) ?? NaN) / (medianOf(base, (s) => s.wallS) ?? NaN);
      const requests = (medianOf(row, (s) => s.requests) ?? NaN) / (medianOf(base, (s) => s.requests) ?? NaN);
      const memory = (medianOf(row, (s) => s.peakRssMb) ?? NaN) / (medianOf(base, (s) => s.peakRssMb) ?? NaN);
      lines.push(
        `ratio ${row.items} / ${base.items} items (${row.mode}): wall ${wall.toFixed(2)}x, requests ${requests.toFixed(2)}x, peak RSS ${memory.toFixed(2)}x`,
      );
    }
  }
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  lines.push('');
  const userPath = rows.find((r) => r.mode === 'user path');
  if (userPath) {
    const userWall = medianOf(userPath, (s) => s.wallS) ?? NaN;
    lines.push(
      `target: user path (120 items, start-up included) <= ${USER_PATH_TARGET_S} s: ${met(userWall <= USER_PATH_TARGET_S)} (${userWall.toFixed(2)} s)`,
    );
  }
  for (const row of rows.filter((r) => r.mode === 'network')) {
    const wall = medianOf(row, (s) => s.wallS) ?? NaN;
    const path = medianOf(row, (s) => s.criticalPath) ?? NaN;
    lines.push(
      `target: ${row.name} <= ${row.targetS} s: ${met(wall <= row.targetS!)} (${wall.toFixed(2)} s; critical path ${path} requests, at least ${((path * options.rttMs) / 1000).toFixed(1)} s of round trips)`,
    );
    // Issue 26's targets for the same rows: a shorter chain, and a run paced close to requests ÷ rps (start-up included).
    const spec = NETWORK_ROWS.find((r) => row.name === `network, ${r.name}`);
    if (spec && 'laterTargetS' in spec)
      lines.push(`target (issue 26): ${row.name} <= ${spec.laterTargetS} s: ${met(wall <= spec.laterTargetS)} (${wall.toFixed(2)} s)`);
    if (spec && 'paceTarget' in spec) {
      const paceFloor = (medianOf(row, (s) => s.requests) ?? NaN) / spec.rps;
      lines.push(
        `target (issue 26): ${row.name} <= ${spec.paceTarget}x its pace floor (requests / rps = ${paceFloor.toFixed(2)} s): ${met(wall <= spec.paceTarget * paceFloor)} (${(wall / paceFloor).toFixed(2)}x)`,
      );
    }
  }
  const largest = [...sized].sort((a, b) => b.items - a.items)[0];
  if (largest) {
    const ratio = medianOf(largest, (s) => (s.floorS === undefined ? undefined : s.wallS / s.floorS)) ?? NaN;
    lines.push(`target: ${largest.items} items (${largest.mode}) <= ${FLOOR_TARGET}x its floor: ${met(ratio <= FLOOR_TARGET)} (${ratio.toFixed(2)}x)`);
  }
  if (largest && base && largest !== base) {
    const scale = (medianOf(largest, (s) => s.wallS) ?? NaN) / (medianOf(base, (s) => s.wallS) ?? NaN);
    lines.push(
      `target: ${largest.items} items <= ${SCALE_TARGET}x the ${base.items}-item time (${largest.mode}): ${met(scale <= SCALE_TARGET)} (${scale.toFixed(2)}x)`,
    );
  }
  const maxRequests = Math.max(...rows.flatMap((r) => r.samples.map((s) => s.requests ?? 0)));
  lines.push(
    `target: requests per run <= ${DEFAULT_MAX_REQUESTS} (--max-requests default): ${met(maxRequests <= DEFAULT_MAX_REQUESTS)} (largest ${maxRequests})`,
  );
  const small = rows.filter((r) => r.items === NETWORK_ITEMS).flatMap((r) => r.samples.map((s) => s.requests ?? 0));
  if (small.length > 0)
    lines.push(
      `target: requests per ${NETWORK_ITEMS}-item run <= ${REQUESTS_BEFORE} (the same checks before the speed work of issue 15): ${met(Math.max(...small) <= REQUESTS_BEFORE)} (largest ${Math.max(...small)}; ${REQUESTS_WHEN_ISSUE_15_WAS_WRITTEN} when the issue was written, before issue 14 added checks)`,
    );
  const failing = rows.flatMap((r) => r.samples).filter((s) => s.exitCode !== 0).length;
  if (failing > 0) lines.push(`warning: ${failing} run(s) did not conform; their timings measure something else`);
  return `${lines.join('\n')}\n`;
}

const options = parseOptions(process.argv.slice(2));
const before = loadavg()[0]!;
const progress = (line: string) => process.stderr.write(`${line}\n`);
const timed = options.rows.filter((r) => r !== 'cancel');
const rows = timed.length > 0 ? await measure({ ...options, rows: timed }, progress) : [];
const cancel: CancelTry[] | undefined = options.rows.includes('cancel')
  ? await measureCancel(buildDataset({ itemsPerUser: NETWORK_ITEMS }), { tries: options.tries, rttMs: options.rttMs }, progress)
  : undefined;
const after = loadavg()[0]!;
if (options.json) process.stdout.write(`${JSON.stringify({ options, load: { before, after }, rows, ...(cancel ? { cancel } : {}) }, null, 2)}\n`);
else {
  if (rows.length > 0) process.stdout.write(render(rows, options, { before, after }));
  if (cancel) process.stdout.write(renderCancel(cancel, { rttMs: options.rttMs, load: { before, after } }));
}

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_RUNS, integerOption, timeLimitsOf, type OptionValues } from './options.ts';
import { configFileProblem } from './schema.ts';
import { UsageError } from '../core/errors.ts';
import { readJsonSource } from '../core/json-file.ts';
import { headerProblem, type NetworkOptions, type ProxySettings } from '../http/network.ts';
import { isProfileName, type ProfileName } from '../spec/profiles.ts';
import { splitList } from './selection.ts';
import { PREFLIGHT_REQUESTS } from '../http/request-budget.ts';
import { loadWaiversFile, parseConfigWaivers, type Waiver } from './waivers.ts';
import { defaultReporters, frozen, isReporterName, reporterNames, type FailOn, type ReporterName, type RunPlan, type TargetChoice } from './plan.ts';

export const DEFAULT_CONFIG_FILE = 'conform.config.json';
export const DEFAULT_KEY_ENV = 'CONFORM_API_KEY';
export const DEFAULT_OTHER_KEY_ENV = 'CONFORM_OTHER_API_KEY';
/** Requests a run may send unless --max-requests says otherwise: full-collection walks included. */
export const DEFAULT_MAX_REQUESTS = 2500;

export interface TargetEntry {
  url: string;
  profile?: ProfileName;
  keyEnv?: string;
  otherKeyEnv?: string;
  waivers?: unknown;
  /** Extra headers: header name → name of the environment variable that holds its value. */
  headers?: Record<string, string>;
}

type Env = Record<string, string | undefined>;

/** Defaults, then the targets file, then the environment, then flags: resolved once, here, into the run's frozen plan. */
export function resolveRunConfig(args: OptionValues, env: Env, cwd: string): RunPlan {
  const profileFlag = args.profile;
  if (profileFlag !== undefined && !isProfileName(profileFlag)) {
    throw new UsageError(`--profile must be primary or staging, got '${profileFlag}'`);
  }
  const fcPath = args['fc-path'];
  if (fcPath !== undefined) checkFcPath(fcPath, args.seed);
  const fcReplayPath = args['fc-replay-path'];
  if (fcReplayPath !== undefined) checkFcReplayPath(fcReplayPath, fcPath);
  const target = resolveTarget(args, env, cwd, profileFlag);
  const remote = target.kind === 'remote';
  const reportToStdout = args.out === '-';
  const outDir = reportToStdout ? join(tmpdir(), `conform-journal-${randomUUID()}`) : resolve(cwd, args.out ?? 'conform-report');
  const seed = integerOption('seed', args.seed, -(2 ** 31), 2 ** 31 - 1) ?? randomSeed();
  const runs = integerOption('runs', args.runs, 1, 10_000) ?? DEFAULT_RUNS;
  const only = splitList(args.only ?? []);
  const skip = splitList(args.skip ?? []);
  const { timeoutMs, deadlineSeconds } = timeLimitsOf(args);
  const concurrency = integerOption('concurrency', args.concurrency, 1, 64) ?? (remote ? 6 : 8);
  const rps = integerOption('rps', args.rps, 0, 10_000) ?? (remote ? 100 : 0);
  const maxRequests = integerOption('max-requests', args['max-requests'], 1, 10_000_000) ?? DEFAULT_MAX_REQUESTS;
  const budget = resolveBudget(args.budget);
  const reporters = reportToStdout ? stdoutReporters(args.reporter) : resolveReporters(args.reporter, env);
  const gate = { failOn: resolveFailOn(args['fail-on']), allowIncomplete: args['allow-incomplete'] === true };
  return frozen({
    target,
    settings: {
      timeoutMs,
      concurrency,
      rps,
      maxRequests,
      seed,
      runs,
      ...(fcPath !== undefined ? { fcPath } : {}),
      ...(fcReplayPath !== undefined ? { fcReplayPath } : {}),
    },
    deadlineSeconds,
    only,
    skip,
    ...(budget !== undefined ? { budget } : {}),
    gate,
    waivers: resolveWaivers(args, cwd, target),
    output: { outDir, ...(reportToStdout ? { reportToStdout } : {}), reporters, quiet: args.quiet === true },
    secrets: targetSecrets(target),
  });
}

/** --budget must at least pay for the pre-flight; below that no check could run at all. */
function resolveBudget(value: string | undefined): number | undefined {
  const budget = integerOption('budget', value, 1, 10_000_000);
  if (budget !== undefined && budget < PREFLIGHT_REQUESTS) {
    throw new UsageError(`--budget ${budget} does not pay for the pre-flight (${PREFLIGHT_REQUESTS} requests); give at least ${PREFLIGHT_REQUESTS}`);
  }
  return budget;
}

function resolveFailOn(value: string | undefined): FailOn {
  if (value === undefined) return 'must';
  if (value !== 'must' && value !== 'should') throw new UsageError(`--fail-on must be must or should, got '${value}'`);
  return value;
}

/**
 * Waivers from the config file (its top-level "waivers" and the named target's) and from --waivers.
 * The default config file is read for them only when it exists; a --config that cannot be read is an error.
 */
function resolveWaivers(args: OptionValues, cwd: string, target: TargetChoice): Waiver[] {
  const path = resolve(cwd, args.config ?? DEFAULT_CONFIG_FILE);
  const config = args.config !== undefined || existsSync(path) ? readConfigFile(path) : undefined;
  const fromConfig: Waiver[] = [];
  if (typeof config === 'object' && config !== null) {
    const relative = (file: string) => resolve(dirname(path), file);
    const global = (config as { waivers?: unknown }).waivers;
    if (global !== undefined) fromConfig.push(...parseConfigWaivers(global, `config file ${path}`, relative));
    const name = args.target;
    const entry = name !== undefined ? (config as { targets?: Record<string, TargetEntry> }).targets?.[name] : undefined;
    if (target.kind === 'remote' && entry?.waivers !== undefined) {
      fromConfig.push(...parseConfigWaivers(entry.waivers, `config file ${path}, target '${name}'`, relative, name));
    }
  }
  return [...fromConfig, ...(args.waivers !== undefined ? loadWaiversFile(resolve(cwd, args.waivers)) : [])];
}

/** A fast-check path is counters joined by ':' (as a failure prints it); it only means something with the seed it came from. */
function checkFcPath(path: string, seed: string | undefined): void {
  if (!/^\d+(:\d+)*$/.test(path)) throw new UsageError(`--fc-path must be a fast-check path such as 4:1:0 (as a failure prints it), got '${path}'`);
  if (seed === undefined) throw new UsageError('--fc-path needs the --seed it was printed with');
}

/** fast-check's replay path of a model run (which of the generated commands ran): base-64 digits and one ':'; it goes with the --fc-path it was printed with. */
function checkFcReplayPath(path: string, fcPath: string | undefined): void {
  if (!/^[A-Za-z0-9+/]*:[A-Za-z0-9+/]*$/.test(path))
    throw new UsageError(`--fc-replay-path must be a fast-check replay path such as AAAB:g (as a model-based failure prints it), got '${path}'`);
  if (fcPath === undefined) throw new UsageError('--fc-replay-path needs the --fc-path and --seed it was printed with');
}

/** With `--out -` only the JSON report can go to stdout; the terminal summary goes to stderr. */
function stdoutReporters(flags: string[] | undefined): ReporterName[] {
  if (flags === undefined) return ['json'];
  const names = resolveReporters(flags, {});
  const needFolder = names.filter((n) => n === 'junit' || n === 'html');
  if (needFolder.length > 0) throw new UsageError(`--out - prints the JSON report on stdout; ${needFolder.join(' and ')} need a folder (--out DIR)`);
  return [...new Set<ReporterName>(['json', ...names])];
}

export function resolveReporters(flags: string[] | undefined, env: Env): ReporterName[] {
  if (flags === undefined) return defaultReporters(env);
  const names = splitList(flags);
  for (const name of names) {
    if (!isReporterName(name)) throw new UsageError(`unknown reporter '${name}' (reporters: ${reporterNames.join(', ')})`);
  }
  if (names.length === 0) throw new UsageError(`--reporter needs at least one of: ${reporterNames.join(', ')}`);
  return [...new Set(names)] as ReporterName[];
}

function resolveTarget(args: OptionValues, env: Env, cwd: string, profileFlag: ProfileName | undefined): TargetChoice {
  const name = args.target;
  if (name === undefined) {
    if (args.key !== undefined || args['other-key'] !== undefined) {
      throw new UsageError('--key and --other-key need --target; the embedded reference uses its own keys');
    }
    // The reference listens on loopback in this process: no proxy, no TLS.
    const headers = extraHeaders(args, env);
    return { kind: 'embedded', profile: profileFlag ?? 'primary', label: 'embedded reference', ...(headers ? { network: { headers } } : {}) };
  }
  return resolveRemoteTarget(args, env, cwd, {
    name,
    flag: '--target',
    profileFlag,
    defaultProfile: 'primary',
    keys: (entry, where) => resolveKeys(args, env, entry?.keyEnv ?? DEFAULT_KEY_ENV, entry?.otherKeyEnv ?? DEFAULT_OTHER_KEY_ENV, where),
  });
}

export type RemoteTarget = Extract<TargetChoice, { kind: 'remote' }>;

/** One side of a run or of a diff: how it names its target, and how it finds that target's keys. */
export interface TargetRequest {
  /** A base URL, or a name in the targets file. */
  name: string;
  flag: '--target' | '--against';
  profileFlag: ProfileName | undefined;
  /** The profile when neither the flag nor the targets file names one. */
  defaultProfile: ProfileName;
  /** The keys, given the targets-file entry (none for a URL); `where` names the target in an error. */
  keys: (entry: TargetEntry | undefined, where: string) => { primary: string; other?: string; keySource?: string; otherKeySource?: string };
}

/** A URL or a named target of the targets file, with its keys, profile and network settings: the one resolution of every remote target. */
export function resolveRemoteTarget(args: OptionValues, env: Env, cwd: string, request: TargetRequest): RemoteTarget {
  const { name, flag } = request;
  const entry = /^[a-z][a-z0-9+.-]*:\/\//i.test(name) ? undefined : namedOrSchemeless(name, args, cwd, flag);
  const baseUrl = entry ? parseBaseUrl(entry.url, `target '${name}'`) : parseBaseUrl(name, flag);
  const label = entry ? name : baseUrl;
  const { keySource, otherKeySource, ...keys } = request.keys(entry, label);
  const profile = request.profileFlag ?? entry?.profile ?? request.defaultProfile;
  const network = entry ? resolveNetwork(args, env, cwd, entry, name) : resolveNetwork(args, env, cwd);
  return {
    kind: 'remote',
    baseUrl,
    profile,
    label,
    keys,
    ...(keySource !== undefined ? { keySource } : {}),
    ...(otherKeySource !== undefined ? { otherKeySource } : {}),
    network,
  };
}

/**
 * How requests reach a remote target: the entry's headers (values from the environment variables it
 * names), then --header, which wins for the same name; --ca-cert, --insecure; proxies from the environment.
 */
function resolveNetwork(args: OptionValues, env: Env, cwd: string, entry?: TargetEntry, name?: string): NetworkOptions {
  const headers = extraHeaders(args, env, entry, name);
  const proxy = proxySettings(env);
  return {
    ...(headers ? { headers } : {}),
    ...(args['ca-cert'] !== undefined ? { ca: readCaCert(resolve(cwd, args['ca-cert'])) } : {}),
    ...(args.insecure ? { insecure: true } : {}),
    ...(proxy ? { proxy } : {}),
  };
}

function extraHeaders(args: OptionValues, env: Env, entry?: TargetEntry, name?: string): Record<string, string> | undefined {
  const headers = new Map<string, [string, string]>();
  for (const [header, variable] of Object.entries(entry?.headers ?? {})) {
    const value = nonEmpty(env[variable]);
    if (value === undefined) throw new UsageError(`target '${name}': header ${header} takes its value from ${variable}, which is not set`);
    const problem = headerProblem(header, value);
    if (problem) throw new UsageError(`target '${name}': "headers": ${problem}`);
    headers.set(header.toLowerCase(), [header, value]);
  }
  for (const flag of args.header ?? []) {
    const colon = flag.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header must look like 'Name: value', got '${flag.split(/\s/)[0]}…'`);
    const header = flag.slice(0, colon).trim();
    const value = flag.slice(colon + 1).trim();
    const problem = headerProblem(header, value);
    if (problem) throw new UsageError(`--header: ${problem}`);
    headers.set(header.toLowerCase(), [header, value]);
  }
  return headers.size === 0 ? undefined : Object.fromEntries(headers.values());
}

/**
 * Secrets on the command line and in the default key variables, masked as soon as the command line
 * is parsed: before a plan exists, so that not even a configuration error shows one.
 */
export function commandLineSecrets(args: OptionValues, env: Env): string[] {
  const keys = [args.key, args['other-key'], env[DEFAULT_KEY_ENV], env[DEFAULT_OTHER_KEY_ENV]].filter((key): key is string => Boolean(key));
  return [...keys, ...(args.header ?? []).map((flag) => flag.slice(flag.indexOf(':') + 1).trim())];
}

/** What no output may show for a target: its keys, extra header values and proxy credentials. */
export function targetSecrets(choice: TargetChoice): string[] {
  const network = choice.network;
  const secrets = Object.values(network?.headers ?? {});
  for (const proxy of [network?.proxy?.http, network?.proxy?.https]) {
    if (!proxy) continue;
    const url = new URL(proxy);
    if (url.password) secrets.push(url.password, decodeURIComponent(url.password));
  }
  if (choice.kind === 'remote') secrets.push(choice.keys.primary, ...(choice.keys.other ? [choice.keys.other] : []));
  return secrets;
}

function readCaCert(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--ca-cert: cannot read ${path}${code ? ` (${code})` : ''}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`--ca-cert: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pem;
}

/** HTTPS_PROXY, HTTP_PROXY and NO_PROXY, lower-case spellings first (as curl and undici read them). */
function proxySettings(env: Env): ProxySettings | undefined {
  const read = (variable: string) => nonEmpty(env[variable.toLowerCase()]) ?? nonEmpty(env[variable]);
  const settings: ProxySettings = {};
  for (const [field, variable] of [
    ['http', 'HTTP_PROXY'],
    ['https', 'HTTPS_PROXY'],
  ] as const) {
    const value = read(variable);
    if (value === undefined) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`${variable} is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${variable}: only http and https proxies are supported`);
    settings[field] = value;
  }
  if (settings.http === undefined && settings.https === undefined) return undefined;
  const noProxy = read('NO_PROXY');
  return noProxy === undefined ? settings : { ...settings, noProxy };
}

/** `127.0.0.1:8080`, `localhost`, `api.example.com/v1`: a host, not a target's name. */
const HOST_LIKE = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)+)(:\d+)?(\/\S*)?$/i;

/**
 * A name of the targets file; but a host written without its scheme gets told to add one, not that
 * the targets file is missing or lacks that name.
 */
function namedOrSchemeless(name: string, args: OptionValues, cwd: string, flag: TargetRequest['flag']): TargetEntry {
  const match = HOST_LIKE.exec(name);
  const schemeHint = () => new UsageError(`${flag} '${name}' has no scheme: write http://${name} or https://${name}`);
  // A port or a path cannot be part of a target's name.
  if (match && (match[4] !== undefined || match[5] !== undefined || /^(localhost|[\d.]+)$/i.test(match[1]!))) throw schemeHint();
  try {
    return namedTarget(name, args.config, cwd, flag);
  } catch (error) {
    if (match && error instanceof UsageError) throw schemeHint();
    throw error;
  }
}

/** A target of the targets file by name; an unknown name lists the known ones. */
function namedTarget(name: string, configPath: string | undefined, cwd: string, flag = '--target'): TargetEntry {
  const targets = loadTargets(configPath, cwd);
  const entry = Object.hasOwn(targets, name) ? targets[name] : undefined;
  if (entry) return entry;
  const known = Object.keys(targets);
  const where = resolve(cwd, configPath ?? DEFAULT_CONFIG_FILE);
  throw new UsageError(
    `unknown ${flag === '--target' ? '' : `${flag} `}target '${name}': not a URL and not a name in ${where} (${known.length > 0 ? `known: ${known.join(', ')}` : 'it names no target'})`,
  );
}

/** The keys, and where the primary one came from (`--key` or the variable), for the refused-key message. */
function resolveKeys(args: OptionValues, env: Env, keyEnv: string, otherKeyEnv: string, target: string) {
  const fromEnv = (variable: string) => (nonEmpty(env[variable]) !== undefined ? variable : undefined);
  const keySource = nonEmpty(args.key) !== undefined ? '--key' : (fromEnv(keyEnv) ?? fromEnv(DEFAULT_KEY_ENV));
  const primary = nonEmpty(args.key) ?? nonEmpty(env[keyEnv]) ?? nonEmpty(env[DEFAULT_KEY_ENV]);
  if (primary === undefined || keySource === undefined) throw new UsageError(`no key for ${target}: pass --key or set ${keyEnv}`);
  const other = nonEmpty(args['other-key']) ?? nonEmpty(env[otherKeyEnv]) ?? nonEmpty(env[DEFAULT_OTHER_KEY_ENV]);
  if (other !== undefined && other === primary) throw new UsageError('--other-key must belong to a different user than --key');
  if (other === undefined) return { primary, keySource };
  const fromConfig = otherKeyEnv !== DEFAULT_OTHER_KEY_ENV && fromEnv(otherKeyEnv) !== undefined;
  const otherKeySource =
    nonEmpty(args['other-key']) !== undefined ? '--other-key' : fromConfig ? `${otherKeyEnv} (named by otherKeyEnv in the config file)` : DEFAULT_OTHER_KEY_ENV;
  return { primary, other, keySource, otherKeySource };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function parseBaseUrl(value: string, where: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${where}: '${value}' is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${where}: only http and https URLs are supported`);
  if (url.search || url.hash) throw new UsageError(`${where}: the base URL must not carry a query or fragment`);
  if (url.username || url.password) throw new UsageError(`${where}: credentials in the URL are not allowed; use --key`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function loadTargets(configPath: string | undefined, cwd: string): Record<string, TargetEntry> {
  const path = resolve(cwd, configPath ?? DEFAULT_CONFIG_FILE);
  const parsed = readConfigFile(path);
  const { $comment: _comment, ...targets } = (parsed as { targets: Record<string, TargetEntry> }).targets;
  return targets;
}

function readConfigFile(path: string): unknown {
  const { json: parsed, text } = readJsonSource(path, 'targets file');
  const problem = configFileProblem(parsed, text);
  if (problem !== undefined) throw new UsageError(`targets file ${path}: ${problem}`);
  return parsed;
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

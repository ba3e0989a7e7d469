import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { integerOption, type ParsedArgs } from './cli/args.ts';
import { UsageError } from './errors.ts';
import { headerProblem, type NetworkOptions, type ProxySettings } from './http/network.ts';
import { isProfileName, type ProfileName } from './profiles.ts';
import { splitList } from './selection.ts';
import { defaultReporters, isReporterName, reporterNames, type ReporterName } from '../reporters/index.ts';

export const DEFAULT_CONFIG_FILE = 'conform.config.json';
export const DEFAULT_KEY_ENV = 'CONFORM_API_KEY';
export const DEFAULT_OTHER_KEY_ENV = 'CONFORM_OTHER_API_KEY';
/** Requests a run may send unless --max-requests says otherwise: full-collection walks included. */
export const DEFAULT_MAX_REQUESTS = 2500;

/** A remote deployment to check, or the embedded reference started in-process. */
export type TargetChoice =
  | { kind: 'embedded'; profile: ProfileName; label: string; network?: NetworkOptions }
  | { kind: 'remote'; baseUrl: string; profile: ProfileName; label: string; keys: { primary: string; other?: string }; network?: NetworkOptions };

export interface RunConfig {
  target: TargetChoice;
  outDir: string;
  seed: number;
  fcPath?: string;
  runs: number;
  only: string[];
  skip: string[];
  timeoutMs: number;
  deadlineSeconds: number;
  concurrency: number;
  rps: number;
  maxRequests: number;
  reporters: ReporterName[];
  quiet: boolean;
}

interface TargetEntry {
  url: string;
  profile?: ProfileName;
  keyEnv?: string;
  otherKeyEnv?: string;
  /** Extra headers: header name → name of the environment variable that holds its value. */
  headers?: Record<string, string>;
}

type Env = Record<string, string | undefined>;

/** Defaults, then the targets file, then the environment, then flags: resolved once, here. */
export function resolveRunConfig(args: ParsedArgs['values'], env: Env, cwd: string): RunConfig {
  const profileFlag = args.profile;
  if (profileFlag !== undefined && !isProfileName(profileFlag)) {
    throw new UsageError(`--profile must be primary or staging, got '${profileFlag}'`);
  }
  const fcPath = args['fc-path'];
  const target = resolveTarget(args, env, cwd, profileFlag);
  const remote = target.kind === 'remote';
  return {
    target,
    outDir: resolve(cwd, args.out ?? 'conform-report'),
    seed: integerOption('seed', args.seed, -(2 ** 31), 2 ** 31 - 1) ?? randomSeed(),
    ...(fcPath !== undefined ? { fcPath } : {}),
    runs: integerOption('runs', args.runs, 1, 10_000) ?? 20,
    only: splitList(args.only ?? []),
    skip: splitList(args.skip ?? []),
    timeoutMs: integerOption('timeout', args.timeout, 100, 600_000) ?? 10_000,
    deadlineSeconds: integerOption('deadline', args.deadline, 1, 86_400) ?? 900,
    concurrency: integerOption('concurrency', args.concurrency, 1, 64) ?? (remote ? 6 : 8),
    rps: integerOption('rps', args.rps, 0, 10_000) ?? (remote ? 100 : 0),
    maxRequests: integerOption('max-requests', args['max-requests'], 1, 10_000_000) ?? DEFAULT_MAX_REQUESTS,
    reporters: resolveReporters(args.reporter, env),
    quiet: args.quiet === true,
  };
}

function resolveReporters(flags: string[] | undefined, env: Env): ReporterName[] {
  if (flags === undefined) return defaultReporters(env);
  const names = splitList(flags);
  for (const name of names) {
    if (!isReporterName(name)) throw new UsageError(`unknown reporter '${name}' (reporters: ${reporterNames.join(', ')})`);
  }
  if (names.length === 0) throw new UsageError(`--reporter needs at least one of: ${reporterNames.join(', ')}`);
  return [...new Set(names)] as ReporterName[];
}

function resolveTarget(args: ParsedArgs['values'], env: Env, cwd: string, profileFlag: ProfileName | undefined): TargetChoice {
  const name = args.target;
  if (name === undefined) {
    if (args.key !== undefined || args['other-key'] !== undefined) {
      throw new UsageError('--key and --other-key need --target; the embedded reference uses its own keys');
    }
    // The reference listens on loopback in this process: no proxy, no TLS.
    const headers = extraHeaders(args, env);
    return { kind: 'embedded', profile: profileFlag ?? 'primary', label: 'embedded reference', ...(headers ? { network: { headers } } : {}) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) {
    const baseUrl = parseBaseUrl(name, '--target');
    const keys = resolveKeys(args, env, DEFAULT_KEY_ENV, DEFAULT_OTHER_KEY_ENV, baseUrl);
    return { kind: 'remote', baseUrl, profile: profileFlag ?? 'primary', label: baseUrl, keys, network: resolveNetwork(args, env, cwd) };
  }
  const entry = loadTargets(args.config, cwd)[name];
  if (!entry) throw new UsageError(`unknown target '${name}': not a URL and not a name in the targets file`);
  const baseUrl = parseBaseUrl(entry.url, `target '${name}'`);
  const keys = resolveKeys(args, env, entry.keyEnv ?? DEFAULT_KEY_ENV, entry.otherKeyEnv ?? DEFAULT_OTHER_KEY_ENV, name);
  return { kind: 'remote', baseUrl, profile: profileFlag ?? entry.profile ?? 'primary', label: name, keys, network: resolveNetwork(args, env, cwd, entry, name) };
}

/**
 * How requests reach a remote target: the entry's headers (values from the environment variables it
 * names), then --header, which wins for the same name; --ca-cert, --insecure; proxies from the environment.
 */
export function resolveNetwork(args: ParsedArgs['values'], env: Env, cwd: string, entry?: TargetEntry, name?: string): NetworkOptions {
  const headers = extraHeaders(args, env, entry, name);
  const proxy = proxySettings(env);
  return {
    ...(headers ? { headers } : {}),
    ...(args['ca-cert'] !== undefined ? { ca: readCaCert(resolve(cwd, args['ca-cert'])) } : {}),
    ...(args.insecure ? { insecure: true } : {}),
    ...(proxy ? { proxy } : {}),
  };
}

function extraHeaders(args: ParsedArgs['values'], env: Env, entry?: TargetEntry, name?: string): Record<string, string> | undefined {
  const headers = new Map<string, [string, string]>();
  for (const [header, variable] of Object.entries(entry?.headers ?? {})) {
    const value = nonEmpty(env[variable]);
    if (value === undefined) throw new UsageError(`target '${name}': header ${header} takes its value from ${variable}, which is not set`);
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

/** Extra header values and proxy credentials: secrets like the keys, masked in every output. */
export function networkSecrets(choice: TargetChoice): string[] {
  const network = choice.network;
  const secrets = Object.values(network?.headers ?? {});
  for (const proxy of [network?.proxy?.http, network?.proxy?.https]) {
    if (!proxy) continue;
    const url = new URL(proxy);
    if (url.password) secrets.push(url.password, decodeURIComponent(url.password));
  }
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
  for (const [field, variable] of [['http', 'HTTP_PROXY'], ['https', 'HTTPS_PROXY']] as const) {
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

function resolveKeys(args: ParsedArgs['values'], env: Env, keyEnv: string, otherKeyEnv: string, target: string) {
  const primary = nonEmpty(args.key) ?? nonEmpty(env[keyEnv]) ?? nonEmpty(env[DEFAULT_KEY_ENV]);
  if (primary === undefined) throw new UsageError(`no key for ${target}: pass --key or set ${keyEnv}`);
  const other = nonEmpty(args['other-key']) ?? nonEmpty(env[otherKeyEnv]) ?? nonEmpty(env[DEFAULT_OTHER_KEY_ENV]);
  if (other !== undefined && other === primary) throw new UsageError('--other-key must belong to a different user than --key');
  return other === undefined ? { primary } : { primary, other };
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

const FORBIDDEN_CONFIG_KEYS = /^(key|apikey|api_key|token|secret|otherkey|other_key)$/i;

export function loadTargets(configPath: string | undefined, cwd: string): Record<string, TargetEntry> {
  const path = resolve(cwd, configPath ?? DEFAULT_CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read targets file ${path}${code ? ` (${code})` : ''}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`targets file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const targets = (parsed as { targets?: unknown } | null)?.targets;
  if (typeof targets !== 'object' || targets === null || Array.isArray(targets)) {
    throw new UsageError(`targets file ${path}: expected an object with a "targets" object`);
  }
  const out: Record<string, TargetEntry> = {};
  for (const [name, raw] of Object.entries(targets)) {
    out[name] = validateEntry(name, raw, path);
  }
  return out;
}

function validateEntry(name: string, raw: unknown, path: string): TargetEntry {
  const where = `targets file ${path}, target '${name}'`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${where}: expected an object`);
  const entry = raw as Record<string, unknown>;
  for (const field of Object.keys(entry)) {
    if (FORBIDDEN_CONFIG_KEYS.test(field)) throw new UsageError(`${where}: keys must not be stored in the file; name an environment variable with keyEnv`);
    if (!['url', 'profile', 'keyEnv', 'otherKeyEnv', 'headers', 'description'].includes(field)) throw new UsageError(`${where}: unknown field '${field}'`);
  }
  if (typeof entry.url !== 'string') throw new UsageError(`${where}: "url" must be a string`);
  if (entry.profile !== undefined && (typeof entry.profile !== 'string' || !isProfileName(entry.profile))) {
    throw new UsageError(`${where}: "profile" must be primary or staging`);
  }
  for (const field of ['keyEnv', 'otherKeyEnv'] as const) {
    if (entry[field] !== undefined && (typeof entry[field] !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry[field] as string))) {
      throw new UsageError(`${where}: "${field}" must be an environment variable name`);
    }
  }
  if (entry.headers !== undefined) {
    if (typeof entry.headers !== 'object' || entry.headers === null || Array.isArray(entry.headers)) {
      throw new UsageError(`${where}: "headers" must map header names to environment variable names`);
    }
    for (const [header, variable] of Object.entries(entry.headers)) {
      if (typeof variable !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
        throw new UsageError(`${where}: "headers"."${header}" must name an environment variable (values are never stored in the file)`);
      }
      const problem = headerProblem(header, '');
      if (problem) throw new UsageError(`${where}: "headers": ${problem}`);
    }
  }
  return entry as unknown as TargetEntry;
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import { EnvHttpProxyAgent, Pool } from './undici.ts';

/** How requests reach a real deployment: extra headers, private CAs, proxies. Resolved once by config.ts. */
export interface NetworkOptions {
  /** Sent with every request (e.g. a gateway's access token); the values are secrets, masked in every output. */
  headers?: Record<string, string>;
  /** PEM of certificate authorities to trust besides the system's (--ca-cert). */
  ca?: string;
  /** Accept any TLS certificate (--insecure). */
  insecure?: boolean;
  /** Forward proxies, from HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
  proxy?: ProxySettings;
}

export interface ProxySettings {
  http?: string;
  https?: string;
  noProxy?: string;
}

export interface PoolSettings {
  connections: number;
  keepAliveTimeout: number;
  headersTimeout: number;
  bodyTimeout: number;
}

/**
 * A keep-alive pool to the target's origin, or, when a proxy is configured, undici's proxy agent that
 * tunnels through it (and goes direct for hosts NO_PROXY names). TLS settings apply to the target in
 * both cases, and to an https proxy.
 */
export function createDispatcher(origin: string, network: NetworkOptions, pool: PoolSettings): Dispatcher {
  const tls = {
    ...(network.ca ? { ca: [...rootCertificates, network.ca] } : {}),
    ...(network.insecure ? { rejectUnauthorized: false } : {}),
  };
  const proxy = network.proxy;
  if (proxy?.http || proxy?.https) {
    // Explicit empty strings keep undici from reading process.env itself: configuration is resolved once.
    return new EnvHttpProxyAgent({
      ...pool,
      httpProxy: proxy.http ?? '',
      httpsProxy: proxy.https ?? '',
      noProxy: proxy.noProxy ?? '',
      connect: tls,
      requestTls: tls,
      proxyTls: tls,
    });
  }
  return new Pool(origin, { ...pool, connect: tls });
}

/** Header names conform sets itself, or that would break the exchange. */
const RESERVED_HEADERS = new Set(['authorization', 'accept', 'content-type', 'content-length', 'host', 'connection', 'transfer-encoding']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a header cannot be sent as an extra header; undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return `'${name}' is not a valid header name`;
  if (RESERVED_HEADERS.has(name.toLowerCase())) {
    return name.toLowerCase() === 'authorization' ? 'Authorization is set by conform from the key; use --key' : `${name} is set by conform itself`;
  }
  if (/[\r\n\0]/.test(value)) return `the value of ${name} contains a line break`;
  return undefined;
}

/** The proxy a request to `origin` goes through (as undici picks it: by scheme, unless NO_PROXY names the host), with its variable. */
export function proxyFor(origin: string, proxy: ProxySettings | undefined): { url: string; variable: string } | undefined {
  if (!proxy) return undefined;
  const target = new URL(origin);
  const https = target.protocol === 'https:';
  const url = https ? proxy.https : proxy.http;
  if (!url || bypassed(target, proxy.noProxy)) return undefined;
  return { url, variable: https ? 'HTTPS_PROXY' : 'HTTP_PROXY' };
}

function bypassed(target: URL, noProxy: string | undefined): boolean {
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return (noProxy ?? '')
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [host, entryPort] = entry.replace(/^\*?\./, '.').split(':') as [string, string | undefined];
      if (entryPort !== undefined && entryPort !== port) return false;
      const name = target.hostname;
      return host.startsWith('.') ? name.endsWith(host) || name === host.slice(1) : name === host || name.endsWith(`.${host}`);
    });
}

/** A proxy URL fit to print: its password masked. */
export function shownProxy(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}

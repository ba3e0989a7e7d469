import { toCurl } from '../http/curl.ts';
import type { Method } from '../http/exchange.ts';
import { isObject } from '../spec/lenient.ts';
import { PLACEHOLDER_AUTHORIZATION } from './contract.ts';

/** The request of one interaction as the pact file (specification 4.0) records it. */
export interface PactRequest {
  method: string;
  path: string;
  query?: Record<string, string[]>;
  headers?: Record<string, string[]>;
  body?: { content?: unknown };
  generators?: Partial<Record<'query' | 'body' | 'header' | 'path', Record<string, { type?: string; expression?: string }>>>;
}

export interface PactInteraction {
  description: string;
  providerStates?: { name: string }[];
  request: PactRequest;
}

/** Values handed out by the provider states, filled into `${name}` expressions; unknown ones keep the pact's example. */
function generated(expression: string | undefined, values: Record<string, unknown>, example: unknown): unknown {
  const name = /^\$\{(\w+)\}$/.exec(expression ?? '')?.[1];
  return name !== undefined && values[name] !== undefined ? values[name] : example;
}

/**
 * The request the verifier sent for an interaction, rebuilt from the pact and the values its provider
 * states handed out: the request line and a curl command. The key is shown as `Bearer ***`.
 */
export function reproduceInteraction(interaction: PactInteraction, baseUrl: string, values: Record<string, unknown>): { request: string; curl: string } {
  const { request } = interaction;
  const generators = request.generators ?? {};
  const query = new URLSearchParams();
  for (const [name, list] of Object.entries(request.query ?? {})) {
    const generator = generators.query?.[name];
    for (const value of list) query.append(name, String(generator?.type === 'ProviderState' ? generated(generator.expression, values, value) : value));
  }
  const headers: Record<string, string> = {};
  for (const [name, list] of Object.entries(request.headers ?? {})) {
    const value = list.join(', ');
    headers[name] = value === PLACEHOLDER_AUTHORIZATION ? 'Bearer ***' : value;
  }
  let body: string | undefined;
  if (request.body?.content !== undefined) {
    const content = structuredClone(request.body.content);
    for (const [path, generator] of Object.entries(generators.body ?? {})) {
      const field = /^\$\.(\w+)$/.exec(path)?.[1];
      if (field !== undefined && generator.type === 'ProviderState' && isObject(content))
        content[field] = generated(generator.expression, values, content[field]);
    }
    body = typeof content === 'string' ? content : JSON.stringify(content);
  }
  const search = query.toString();
  const url = `${baseUrl}${request.path}${search ? `?${search}` : ''}`;
  const line = `${request.method} ${request.path}${search ? `?${search}` : ''}${body !== undefined ? ` ${body}` : ''}`;
  return { request: line, curl: toCurl({ method: request.method as Method, url, headers, ...(body !== undefined ? { body } : {}) }) };
}

/**
 * The Pact verifier, run in a child process of `conform pact verify` so that everything the native
 * verifier prints goes to a pipe the parent redacts, never straight to the terminal. The key arrives
 * over IPC and is added to requests by the JS proxy's request filter only: the native verifier and its
 * logs never see it.
 */
import { Verifier } from '@pact-foundation/pact';
import { Api } from '../http/api.ts';
import { ApiClient } from '../http/client.ts';
import { PLACEHOLDER_AUTHORIZATION, PROVIDER } from './contract.ts';
import { WriteGuard } from './guard.ts';
import type { HeldBack, StateError, WorkerReply, WorkerRequest } from './protocol.ts';
import { builtInStates, type StateContext, type StateFunction, type StateHandler, type StateHandlers } from './states.ts';

/** The parts of Express's request and response the filter uses (Express's own types are not installed). */
interface ProxiedRequest {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: unknown;
}
interface ProxyResponse {
  status(code: number): { json(body: unknown): void };
}

type VerifierOptions = ConstructorParameters<typeof Verifier>[0];

async function vendorStates(moduleUrl: string, context: StateContext): Promise<StateHandlers> {
  const module = (await import(moduleUrl)) as { default?: unknown; providerStates?: unknown };
  const exported = module.providerStates ?? module.default;
  const handlers = typeof exported === 'function' ? await (exported as (c: StateContext) => unknown)(context) : exported;
  if (typeof handlers !== 'object' || handlers === null)
    throw new Error(
      `${moduleUrl} exports no provider-state handlers (a default or "providerStates" export: an object, or a function of { baseUrl, api } returning one)`,
    );
  return handlers as StateHandlers;
}

/** Wraps each handler: records errors (Pact would only print them), and tells the guard what was prepared. */
function instrument(
  handlers: StateHandlers,
  guard: WriteGuard,
  errors: StateError[],
  handedOut: Record<string, Record<string, unknown>>,
): Record<string, { setup: StateFunction; teardown: StateFunction }> {
  const wrapped: Record<string, { setup: StateFunction; teardown: StateFunction }> = {};
  for (const [state, handler] of Object.entries(handlers)) {
    const { setup, teardown } = typeof handler === 'function' ? { setup: handler, teardown: undefined } : (handler as Exclude<StateHandler, StateFunction>);
    const guarded =
      (action: 'setup' | 'teardown', fn: StateFunction | undefined): StateFunction =>
      async (params) => {
        try {
          if (action === 'teardown') guard.reset();
          const values = fn ? await fn(params) : undefined;
          if (action === 'setup') guard.prepare(state, values);
          if (action === 'setup' && values) handedOut[state] = values;
          return values;
        } catch (error) {
          if (action === 'setup') guard.prepare(state, undefined);
          errors.push({ state, action, message: error instanceof Error ? error.message : String(error) });
          throw error;
        }
      };
    wrapped[state] = { setup: guarded('setup', setup), teardown: guarded('teardown', teardown) };
  }
  return wrapped;
}

async function verify(request: WorkerRequest): Promise<WorkerReply> {
  const stateErrors: StateError[] = [];
  const heldBack: HeldBack[] = [];
  const stateValues: Record<string, Record<string, unknown>> = {};
  const guard = new WriteGuard();
  const client = new ApiClient({ baseUrl: request.baseUrl, keys: { primary: request.key }, timeoutMs: request.timeoutMs, connections: 2 });
  const context: StateContext = { baseUrl: request.baseUrl, api: new Api(client) };
  try {
    const handlers = { ...builtInStates(context), ...(request.providerStates ? await vendorStates(request.providerStates, context) : {}) };
    const requestFilter = (req: ProxiedRequest, res: ProxyResponse, next: () => void) => {
      if (req.path === '/_pactSetup') return next();
      if (req.headers.authorization === PLACEHOLDER_AUTHORIZATION) req.headers.authorization = `Bearer ${request.key}`;
      const refusal = guard.refusal(req.method, req.path, req.query, req.body);
      if (refusal === undefined) return next();
      heldBack.push({ states: [...guard.active], reason: refusal });
      res.status(500).json({ errors: [{ message: `conform did not send this request: ${refusal}` }] });
    };
    const verifier = new Verifier({
      provider: PROVIDER,
      providerBaseUrl: request.baseUrl,
      pactUrls: [request.pactFile],
      stateHandlers: instrument(handlers, guard, stateErrors, stateValues) as VerifierOptions['stateHandlers'],
      requestFilter,
      timeout: request.timeoutMs,
      logLevel: 'warn',
    });
    let report: string;
    try {
      report = await verifier.verifyProvider();
    } catch (error) {
      // A failed verification rejects with the JSON report as the message; anything else is a crash.
      const message = error instanceof Error ? error.message : String(error);
      if (!message.trimStart().startsWith('{')) return { crash: message, stateErrors, heldBack };
      report = message;
    }
    return { report: JSON.parse(report) as unknown, stateErrors, heldBack, stateValues };
  } finally {
    await client.close();
  }
}

process.once('message', (message) => {
  verify(message as WorkerRequest)
    .catch((error: unknown): WorkerReply => ({ crash: error instanceof Error ? error.message : String(error), stateErrors: [], heldBack: [] }))
    .then((reply) => process.send!(reply, () => process.exit(0)));
});

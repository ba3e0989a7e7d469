/**
 * The parts of undici the client uses (Pool, EnvHttpProxyAgent, errors), loaded from their own modules:
 * undici's entry point also loads fetch, WebSocket, the mocks and the caches, which cost every thread that
 * sends requests (the CLI's and the checks') about 100 ms of start-up. The request API is put on the
 * dispatchers' prototype as the entry point does. Should a later undici move these modules, the entry
 * point is loaded instead.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

type Parts = Pick<typeof Undici, 'Pool' | 'EnvHttpProxyAgent' | 'errors'> & { loadedFrom: 'its modules' | 'the entry point' };

function load(): Parts {
  const require = createRequire(import.meta.url);
  try {
    const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));
    return {
      Pool: require('undici/lib/dispatcher/pool.js') as Parts['Pool'],
      EnvHttpProxyAgent: require('undici/lib/dispatcher/env-http-proxy-agent.js') as Parts['EnvHttpProxyAgent'],
      errors: require('undici/lib/core/errors.js') as Parts['errors'],
      loadedFrom: 'its modules',
    };
  } catch {
    const { Pool, EnvHttpProxyAgent, errors } = require('undici') as typeof Undici;
    return { Pool, EnvHttpProxyAgent, errors, loadedFrom: 'the entry point' };
  }
}

export const { Pool, EnvHttpProxyAgent, errors, loadedFrom } = load();

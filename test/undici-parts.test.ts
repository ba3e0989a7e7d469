import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { EnvHttpProxyAgent, errors, loadedFrom, Pool } from '../src/http/undici.ts';

describe("the client's parts of undici", () => {
  it('load from their own modules (not the entry point) and are the very classes undici exports', () => {
    expect(loadedFrom).toBe('its modules');
    expect(Pool).toBe(undici.Pool);
    expect(EnvHttpProxyAgent).toBe(undici.EnvHttpProxyAgent);
    expect(errors).toBe(undici.errors);
  });

  it('a pool has the request API the entry point puts on every dispatcher', async () => {
    const pool = new Pool('http://127.0.0.1:9');
    expect(typeof pool.request).toBe('function');
    await pool.close();
  });
});

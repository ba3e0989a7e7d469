import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { hearUnscopedTransport, tellUnscopedTransport } from '../src/harness/run-transport-channel.ts';

describe('the worker tells the CLI what its requests outside any check met', () => {
  it("sums what the run's worker tells, and ignores another run's", async () => {
    const heard = hearUnscopedTransport('run-a');
    tellUnscopedTransport('run-a', { retries: 1, rateLimited: 2, rateLimitWaitMs: 300 });
    tellUnscopedTransport('run-b', { retries: 5, rateLimited: 5, rateLimitWaitMs: 5 });
    tellUnscopedTransport('run-a', { retries: 0, rateLimited: 1, rateLimitWaitMs: 100 });
    for (let i = 0; i < 50 && heard.counts.rateLimited < 3; i++) await sleep(10);
    heard.stop();
    expect(heard.counts).toEqual({ retries: 1, rateLimited: 3, rateLimitWaitMs: 400 });
  });
});

import { describe, expect, it } from 'vitest';
import { TransportError } from '../src/core/errors.ts';
import { declaredRateLimit, fromText } from '../src/http/rate-policy.ts';
import { RateLimiter } from '../src/http/rate-limit.ts';

/** A limiter on a clock the test moves: sleeping advances it. */
function limiter(options: { ceiling?: number; start?: number } = {}) {
  const clock = { now: 1_000_000 };
  const rl = new RateLimiter({
    ceiling: options.ceiling ?? 0,
    ...(options.start !== undefined ? { start: options.start } : {}),
    now: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
  });
  return { rl, clock };
}

describe('RateLimiter', () => {
  it('paces at the ceiling and sends at once without one', async () => {
    const paced = limiter({ ceiling: 4 });
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(await paced.rl.take());
    expect(times.map((t) => t - times[0]!)).toEqual([0, 250, 500, 750, 1000]);
    const free = limiter();
    expect(await free.rl.take()).toBe(await free.rl.take());
  });

  it('a 429 without Retry-After pauses every request, and the backoff doubles while the window stays closed', async () => {
    const { rl, clock } = limiter();
    const sent = await rl.take();
    expect(rl.rateLimited(sent)).toMatchObject({ ms: 1000, retryAfter: false, streak: 1 });
    // A request answered 429 that was sent before the pause began is covered by it.
    expect(rl.rateLimited(sent)).toBeUndefined();
    const probe = await rl.take();
    expect(probe - sent).toBe(1000);
    expect(rl.rateLimited(probe)).toMatchObject({ ms: 2000, streak: 2 });
    const second = await rl.take();
    expect(second - probe).toBe(2000);
    expect(rl.rateLimited(second)).toMatchObject({ ms: 4000, streak: 3 });
    expect(rl.waitedMs).toBe(7000);
    expect(clock.now - sent).toBe(3000);
  });

  it('a Retry-After sets the pause, and a longer one from a request in flight lengthens it', async () => {
    const { rl } = limiter();
    const a = await rl.take();
    const b = await rl.take();
    expect(rl.rateLimited(a, 3000)).toMatchObject({ ms: 3000, retryAfter: true });
    expect(rl.rateLimited(b, 2000)).toBeUndefined();
    expect(rl.rateLimited(b, 5000)).toMatchObject({ ms: 5000 });
    expect((await rl.take()) - a).toBe(5000);
  });

  it('when the target answers again, the pace drops to 90% of what got through in the cycle (multiplicative decrease)', async () => {
    const { rl, clock } = limiter();
    // 60 answers in the first 600 ms, then the window closes until 60 s.
    for (let i = 0; i < 60; i++) {
      const t = await rl.take();
      clock.now += 10;
      rl.answered(t);
    }
    let sent = await rl.take();
    let pause = rl.rateLimited(sent);
    while (pause && clock.now < 1_000_000 + 60_000) {
      sent = await rl.take();
      pause = clock.now < 1_000_000 + 60_000 ? rl.rateLimited(sent) : undefined;
    }
    const resumed = rl.answered(sent);
    expect(resumed).toBeDefined();
    const cycleSeconds = (clock.now - 1_000_000) / 1000;
    expect(resumed!.rps).toBeCloseTo((0.9 * 60) / cycleSeconds, 5);
    expect(rl.rps).toBeLessThan(1);
  });

  it('a single short refusal at a learned pace costs 10% of it, not a collapse to what got through around the pause', async () => {
    const { rl, clock } = limiter();
    const answer = async (n: number, gapMs: number) => {
      for (let i = 0; i < n; i++) {
        const t = await rl.take();
        clock.now += gapMs;
        rl.answered(t);
      }
    };
    // Learn a pace: 100 answers, then a closed window of several seconds.
    await answer(100, 10);
    for (let sent = await rl.take(), k = 0; k < 3; k++, sent = await rl.take()) rl.rateLimited(sent);
    rl.answered(await rl.take());
    const learned = rl.rps!;
    // Then sporadic 429s with Retry-After: 1 every 120 answers, as a busy gateway sends them.
    for (let event = 0; event < 5; event++) {
      await answer(120, 1);
      const before = rl.rps!;
      rl.rateLimited(await rl.take(), 1000);
      const resumed = rl.answered(await rl.take());
      expect(resumed?.rps).toBeCloseTo(0.9 * before, 5);
    }
    // Five refusals would leave 0.9^5 = 59% of the pace; it climbs back to 95% after each instead.
    expect(rl.rps!).toBeGreaterThan(0.95 ** 5 * learned * 0.99);
  });

  it("time the client was idle does not count as the target's slowness", async () => {
    const { rl, clock } = limiter();
    for (let i = 0; i < 10; i++) rl.answered(await rl.take());
    clock.now += 15 * 60_000; // a run's worth of idleness (the CLI's client between pre-flight and the sweep)
    for (let i = 0; i < 10; i++) {
      const t = await rl.take();
      clock.now += 50;
      rl.answered(t);
    }
    const sent = await rl.take();
    rl.rateLimited(sent);
    rl.rateLimited(await rl.take());
    const resumed = rl.answered(await rl.take());
    // 10 answers in 0.5 s, then 3 s of pause: about 3 requests/s, not 20 over 15 minutes.
    expect(resumed?.rps).toBeGreaterThan(2);
  });

  it('with too few answers to measure, the pace halves', async () => {
    const { rl, clock } = limiter({ ceiling: 8 });
    const t = await rl.take();
    rl.rateLimited(t);
    const probe = await rl.take();
    clock.now += 5;
    expect(rl.answered(probe)).toMatchObject({ rps: 4 });
  });

  it('clean answers raise the pace additively, never above the ceiling', async () => {
    const { rl, clock } = limiter({ ceiling: 2, start: 1 });
    expect(rl.rps).toBe(1);
    const increments: number[] = [];
    for (let i = 0; i < 100; i++) {
      const before = rl.rps!;
      const t = await rl.take();
      clock.now += 1;
      rl.answered(t);
      increments.push(rl.rps! - before);
    }
    // Each answer adds base × 0.1% / rate: about 0.001 requests/s per second of answers at 1 request/s.
    expect(rl.rps!).toBeGreaterThan(1.09);
    expect(rl.rps!).toBeLessThan(1.11);
    expect(Math.max(...increments)).toBeLessThan(0.0011);
    const capped = limiter({ ceiling: 1.0005, start: 1 });
    for (let i = 0; i < 10; i++) capped.rl.answered(await capped.rl.take());
    expect(capped.rl.rps).toBe(1.0005);
  });

  it('refuses to wait past the deadline', async () => {
    const { rl, clock } = limiter();
    const t = await rl.take();
    rl.rateLimited(t, 30_000);
    await expect(rl.take(clock.now + 10_000)).rejects.toThrow(TransportError);
    await expect(rl.take(clock.now + 10_000)).rejects.toThrow(/waiting 30 s more for the target's rate limit would pass the run's deadline/);
  });
});

describe('rate limits the catalog declares', () => {
  it.each([
    ['Rate limit: 60 requests per 60 seconds per client.', 60, 60],
    ['Clients may send 100 requests per minute.', 100, 60],
    ['1,000 calls / hour', 1000, 3600],
    ['rate-limited to 5/s', 5, 1],
    ['at most 30 req every 10 s', 30, 10],
  ])('reads %j', (text, requests, seconds) => {
    expect(fromText(text)).toEqual({ requests, seconds });
  });

  it.each(['up to 200 items per page', 'default page size 50', 'a use restarts the time since last use'])('reads no limit in %j', (text) => {
    expect(fromText(text)).toBeUndefined();
  });

  it('reads extensions in their common shapes and keeps the most restrictive', () => {
    expect(declaredRateLimit({ info: { 'x-ratelimit': { limit: 60, window: '1m' } } })).toMatchObject({
      requests: 60,
      seconds: 60,
      where: '#/info/x-ratelimit',
    });
    expect(declaredRateLimit({ 'x-rate-limit': { requests: 10, period: 'PT1S' } })).toMatchObject({ requests: 10, seconds: 1 });
    expect(declaredRateLimit({ 'x-ratelimit-limit': 600, 'x-ratelimit-window': 3600 })).toMatchObject({ requests: 600, seconds: 3600 });
    expect(declaredRateLimit({ 'x-throttling': '20 requests per second' })).toMatchObject({ requests: 20, seconds: 1 });
    const both = declaredRateLimit({
      info: { description: 'Limits: 100 requests per minute.' },
      paths: { '/artifact-kept.php': { post: { description: 'At most 10 requests per minute on this endpoint.' } } },
    });
    expect(both).toMatchObject({ requests: 10, seconds: 60, where: expect.stringContaining('/post/description') });
    expect(declaredRateLimit({ openapi: '3.1.0', info: { title: 'x', description: 'no limits here' } })).toBeUndefined();
    expect(declaredRateLimit('not a catalog')).toBeUndefined();
  });
});

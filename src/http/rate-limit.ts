import { setTimeout as sleep } from 'node:timers/promises';

/** Spaces requests so that at most `rps` start in any second (0: unlimited). */
export class RateLimiter {
  private next = 0;

  constructor(private readonly rps: number) {}

  async take(): Promise<void> {
    if (this.rps <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.next);
    this.next = slot + 1000 / this.rps;
    if (slot > now) await sleep(slot - now);
  }
}

/**
 * At most `slots` requests in flight (the run's --concurrency). When more are waiting, the requests on
 * the run's critical path (the toggling checks, the checks that must end before them, the CLI's own)
 * go before those of background checks (blind to kept flags, which nothing waits for), so that a burst
 * of background requests does not hold the toggling phase back. Within a level, first come first served.
 */
export class SendGate {
  private free: number;
  private readonly waiting = { foreground: [] as (() => void)[], background: [] as (() => void)[] };

  constructor(slots: number) {
    this.free = Math.max(1, slots);
  }

  /** Resolves with the release of the slot taken, which must be called once the exchange is over. */
  async enter(background: boolean): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting[background ? 'background' : 'foreground'].push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.foreground.shift() ?? this.waiting.background.shift();
      if (next) next();
      else this.free++;
    };
  }
}

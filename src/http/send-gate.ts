/**
 * At most `slots` requests in flight (the run's --concurrency). When more are waiting, the requests of
 * the toggling checks, of the read-only checks that read kept flags and of the CLI go before those of
 * background checks (blind to kept flags), so that a burst of background requests does not hold back
 * the longer chains of the others. The toggling phase waits for both kinds; giving way so measured a
 * shorter run than one level for all (8.8 s against 9.1 s at remote defaults over 40 ms). Within a level, the waiting request of
 * the check with the fewest requests outstanding goes first (first come first served among equals): a
 * check walking pages one at a time is not held behind another's burst of independent requests, which
 * packs into the slots that are left, so that the run does not end on a chain that waited in line.
 */
export class SendGate {
  private free: number;
  private readonly waiting: Waiter[] = [];
  /** Per owner, its requests waiting or in flight. */
  private readonly outstanding = new Map<string, number>();
  private arrivals = 0;

  constructor(slots: number) {
    this.free = Math.max(1, slots);
  }

  /** Resolves with the release of the slot taken, which must be called once the exchange is over. */
  async enter(background: boolean, owner = ''): Promise<() => void> {
    this.outstanding.set(owner, (this.outstanding.get(owner) ?? 0) + 1);
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push({ background, owner, arrival: this.arrivals++, resolve }));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.outstanding.get(owner) ?? 1) - 1;
      if (left === 0) this.outstanding.delete(owner);
      else this.outstanding.set(owner, left);
      const next = this.nextWaiter();
      if (next) next.resolve();
      else this.free++;
    };
  }

  private nextWaiter(): Waiter | undefined {
    let best = -1;
    for (let i = 0; i < this.waiting.length; i++) {
      if (best < 0 || this.before(this.waiting[i]!, this.waiting[best]!)) best = i;
    }
    return best < 0 ? undefined : this.waiting.splice(best, 1)[0];
  }

  private before(a: Waiter, b: Waiter): boolean {
    if (a.background !== b.background) return !a.background;
    const byLoad = (this.outstanding.get(a.owner) ?? 0) - (this.outstanding.get(b.owner) ?? 0);
    return byLoad !== 0 ? byLoad < 0 : a.arrival < b.arrival;
  }
}

interface Waiter {
  background: boolean;
  owner: string;
  arrival: number;
  resolve: () => void;
}

import type { CheckInfo, ToggleLane } from './meta.ts';

/**
 * How a check may overlap the others:
 *  - blind: reads no kept flag and compares nothing that holds one (its requests give way to the
 *    others', SendGate);
 *  - reader: any other read-only check (its oracle may read kept flags: rows, the kept filter, the
 *    default proposals and upcoming answers);
 *  - toggler: writes the kept toggle. No read-only check of either kind overlaps it.
 */
export type Role = 'blind' | 'reader' | 'toggler';

export function roleOf(info: Pick<CheckInfo, 'toggles' | 'keptBlind'>): Role {
  if (info.toggles) return 'toggler';
  return info.keptBlind ? 'blind' : 'reader';
}

/** A check the run will start, in the order the suites declare them. */
export interface ScheduledCheck {
  id: string;
  role: Role;
  /** A toggler's own lane, when it declares one. */
  lane?: ToggleLane;
}

export interface Turn {
  /** Settles when the check may send its first request. */
  start(): Promise<void>;
  /** The check is over, whatever its outcome: the checks waiting for it may go. */
  end(): void;
}

/**
 * The main lane's checks run one at a time, and none beside the own-items lane. Each watches the whole
 * collection's kept flags (FRAME-002 every field of the first thousand items, KEPT-005 two cursor pages,
 * KEPT-008 one) against a "before" it read itself, so any toggle that lands in between is blamed on its own
 * requests: KEPT-005's item flips and flips back, and on a defective target a toggle of one item may move
 * another (a neighbour, the first item for a toggle without an id). Overlapping them would turn one
 * check's write, or the defect it sets off, into another check's failure on a target where that check's
 * own requests are right. Their chains are kept short inside instead: reads that wait for nothing go out
 * together, and the restore trusts a read made after the check's last write.
 */
const MAIN_LANE = 'main';
const OWN_LANE = 'own-items:';

/**
 * When each check of a run may start (issue 15: the run's cost is its longest chain of requests).
 * Every check of the run is started at once and waits here for its turn:
 *  - blind checks and readers start at once;
 *  - togglers wait until every read-only check has ended: no oracle reads a kept flag in flux, and a
 *    defective server that carries state from one request to a later one (a cache narrowed in place, a
 *    filter left on a shared query) has been sent every read of the run before the togglers' read-backs,
 *    so whether they see the fault does not hang on which lane finished first; then
 *    they run one at a time, in the order of declaration, in the main lane. A toggler that declares a
 *    lane of its own (items set apart for it, or the second user's items) runs beside the main lane
 *    when its items are there, since no check of another lane touches or watches them. Togglers of
 *    their own items (each a share of the collection) run all at once, each in a lane of its own,
 *    and the main lane waits for them: its checks watch the whole collection.
 * Turns follow the order of declaration, not of arrival, so a run's schedule does not depend on timing.
 */
export class Schedule {
  private readonly ended = new Map<string, Promise<void>>();
  private readonly release = new Map<string, () => void>();
  private lanes?: Promise<Map<string, string>>;

  /**
   * @param checks the checks the run will start, in declaration order
   * @param laneAvailable whether a declared lane's items are there for its checks (else they join the main lane)
   * @param dealShares told, once, the checks that toggle their own items, in declaration order: each gets a share
   */
  constructor(
    private readonly checks: readonly ScheduledCheck[],
    private readonly laneAvailable: (lane: ToggleLane, checks: number) => Promise<boolean>,
    private readonly dealShares: (checkIds: readonly string[]) => void = () => {},
  ) {
    for (const { id } of checks) this.ended.set(id, new Promise<void>((resolve) => this.release.set(id, resolve)));
  }

  turn(id: string): Turn {
    const check = this.checks.find((c) => c.id === id);
    return {
      start: () => (check?.role === 'toggler' ? this.toggleTurn(check) : Promise.resolve()),
      end: () => this.release.get(id)?.(),
    };
  }

  /** Settles once every toggler of the run has ended: no kept write comes after it. */
  togglersEnded(): Promise<void> {
    return Promise.all(this.checks.filter((c) => c.role === 'toggler').map((c) => this.ended.get(c.id))).then(() => undefined);
  }

  private async toggleTurn(check: ScheduledCheck): Promise<void> {
    await Promise.all(this.checks.filter((c) => c.role !== 'toggler').map((c) => this.ended.get(c.id)));
    const lanes = await (this.lanes ??= this.assignLanes());
    const lane = lanes.get(check.id);
    const before = this.checks.slice(0, this.checks.indexOf(check)).filter((c) => c.role === 'toggler' && lanes.get(c.id) === lane);
    const ownFirst = lane === MAIN_LANE ? this.checks.filter((c) => lanes.get(c.id)?.startsWith(OWN_LANE)) : [];
    await Promise.all([...before, ...ownFirst].map((c) => this.ended.get(c.id)));
  }

  /** Each toggler's lane, decided once for the run, when the first toggler's turn comes. */
  private async assignLanes(): Promise<Map<string, string>> {
    const declared = [...new Set(this.checks.flatMap((c) => (c.role === 'toggler' && c.lane ? [c.lane] : [])))];
    const available = new Set<string>();
    for (const lane of declared) {
      const checks = this.checks.filter((c) => c.role === 'toggler' && c.lane === lane).length;
      if (await this.laneAvailable(lane, checks).catch(() => false)) available.add(lane);
    }
    const laneOf = (c: ScheduledCheck): string => {
      if (c.lane === undefined || !available.has(c.lane)) return MAIN_LANE;
      return c.lane === 'own-items' ? `${OWN_LANE}${c.id}` : c.lane;
    };
    const lanes = new Map(this.checks.filter((c) => c.role === 'toggler').map((c) => [c.id, laneOf(c)] as const));
    this.dealShares([...lanes].filter(([, lane]) => lane.startsWith(OWN_LANE)).map(([id]) => id));
    return lanes;
  }
}

import { describe, expect, it } from 'vitest';
import { keptChurn } from '../fixtures/kept-churn.ts';
import { collectChecks } from '../src/cli/list.ts';
import { Schedule, type ScheduledCheck } from '../src/harness/schedule.ts';
import { SendGate } from '../src/http/send-gate.ts';
import type { ToggleLane } from '../src/harness/meta.ts';
import type { RunResult } from '../src/runner/results.ts';
import { runCli } from './support/cli.ts';
import { keyArgs, withReference } from './support/reference.ts';

/** Runs `checks` through a schedule, each taking `ms[id]` once its turn starts; returns when each started and ended. */
async function simulate(checks: ScheduledCheck[], ms: Record<string, number>, lanes: ToggleLane[] = ['set-apart', 'second-user']) {
  return simulateWith(new Schedule(checks, async (lane) => lanes.includes(lane)), checks, ms);
}

async function simulateWith(schedule: Schedule, checks: ScheduledCheck[], ms: Record<string, number>) {
  const origin = performance.now();
  const times: Record<string, { start: number; end: number }> = {};
  // Started in reverse, so that the order of arrival is not the order of declaration.
  await Promise.all(
    [...checks].reverse().map(async ({ id }) => {
      const turn = schedule.turn(id);
      try {
        await turn.start();
        const start = performance.now() - origin;
        await new Promise((resolve) => setTimeout(resolve, ms[id] ?? 5));
        times[id] = { start, end: performance.now() - origin };
      } finally {
        turn.end();
      }
    }),
  );
  return times;
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

describe('the schedule of a run', () => {
  const checks: ScheduledCheck[] = [
    { id: 'READ-1', role: 'reader' },
    { id: 'TOG-1', role: 'toggler' },
    { id: 'BLIND-1', role: 'blind' },
    { id: 'TOG-2', role: 'toggler', lane: 'set-apart' },
    { id: 'READ-2', role: 'reader' },
    { id: 'TOG-3', role: 'toggler' },
    { id: 'TOG-4', role: 'toggler', lane: 'second-user' },
  ];
  const ms = { 'READ-1': 30, 'READ-2': 60, 'BLIND-1': 200, 'TOG-1': 40, 'TOG-2': 100, 'TOG-3': 40, 'TOG-4': 20 };

  it('starts readers and blind checks at once, and togglers only after every read-only check has ended', async () => {
    const t = await simulate(checks, ms);
    for (const id of ['READ-1', 'READ-2', 'BLIND-1']) expect(t[id]!.start).toBeLessThan(15);
    const readsEnd = Math.max(t['READ-1']!.end, t['READ-2']!.end, t['BLIND-1']!.end);
    expect(readsEnd, 'the blind check is the last read-only one to end').toBe(t['BLIND-1']!.end);
    for (const id of ['TOG-1', 'TOG-2', 'TOG-3', 'TOG-4']) expect(t[id]!.start).toBeGreaterThanOrEqual(readsEnd - 1);
  });

  it('runs the main lane one at a time in declaration order, and the other lanes beside it', async () => {
    const t = await simulate(checks, ms);
    expect(t['TOG-3']!.start).toBeGreaterThanOrEqual(t['TOG-1']!.end - 1);
    expect(overlaps(t['TOG-1']!, t['TOG-2']!)).toBe(true);
    expect(overlaps(t['TOG-1']!, t['TOG-4']!)).toBe(true);
  });

  it('puts a lane whose items are not there into the main lane, in declaration order', async () => {
    const t = await simulate(checks, ms, ['second-user']);
    expect(t['TOG-2']!.start).toBeGreaterThanOrEqual(t['TOG-1']!.end - 1);
    expect(t['TOG-3']!.start).toBeGreaterThanOrEqual(t['TOG-2']!.end - 1);
    expect(overlaps(t['TOG-4']!, t['TOG-1']!)).toBe(true);
  });

  it('runs togglers of their own items all at once, before the main lane, and deals each a share', async () => {
    const own: ScheduledCheck[] = [
      { id: 'READ-1', role: 'reader' },
      { id: 'TOG-1', role: 'toggler' },
      { id: 'OWN-1', role: 'toggler', lane: 'own-items' },
      { id: 'OWN-2', role: 'toggler', lane: 'own-items' },
      { id: 'TOG-2', role: 'toggler' },
    ];
    const dealt: string[][] = [];
    const schedule = new Schedule(
      own,
      async (lane, count) => lane === 'own-items' && count === 2,
      (ids) => dealt.push([...ids]),
    );
    const t = await simulateWith(schedule, own, { 'READ-1': 20, 'TOG-1': 30, 'OWN-1': 40, 'OWN-2': 40, 'TOG-2': 30 });
    expect(dealt).toEqual([['OWN-1', 'OWN-2']]);
    expect(overlaps(t['OWN-1']!, t['OWN-2']!)).toBe(true);
    expect(t['OWN-1']!.start).toBeGreaterThanOrEqual(t['READ-1']!.end - 1);
    for (const main of ['TOG-1', 'TOG-2']) expect(t[main]!.start).toBeGreaterThanOrEqual(Math.max(t['OWN-1']!.end, t['OWN-2']!.end) - 1);
    expect(t['TOG-2']!.start).toBeGreaterThanOrEqual(t['TOG-1']!.end - 1);
  });

  it('runs togglers of their own items in the main lane, in declaration order, when the collection is too small to deal', async () => {
    const own: ScheduledCheck[] = [
      { id: 'OWN-1', role: 'toggler', lane: 'own-items' },
      { id: 'OWN-2', role: 'toggler', lane: 'own-items' },
    ];
    const dealt: string[][] = [];
    const schedule = new Schedule(
      own,
      async () => false,
      (ids) => dealt.push([...ids]),
    );
    const t = await simulateWith(schedule, own, { 'OWN-1': 30, 'OWN-2': 30 });
    expect(dealt).toEqual([[]]);
    expect(t['OWN-2']!.start).toBeGreaterThanOrEqual(t['OWN-1']!.end - 1);
  });

  it('lets nobody wait for a check the run does not start', async () => {
    const schedule = new Schedule([{ id: 'TOG-1', role: 'toggler' }], async () => true);
    await expect(schedule.turn('TOG-1').start()).resolves.toBeUndefined();
  });
});

describe('checks declared blind to kept flags are', () => {
  const statuses = (report: RunResult) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]));

  it.each(['primary', 'staging'] as const)('judged alike while every request flips a kept flag (%s profile)', async (profile) => {
    const blind = (await collectChecks()).filter((c) => c.keptBlind).map((c) => c.id);
    expect(blind.length).toBeGreaterThan(20);
    const args = ['--profile', profile, '--only', blind.join(','), '--seed', '3'];
    const calm = await withReference({ profile }, (r) => runCli([...keyArgs(r), ...args]));
    const churned = await withReference({ profile, wrap: keptChurn(7) }, (r) => runCli([...keyArgs(r), ...args]));
    expect(calm.code, calm.stderr).toBe(0);
    expect(statuses(churned.report())).toEqual(statuses(calm.report()));
    expect(churned.code, churned.stdout).toBe(0);
  });

  it('while checks that read kept flags fail on the same target (the churn bites)', async () => {
    const run = await withReference({ wrap: keptChurn(7) }, (r) => runCli([...keyArgs(r), '--only', 'FILT-006,ERR-001', '--seed', '3']));
    const failed = run.report().checks.filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.id).sort()).toEqual(['ERR-001', 'FILT-006']);
    expect(run.code).toBe(1);
  });
});

describe('the send gate', () => {
  it('keeps at most its slots in flight, and lets waiting foreground requests go before background ones, each in order', async () => {
    const gate = new SendGate(2);
    const order: string[] = [];
    let inFlight = 0;
    let most = 0;
    const send = async (name: string, background: boolean) => {
      const leave = await gate.enter(background);
      most = Math.max(most, ++inFlight);
      order.push(name);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      leave();
    };
    await Promise.all([send('f1', false), send('b1', true), send('b2', true), send('f2', false), send('b3', true), send('f3', false)]);
    expect(most).toBe(2);
    expect(order).toEqual(['f1', 'b1', 'f2', 'f3', 'b2', 'b3']);
  });

  it('within a level, lets the request of the sender with the fewest outstanding go first, so a chain is not held behind a burst', async () => {
    const gate = new SendGate(1);
    const order: string[] = [];
    const send = async (name: string, owner: string) => {
      const leave = await gate.enter(false, owner);
      order.push(name);
      await new Promise((resolve) => setTimeout(resolve, 2));
      leave();
    };
    // A burst of four from one check, then one request of a check walking pages; then its next page.
    const burst = ['a1', 'a2', 'a3', 'a4'].map((name) => send(name, 'A'));
    const chain = send('b1', 'B').then(() => send('b2', 'B'));
    await Promise.all([...burst, chain]);
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
  });
});

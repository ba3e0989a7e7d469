import { describeSelection, type CheckResult, type Counts, type Effect, type Selection, type Status, type Verdict, type WaiverOutcome } from './results.ts';
import { defaultGate, type GateOptions } from '../config/plan.ts';
import { isExpired, waiverOf, type Waiver } from '../config/waivers.ts';

/** Every exit code conform gives, in one table: a run's verdicts, pact verify's and diff's alike; done is any other command that did what it was asked. */
/** 130 is the shell's code for a command ended by Ctrl-C (128 + SIGINT). */
export const exitCodes = { conforms: 0, 'does not conform': 1, usage: 2, incomplete: 3, 'no verdict': 3, done: 0, 'cancelled at a prompt': 130 } as const;

export { defaultGate, type FailOn, type GateOptions } from '../config/plan.ts';
export type { Counts, Verdict } from './results.ts';

/** Everything besides the checks' own outcomes that bears on the verdict. */
export interface Circumstances {
  /** The signal that interrupted the run. */
  interrupted?: string;
  deadlinePassed?: boolean;
  /** Checks ended because waiting out the target's rate limit would have passed the deadline. */
  rateLimitCut?: boolean;
  /** How long the whole run would need, when it was cut short (appended to the reason). */
  timeNeeded?: string;
  /** Errors outside any check (vitest's unhandled errors). */
  harnessErrors?: number;
  /** Kept values the end-of-run sweep could not put back. */
  safetyProblems?: number;
  /** A partial run (--only/--skip): named in the reason. */
  selection?: Selection;
  /** Waivers that name the target, and the day (YYYY-MM-DD, UTC) they are judged on. */
  waivers?: readonly Waiver[];
  today?: string;
  /** Every check id the suite has: a waiver naming none of them is reported as such. */
  knownChecks?: readonly string[];
  /** --budget: checks it left unjudged make the run incomplete (unless --allow-incomplete), and a partial one. */
  budget?: { limit: number; notJudged: number; estimatedFull: number };
}

/** What the verdict reads of a check: a run's checks, or pact verify's interactions. */
export type Judged = Pick<CheckResult, 'id' | 'level' | 'status' | 'message' | 'effect' | 'waiver'>;

export interface Decision<C extends Judged = CheckResult> {
  verdict: Verdict;
  reason: string;
  exitCode: number;
  /** The checks, each with the effect its outcome has on the verdict and its waiver. */
  checks: C[];
  waivers: WaiverOutcome[];
}

export function countStatuses(checks: readonly Judged[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0, error: 0 };
  for (const c of checks) counts[c.status]++;
  return counts;
}

/**
 * The one place a verdict is decided, overrides included: for a run's checks, and for pact verify's
 * interactions (src/pact/verify.ts), whose exit code it gives too. It fails closed, in this order: an
 * interrupted run has no verdict; a failure at a gating level is non-conformance; an error, an error
 * outside the checks, a restore that could not be verified, or a run where nothing passed gives no
 * verdict; a gating check that could not be judged makes the run incomplete (unless waived or
 * allowed). Only then does the target conform.
 */
export function decideVerdict<C extends Judged>(input: readonly C[], gate: GateOptions = defaultGate, circumstances: Circumstances = {}): Decision<C> {
  const waivers = circumstances.waivers ?? [];
  const today = circumstances.today ?? new Date().toISOString().slice(0, 10);
  const checks = input.map((check) => withEffect(check, gate, waiverOf(check.id, waivers, today), today));
  const { verdict, reason } = verdictOf(checks, gate, circumstances);
  const budget = circumstances.budget;
  const partial = [
    circumstances.selection ? `; ${describeSelection(circumstances.selection)}` : '',
    budget && budget.notJudged > 0
      ? `; partial run: ${budget.notJudged} check(s) not judged within --budget ${budget.limit} (a full run: about ${budget.estimatedFull} requests)`
      : '',
  ].join('');
  return {
    verdict,
    reason: `${reason}${partial}`,
    exitCode: exitCodes[verdict],
    checks,
    waivers: waiverOutcomes(waivers, checks, today, circumstances.knownChecks),
  };
}

function verdictOf(checks: readonly Judged[], gate: GateOptions, c: Circumstances): { verdict: Verdict; reason: string } {
  const blocking = (status: Status) => checks.filter((k) => k.status === status && k.effect === 'blocks');
  if (c.interrupted) {
    return { verdict: 'no verdict', reason: `interrupted (${c.interrupted}); kept values restored: ${(c.safetyProblems ?? 0) === 0 ? 'yes' : 'NO'}` };
  }
  const failed = blocking('failed');
  if (failed.length > 0) {
    const at = (level: Judged['level']) => failed.filter((k) => k.level === level).length;
    const [must, should, robustness] = [at('MUST'), at('SHOULD'), at('ROBUSTNESS')];
    const parts = [
      must > 0 ? `${must} MUST check(s) failed` : '',
      should > 0 ? `${should} SHOULD check(s) failed (--fail-on should)` : '',
      robustness > 0 ? `${robustness} check(s) failed on robustness (--fail-on should)` : '',
    ];
    return { verdict: 'does not conform', reason: parts.filter(Boolean).join('; ') };
  }
  const errors = blocking('error');
  const hung = () => errors[0]?.message?.split('\n')[0];
  if (errors.length > 0 || (c.deadlinePassed && checks.every((k) => k.status !== 'passed'))) {
    if (c.deadlinePassed || c.rateLimitCut) {
      const how = c.deadlinePassed ? 'passed' : "would pass while waiting for the target's rate limit";
      return { verdict: 'no verdict', reason: `the run's deadline ${how}${hung() ? `; first unanswered: ${hung()}` : ''}${c.timeNeeded ?? ''}` };
    }
    return { verdict: 'no verdict', reason: `${errors.length} check(s) could not be judged (errors)` };
  }
  if ((c.harnessErrors ?? 0) > 0) return { verdict: 'no verdict', reason: `${c.harnessErrors} harness error(s) outside checks` };
  if ((c.safetyProblems ?? 0) > 0) return { verdict: 'no verdict', reason: 'kept values could not all be restored' };
  // A waived failure was judged too: a run of nothing else has a verdict.
  if (!checks.some((k) => k.status === 'passed' || (k.status === 'failed' && k.effect === 'waived'))) {
    return { verdict: 'no verdict', reason: 'no check could pass or fail (all skipped or not applicable)' };
  }
  if (c.budget && c.budget.notJudged > 0 && !gate.allowIncomplete) {
    return { verdict: 'incomplete', reason: `the --budget ${c.budget.limit} left checks unjudged; raise --budget or pass --allow-incomplete` };
  }
  const unjudged = blocking('skipped');
  if (unjudged.length > 0) {
    const how = gate.failOn === 'should' ? 'MUST or SHOULD' : 'MUST';
    return {
      verdict: 'incomplete',
      reason: `${unjudged.length} ${how} check(s) could not be judged (a precondition is absent on this target); waive them or pass --allow-incomplete`,
    };
  }
  return { verdict: 'conforms', reason: conformsReason(checks, gate) };
}

function conformsReason(checks: readonly Judged[], gate: GateOptions): string {
  const count = (test: (k: Judged) => boolean) => checks.filter(test).length;
  const allowed = count((k) => k.status === 'skipped' && gates(k, gate) && k.effect === undefined);
  const waived = count((k) => k.effect === 'waived');
  const levels = gate.failOn === 'should' ? 'MUST and SHOULD' : 'MUST';
  const parts = [`every ${levels} check${allowed > 0 ? ' that could be judged' : ''} passed${waived > 0 ? ` except ${waived} waived` : ''}`];
  if (allowed > 0) parts.push(`${allowed} not judged (--allow-incomplete)`);
  const advice = count((k) => k.effect === 'advice' && k.level === 'SHOULD');
  if (advice > 0) parts.push(`${advice} SHOULD check(s) failed (advice)`);
  const robustness = count((k) => k.effect === 'advice' && k.level === 'ROBUSTNESS');
  if (robustness > 0) parts.push(`${robustness} check(s) failed on robustness (advice: HTTP practice, not the spec)`);
  const unexpected = count((k) => k.effect === 'unexpected-pass');
  if (unexpected > 0) parts.push(`${unexpected} waived check(s) passed: remove their waivers`);
  return parts.join('; ');
}

/** MUST checks always gate; SHOULD and robustness failures under --fail-on should. */
const gates = (check: Judged, gate: GateOptions): boolean => check.level === 'MUST' || gate.failOn === 'should';

function withEffect<C extends Judged>(check: C, gate: GateOptions, waiver: Waiver | undefined, today: string): C {
  const inForce = waiver !== undefined && !isExpired(waiver, today);
  const { effect: _old, waiver: _oldWaiver, ...plain } = check;
  let effect: Effect | undefined;
  switch (check.status) {
    case 'passed':
      effect = inForce ? 'unexpected-pass' : undefined;
      break;
    case 'failed':
      effect = inForce ? 'waived' : gates(check, gate) ? 'blocks' : 'advice';
      break;
    case 'error':
      effect = inForce ? 'waived' : 'blocks';
      break;
    case 'skipped':
      effect = inForce ? 'waived' : gates(check, gate) && !gate.allowIncomplete ? 'blocks' : undefined;
      break;
    case 'not-applicable':
      effect = undefined;
  }
  const state = !waiver
    ? undefined
    : !inForce
      ? 'expired'
      : check.status === 'passed'
        ? 'unexpected-pass'
        : check.status === 'not-applicable'
          ? 'unused'
          : 'applied';
  return { ...plain, ...(effect ? { effect } : {}), ...(waiver && state ? { waiver: { reason: waiver.reason, expires: waiver.expires, state } } : {}) } as C;
}

function waiverOutcomes(waivers: readonly Waiver[], checks: readonly Judged[], today: string, known?: readonly string[]): WaiverOutcome[] {
  return waivers.map((waiver) => {
    const check = checks.find((k) => k.id === waiver.check);
    if (isExpired(waiver, today)) return { ...waiver, state: 'expired', note: `expired on ${waiver.expires}: no longer applies` };
    if (!check) {
      const note = known && !known.includes(waiver.check) ? 'no check has this id (see conform --list)' : 'the check was not selected in this run';
      return { ...waiver, state: 'unused', note };
    }
    if (check.status === 'not-applicable') return { ...waiver, state: 'unused', note: `the check is not applicable here` };
    if (check.status === 'passed') return { ...waiver, state: 'unexpected-pass', note: 'the check passed: remove the waiver' };
    return { ...waiver, state: 'applied' };
  });
}

import type { CheckSettings } from '../harness/target.ts';
import type { NetworkOptions } from '../http/network.ts';
import type { ProfileName } from '../spec/profiles.ts';
import type { Waiver } from './waivers.ts';

/** A remote deployment to check, or the embedded reference started in-process. */
export type TargetChoice =
  | { kind: 'embedded'; profile: ProfileName; label: string; network?: NetworkOptions }
  | {
      kind: 'remote';
      baseUrl: string;
      profile: ProfileName;
      label: string;
      keys: { primary: string; other?: string };
      keySource?: string;
      /** Where the second user's key came from (`--other-key`, an environment variable): named, never shown, when it is refused. */
      otherKeySource?: string;
      network?: NetworkOptions;
    };

/**
 * One run, as flags, the targets file and the environment settle it (src/config/resolve.ts): built
 * once, frozen, and handed down to the runner, whose checks see `settings` through vitest's `provide`.
 */
export interface RunPlan {
  readonly target: TargetChoice;
  /** What every check runs with: the plan's part of the harness's TargetContext. */
  readonly settings: Readonly<CheckSettings>;
  /** The run's overall time limit; past it nothing more is sent and the run has no verdict. */
  readonly deadlineSeconds: number;
  /** --only and --skip: check ids and globs. */
  readonly only: readonly string[];
  readonly skip: readonly string[];
  /** --budget N: requests the whole run may send (pre-flight and restores included); absent without the flag. */
  readonly budget?: number;
  /** --fail-on, --allow-incomplete. */
  readonly gate: GateOptions;
  /** From the config file (global and the target's) and --waivers; filtered by target at run time. */
  readonly waivers: readonly Waiver[];
  readonly output: {
    readonly outDir: string;
    /** `--out -`: the JSON report goes to stdout, every other line to stderr, and outDir is a temporary folder for the journal. */
    readonly reportToStdout?: boolean;
    readonly reporters: readonly ReporterName[];
    readonly quiet: boolean;
  };
  /** Every value no output may show: the keys, extra header values, proxy passwords. */
  readonly secrets: readonly string[];
}

/** Freezes a plan (or any plain value) all the way down. */
export function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

/** Which failed checks fail the run (--fail-on). */
export type FailOn = 'must' | 'should';

/** What gates a run (recorded in every report). */
export interface GateOptions {
  /** must: only MUST checks gate (SHOULD failures are advice); should: SHOULD checks gate too. */
  failOn: FailOn;
  /** A gating check skipped for an absent precondition does not make the run incomplete. */
  allowIncomplete: boolean;
}

export const defaultGate: GateOptions = { failOn: 'must', allowIncomplete: false };

/** The reports a run can write (--reporter); reporters/ renders each. */
export const reporterNames = ['terminal', 'json', 'junit', 'html', 'github'] as const;
export type ReporterName = (typeof reporterNames)[number];

export function isReporterName(name: string): name is ReporterName {
  return (reporterNames as readonly string[]).includes(name);
}

/** terminal, json, junit and html; github too when running under GitHub Actions. */
export function defaultReporters(env: Record<string, string | undefined>): ReporterName[] {
  return ['terminal', 'json', 'junit', 'html', ...(env.GITHUB_ACTIONS === 'true' ? (['github'] as const) : [])];
}

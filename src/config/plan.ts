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

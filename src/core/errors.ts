/** The harness could not be configured as asked: exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The target could not be judged (unreachable, hanging, unreliable): exit 3. */
export class NoVerdictError extends Error {
  override name = 'NoVerdictError';
}

/**
 * A request got no usable answer (connection refused or reset, timeout, oversized body).
 * Thrown inside a check it makes the check an `error`, never a `failure`.
 */
export class TransportError extends Error {
  override name = 'TransportError';
  /** False where sending again would meet the same fault (e.g. an answer over the size limit). */
  constructor(
    message: string,
    readonly transient = true,
  ) {
    super(message);
  }
}

/** The target broke a clause of the spec (`clause`: its id in src/clauses.ts, when the assertion names it). */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
  constructor(
    message: string,
    readonly exchangeId?: number,
    readonly clause?: string,
  ) {
    super(message);
  }
}

/**
 * A failure of a rule from HTTP practice rather than a sentence of the spec (a 5xx for client input):
 * the check is reported at the ROBUSTNESS level, as advice unless --fail-on should.
 */
export class RobustnessFailure extends CheckFailure {
  override name = 'RobustnessFailure';
}

/** The harness itself refused or could not do something (a bug in a check, the write firewall): an error, never a failure. */
export class HarnessError extends Error {
  override name = 'HarnessError';
}

/** The user pressed Ctrl-C at a question (conform init): exit 130, quietly, nothing written. */
export class PromptCancelled extends Error {
  override name = 'PromptCancelled';
}

/** Messages between `conform pact verify` and its verifier child process (verify-worker.ts). */

export interface WorkerRequest {
  baseUrl: string;
  key: string;
  pactFile: string;
  /** file: URL of a vendor's provider-states module, if any. */
  providerStates?: string;
  timeoutMs: number;
}

export interface StateError {
  state: string;
  action: string;
  message: string;
}

export interface HeldBack {
  states: string[];
  reason: string;
}

export interface WorkerReply {
  /** The Pact verifier's JSON report (pactffi_verifier_json), when it ran to the end. */
  report?: unknown;
  /** Set when the verifier could not run at all (native library, pact file, proxy). */
  crash?: string;
  stateErrors: StateError[];
  /** Writes the guard kept from the target, with the provider states of their interaction. */
  heldBack: HeldBack[];
  /** What each provider state's setup handed out last (e.g. { itemId }), for the reproductions of failures. */
  stateValues?: Record<string, Record<string, unknown>>;
}

import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NoVerdictError } from '../core/errors.ts';
import { isObject } from '../spec/lenient.ts';
import { redactor } from '../core/redact.ts';
import { PACT_FILE } from './contract.ts';
import { reproduceInteraction, type PactInteraction } from './reproduce.ts';
import type { HeldBack, StateError, WorkerReply, WorkerRequest } from './protocol.ts';
import { decideVerdict, defaultGate, exitCodes } from '../runner/verdict.ts';

export interface VerifyOptions {
  baseUrl: string;
  key: string;
  pactFile?: string;
  /** Path of a module of provider-state handlers that replace the built-in ones of the same name. */
  providerStates?: string;
  timeoutMs?: number;
}

export interface InteractionOutcome {
  description: string;
  /** `not judged`: it failed, but a provider state could not be set up or a write was held back. */
  status: 'passed' | 'failed' | 'not judged';
  problems: string[];
  /** For a failed interaction: the request sent (key masked) and a curl command that sends it again. */
  request?: string;
  reproduction?: string;
}

export interface Verification {
  outcomes: InteractionOutcome[];
  stateErrors: StateError[];
  heldBack: HeldBack[];
  /** From the one verdict function (src/runner/verdict.ts): 0 honoured, 1 broken, 3 no verdict. */
  exitCode: number;
}

const WORKER = fileURLToPath(new URL('./verify-worker.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const WORKER_LIMIT_MS = 10 * 60_000;

/** Verifies the agent's pact against a running target, in a child process whose output is redacted. */
export async function verifyPact(options: VerifyOptions): Promise<Verification> {
  const redact = redactor([options.key]);
  const request: WorkerRequest = {
    baseUrl: options.baseUrl,
    key: options.key,
    pactFile: options.pactFile ?? PACT_FILE,
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(options.providerStates ? { providerStates: pathToFileURL(options.providerStates).href } : {}),
  };
  const { reply, output } = await runWorker(request);
  if (!reply || reply.crash !== undefined || reply.report === undefined) {
    const why = reply?.crash ?? 'the verifier process ended without a report';
    throw new NoVerdictError(redact(`pact verification could not run: ${why}${tail(output)}`));
  }
  const redacted = JSON.parse(redact(JSON.stringify(reply))) as WorkerReply;
  const verification = judge(redacted, statesOf(request.pactFile));
  return withReproductions(verification, request.pactFile, options.baseUrl, redacted.stateValues ?? {});
}

/** Each failed interaction gets the request that was sent and its curl, rebuilt from the pact and the states' values. */
export function withReproductions(v: Verification, pactFile: string, baseUrl: string, stateValues: Record<string, Record<string, unknown>>): Verification {
  const pact = JSON.parse(readFileSync(pactFile, 'utf8')) as { interactions?: PactInteraction[] };
  const byDescription = new Map((pact.interactions ?? []).map((i) => [i.description, i]));
  const outcomes = v.outcomes.map((o) => {
    const interaction = byDescription.get(o.description);
    if (o.status !== 'failed' || !interaction) return o;
    const values = Object.assign({}, ...(interaction.providerStates ?? []).map((s) => stateValues[s.name] ?? {})) as Record<string, unknown>;
    const { request, curl } = reproduceInteraction(interaction, baseUrl, values);
    return { ...o, request, reproduction: curl };
  });
  return { ...v, outcomes };
}

function runWorker(request: WorkerRequest): Promise<{ reply?: WorkerReply; output: string }> {
  return new Promise((resolve) => {
    const child = fork(WORKER, [], { execArgv: ['--import', TSX_LOADER], stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    let reply: WorkerReply | undefined;
    const collect = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-20_000));
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.on('message', (message) => void (reply = message as WorkerReply));
    const timer = setTimeout(() => child.kill('SIGKILL'), WORKER_LIMIT_MS);
    child.on('error', (error) => void (output += `\n${error.message}`));
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ reply, output });
    });
    child.send(request);
  });
}

function tail(output: string): string {
  const lines = output.trim().split('\n').slice(-15).join('\n');
  return lines ? `\n${lines}` : '';
}

interface Report {
  interactionResults?: { description?: string; result?: string }[];
  errors?: { interaction?: string; mismatch?: { mismatches?: { mismatch?: string; path?: string }[]; message?: string; type?: string } }[];
}

/** Each interaction's provider states, by description. */
export function statesOf(pactFile: string): Map<string, string[]> {
  const pact = JSON.parse(readFileSync(pactFile, 'utf8')) as { interactions?: { description: string; providerStates?: { name: string }[] }[] };
  return new Map((pact.interactions ?? []).map((i) => [i.description, (i.providerStates ?? []).map((s) => s.name)]));
}

/**
 * Reads the verifier's JSON report into one outcome per interaction and an exit code. A failure is
 * not held against the target when its interaction's provider state could not be set up, or when
 * the guard held one of its writes back: the target was never really asked.
 */
export function judge(reply: WorkerReply, interactionStates: Map<string, string[]>): Verification {
  const report = (isObject(reply.report) ? reply.report : {}) as Report;
  const broken = new Set([...reply.stateErrors.map((e) => e.state), ...reply.heldBack.flatMap((h) => h.states)]);
  const heldBackUnattributed = reply.heldBack.some((h) => h.states.length === 0);
  const unjudgeable = (description: string) => heldBackUnattributed || (interactionStates.get(description) ?? []).some((s) => broken.has(s));
  const outcomes: InteractionOutcome[] = (report.interactionResults ?? []).map(({ description = '?', result }) => {
    const problems = (report.errors ?? [])
      .filter((e) => e.interaction?.endsWith(` - ${description}`) || e.interaction === description)
      .flatMap(
        (e) =>
          e.mismatch?.mismatches?.map((m) => (m.path && m.path !== '$' ? `${m.path}: ${m.mismatch}` : (m.mismatch ?? ''))) ?? [e.mismatch?.message ?? 'failed'],
      );
    if (result === 'OK') return { description, status: 'passed', problems: [] };
    return { description, status: unjudgeable(description) ? 'not judged' : 'failed', problems };
  });
  // A teardown that failed may have left a kept value changed: never a clean pass.
  const restoreFailed = reply.stateErrors.filter((e) => e.action === 'teardown').length;
  // Every interaction is a MUST of the contract; one that could not be judged counts as an error.
  const judged = outcomes.map((o) => ({ id: o.description, level: 'MUST' as const, status: o.status === 'not judged' ? ('error' as const) : o.status }));
  const { exitCode } = decideVerdict(judged, defaultGate, { safetyProblems: restoreFailed });
  return { outcomes, stateErrors: reply.stateErrors, heldBack: reply.heldBack, exitCode };
}

export function describeVerification(v: Verification): string {
  const lines: string[] = [];
  for (const o of v.outcomes) {
    lines.push(`${o.status === 'passed' ? 'ok  ' : o.status === 'failed' ? 'FAIL' : 'n/j '} ${o.description}`);
    for (const problem of o.problems) lines.push(`       ${problem}`);
    if (o.request) lines.push(`       sent: ${o.request}`);
    if (o.reproduction) lines.push(`       reproduce: ${o.reproduction}`);
  }
  for (const e of v.stateErrors) lines.push(`provider state "${e.state}" (${e.action}) failed: ${e.message}`);
  for (const h of v.heldBack) lines.push(`held back (not sent to the target): ${h.reason}`);
  const count = (s: InteractionOutcome['status']) => v.outcomes.filter((o) => o.status === s).length;
  const verdict =
    v.exitCode === exitCodes.conforms
      ? 'the target honours the pact'
      : v.exitCode === exitCodes['does not conform']
        ? 'the target breaks the pact'
        : 'no verdict';
  lines.push(`pact: ${count('passed')} passed, ${count('failed')} failed, ${count('not judged')} not judged of ${v.outcomes.length} interactions: ${verdict}`);
  return `${lines.join('\n')}\n`;
}

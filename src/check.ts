import fc from 'fast-check';
import { test } from 'vitest';
import { CheckFailure, TransportError } from './errors.ts';
import type { Api } from './http/api.ts';
import type { ApiClient } from './http/client.ts';
import { toCurl } from './http/curl.ts';
import type { Exchange } from './http/exchange.ts';
import { KeptWriter } from './kept.ts';
import type { CheckInfo, CheckMeta, RecordedFailure } from './meta.ts';
import { missingCapabilities } from './profiles.ts';
import { session } from './session.ts';
import type { Discovery } from './discovery.ts';
import type { TargetContext } from './target.ts';

export interface CheckContext {
  api: Api;
  target: TargetContext;
  discover: Discovery;
  /** The only write path: journals, and restores every touched value after the check. */
  kept: KeptWriter;
  /** Ends the check as skipped: its precondition is absent from the target's data. */
  skip(reason: string): never;
  /** Returns the value, or skips the check with `reason` when it is missing (an absent precondition). */
  need<T>(value: T | undefined | null, reason: string): T;
  /** Runs a fast-check property with the run's seed; failures carry seed, path and counterexample. */
  property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options?: { runs?: number }): Promise<void>;
}

class SkipSignal extends Error {}

const BODY_LIMIT = 2_000;

/** Declares one conformance check: a stable id, its level and spec section, and the test body. */
export function check(info: CheckInfo, body: (t: CheckContext) => Promise<void>): void {
  const meta: CheckMeta = { ...info };
  test(`${info.id} ${info.level} ${info.title}`, { meta: { conform: meta } }, async (ctx) => {
    const recorded = ctx.task.meta.conform!;
    const s = session();
    const missing = missingCapabilities(s.target.profile, info.requires ?? []);
    if (missing.length > 0) {
      recorded.outcome = 'not-applicable';
      ctx.skip(`not applicable to the ${s.target.profile} profile (needs ${missing.join(', ')})`);
    }
    if (info.appliesTo && !info.appliesTo.includes(s.target.profile)) {
      recorded.outcome = 'not-applicable';
      ctx.skip(`not applicable to the ${s.target.profile} profile (applies to ${info.appliesTo.join(', ')})`);
    }
    if (info.needsOtherKey && s.target.keys.other === undefined) {
      ctx.skip("precondition: needs a second user's key (--other-key or CONFORM_OTHER_API_KEY)");
    }

    const startSeq = s.client.lastSeq;
    const kept = new KeptWriter(s.api, s.journal);
    let skipReason: string | undefined;
    let thrown: unknown;
    const t: CheckContext = {
      api: s.api,
      target: s.target,
      discover: s.discovery,
      kept,
      skip(reason) {
        throw new SkipSignal(reason);
      },
      need(value, reason) {
        if (value === undefined || value === null) throw new SkipSignal(reason);
        return value;
      },
      property: (arbitrary, predicate, options) => runProperty(info, s.target, recorded, arbitrary, predicate, options),
    };
    try {
      await body(t);
    } catch (error) {
      if (error instanceof SkipSignal) skipReason = error.message;
      else thrown = error;
    }
    try {
      await kept.restoreAll();
    } catch (error) {
      thrown ??= error;
    }
    recorded.requests = s.client.lastSeq - startSeq;
    if (thrown !== undefined) {
      recordFailure(recorded, thrown, s.client, startSeq);
      throw thrown;
    }
    if (skipReason !== undefined) ctx.skip(`precondition: ${skipReason}`);
  });
}

function isAssertion(error: unknown): boolean {
  return error instanceof CheckFailure || (error instanceof Error && error.name === 'AssertionError');
}

function recordFailure(meta: CheckMeta, error: unknown, client: ApiClient, startSeq: number): void {
  meta.outcome = isAssertion(error) ? 'failed' : 'error';
  const exchanges = client.exchangesSince(startSeq);
  const referenced = error instanceof CheckFailure && error.exchangeId !== undefined
    ? exchanges.find((e) => e.seq === error.exchangeId)
    : undefined;
  const shown = referenced ?? (meta.outcome === 'failed' ? exchanges.at(-1) : undefined);
  const message = error instanceof Error ? error.message : String(error);
  const failure: RecordedFailure = {
    message: meta.outcome === 'error' && !(error instanceof TransportError) ? `harness error: ${message}` : message,
    ...(error instanceof CheckFailure && error.clause !== undefined ? { clause: error.clause } : {}),
    ...(shown ? { exchange: summarize(shown), reproduction: toCurl(shown.request) } : {}),
  };
  if (meta.failure?.reproduction && shown) failure.reproduction = `${meta.failure.reproduction}\n${toCurl(shown.request)}`;
  else if (meta.failure?.reproduction) failure.reproduction = meta.failure.reproduction;
  meta.failure = failure;
}

function summarize(exchange: Exchange): NonNullable<RecordedFailure['exchange']> {
  const { request, response } = exchange;
  const sent = `${request.method} ${request.url}${request.body !== undefined ? ` ${trim(request.body)}` : ''}`;
  return { request: sent, status: response.status, responseBody: trim(response.text) };
}

function trim(text: string): string {
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length} bytes)` : text;
}

async function runProperty<T>(
  info: CheckInfo,
  target: TargetContext,
  meta: CheckMeta,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: { runs?: number } = {},
): Promise<void> {
  const result = await fc.check(fc.asyncProperty(arbitrary, predicate), {
    seed: target.seed,
    numRuns: options.runs ?? target.runs,
    ...(target.fcPath ? { path: target.fcPath } : {}),
  });
  if (!result.failed) return;
  const cause = result.errorInstance;
  if (!isAssertion(cause)) throw cause;
  const targetArgs = target.label === 'embedded reference' ? '' : `--target ${target.label} --profile ${target.profile} `;
  const replay = `conform ${targetArgs}--only ${info.id} --seed ${result.seed} --fc-path ${result.counterexamplePath ?? ''}`;
  meta.failure = { message: '', reproduction: replay };
  const reason = cause instanceof Error ? cause.message : String(cause);
  throw new CheckFailure(
    `${reason}\ncounterexample (after ${result.numShrinks} shrinks): ${fc.stringify(result.counterexample)}\n` +
      `fast-check seed ${result.seed}, path ${result.counterexamplePath}; replay: ${replay}`,
    cause instanceof CheckFailure ? cause.exchangeId : undefined,
    cause instanceof CheckFailure ? cause.clause : undefined,
  );
}

import { MatchersV3, type Matcher } from '@pact-foundation/pact';

/**
 * Matchers that hold a provider only to what the spec says. Pact's regex matcher is applied to the
 * text of a JSON value (1 → "1", true → "true", null → "null"), which is how one rule accepts either
 * of two encodings the spec leaves open.
 */
type RegexOf<T> = Matcher<T> & { regex: string };

function regexOf<T>(regex: string, example: T): RegexOf<T> {
  return { 'pact:matcher:type': 'regex', regex, value: example };
}

/** A yes/no envelope field such as has_more: a boolean, or 0/1. */
export const yesNo = (example: boolean): RegexOf<boolean> => regexOf('^(true|false|0|1)$', example);

/** Present with any value, null included (e.g. next_cursor, which is null on the last page). */
export const present = <T>(example: T): RegexOf<T> => regexOf('^[\\s\\S]*$', example);

/** A list whose entries are not described (the errors list, §7). */
export const anyList = (): Matcher<unknown[]> => MatchersV3.like([]);

export const isoDate = (example: string) => MatchersV3.regex('^\\d{4}-\\d{2}-\\d{2}$', example);

/** A value the verifier takes from the provider state's answer (see contract.ts `states`). */
export const injected = <T>(name: string, example: T) => MatchersV3.fromProviderState(`\${${name}}`, example);

export const { matchStatus } = MatchersV3;

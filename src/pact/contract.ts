import { fileURLToPath } from 'node:url';

/** Who the pact is between (pacts/<consumer>-<provider>.json). */
export const CONSUMER = 'agent';
export const PROVIDER = 'agent-api';
export const PACT_FILE_NAME = `${CONSUMER}-${PROVIDER}.json`;
/** The committed pact, at the repository root. */
export const PACT_FILE = fileURLToPath(new URL(`../../pacts/${PACT_FILE_NAME}`, import.meta.url));

/**
 * The key the consumer tests send. It is not a real key: a verifier replaces exactly this
 * Authorization value with the target's key, and leaves every other value (the bad-key cases) alone.
 */
export const PLACEHOLDER_KEY = 'pact-placeholder-agent-key';
export const PLACEHOLDER_AUTHORIZATION = `Bearer ${PLACEHOLDER_KEY}`;
/** A key no deployment issues, for the invalid-key interaction. */
export const UNKNOWN_KEY_AUTHORIZATION = 'Bearer pact-unknown-key-5c1e0b7d93a24f68';

/**
 * Provider states (see README "Pact: for vendors"). Each setup returns the values named here; the
 * verifier injects them into the requests, so the pact holds no dataset-specific id.
 */
export const states = {
  /** Returns { itemId }: the id of any item of the key's user. */
  hasItem: 'the user has an item',
  /** Returns { itemId, kept }: an item and its current kept value (0 or 1); teardown puts that value back. */
  hasItemWithKnownKept: 'the user has an item whose kept value is known',
  /** Returns { absentId }: an id that no item of the key's user has. */
  hasAbsentId: 'the user has no item with a certain id',
} as const;

export type StateName = (typeof states)[keyof typeof states];

/**
 * Example values the consumer tests use in place of injected ones. Ids unlikely to exist anywhere, so
 * that a verifier whose state setup failed and that sends the examples as they are hits no real item.
 */
export const examples = { itemId: 987_654_321, absentId: 987_654_322, kept: 1 as 0 | 1 } as const;

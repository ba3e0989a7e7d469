/**
 * Everything a check may use, in one place: suites/ import from here only (test/architecture.test.ts
 * holds them to it), so the harness can change inside without touching the checks.
 */
export { declareArea, describe } from './areas.ts';
export { check, type CheckContext } from './check.ts';
export { awaitRunWork } from './session.ts';
export { readOnce } from './discovery.ts';
export * from './expect.ts';
export * from './paging.ts';
export * from './probes.ts';
export * from './endpoint-probes.ts';
export * from './credentials.ts';
export * from './unnamed-paths.ts';
export * from './data-free-probes.ts';
export * from './filter-oracle.ts';
export * from './row-fields.ts';
export { caught, succeeded, together } from './together.ts';
export { mulberry32 } from '../core/random.ts';
export { endpoints, listRequest, type Query } from '../http/api.ts';
export type { Auth, Exchange, Method } from '../http/exchange.ts';
export { keptIn, readKept } from '../safety/kept.ts';
export * from '../spec/catalog.ts';
export * from '../spec/lenient.ts';
export { COLLECTION_FIELDS, DEFAULT_ROWS_PER_PAGE, LIST_BODY_FIELDS, MAX_ROWS_PER_PAGE } from '../spec/limits.ts';
export { profiles } from '../spec/profiles.ts';
export * from './foreign-items.ts';

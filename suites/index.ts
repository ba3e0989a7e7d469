/**
 * The one module vitest runs: it declares the checks of every area file, so that they all start at once
 * and src/harness/schedule.ts decides what may overlap. One file per area of the spec, listed here.
 */
import { awaitRunWork, declareArea } from '../src/harness/index.ts';

export const AREAS = [
  'auth',
  'catalog',
  'errors',
  'filter-modes',
  'filters',
  'forbidden-writes',
  'frames',
  'kept-model',
  'kept-toggle',
  'listing-modes',
  'optional-fields',
  'paging',
  'players',
  'proposals',
  'scoping',
  'scoping-space',
  'single-read',
  'staging',
  'types',
  'upcoming',
  'uses',
] as const;

for (const area of AREAS) await declareArea(area, import.meta.url);
awaitRunWork();

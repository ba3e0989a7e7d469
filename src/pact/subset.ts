import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { missingCapabilities, type Capability, type ProfileName } from '../spec/profiles.ts';
import { contract } from './interactions.ts';

export interface ProfilePact {
  /** The pact to verify: the committed one, or a copy holding only the profile's interactions. */
  file: string;
  verified: number;
  leftOut: { description: string; missing: Capability[] }[];
}

/**
 * The interactions a deployment of `profile` offers (§4, §9): staging has no players endpoint, no
 * filters, fields or include, so the interactions that use them are left out of what it is held to.
 */
export function pactForProfile(pactFile: string, profile: ProfileName): ProfilePact {
  const pact = JSON.parse(readFileSync(pactFile, 'utf8')) as { interactions?: { description: string }[] };
  const interactions = pact.interactions ?? [];
  const requires = new Map(contract.map((i) => [i.description, i.requires ?? []]));
  const leftOut = interactions
    .map((i) => ({ description: i.description, missing: missingCapabilities(profile, requires.get(i.description) ?? []) }))
    .filter((i) => i.missing.length > 0);
  if (leftOut.length === 0) return { file: pactFile, verified: interactions.length, leftOut };
  const kept = interactions.filter((i) => !leftOut.some((l) => l.description === i.description));
  const file = join(mkdtempSync(join(tmpdir(), 'conform-pact-')), basename(pactFile));
  writeFileSync(file, JSON.stringify({ ...pact, interactions: kept }, null, 2));
  return { file, verified: kept.length, leftOut };
}

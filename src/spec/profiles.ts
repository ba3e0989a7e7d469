/** What a deployment offers (§4, §9). A check names the capabilities it needs. */
export const capabilities = [
  'list-filters', // kept, physical, digital, secondary_collection, type_id on POST /artifacts.php
  'list-fields', // fields: "collection"
  'list-include', // include: ["uses_summary"]
  'full-rows', // list rows carry every field of §4 rule 3
  'players', // GET /players.php
  'uses-player-filter', // player_id on GET /uses.php
] as const;
export type Capability = (typeof capabilities)[number];

export const profileNames = ['primary', 'staging'] as const;
export type ProfileName = (typeof profileNames)[number];

export const profiles: Record<ProfileName, ReadonlySet<Capability>> = {
  primary: new Set(capabilities),
  staging: new Set<Capability>(),
};

export function isProfileName(value: string): value is ProfileName {
  return (profileNames as readonly string[]).includes(value);
}

export function missingCapabilities(profile: ProfileName, needed: readonly Capability[]): Capability[] {
  return needed.filter((c) => !profiles[profile].has(c));
}

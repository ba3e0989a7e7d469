import type { TargetChoice } from '../config.ts';
import { NoVerdictError, TransportError, UsageError } from '../errors.ts';
import { Api } from '../http/api.ts';
import { ApiClient, type RateLimitNotice, type TransportCounts } from '../http/client.ts';
import type { NetworkOptions } from '../http/network.ts';
import type { KeyRef } from '../journal.ts';
import type { ProfileName } from '../profiles.ts';

/** A reachable target for the CLI's own requests (pre-flight, restores), plus how to close it. */
export interface OpenTarget {
  baseUrl: string;
  label: string;
  profile: ProfileName;
  keys: { primary: string; other?: string };
  network?: NetworkOptions;
  api(user: KeyRef): Api | undefined;
  /** What the CLI's own client (pre-flight, end-of-run restores) met on the way. */
  counts(): TransportCounts;
  close(): Promise<void>;
}

export async function openTarget(choice: TargetChoice, options: { timeoutMs?: number; onRateLimit?: (notice: RateLimitNotice) => void } = {}): Promise<OpenTarget> {
  let baseUrl: string;
  let keys: { primary: string; other?: string };
  let stopReference = async () => {};
  if (choice.kind === 'embedded') {
    const { startReference } = await import('../../fixtures/reference/server.ts');
    // Hidden, for scripts/bench.ts: the embedded reference with a larger collection per user.
    const itemsPerUser = Number(process.env.CONFORM_REFERENCE_ITEMS);
    const dataset = Number.isSafeInteger(itemsPerUser) && itemsPerUser > 0 ? (await import('../../fixtures/dataset.ts')).buildDataset({ itemsPerUser }) : undefined;
    const reference = await startReference({ profile: choice.profile, ...(dataset ? { dataset } : {}) });
    baseUrl = reference.url;
    keys = { primary: reference.keys.primary, other: reference.keys.other };
    stopReference = () => reference.close();
  } else {
    baseUrl = choice.baseUrl;
    keys = choice.keys;
  }
  const clients: Partial<Record<KeyRef, Api>> = {};
  const client = new ApiClient({
    baseUrl,
    keys,
    timeoutMs: options.timeoutMs ?? 10_000,
    connections: 2,
    ...(choice.network ? { network: choice.network } : {}),
    ...(options.onRateLimit ? { onRateLimit: options.onRateLimit } : {}),
  });
  const api = new Api(client);
  clients.primary = api;
  if (keys.other) clients.other = api;
  return {
    baseUrl,
    label: choice.label,
    profile: choice.profile,
    keys,
    ...(choice.network ? { network: choice.network } : {}),
    api: (user) => clients[user],
    counts: () => client.counts(),
    async close() {
      await client.close();
      await stopReference();
    },
  };
}

/** One read before the run: an unreachable target is no verdict; a refused key is a configuration error. */
export async function preflight(target: OpenTarget): Promise<void> {
  const api = target.api('primary')!;
  let status: number;
  try {
    status = (await api.types()).response.status;
  } catch (error) {
    if (error instanceof TransportError) throw new NoVerdictError(`target unreachable: ${error.message}`);
    throw error;
  }
  if (status === 401 || status === 403) throw new UsageError(`the target refused the key (GET /types.php answered ${status}); check --key / CONFORM_API_KEY`);
  if (status >= 500) throw new NoVerdictError(`the target is not healthy: GET /types.php answered ${status}`);
}

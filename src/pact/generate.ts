import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PactV4 } from '@pact-foundation/pact';
import { Api } from '../http/api.ts';
import { ApiClient } from '../http/client.ts';
import { CONSUMER, PACT_FILE_NAME, PLACEHOLDER_KEY, PROVIDER } from './contract.ts';
import { contract, type ContractInteraction } from './interactions.ts';

export function newPact(dir: string): PactV4 {
  mkdirSync(dir, { recursive: true });
  return new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir, logLevel: 'error' });
}

/**
 * Runs one interaction as a consumer test: the agent's client calls Pact's mock server, which
 * answers only if the request matches; the agent must then be able to use the answer. On success
 * Pact adds the interaction to <dir>/agent-agent-api.json.
 */
export async function runInteraction(pact: PactV4, interaction: ContractInteraction): Promise<void> {
  await interaction.declare(pact.addInteraction()).executeTest(async (mock) => {
    const client = new ApiClient({ baseUrl: mock.url, keys: { primary: PLACEHOLDER_KEY }, timeoutMs: 5_000, attempts: 1, connections: 1 });
    try {
      interaction.expect(await interaction.call(new Api(client)));
    } finally {
      await client.close();
    }
  });
}

/** Writes the whole contract into `dir` (which should hold no earlier pact: Pact merges into it) and returns the file's path. */
export async function generatePact(dir: string): Promise<string> {
  const pact = newPact(dir);
  for (const interaction of contract) await runInteraction(pact, interaction);
  return join(dir, PACT_FILE_NAME);
}

/**
 * The pact without what Pact itself varies between installs (the library versions in metadata), for
 * staleness comparisons. Everything else, interaction order included, is significant.
 */
export function comparablePact(path: string): unknown {
  const pact = JSON.parse(readFileSync(path, 'utf8')) as { metadata?: Record<string, unknown> };
  const { pactSpecification } = pact.metadata ?? {};
  return { ...pact, metadata: { pactSpecification } };
}

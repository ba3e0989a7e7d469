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
  for (let attempt = 1; ; attempt++) {
    let answered: number | undefined;
    try {
      await interaction.declare(pact.addInteraction()).executeTest(async (mock) => {
        const client = new ApiClient({ baseUrl: mock.url, keys: { primary: PLACEHOLDER_KEY }, timeoutMs: 5_000, attempts: 1, connections: 1 });
        try {
          const exchange = await interaction.call(new Api(client));
          answered = exchange.response.status;
          interaction.expect(exchange);
        } finally {
          await client.close();
        }
      });
      return;
    } catch (error) {
      if (attempt >= RACE_ATTEMPTS || !lostMatch(error, answered)) throw error;
    }
  }
}

const RACE_ATTEMPTS = 3;

/**
 * Pact's mock server (pact-core 19) records a match asynchronously, after it has answered; under CPU
 * load the verification can read its books first and report "expected but not received" for a request
 * it matched (pact-foundation/pact-core-mock-server issue 13). The mock answers an unmatched request
 * with 500, which no interaction expects, so any other answer proves the match: only then is the
 * interaction run again (a failed run leaves nothing in the pact).
 */
function lostMatch(error: unknown, answered: number | undefined): boolean {
  return answered !== undefined && answered !== 500 && error instanceof Error && /expected but not received/.test(error.message);
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

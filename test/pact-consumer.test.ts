import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACT_FILE, states, UNKNOWN_KEY_AUTHORIZATION } from '../src/pact/contract.ts';
import { comparablePact, generatePact, newPact, runInteraction } from '../src/pact/generate.ts';
import { contract } from '../src/pact/interactions.ts';
import { builtInStates } from '../src/pact/states.ts';
import type { Api } from '../src/http/api.ts';

const freshDir = () => mkdtempSync(join(tmpdir(), 'conform-pact-test-'));

interface PactInteraction {
  description: string;
  providerStates?: { name: string }[];
  request: {
    query?: Record<string, string[]>;
    body?: { content?: Record<string, unknown> };
    generators?: Record<string, Record<string, { type: string; expression: string }>>;
  };
}
const readPact = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { interactions: PactInteraction[] };

describe("the agent as a Pact consumer: its client against Pact's mock server", () => {
  const pact = newPact(freshDir());
  for (const interaction of contract) {
    it(interaction.description, () => runInteraction(pact, interaction));
  }

  it('fails when the client sends something other than the contract says', async () => {
    const badKey = contract.find((i) => i.description.includes('no deployment issued'))!;
    // The placeholder key instead of the unknown one: the mock has no matching interaction.
    const straying = { ...badKey, call: (api: Api) => api.list(undefined) };
    await expect(runInteraction(newPact(freshDir()), straying)).rejects.toThrow();
    expect(UNKNOWN_KEY_AUTHORIZATION).not.toContain('placeholder');
  });

  it('fails when the agent cannot use the answer', async () => {
    const list = contract.find((i) => i.description === 'a POST of the item list with an empty body')!;
    const unusable = {
      ...list,
      expect: () => {
        throw new Error('the agent could not read the answer');
      },
    };
    await expect(runInteraction(newPact(freshDir()), unusable)).rejects.toThrow(/could not read/);
  });
});

describe('pacts/agent-agent-api.json', () => {
  it('is reproducible and up to date: a fresh generation gives the committed file', async () => {
    const [first, second] = [await generatePact(freshDir()), await generatePact(freshDir())];
    expect(readFileSync(first, 'utf8')).toBe(readFileSync(second, 'utf8'));
    expect(comparablePact(PACT_FILE), 'the committed pact is stale: run npm run pact:generate').toEqual(comparablePact(first));
  });

  it('holds every interaction of the contract, between agent and agent-api', () => {
    const committed = readPact(PACT_FILE) as ReturnType<typeof readPact> & { consumer: { name: string }; provider: { name: string } };
    expect(committed.consumer.name).toBe('agent');
    expect(committed.provider.name).toBe('agent-api');
    expect(committed.interactions.map((i) => i.description).sort()).toEqual(contract.map((i) => i.description).sort());
  });

  it('names no dataset-specific id: every id in a request comes from a provider state', () => {
    const injectedIds: string[] = [];
    for (const interaction of readPact(PACT_FILE).interactions) {
      const { query = {}, body, generators = {} } = interaction.request;
      const named = [
        ...['id', 'artifact_id'].filter((f) => f in query).map((f) => ({ part: 'query', key: f })),
        ...['id', 'artifact_id'].filter((f) => body?.content && f in body.content).map((f) => ({ part: 'body', key: `$.${f}` })),
      ];
      for (const { part, key } of named) {
        const generator = generators[part]?.[key];
        expect(generator?.type, `${interaction.description}: ${part} ${key}`).toBe('ProviderState');
        expect(interaction.providerStates?.length, `${interaction.description} names a state`).toBeGreaterThan(0);
        injectedIds.push(`${interaction.description}: ${generator!.expression}`);
      }
    }
    expect(injectedIds.length).toBeGreaterThanOrEqual(5);
  });

  it('names only provider states that have a built-in handler', () => {
    const named = new Set(readPact(PACT_FILE).interactions.flatMap((i) => (i.providerStates ?? []).map((s) => s.name)));
    const handled = Object.keys(builtInStates({ baseUrl: 'http://unused', api: {} as Api }));
    expect([...named].sort()).toEqual(Object.values(states).sort());
    expect(handled.sort()).toEqual(Object.values(states).sort());
  });
});

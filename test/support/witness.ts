import { buildDataset, type Dataset } from '../../fixtures/dataset.ts';
import type { Mutant, WitnessStep } from '../../fixtures/mutants/types.ts';
import { createHandler } from '../../fixtures/reference/handler.ts';
import { Store } from '../../fixtures/reference/store.ts';
import { defaultVariant, type ApiResponse, type Handler } from '../../fixtures/reference/types.ts';

/** The same users the running reference hands out as primary, other and empty (fixtures/reference/server.ts). */
const USER_INDEX = { primary: 0, other: 1, empty: 3 } as const;

export interface WitnessAnswer {
  status: number;
  body: unknown;
}

function handlerFor(mutant: Mutant | undefined, dataset: Dataset, profile: Mutant['profile']): Handler {
  const store = new Store(dataset);
  const inner = createHandler(store, { profile: profile ?? 'primary', variant: { ...defaultVariant, ...mutant?.variant } });
  return mutant?.wrap ? mutant.wrap(inner, { store, dataset }) : inner;
}

function requestOf(step: WitnessStep, dataset: Dataset) {
  const as = step.as ?? 'primary';
  const key = as === 'none' ? undefined : dataset.users[USER_INDEX[as]]!.key;
  return {
    method: step.method,
    path: step.path,
    query: new URLSearchParams(step.query ?? {}),
    headers: key ? { authorization: `Bearer ${key}` } : {},
    bodyText: step.body === undefined ? '' : typeof step.body === 'string' ? step.body : JSON.stringify(step.body),
  };
}

const answerOf = (res: ApiResponse): WitnessAnswer => ({ status: res.status, body: res.rawBody ?? res.body });

/** Sends a mutant's witness steps, in order, to a fresh reference (`mutant` undefined) or a fresh copy of the mutant. */
export async function replayWitness(mutant: Mutant, against: 'reference' | 'mutant'): Promise<WitnessAnswer[]> {
  const dataset = buildDataset(mutant.dataset ?? {});
  const handler = handlerFor(against === 'mutant' ? mutant : undefined, dataset, mutant.profile);
  const answers: WitnessAnswer[] = [];
  for (const step of mutant.witness?.steps ?? []) answers.push(answerOf(await handler(requestOf(step, dataset))));
  return answers;
}

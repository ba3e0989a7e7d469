import { startReference, type RunningReference } from '../../fixtures/reference/server.ts';

/** Runs `body` against a reference started for it, and always stops it. */
export async function withReference<T>(options: Parameters<typeof startReference>[0], body: (r: RunningReference) => Promise<T>): Promise<T> {
  const reference = await startReference(options);
  try {
    return await body(reference);
  } finally {
    await reference.close();
  }
}

/** The CLI arguments that point a run at the reference with both users' keys. */
export const keyArgs = (r: RunningReference): string[] => ['--target', r.url, '--key', r.keys.primary, '--other-key', r.keys.other];

/**
 * Sends independent requests at once but hands their answers back as if they had been awaited one
 * after the other: each getter returns its answer or throws its error at the place where the code
 * used to await it, so that the first failure a check reports is the one it reported sequentially
 * (`Promise.all` reports whichever failure happens to arrive first).
 */
export async function together<T>(promises: readonly Promise<T>[]): Promise<(() => T)[]> {
  const settled = await Promise.allSettled(promises);
  return settled.map((result) => () => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}

/** Whether a getter from together() returns rather than throws. */
export function succeeded(outcome: () => unknown): boolean {
  try {
    outcome();
    return true;
  } catch {
    return false;
  }
}

/** What a getter from together() throws (undefined when it returns). */
export function caught(outcome: () => unknown): unknown {
  try {
    outcome();
  } catch (error) {
    return error;
  }
  return undefined;
}

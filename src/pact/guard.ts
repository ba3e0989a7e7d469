import { endpoints } from '../http/api.ts';
import { isObject } from '../spec/lenient.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ID_FIELDS = ['id', 'artifact_id'];

/**
 * Decides which requests of the verifier may reach the target. Reads pass. A write (the kept toggle,
 * or a forbidden-write probe) passes only when every id it names was handed out by a provider state
 * of the interaction in progress: the item whose kept value the state will restore, or an id no item
 * has. So a failed or missing state setup, which leaves Pact's example values in the request, can
 * never write to a real item.
 */
export class WriteGuard {
  private prepared = new Set<string>();
  /** The provider states set up for the interaction in progress. */
  readonly active: string[] = [];

  /** Called with what each state setup returned; the values named `…Id` (itemId, absentId) are ids. */
  prepare(state: string, values: Record<string, unknown> | undefined): void {
    this.active.push(state);
    for (const [name, value] of Object.entries(values ?? {})) {
      if (name.endsWith('Id') && (typeof value === 'string' || typeof value === 'number')) this.prepared.add(String(value));
    }
  }

  /** Called at each teardown: the next interaction starts with nothing prepared. */
  reset(): void {
    this.prepared.clear();
    this.active.length = 0;
  }

  /** Undefined when the request may be sent; otherwise why it is held back. */
  refusal(method: string, path: string, query: Record<string, unknown>, body: unknown): string | undefined {
    const upper = method.toUpperCase();
    if (READ_METHODS.has(upper) || (upper === 'POST' && path.endsWith(endpoints.list))) return undefined;
    const named: unknown[] = [];
    for (const field of ID_FIELDS) {
      if (query[field] !== undefined) named.push(query[field]);
      if (isObject(body) && body[field] !== undefined) named.push(body[field]);
    }
    if (named.length === 0) return `${upper} ${path} names no id that a provider state prepared`;
    const stray = named.find((id) => !this.prepared.has(String(id)));
    if (stray !== undefined) return `${upper} ${path} names id ${String(stray)}, which no provider state of this interaction prepared`;
    return undefined;
  }
}

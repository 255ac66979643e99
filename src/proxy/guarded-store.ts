import type { ProxyStore } from './store.js';

/** The store could not be reached or did not answer in time: the request is refused, never let through unchecked. */
export class StoreUnavailable extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`the proxy's store failed on ${operation}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailable';
  }
}

interface Waiting {
  deadline: number;
  /** Whether the node's own lag has been forgiven once already. */
  given: boolean;
  fail: (cause: Error) => void;
}

/**
 * The host's store with every call bounded in time: a client that queues commands while its
 * server is away (node-redis and ioredis both do by default) would otherwise hold each request
 * until the server came back. A failed or late call is a {@link StoreUnavailable}, whose request
 * the proxy refuses with 503: a binding or a limit it could not check never lets a request pass.
 * The client reconnects by itself; the next request finds the store again.
 */
export function guardStore(store: ProxyStore, timeoutMs: number): ProxyStore {
  // one timer looks at every call in flight, a tenth of the limit apart: no timer is made for each call
  const waiting = new Set<Waiting>();
  const every = Math.max(5, timeoutMs / 10);
  let looking: ReturnType<typeof setInterval> | undefined;
  const look = () =>
    // the time limit is the store's, not the node's: a look that comes late (the event loop busy)
    // first lets the answers already received be read (setImmediate runs after I/O), and a call
    // whose deadline passed a fifth of the limit or more before the look gives the store its time once more
    setImmediate(() => {
      const now = performance.now();
      for (const call of waiting) {
        if (now < call.deadline) continue;
        if (!call.given && now - call.deadline >= timeoutMs / 5) {
          call.given = true;
          call.deadline = now + timeoutMs;
          continue;
        }
        waiting.delete(call);
        call.fail(new Error(`no answer within ${timeoutMs} ms`));
      }
      if (waiting.size === 0 && looking) {
        clearInterval(looking);
        looking = undefined;
      }
    });
  const guard = <T>(name: string, call: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const entry: Waiting = { deadline: performance.now() + timeoutMs, given: false, fail: (cause) => reject(new StoreUnavailable(name, cause)) };
      waiting.add(entry);
      // while a call is in flight the process stays up for its answer or its limit, as with a timer of its own
      looking ??= setInterval(look, every);
      // the first of an answer, a failure and the time limit settles the call (a store that throws at once fails as one that rejects)
      let answer: Promise<T>;
      try {
        answer = call();
      } catch (error) {
        waiting.delete(entry);
        entry.fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      answer.then(
        (value) => {
          if (waiting.delete(entry)) resolve(value);
        },
        (error: unknown) => {
          if (waiting.delete(entry)) reject(new StoreUnavailable(name, error));
        },
      );
    });
  const guarded: ProxyStore = {
    get: (key) => guard('get', () => store.get(key)),
    set: (key, value, ttlMs) => guard('set', () => store.set(key, value, ttlMs)),
    setIfAbsent: (key, value, ttlMs) => guard('setIfAbsent', () => store.setIfAbsent(key, value, ttlMs)),
    increment: (key, windowMs, limit) => guard('increment', () => store.increment(key, windowMs, limit)),
    decrement: (key) => guard('decrement', () => store.decrement(key)),
    delete: (key) => guard('delete', () => store.delete(key)),
    deleteIfEqual: (key, value) => guard('deleteIfEqual', () => store.deleteIfEqual(key, value)),
  };
  // an optional operation the store does not have stays missing
  const extend = store.extendIfEqual?.bind(store);
  if (extend) guarded.extendIfEqual = (key, value, ttlMs) => guard('extendIfEqual', () => extend(key, value, ttlMs));
  const take = store.take?.bind(store);
  if (take) guarded.take = (key) => guard('take', () => take(key));
  return guarded;
}

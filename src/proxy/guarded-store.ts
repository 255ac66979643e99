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

/**
 * The host's store with every call bounded in time: a client that queues commands while its
 * server is away (node-redis and ioredis both do by default) would otherwise hold each request
 * until the server came back. A failed or late call is a {@link StoreUnavailable}, whose request
 * the proxy refuses with 503: a binding or a limit it could not check never lets a request pass.
 * The client reconnects by itself; the next request finds the store again.
 */
export function guardStore(store: ProxyStore, timeoutMs: number): ProxyStore {
  const guard = <T>(name: string, call: () => Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const late = new Promise<never>((_, reject) => {
      let deadline = performance.now() + timeoutMs;
      let given = false;
      // the time limit is the store's, not the node's: a timer that fires late (the event loop
      // busy) first lets the answers already received be read (setImmediate runs after I/O), and a
      // node that fell behind by a fifth of the limit or more gives the store its time once more
      const expire = () =>
        setImmediate(() => {
          if (settled) return;
          const behind = performance.now() - deadline;
          if (!given && behind >= timeoutMs / 5) {
            given = true;
            deadline = performance.now() + timeoutMs;
            timer = setTimeout(expire, timeoutMs);
            return;
          }
          reject(new Error(`no answer within ${timeoutMs} ms`));
        });
      timer = setTimeout(expire, timeoutMs);
    });
    // a store that throws at once fails as one that rejects
    return Promise.race([Promise.resolve().then(call), late])
      .catch((error: unknown) => {
        throw new StoreUnavailable(name, error);
      })
      .finally(() => {
        settled = true;
        clearTimeout(timer);
      });
  };
  const guarded: ProxyStore = {
    get: (key) => guard('get', () => store.get(key)),
    set: (key, value, ttlMs) => guard('set', () => store.set(key, value, ttlMs)),
    setIfAbsent: (key, value, ttlMs) => guard('setIfAbsent', () => store.setIfAbsent(key, value, ttlMs)),
    increment: (key, windowMs) => guard('increment', () => store.increment(key, windowMs)),
    decrement: (key) => guard('decrement', () => store.decrement(key)),
    delete: (key) => guard('delete', () => store.delete(key)),
    deleteIfEqual: (key, value) => guard('deleteIfEqual', () => store.deleteIfEqual(key, value)),
  };
  // an optional operation the store does not have stays missing
  const extend = store.extendIfEqual?.bind(store);
  if (extend) guarded.extendIfEqual = (key, value, ttlMs) => guard('extendIfEqual', () => extend(key, value, ttlMs));
  return guarded;
}

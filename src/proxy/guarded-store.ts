import type { ProxyStore } from './store.js';

/** The store could not be reached or did not answer in time: the request is refused, never let through unchecked. */
export class StoreUnavailable extends Error {
  constructor(readonly operation: string, cause: unknown) {
    super(`the proxy's store failed on ${operation}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailable';
  }
}

const OPERATIONS = ['get', 'set', 'setIfAbsent', 'increment', 'decrement', 'delete', 'deleteIfEqual', 'extendIfEqual'] as const;

/**
 * The host's store with every call bounded in time: a client that queues commands while its
 * server is away (node-redis and ioredis both do by default) would otherwise hold each request
 * until the server came back. A failed or late call is a {@link StoreUnavailable}, whose request
 * the proxy refuses with 503: a binding or a limit it could not check never lets a request pass.
 * The client reconnects by itself; the next request finds the store again.
 */
export function guardStore(store: ProxyStore, timeoutMs: number): ProxyStore {
  const guarded = {} as Record<(typeof OPERATIONS)[number], (...args: never[]) => Promise<unknown>>;
  for (const name of OPERATIONS) {
    // an optional operation the store does not have stays missing
    if (!store[name]) continue;
    const call = (store[name] as (...args: unknown[]) => Promise<unknown>).bind(store);
    guarded[name] = (...args: unknown[]) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      return Promise.race([Promise.resolve().then(() => call(...args)), late])
        .catch((error: unknown) => {
          throw new StoreUnavailable(name, error);
        })
        .finally(() => clearTimeout(timer));
    };
  }
  return guarded as unknown as ProxyStore;
}

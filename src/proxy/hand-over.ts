import { randomBytes } from 'node:crypto';
import { RENEWED_LEASE_MS, RENEW_EVERY_MS } from '../protocol/proxy-rules.js';
import type { ProxyStore } from './store.js';

/*
 * A session's verified result goes to the host (`onResult`) before any browser sees it, once it
 * succeeded, on one node or many. The claim on a result is a lease in the store: taken by the
 * request that runs `onResult`, turned into `done` when it succeeded, given back when it threw or
 * ran out of time, and expiring by itself when its node died on the way. Every other poll of the
 * session waits for the holder within a bound, and is otherwise told the session is still waiting.
 */

const DONE = 'done';
/** How often a waiting poll looks at the lease again. */
const LOOK_EVERY_MS = 50;
/** Beyond the run's own time limit: a lease outlives its holder's run only by this much. */
const LEASE_MARGIN_MS = 1_000;
export { RENEWED_LEASE_MS } from '../protocol/proxy-rules.js';

export interface HandOverOptions {
  store: ProxyStore;
  /** The run's time limit, ms: past it the run counts as failed. */
  timeoutMs: number;
  /** How long a poll waits for another request's run before it answers "waiting", ms. */
  waitMs: number;
  /** How long a finished hand-over is remembered (the session's lifetime), ms. */
  doneTtlMs: number;
}

/** How a hand-over ended for this request. */
export type HandOverOutcome = 'delivered' | 'already-delivered' | 'still-running';

export class HandOverTimeout extends Error {
  constructor(ms: number) {
    super(`onResult did not finish within ${ms} ms`);
    this.name = 'HandOverTimeout';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `run` with a time limit: past it the returned promise rejects with HandOverTimeout and `run`'s signal aborts. */
export async function within(timeoutMs: number, run: (signal: AbortSignal) => unknown): Promise<void> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new HandOverTimeout(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    await Promise.race([Promise.resolve().then(() => run(controller.signal)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `run` (which keeps to `options.timeoutMs`) for the result under `key` unless it has
 * already succeeded; throws what `run` threw, after giving the lease back.
 */
export async function handOver(key: string, options: HandOverOptions, run: () => Promise<void>): Promise<HandOverOutcome> {
  const { store, timeoutMs, waitMs, doneTtlMs } = options;
  const lease = `lease:${randomBytes(12).toString('base64url')}`;
  const waitUntil = Date.now() + waitMs;
  const extend = store.extendIfEqual?.bind(store);
  const leaseMs = extend ? Math.min(RENEWED_LEASE_MS, timeoutMs + LEASE_MARGIN_MS) : timeoutMs + LEASE_MARGIN_MS;
  for (;;) {
    if (await store.setIfAbsent(key, lease, leaseMs)) break;
    if ((await store.get(key)) === DONE) return 'already-delivered';
    if (Date.now() >= waitUntil) return 'still-running';
    await sleep(Math.min(LOOK_EVERY_MS, Math.max(0, waitUntil - Date.now())));
  }
  // a store that cannot be reached for a while lets the lease expire: another node then runs it again (at least once)
  const renewing = extend && leaseMs < timeoutMs + LEASE_MARGIN_MS ? setInterval(() => void extend(key, lease, leaseMs).catch(() => undefined), RENEW_EVERY_MS) : undefined;
  try {
    await run();
  } catch (error) {
    // a store that cannot be reached now lets the lease expire by itself
    await store.deleteIfEqual(key, lease).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(renewing);
  }
  await store.set(key, DONE, doneTtlMs);
  return 'delivered';
}

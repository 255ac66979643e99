import { randomBytes } from 'node:crypto';
import { LEASE_MARGIN_MS, RENEWED_LEASE_MS, RENEW_EVERY_MS } from '../protocol/proxy-rules.js';
import { seal, unseal } from './sealed.js';
import type { ProxyStore } from './store.js';
import { isRecord } from '../protocol/checks.js';

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
export { RENEWED_LEASE_MS } from '../protocol/proxy-rules.js';

export interface HandOverOptions {
  store: ProxyStore;
  /** The run's time limit, ms: past it the run counts as failed. */
  timeoutMs: number;
  /** How long a poll waits for another request's run before it answers "waiting", ms. */
  waitMs: number;
  /** How long a finished hand-over is remembered (the session's lifetime), ms. */
  doneTtlMs: number;
  /** The key what is kept with a finished result is sealed under (the visitor secret). */
  secret: string;
}

/**
 * How a hand-over ended for this request: the host has the result (and what this browser is to
 * get with it: the host's cookies, kept with the finished result so that a poll answer lost on
 * the way loses nothing), the host refused it for good, or it is still on its way. `first`, of a
 * delivered result: true when this answer is the first to carry it (this request ran it and still
 * waited), false when an earlier one did, null when the record cannot say (the first answer after
 * the runner stopped waiting is to be found by the caller).
 */
export type HandOverOutcome =
  { type: 'delivered'; kept: string[]; first: boolean | null } | { type: 'refused'; status: number | null } | { type: 'still-running' };

/** Thrown by a result's run when the host refuses the result for good (a webhook's 4xx): the session ends with `site-refused`. */
export class ResultRefused extends Error {
  constructor(
    /** The host's HTTP status, where it answered one. */
    readonly status: number | null = null,
    message = status === null ? 'the host refused the result' : `the host refused the result (HTTP ${status})`,
  ) {
    super(message);
    this.name = 'ResultRefused';
  }
}

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

const REFUSED = 'refused:';

/**
 * The mark, among the lines kept for the browser, that the runner's own answer carried the result:
 * not a line, so a node of before, which reads the lines alone, passes over it.
 */
const SAID = { said: true } as const;
const isSaidMark = (entry: unknown) => isRecord(entry) && entry['said'] === true;

/** What a finished record says, or null while the result is on its way (a lease) or unknown. */
function finished(value: string | null, secret: string): HandOverOutcome | null {
  if (value === null) return null;
  if (value === DONE) return { type: 'delivered', kept: [], first: null };
  if (value.startsWith(`${DONE}:`)) {
    const opened = unseal(secret, value.slice(DONE.length + 1));
    const kept: unknown = opened === null ? [] : JSON.parse(opened);
    const lines = Array.isArray(kept) ? kept : [];
    return { type: 'delivered', kept: lines.filter((line): line is string => typeof line === 'string'), first: lines.some(isSaidMark) ? false : null };
  }
  if (value.startsWith(REFUSED)) {
    const status = Number(value.slice(REFUSED.length));
    return { type: 'refused', status: Number.isInteger(status) && status > 0 ? status : null };
  }
  return null;
}

/** The finished record: what was kept for the browser, and whether the runner's own answer carries the result. */
function doneRecord(kept: string[], said: boolean, secret: string): string {
  const lines: unknown[] = said ? [...kept, SAID] : kept;
  return lines.length ? `${DONE}:${seal(secret, JSON.stringify(lines))}` : DONE;
}

/**
 * Runs `run` (which keeps to `options.timeoutMs`) for the result under `key` unless it has
 * already been handed over. The run goes on after this request's wait (`options.waitMs`): the
 * browser is told to keep waiting and a later poll gets the outcome, so a host that takes its time
 * never outlasts the browser's own patience with one poll. What `run` returns is kept, sealed,
 * with the finished result and given to every later poll of it; a `ResultRefused` is kept as the
 * session's end; any other throw gives the lease back (the next poll runs it again) and is thrown
 * here when this request still waits for it.
 */
export async function handOver(key: string, options: HandOverOptions, run: () => Promise<string[]>): Promise<HandOverOutcome> {
  const { store, timeoutMs, waitMs, doneTtlMs, secret } = options;
  const lease = `lease:${randomBytes(12).toString('base64url')}`;
  const waitUntil = Date.now() + waitMs;
  const extend = store.extendIfEqual?.bind(store);
  const leaseMs = extend ? Math.min(RENEWED_LEASE_MS, timeoutMs + LEASE_MARGIN_MS) : timeoutMs + LEASE_MARGIN_MS;
  for (;;) {
    if (await store.setIfAbsent(key, lease, leaseMs)) break;
    const known = finished(await store.get(key), secret);
    if (known) return known;
    if (Date.now() >= waitUntil) return { type: 'still-running' };
    await sleep(Math.min(LOOK_EVERY_MS, Math.max(0, waitUntil - Date.now())));
  }
  // a store that cannot be reached for a while lets the lease expire: another node then runs it again (at least once)
  const renewing =
    extend && leaseMs < timeoutMs + LEASE_MARGIN_MS ? setInterval(() => void extend(key, lease, leaseMs).catch(() => undefined), RENEW_EVERY_MS) : undefined;
  // while this request waits, a run that ends is its answer's to carry: said so in the record, no mark of its own
  let waiting = true;
  const running = (async (): Promise<HandOverOutcome> => {
    try {
      const kept = await run();
      const saidHere = waiting;
      waiting = false;
      await store.set(key, doneRecord(kept, saidHere, secret), doneTtlMs);
      return { type: 'delivered', kept, first: saidHere };
    } catch (error) {
      if (error instanceof ResultRefused) {
        await store.set(key, `${REFUSED}${error.status ?? '-'}`, doneTtlMs);
        return { type: 'refused', status: error.status };
      }
      // a store that cannot be reached now lets the lease expire by itself
      await store.deleteIfEqual(key, lease).catch(() => undefined);
      throw error;
    } finally {
      clearInterval(renewing);
    }
  })();
  // what the run throws after this request stopped waiting was said by the run itself (its log line); the next poll runs it again
  running.catch(() => undefined);
  const waited = await Promise.race([
    running,
    sleep(Math.max(0, waitUntil - Date.now())).then(() => {
      // the run ended just now and counts on this answer: it is waited for (its record's write)
      if (!waiting) return running;
      waiting = false;
      return null;
    }),
  ]);
  return waited ?? { type: 'still-running' };
}

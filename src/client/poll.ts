import { EsignError, cancelledError } from './errors.js';

export interface PollOptions {
  /** Wait between polls while the answer is `waiting`, in ms. Default 1000. */
  interval?: number;
  /** Give up after this many ms with a `timeout` error. Default 150 000. */
  timeLimit?: number;
  /** Longest wait between retries after network failures, in ms. Default 8000. */
  maxBackoff?: number;
  signal?: AbortSignal;
  /** Called after every `waiting` answer with the ms elapsed since polling began. */
  onWaiting?: (elapsed: number) => void;
  /**
   * Resolves when the next poll should go at once (the person came back to the page, the browser
   * is online again): a request still in flight then is dropped, as after a network switch it may
   * never be answered.
   */
  wake?: () => Promise<void>;
  /**
   * Told when the way to the service is lost (true: two requests in a row failed on the way, or one
   * had no answer in its whole time limit, or the browser is offline; a request unanswered for
   * `slowAfter` after a failed one) and when a request gets through again (false), once each. One
   * slow answer, or one failure, says nothing.
   */
  onConnection?: (lost: boolean) => void;
  /** How long a request may go unanswered before the connection counts as lost, ms. Default 4000. */
  slowAfter?: number;
}

/** Errors on the way to the service that a later poll may not meet again. */
function isTransient(error: unknown): error is EsignError {
  return error instanceof EsignError && (error.code === 'network' || error.code === 'service-unreachable' || error.code === 'timeout');
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelledError(signal.reason));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort);
  });
}

/** Exponential backoff from `base` with full jitter in [0.5, 1.5), capped at `max`. */
export function backoffDelay(attempt: number, base: number, max: number, random = Math.random): number {
  const exponential = Math.min(max, base * 2 ** attempt);
  return Math.round(exponential * (0.5 + random()));
}

/**
 * Calls `check` until it answers something other than `{status: "waiting"}`. Network
 * failures are retried with backoff and jitter; service errors end the polling at once.
 */
export async function poll<T extends { status: string }>(
  check: (signal?: AbortSignal) => Promise<T | { status: 'waiting' }>,
  options: PollOptions = {},
): Promise<T> {
  const { interval = 1000, timeLimit = 150_000, maxBackoff = 8000, signal, onWaiting, wake, onConnection, slowAfter = 4000 } = options;
  const started = Date.now();
  let failures = 0;
  let lastFailure: EsignError | undefined;
  let lost = false;
  const say = (now: boolean) => {
    if (lost !== now) onConnection?.((lost = now));
  };
  // polls in a row that failed on the way: one slow answer or one failure is no lost connection,
  // a second in a row is, and so is a poll with no answer in its whole time limit, or the browser offline
  let troubled = 0;
  const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
  for (;;) {
    if (signal?.aborted) throw cancelledError(signal.reason);
    let delay = interval;
    // this request alone: dropped when polling stops or wakes
    const attempt = new AbortController();
    const stop = () => attempt.abort();
    signal?.addEventListener('abort', stop);
    let woken = false;
    void wake?.().then(() => {
      woken = true;
      attempt.abort();
    });
    const slow = onConnection ? setTimeout(() => (troubled > 0 || offline()) && say(true), slowAfter) : undefined;
    try {
      const answer = await check(attempt.signal);
      say(false);
      troubled = 0;
      failures = 0;
      lastFailure = undefined;
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- not waiting: the operation's final answer
      if (answer.status !== 'waiting') return answer as T;
      onWaiting?.(Date.now() - started);
    } catch (error) {
      if (signal?.aborted) throw cancelledError(signal.reason);
      const transient = isTransient(error) ? error : undefined;
      if (!woken && !transient) throw error;
      if (!woken) {
        troubled++;
        if (troubled > 1 || transient?.code === 'timeout' || offline()) say(true);
        lastFailure = transient;
      }
      // dropped on waking, or past its time limit: the next poll goes at once
      delay = woken || transient?.code === 'timeout' ? 0 : backoffDelay(failures++, interval, maxBackoff);
    } finally {
      clearTimeout(slow);
      signal?.removeEventListener('abort', stop);
    }
    const remaining = timeLimit - (Date.now() - started);
    if (remaining <= 0) {
      // still failing on the way to the service: say so (the person may try again), not only "too slow"
      if (lastFailure && lastFailure.code !== 'timeout') {
        throw new EsignError('network', lastFailure.message, { cause: lastFailure, retryable: true });
      }
      throw new EsignError('timeout', `No final answer within ${Math.round(timeLimit / 1000)} s`);
    }
    // woken while a poll was on its way that answered anyway (its answer came before the abort): the next goes at once
    const waited = sleep(woken ? 0 : Math.min(delay, remaining), signal);
    await (wake ? Promise.race([waited, wake()]) : waited);
  }
}

import type { Channel } from './types.js';

/** The person's time to confirm, ms: the providers end a session after about 2 (Mobile-ID) and 3 (Smart-ID) minutes without an answer. */
export const PERSON_TIME_LIMIT: Readonly<Record<Channel, number>> = { mobile: 120_000, smartid: 180_000 };

/**
 * How long a session is followed by default, ms: the person's time and half a minute more, since the
 * answer to a confirmation in the person's last seconds reaches the service after them.
 */
export const DEFAULT_TIME_LIMIT: Readonly<Record<Channel, number>> = {
  mobile: PERSON_TIME_LIMIT.mobile + 30_000,
  smartid: PERSON_TIME_LIMIT.smartid + 30_000,
};

/**
 * A status poll's time limit in the widget, ms: past it the poll is dropped and the next one goes at
 * once. Every proxy answers a poll well within it (a result hook on its way is "waiting" after the
 * proxy's result wait), so no answer that carries a result is dropped for being late.
 */
export const STATUS_POLL_TIMEOUT = 10_000;
/** After this long without an answer the widget says the connection is lost, ms: a proxy's poll answers come sooner. */
export const STATUS_POLL_SLOW_AFTER = 4_000;

import type { ProxyEvent } from './events.js';

/**
 * The part of a logger the events need: pino's `logger.info(object, message)` shape, which bunyan
 * and many others share.
 */
export interface EventLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * The proxy's events as log lines through a logger the host already has (JSON lines with pino):
 * starts and ends at `info`, refusals and failures of the service or the store at `warn`, a host
 * hook that failed at `error`. Each line holds the event's fields and a short message.
 *
 * ```ts
 * createProxyHandler({ ..., onEvent: eventLogger(pino()) });
 * ```
 */
export function eventLogger(logger: EventLogger): (event: ProxyEvent) => void {
  return (event) => {
    const message = `esign-proxy ${event.type}`;
    if (event.type === 'host-error') logger.error(event, message);
    else if (event.type === 'refused' || event.type === 'failed') logger.warn(event, `${message}: ${event.type === 'refused' ? event.reason : event.failure}`);
    else logger.info(event, message);
  };
}

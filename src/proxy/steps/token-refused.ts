import type { Step } from './exchange.js';

/** A minute: how often the log says the same thing about the access token. */
const SAY_EVERY_MS = 60_000;

/**
 * Token refused: the service turned the access token away (40003), so nothing the browsers ask
 * can work until the host's configuration changes. Said in the log (at most once a minute, never
 * the token) and as a `failed` event; the browser gets the service's answer.
 */
export const tokenRefused: Step<'operation' | 'service'> = (x, setup) => {
  if (x.service.value['error_code'] !== 40003) return;
  x.event.failure = 'access-token';
  const now = Date.now();
  if (now - setup.tokenRefusedSaidAt < SAY_EVERY_MS) return;
  setup.tokenRefusedSaidAt = now;
  setup.log(
    'error',
    `[esign-proxy] the service refused the access token (40003) for ${x.operation.id}: check accessToken (your ESIGN_ACCESS_TOKEN) and baseUrl; every request fails until it is right [request ${x.requestId}]`,
    x.requestId,
  );
};

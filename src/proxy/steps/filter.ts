import { mayHoldToken, redactToken, withoutScreening } from '../answer-filter.js';
import type { Step } from './exchange.js';

/**
 * Filter: the access token out of the answer, wherever it is, once on the parsed value (the host's
 * onResult gets it so too); the screening data out of what the browser gets unless the host
 * exposes it. The service's own text goes on unless something was taken out of it.
 */
export const filter: Step = ({ service }, { token, options }) => {
  const redacted = mayHoldToken(service.text, token) ? redactToken(service.value, token) : { value: service.value, changed: false };
  service.value = redacted.value as Record<string, unknown>;
  const shown = options.exposeScreening ? { value: service.value, changed: false } : withoutScreening(service.value);
  if (redacted.changed || shown.changed) service.body = JSON.stringify(shown.value);
};

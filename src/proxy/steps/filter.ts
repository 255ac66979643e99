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
  // the screening fields can be in the value only if their names (or an escape) are in the text
  const mayScreen = !options.exposeScreening && (service.text.includes('_data') || service.text.includes('\\'));
  const shown = mayScreen ? withoutScreening(service.value) : { value: service.value, changed: false };
  if (redacted.changed || shown.changed) service.body = JSON.stringify(shown.value);
};

import { mayHoldToken, redactToken, withoutScreening } from '../answer-filter.js';
import type { Step } from './exchange.js';

/**
 * Filter: the access token out of the answer, wherever it is, once on the parsed value (the host's
 * onResult gets it so too); the screening data out of what the browser gets unless the host
 * exposes it. The service's own text goes on unless something was taken out of it.
 */
export const filter: Step<'service'> = ({ service }, { token, options }) => {
  let changed = false;
  if (mayHoldToken(service.text, token)) {
    const redacted = redactToken(service.value, token);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the redacted copy of an object is an object
    service.value = redacted.value as Record<string, unknown>;
    changed = redacted.changed;
  }
  // the screening fields can be in the value only if their names (or an escape) are in the text
  if (!options.exposeScreening && (service.text.includes('_data') || service.text.includes('\\'))) {
    const shown = withoutScreening(service.value);
    if (shown.changed) {
      service.body = JSON.stringify(shown.value);
      return;
    }
  }
  if (changed) service.body = JSON.stringify(service.value);
};

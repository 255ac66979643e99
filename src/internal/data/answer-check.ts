import { EsignError } from '../../client/errors.js';

/**
 * A finished session's answer that lacks what its result is made of (a broken or hostile answer on
 * the way): a failure of the service's side, said as such, never a result with holes in it.
 */
export function requireAnswer(complete: boolean, what: string): void {
  if (!complete) throw new EsignError('service-error', `The service's answer holds no ${what}`);
}

/** A text the answer must carry, not empty. */
export const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** A text the answer carries, perhaps empty (a person's name of one part, say). */
export const isString = (value: unknown): value is string => typeof value === 'string';

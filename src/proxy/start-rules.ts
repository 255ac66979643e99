import { createHash } from 'node:crypto';
import type { OperationId } from '../protocol/operations.js';
import { InvalidField } from './fields.js';

/*
 * What a session start may carry, by the service's published rules: checked
 * before anything of the start is counted, stored or forwarded, so a start can never make a
 * rate-limit key or a log line of megabytes. Only shapes are checked here (lengths and
 * characters); dates and check digits are the service's to judge (it answers 40005).
 */

/** EE and LT: 11 digits; LV: `DDMMYY-CNNNN` with the hyphen optional (also 11 digits then). */
const PERSONAL_CODE = /^[0-9]{6}-?[0-9]{5}$/;
/** Mobile-ID numbers exist for Lithuania (+370 and 8 digits) and Estonia (+372 and 7 or 8). */
const PHONE = /^\+37(?:0[0-9]{8}|2[0-9]{7,8})$/;
const COUNTRY = /^(?:LT|LV|EE)$/;
const HASH = /^[0-9a-fA-F]{64}(?:[0-9a-fA-F]{64})?$/;

/** The longest value of any other text field of a start (messages are 20–40 characters at the service). */
export const START_TEXT_LIMIT = 200;

const SHAPES: Record<string, RegExp> = { code: PERSONAL_CODE, phone: PHONE, country: COUNTRY, hash: HASH };

/** Session starts that carry files, and so may be large; every other session operation is small. */
export const FILE_STARTS: ReadonlySet<OperationId> = new Set(['mobileSign', 'smartIdSign']);

/** Throws InvalidField for a start field of a shape the service would never take. */
export function checkStartFields(fields: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const shape = SHAPES[name];
    if (shape ? !shape.test(value) : value.length > START_TEXT_LIMIT) throw new InvalidField(name);
  }
}

/** A fixed-size key for the store, whatever the size of what it counts or binds. */
export function storeKey(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 32);
}

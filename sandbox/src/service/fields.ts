import { message, type MessageKey } from './messages.js';
import { isMobileIdPhone, isPrintableAscii, isWebUrl, messageProblem, personalCodeFor } from './rules.js';
import type { Country, Locale as ServiceLocale, MessageFormat } from '../types.js';

/** A failed request: HTTP status, message and (where the operation has one) error code. */
export class Failure extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly errorCode?: number,
  ) {
    super(message);
  }
}

export type Body = Record<string, unknown>;

export const MAX_MINUTES = 366 * 24 * 60;

/** Reads and checks request fields as the service does, failing in the request's locale. */
export class Fields {
  constructor(
    readonly body: Body,
    readonly locale: ServiceLocale,
  ) {}

  fail(key: MessageKey, values: Record<string, string | number> = {}, errorCode?: number, httpStatus = 400): never {
    throw new Failure(httpStatus, message(this.locale, key, values), errorCode);
  }

  invalid(field: string, reason: MessageKey, values: Record<string, string | number> = {}): never {
    const text = message(this.locale, 'invalidParameter', { field, reason: message(this.locale, reason, values) });
    throw new Failure(400, text, 40001);
  }

  string(field: string, required: true): string;
  string(field: string, required?: false): string | undefined;
  string(field: string, required = false): string | undefined {
    const value = this.body[field];
    if (value === undefined || value === null || value === '') {
      if (required) this.invalid(field, 'required');
      return undefined;
    }
    if (typeof value !== 'string') this.invalid(field, 'required');
    return value;
  }

  /** One of the allowed values: required, or the fallback when it is not given. */
  oneOf<T extends string>(field: string, allowed: readonly T[], reason: MessageKey, required: true, fallback?: T): T;
  oneOf<T extends string>(field: string, allowed: readonly T[], reason: MessageKey, required: boolean, fallback: T): T;
  oneOf<T extends string>(field: string, allowed: readonly T[], reason: MessageKey, required: boolean, fallback?: T): T | undefined;
  oneOf<T extends string>(field: string, allowed: readonly T[], reason: MessageKey, required: boolean, fallback?: T): T | undefined {
    const value = this.body[field];
    if (value === undefined || value === null || value === '') {
      if (required) this.invalid(field, 'required');
      return fallback;
    }
    const found = allowed.find((one) => one === value);
    if (found === undefined) this.invalid(field, reason);
    return found;
  }

  boolean(field: string): boolean {
    const value = this.body[field];
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean') this.invalid(field, 'invalidBoolean');
    return value;
  }

  country(allowed: readonly Country[] = ['LT', 'LV', 'EE']): Country {
    return this.oneOf('country', allowed, 'invalidCountry', true);
  }

  phone(field = 'phone'): string {
    const value = this.body[field];
    if (typeof value !== 'string' || !isMobileIdPhone(value)) this.fail('phoneFormat', {}, 40004);
    return value;
  }

  personalCode(country: Country, field = 'code'): string {
    const value = this.body[field];
    const code = typeof value === 'string' ? personalCodeFor(country, value) : null;
    if (code === null) this.fail('codeFormat', {}, 40005);
    return code;
  }

  /** The mobile-channel message and its format (the service's default format is GSM-7). */
  mobileMessage(): { message?: string; format: MessageFormat } {
    const format: MessageFormat = this.oneOf('message_format', ['GSM-7', 'UCS-2'] as const, 'invalidMessageFormat', false, 'GSM-7');
    const text = this.string('message');
    if (text !== undefined) {
      const check = messageProblem(text, format);
      if (check?.problem === 'not-gsm7') this.invalid('message', 'messageNotGsm7');
      if (check?.problem === 'too-long') this.invalid('message', 'messageTooLong', { limit: check.limit });
    }
    return text === undefined ? { format } : { message: text, format };
  }

  asciiMessage(): string | undefined {
    const text = this.string('message');
    if (text !== undefined && !isPrintableAscii(text)) this.invalid('message', 'messageNotAscii');
    if (text !== undefined && text.length > 60) this.invalid('message', 'messageTooLong', { limit: 60 });
    return text;
  }

  url(field: string, required: boolean): string | undefined {
    const value = required ? this.string(field, true) : this.string(field);
    if (value !== undefined && !isWebUrl(value)) this.invalid(field, 'invalidUrl');
    return value;
  }

  minutes(field: string, fallback?: number): number | undefined {
    const value = this.body[field];
    if (value === undefined || value === null || value === '') return fallback;
    const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    // a year at most: the service's limit is not published, and an unbounded one overflows dates
    if (typeof number !== 'number' || !Number.isInteger(number) || number <= 0 || number > MAX_MINUTES) this.invalid(field, 'invalidMinutes');
    return number;
  }
}

// a plain character class: a grouped, repeated pattern overflows the regex stack on large files
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes standard base64 strictly; null when it is not base64. */
export function decodeBase64(value: unknown): Uint8Array | null {
  if (typeof value !== 'string') return null;
  const compact = value.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) return null;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

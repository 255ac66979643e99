import type { Country } from '../protocol/types.js';
import { COUNTRIES } from '../protocol/proxy-rules.js';
import { storeKey } from './start-rules.js';

/*
 * A person is a country and a personal code. Estonian and Lithuanian codes share their format and
 * check digit, and a Latvian code without its hyphen can equal one of them: the same eleven digits
 * in two countries are, in general, two people. So every comparison, limit key and signer key here
 * holds the country beside the code.
 */

export { COUNTRIES };

export function isCountry(value: unknown): value is Country {
  return typeof value === 'string' && (COUNTRIES as readonly string[]).includes(value);
}

/** A code as one person has it: only in Latvia are the code with and without its hyphen the same code. */
export function canonicalPersonCode(country: Country | null, code: string): string {
  const compact = code.replace(/\s/g, '');
  return country === 'LV' ? compact.replace(/-/g, '') : compact;
}

/** The country of a Mobile-ID phone number: Mobile-ID exists in Lithuania (+370) and Estonia (+372). */
export function phoneCountry(phone: string): Country | null {
  const compact = phone.replace(/[\s-]/g, '');
  return compact.startsWith('+370') ? 'LT' : compact.startsWith('+372') ? 'EE' : null;
}

/**
 * The countries a session start names: its `country` field, and for Mobile-ID its phone's. A start
 * that names two different countries names no single person, and is nobody's.
 */
export function startCountries(fields: Record<string, unknown>): Country[] {
  const named = new Set<Country>();
  const country = fields['country'];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a set of what the certificate names, compared with the signer's country as is
  if (typeof country === 'string') named.add(country.toUpperCase() as Country);
  const phone = fields['phone'];
  if (typeof phone === 'string') {
    const of = phoneCountry(phone);
    if (of) named.add(of);
  }
  return [...named];
}

/** The one country a start names, or null when it names none or several. */
export function startCountry(fields: Record<string, unknown>): Country | null {
  const named = startCountries(fields);
  return named.length === 1 && isCountry(named[0]) ? named[0] : null;
}

/** A person as bindings keep them: a fixed-size digest of country and code, never the code in clear. */
export function personDigest(country: Country, code: string): string {
  return storeKey(`signer:${country}:${canonicalPersonCode(country, code)}`);
}

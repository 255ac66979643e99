import { createHmac } from 'node:crypto';
import type { Channel, Country } from '../../protocol/types.js';

/*
 * What an ID token says of a person, named as the Baltic identity brokers name it (`nin`,
 * `nin_type`, `nin_issuing_country`, `idp`): from a verified login, never from the browser.
 */

/** A verified login as the provider keeps it until the code is redeemed (sealed at rest). */
export interface VerifiedPerson {
  country: Country;
  code: string;
  givenName: string;
  familyName: string;
  channel: Channel;
  /** When the service confirmed it, seconds since the epoch. */
  authTime: number;
}

/** The digits of a personal code (a Latvian one with or without its hyphen is one code). */
const digitsOf = (code: string): string => code.replace(/\D/g, '');

/**
 * `sub`: a keyed digest of the country and the code, the same for a person at every login and
 * different for the same digits in another country; no site can turn it back into a code.
 */
export function subjectOf(country: Country, code: string, secret: string): string {
  return createHmac('sha256', secret)
    .update(`esign-oidc-sub:${country}:${digitsOf(code)}`)
    .digest('base64url');
}

const pad = (n: number) => String(n).padStart(2, '0');

function validDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * The birth date a personal code holds, as `YYYY-MM-DD`: Lithuanian and Estonian codes (the first
 * digit names the century), old-format Latvian ones (`DDMMYY-C…`, C the century); a new-format
 * Latvian code (`32…`) holds none.
 */
export function birthdateOf(country: Country, code: string): string | undefined {
  const digits = digitsOf(code);
  if (digits.length !== 11) return undefined;
  const n = (from: number, to: number) => Number(digits.slice(from, to));
  if (country === 'LV') {
    if (digits.startsWith('32')) return undefined;
    const century = [1800, 1900, 2000][n(6, 7)];
    return century === undefined ? undefined : validDate(century + n(4, 6), n(2, 4), n(0, 2));
  }
  const century = [undefined, 1800, 1800, 1900, 1900, 2000, 2000, 2100, 2100][n(0, 1)];
  return century === undefined ? undefined : validDate(century + n(1, 3), n(3, 5), n(5, 7));
}

/** The scopes a client may ask for and the claims each brings (`openid` brings `sub` alone). */
export const CLAIMS_BY_SCOPE = {
  openid: ['sub', 'idp', 'auth_time', 'amr'],
  profile: ['name', 'given_name', 'family_name', 'birthdate'],
  nin: ['nin', 'nin_type', 'nin_issuing_country'],
} as const;

/** Every claim of a person; the provider library gives a client those of the scopes granted. */
export function claimsOf(person: VerifiedPerson, sub: string): { sub: string } & Record<string, string | number> {
  const birthdate = birthdateOf(person.country, person.code);
  return {
    sub,
    idp: person.channel === 'mobile' ? 'mobile-id' : 'smart-id',
    given_name: person.givenName,
    family_name: person.familyName,
    name: `${person.givenName} ${person.familyName}`.trim(),
    ...(birthdate ? { birthdate } : {}),
    nin: person.code,
    nin_type: 'CIVIL',
    nin_issuing_country: person.country,
  };
}

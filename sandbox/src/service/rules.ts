import type { Country, HashAlgorithm, MessageFormat } from '../types.js';

/*
 * The service's input rules, written for the sandbox from what is known of the service. The widget checks
 * inputs with its own code; the two are kept apart on purpose so that a mistake in one shows up
 * as a failing test of the other.
 */

// --- personal codes -------------------------------------------------------------------------

function elevenDigitCheckDigit(digits: number[]): number {
  const weighted = (start: number) => {
    let total = 0;
    for (let i = 0; i < 10; i++) total += (digits[i] ?? 0) * (((start + i - 1) % 9) + 1);
    return total % 11;
  };
  const first = weighted(1);
  if (first < 10) return first;
  const second = weighted(3);
  return second < 10 ? second : 0;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= (lengths[month - 1] ?? 0);
}

/** A valid EE/LT code of a made-up person: `3` (born in the 1900s), the birth date, a serial and its check digit. */
export function madeUpPersonalCode(serial: number): string {
  const firstTen = `3800101${String(serial % 1000).padStart(3, '0')}`;
  return `${firstTen}${elevenDigitCheckDigit([...firstTen].map(Number))}`;
}

/** EE and LT: `GYYMMDDSSSC`, G 1–6 giving the century, a real birth date and the check digit. */
function isEstonianOrLithuanianCode(code: string): boolean {
  if (code.length !== 11 || /\D/.test(code)) return false;
  const digits = [...code].map(Number);
  const g = digits[0] ?? 0;
  if (g < 1 || g > 6) return false;
  const century = 1700 + Math.ceil(g / 2) * 100;
  const year = century + Number(code.substring(1, 3));
  if (!isCalendarDate(year, Number(code.substring(3, 5)), Number(code.substring(5, 7)))) return false;
  return elevenDigitCheckDigit(digits) === digits[10];
}

/** LV: `DDMMYY-CNNNN` (C 0/1/2 for the 1800s/1900s/2000s) or `32xxxx-xxxxx`; hyphen optional, no checksum. */
function latvianCode(code: string): string | null {
  const match = /^([0-9]{6})-?([0-9]{5})$/.exec(code);
  if (!match) return null;
  const [, first = '', second = ''] = match;
  if (!first.startsWith('32')) {
    const century = ['0', '1', '2'].indexOf(second.charAt(0));
    if (century < 0) return null;
    const year = 1800 + century * 100 + Number(first.substring(4, 6));
    if (!isCalendarDate(year, Number(first.substring(2, 4)), Number(first.substring(0, 2)))) return null;
  }
  return `${first}-${second}`;
}

/** The personal code in the service's form for the country, or null when it has a wrong format (40005). */
export function personalCodeFor(country: Country, value: string): string | null {
  if (country === 'LV') return latvianCode(value);
  return isEstonianOrLithuanianCode(value) ? value : null;
}

// --- phones -----------------------------------------------------------------------------------

/** A Mobile-ID number as the service takes it: international form, Lithuania or Estonia (40004). */
export function isMobileIdPhone(value: string): boolean {
  if (value.startsWith('+370')) return /^[0-9]{8}$/.test(value.slice(4));
  if (value.startsWith('+372')) return /^[0-9]{7,8}$/.test(value.slice(4));
  return false;
}

// --- phone-screen messages ------------------------------------------------------------------

/** GSM 03.38 default alphabet, row by row of the standard table. */
const GSM_DEFAULT = new Set([
  ...'@Δ 0¡P¿p',
  ...'£_!1AQaq',
  ...'$Φ"2BRbr',
  ...'¥Γ#3CScs',
  ...'èΛ¤4DTdt',
  ...'éΩ%5EUeu',
  ...'ùΠ&6FVfv',
  ..."ìΨ'7GWgw",
  ...'òΣ(8HXhx',
  ...'ÇΘ)9IYiy',
  ...'\nΞ*:JZjz',
  ...'Ø+;KÄkä',
  ...'øÆ,<LÖlö',
  ...'\ræ-=MÑmñ',
  ...'Åß.>NÜnü',
  ...'åÉ/?O§oà',
]);
/** The extension table: each of these takes an escape and a character, two septets. */
const GSM_EXTENDED = new Set([...'\f^{}\\[~]|€']);

export type MessageRuleProblem = 'not-gsm7' | 'too-long';

/** Checks a Mobile-ID message against its format: GSM-7 at most 40 septets, UCS-2 at most 20 characters. */
export function messageProblem(text: string, format: MessageFormat): { problem: MessageRuleProblem; limit: number } | null {
  if (format === 'UCS-2') return text.length > 20 ? { problem: 'too-long', limit: 20 } : null;
  let septets = 0;
  for (const ch of text) {
    if (GSM_DEFAULT.has(ch)) septets += 1;
    else if (GSM_EXTENDED.has(ch)) septets += 2;
    else return { problem: 'not-gsm7', limit: 40 };
  }
  return septets > 40 ? { problem: 'too-long', limit: 40 } : null;
}

/** Smart-ID hash signing messages are printable ASCII. */
export function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

// --- hashes, e-mail, URLs -------------------------------------------------------------------

export const HASH_HEX_DIGITS: Record<HashAlgorithm, number> = { SHA256: 64, SHA512: 128 };

/** The `hash` field: lowercase hex of the digest, of the algorithm's length. */
export function isHashOf(algorithm: HashAlgorithm, value: string): boolean {
  return value.length === HASH_HEX_DIGITS[algorithm] && /^[0-9a-f]*$/.test(value);
}

/** One `@`, something before it, a dotted domain after it, and no spaces, quotes or brackets. */
export function isEmailAddress(value: string): boolean {
  if (value.length > 254 || /[\s<>"()]/.test(value)) return false;
  const at = value.indexOf('@');
  if (at < 1 || at !== value.lastIndexOf('@')) return false;
  const domain = value.slice(at + 1);
  return /^[^.]+(\.[^.]+)+$/.test(domain);
}

/** An absolute http or https URL (callbacks and return addresses). */
export function isWebUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
}

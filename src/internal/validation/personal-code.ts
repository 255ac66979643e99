import type { Country } from '../../protocol/types.js';

export type PersonalCodeProblem = 'empty' | 'format' | 'birth-date' | 'check-digit';

export type PersonalCodeCheck = { valid: true; code: string; birthDate?: Date } | { valid: false; problem: PersonalCodeProblem };

const WEIGHTS_1 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1];
const WEIGHTS_2 = [3, 4, 5, 6, 7, 8, 9, 1, 2, 3];

/** The check digit of an Estonian or Lithuanian personal code from its first 10 digits. */
export function checkDigit(firstTen: string): number {
  const digits = [...firstTen].map(Number);
  const sum = (weights: number[]) => digits.reduce((acc, d, i) => acc + d * (weights[i] ?? 0), 0) % 11;
  const first = sum(WEIGHTS_1);
  if (first !== 10) return first;
  const second = sum(WEIGHTS_2);
  return second === 10 ? 0 : second;
}

function dateOf(year: number, month: number, day: number): Date | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

function checkBalticElevenDigits(code: string): PersonalCodeCheck {
  if (!/^\d{11}$/.test(code)) return { valid: false, problem: 'format' };
  const century = Number(code[0]);
  if (century < 1 || century > 6) return { valid: false, problem: 'format' };
  const year = 1800 + 100 * Math.floor((century - 1) / 2) + Number(code.slice(1, 3));
  const birthDate = dateOf(year, Number(code.slice(3, 5)), Number(code.slice(5, 7)));
  if (!birthDate) return { valid: false, problem: 'birth-date' };
  if (checkDigit(code.slice(0, 10)) !== Number(code[10])) return { valid: false, problem: 'check-digit' };
  return { valid: true, code, birthDate };
}

/** Latvian codes: `DDMMYY-CNNNN` with a birth date, or `32xxxx-xxxxx` (2017 on) without one. */
function checkLatvian(input: string): PersonalCodeCheck {
  const found = /^(\d{6})-?(\d{5})$/.exec(input);
  if (!found) return { valid: false, problem: 'format' };
  const [, head = '', tail = ''] = found;
  const code = `${head}-${tail}`;
  if (head.startsWith('32')) return { valid: true, code };
  const century = Number(tail[0]);
  // the shape is right: the century digit is part of the birth date
  if (century > 2) return { valid: false, problem: 'birth-date' };
  const year = 1800 + 100 * century + Number(head.slice(4, 6));
  const birthDate = dateOf(year, Number(head.slice(2, 4)), Number(head.slice(0, 2)));
  if (!birthDate) return { valid: false, problem: 'birth-date' };
  return { valid: true, code, birthDate };
}

/**
 * Checks a personal code for its country. Spaces are ignored; Latvian codes come back in
 * the hyphenated form. No Latvian checksum is applied: none is reliably published.
 */
export function checkPersonalCode(input: string, country: Country): PersonalCodeCheck {
  const code = input.replace(/\s+/g, '');
  if (!code) return { valid: false, problem: 'empty' };
  return country === 'LV' ? checkLatvian(code) : checkBalticElevenDigits(code);
}

/** The country a personal code can belong to, judged by its form alone. */
export function personalCodeCountries(input: string): Country[] {
  const code = input.replace(/\s+/g, '');
  if (/^\d{6}-?\d{5}$/.test(code) && checkLatvian(code).valid) {
    return /^\d{11}$/.test(code) && checkBalticElevenDigits(code).valid ? ['LT', 'EE', 'LV'] : ['LV'];
  }
  return checkBalticElevenDigits(code).valid ? ['LT', 'EE'] : [];
}

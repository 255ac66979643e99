export type PhoneProblem = 'empty' | 'format' | 'country';

export type PhoneCheck = { valid: true; phone: string } | { valid: false; problem: PhoneProblem };

/** Country calling codes of the countries where the mobile channel exists, and their lengths. */
const MOBILE_ID_NUMBERS: Record<string, RegExp> = {
  '370': /^\d{8}$/,
  '372': /^\d{7,8}$/,
};

/** The form the service accepts. */
export const SERVICE_PHONE = /^\+(?:370\d{8}|372\d{7,8})$/;

/**
 * Normalises a phone number to `+370…` / `+372…`: drops spaces, dashes, dots and brackets,
 * reads `00` as `+`, and reads Lithuanian national forms (`8…` or `0…` with 9 digits) and
 * numbers typed without the plus. Estonian numbers have no national prefix: 7 or 8 digits
 * starting with 5 or 8 are taken as Estonian when the default country is EE.
 */
export function normalizePhone(input: string, defaultCountry: 'LT' | 'EE' = 'LT'): PhoneCheck {
  const compact = input.replace(/[\s\-.()/]/g, '');
  if (!compact) return { valid: false, problem: 'empty' };
  let digits: string;
  if (compact.startsWith('+')) digits = compact.slice(1);
  else if (compact.startsWith('00')) digits = compact.slice(2);
  else if (/^[80]\d{8}$/.test(compact)) digits = `370${compact.slice(1)}`;
  else if (/^37[02]\d{7,8}$/.test(compact)) digits = compact;
  else if (defaultCountry === 'EE' && /^[58]\d{6,7}$/.test(compact)) digits = `372${compact}`;
  else if (defaultCountry === 'LT' && /^6\d{7}$/.test(compact)) digits = `370${compact}`;
  else return { valid: false, problem: 'format' };
  if (!/^\d{8,15}$/.test(digits)) return { valid: false, problem: 'format' };
  const country = digits.slice(0, 3);
  const rule = MOBILE_ID_NUMBERS[country];
  if (!rule) return { valid: false, problem: 'country' };
  if (!rule.test(digits.slice(3))) return { valid: false, problem: 'format' };
  return { valid: true, phone: `+${digits}` };
}

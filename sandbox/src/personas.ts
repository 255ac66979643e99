import type { Country } from './types.js';

/** How a person's session ends: `ok` or the service's error code. */
export type Outcome = 'ok' | 40020 | 40021 | 40401 | 40403 | 40801 | 50000 | 50001;

export interface Persona {
  channel: 'mobile' | 'smartid';
  code: string;
  countries: Country[];
  phone?: string;
  givenName: string;
  surname: string;
  /** Outcome of login and signing. */
  outcome: Outcome;
  /** Outcome of signing where it differs from login (a login-only account). */
  signOutcome?: Outcome;
  /** Answers only after the slow delay (about a minute). */
  slow?: boolean;
  screening?: 'pep' | 'sanctions';
  /** What the identity is for, as shown in the README and on the demo page. */
  note: string;
  /** Added by the sandbox; not a provider demo identity. */
  sandboxOnly?: boolean;
}

const mobile = (phone: string, code: string, outcome: Outcome, note: string, extra: Partial<Persona> = {}): Persona => ({
  channel: 'mobile',
  phone,
  code,
  countries: [phone.startsWith('+372') ? 'EE' : 'LT'],
  givenName: 'DEMO',
  surname: 'TESTNUMBER',
  outcome,
  note,
  ...extra,
});

const smart = (code: string, countries: Country[], outcome: Outcome, note: string, extra: Partial<Persona> = {}): Persona => ({
  channel: 'smartid',
  code,
  countries,
  givenName: 'DEMO',
  surname: 'TESTNUMBER',
  outcome,
  note,
  ...extra,
});

const SANDBOX = { sandboxOnly: true } as const;

export const PERSONAS: readonly Persona[] = [
  mobile('+37200000766', '60001019906', 'ok', 'ok', { givenName: 'MARY ÄNN', surname: "O'CONNEŽ-ŠUSLIK TESTNUMBER" }),
  mobile('+37060000666', '50001018865', 'ok', 'ok', { givenName: 'ADAM' }),
  mobile('+37268000769', '60001017869', 'ok', 'ok', { givenName: 'EID2016' }),
  mobile('+37200000366', '60001019928', 40401, 'not a Mobile-ID client'),
  mobile('+37201100266', '60001019950', 40020, 'person cancelled'),
  mobile('+37266000266', '50001018908', 40021, 'expired, no answer'),
  mobile('+37213100266', '60001019983', 50001, 'phone absent'),
  mobile('+37207110066', '60001019947', 50001, 'delivery error'),
  mobile('+37201200266', '60001019972', 50001, 'SIM error'),
  mobile('+37200000666', '60001019961', 50001, 'signature hash mismatch'),
  mobile('+37060000806', '39001010806', 40801, 'certificate lookup times out', SANDBOX),
  mobile('+37060000501', '39001010501', 50000, 'session fails inside the service', SANDBOX),
  mobile('+37060000607', '39001010607', 'ok', 'slow: answers after about a minute', { ...SANDBOX, slow: true, givenName: 'SLOW' }),
  mobile('+37060000708', '39001010708', 'ok', 'PEP hit when peps: true', { ...SANDBOX, screening: 'pep', givenName: 'PEP' }),
  mobile('+37060000714', '49001010714', 'ok', 'sanctions hit when sanctions: true', {
    ...SANDBOX,
    screening: 'sanctions',
    givenName: 'SANCTIONS',
  }),

  smart('40504040001', ['EE', 'LT'], 'ok', 'ok', { givenName: 'OK' }),
  smart('30303039914', ['LT'], 'ok', 'ok', { givenName: 'OK' }),
  smart('050405-10009', ['LV'], 'ok', 'ok', { givenName: 'OK' }),
  smart('320000-10003', ['LV'], 'ok', 'ok, new-format code without birth date', { givenName: 'OK' }),
  smart('61101019999', ['EE', 'LT'], 'ok', 'ok, person under 18', { givenName: 'MINOR' }),
  smart('40504049999', ['LT'], 'ok', 'ok for login; signing needs a qualified certificate: 40403', {
    signOutcome: 40403,
    givenName: 'NONQUALIFIED',
  }),
  smart('30403039917', ['EE', 'LT'], 40020, 'refused'),
  smart('030403-10016', ['LV'], 40020, 'refused'),
  smart('30403039972', ['EE', 'LT'], 40020, 'wrong verification code chosen'),
  smart('30403039983', ['EE', 'LT'], 40021, 'expired, no answer'),
  smart('030403-10083', ['LV'], 40021, 'expired, no answer'),
  smart('39001010806', ['EE', 'LT'], 40801, 'certificate lookup times out', SANDBOX),
  smart('39001010501', ['EE', 'LT'], 50000, 'session fails inside the service', SANDBOX),
  smart('39001010607', ['EE', 'LT'], 'ok', 'slow: answers after about a minute', { ...SANDBOX, slow: true, givenName: 'SLOW' }),
  smart('39001010708', ['EE', 'LT'], 'ok', 'PEP hit when peps: true', { ...SANDBOX, screening: 'pep', givenName: 'PEP' }),
  smart('49001010714', ['EE', 'LT'], 'ok', 'sanctions hit when sanctions: true', {
    ...SANDBOX,
    screening: 'sanctions',
    givenName: 'SANCTIONS',
  }),
];

export function findMobilePersona(phone: string, code: string): Persona | undefined {
  return PERSONAS.find((p) => p.channel === 'mobile' && p.phone === phone && p.code === code);
}

export function findSmartIdPersona(code: string, country: Country): Persona | undefined {
  return PERSONAS.find((p) => p.channel === 'smartid' && p.code === code && p.countries.includes(country));
}

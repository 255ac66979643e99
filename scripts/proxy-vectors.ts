// Writes php/tests/vectors.json: what the Node proxy decides for a set of inputs (person keys and
// digests, signer decisions, the counters of a start in their order, field checks, sealed values),
// made by its own functions, for the PHP package's tests to replay: one behaviour, proved by the
// same data. With --check, fails when the file is not what the Node code makes now, byte for byte
// (the sealed values with a fixed nonce each, for these vectors only: a rerun changes nothing).
import { readFileSync, writeFileSync } from 'node:fs';
import { OPERATION_IDS, type OperationId } from '../src/protocol/operations.js';
import { addressKey } from '../src/proxy/address.js';
import { InvalidField, operationFields } from '../src/proxy/fields.js';
import { canonicalPersonCode, personDigest, startCountry } from '../src/proxy/person.js';
import { sealWithNonce, unseal } from '../src/proxy/sealed.js';
import { checkStartFields, storeKey } from '../src/proxy/start-rules.js';
import { counterKey, personKey } from '../src/proxy/steps/limits.js';
import { sameSigner } from '../src/proxy/steps/signer.js';
import { visitorDigest } from '../src/proxy/visitor.js';
import type { Country } from '../src/protocol/types.js';

const FILE = 'php/tests/vectors.json';

const CODES: [Country | null, string][] = [
  ['LT', '30303039914'],
  ['EE', '40504040001'],
  ['LV', '050405-10009'],
  ['LV', '05040510009'],
  ['LV', '320000-10003'],
  [null, ' 3030 3039914 '],
  ['EE', '3030303991\u00a04'],
  ['LT', '\ufeff30303039914\u2003'],
];

const STARTS: { operation: OperationId; fields: Record<string, unknown> }[] = [
  { operation: 'smartIdLogin', fields: { code: '40504040001', country: 'EE' } },
  { operation: 'smartIdLogin', fields: { code: '40504040001', country: 'lt' } },
  { operation: 'smartIdLogin', fields: { code: '050405-10009', country: 'LV' } },
  { operation: 'smartIdLogin', fields: { code: '05040510009', country: 'LV' } },
  { operation: 'smartIdLogin', fields: { code: '40504040001' } },
  { operation: 'smartIdSign', fields: { code: '30303039914', country: 'FI' } },
  { operation: 'mobileLogin', fields: { code: '50001018865', phone: '+37060000666' } },
  { operation: 'mobileLogin', fields: { code: '60001019906', phone: '+372 0000 0766' } },
  { operation: 'mobileLogin', fields: { code: '60001019906', phone: '+37060000666', country: 'EE' } },
  { operation: 'mobileLogin', fields: { code: '60001019906' } },
  { operation: 'mobileLogin', fields: { code: '60001019906', phone: '\u00a0+372\u00a000000766' } },
  { operation: 'mobileSign', fields: { code: '50001018865', phone: '+37060000666', country: 'LT' } },
];

const SIGNERS: { country: Country; code: string; phone?: string }[] = [
  { country: 'EE', code: '40504040001' },
  { country: 'LT', code: '40504040001' },
  { country: 'LV', code: '05040510009' },
  { country: 'LT', code: '50001018865', phone: '+37060000666' },
  { country: 'EE', code: '60001019906', phone: '+37060000666' },
];

const ADDRESSES = [
  '203.0.113.7',
  ' 203.0.113.7 ',
  '::ffff:203.0.113.7',
  '2001:db8:1:2:3:4:5:6',
  '2001:DB8::1',
  '2001:0:0:1::7',
  'fe80::1%eth0',
  '::1',
  'not an address',
];

const BODIES: { operation: OperationId; body: Record<string, unknown> }[] = [
  { operation: 'smartIdLogin', body: { code: '40504040001', country: 'EE', access_token: 'planted', extra: { deep: true } } },
  { operation: 'smartIdLogin', body: { code: 40504040001, country: 'EE' } },
  { operation: 'smartIdSign', body: { code: '40504040001', country: 'EE', type: 'pdf', pdf: { files: [{ name: 'a.pdf', content: 'JVBERi0=', planted: 1 }] } } },
  { operation: 'smartIdSign', body: { code: '40504040001', country: 'EE', type: 'pdf', pdf: { files: [{ name: 7, content: 'JVBERi0=' }] } } },
  { operation: 'smartIdSign', body: { code: '40504040001', country: 'EE', type: 'pdf', pdf: { files: 'not a list' } } },
  { operation: 'mobileLogin', body: { code: '50001018865', phone: '+37060000666', language: 'LIT' } },
];

const START_FIELDS: Record<string, unknown>[] = [
  { code: '40504040001', country: 'EE' },
  { code: '4050404000\u0131', country: 'EE' },
  { code: '40504040001', country: 'Estonia' },
  { code: '50001018865', phone: '+3706000066' },
  { code: '50001018865', phone: '+37060000666', message: 'x'.repeat(400) },
  { code: '50001018865', phone: '+37060000666', message: 'ž'.repeat(100) },
];

const channelOf = (operation: OperationId) => (operation.startsWith('mobile') ? 'mobile' : 'smartid');

function pickedOrInvalid(operation: OperationId, body: Record<string, unknown>): { picked: unknown } | { invalid: string } {
  try {
    return { picked: operationFields(operation, body) };
  } catch (error) {
    if (error instanceof InvalidField) return { invalid: error.field };
    throw error;
  }
}

function badStartField(fields: Record<string, unknown>): string | null {
  try {
    checkStartFields(fields);
    return null;
  } catch (error) {
    if (error instanceof InvalidField) return error.field;
    throw error;
  }
}

const SEAL_SECRET = 'the-vectors-visitor-secret';
const SEALED_TEXTS = ['["Set-Cookie: PHPSESSID=abc; path=/"]', 'žodis – слово', ''];

function vectors() {
  return {
    about: "Made by scripts/proxy-vectors.ts from the Node proxy's own functions: npm run proxy-vectors. Do not edit.",
    storeKeys: ['cookie:abc', 'smartid:EE:40504040001', '', 'ž'].map((value) => ({ value, key: storeKey(value) })),
    canonicalCodes: CODES.map(([country, code]) => ({ country, code, canonical: canonicalPersonCode(country, code) })),
    personDigests: CODES.filter((c): c is [Country, string] => c[0] !== null).map(([country, code]) => ({
      country,
      code,
      digest: personDigest(country, code),
    })),
    startCountries: STARTS.map(({ fields }) => ({ fields, country: startCountry(fields) })),
    personKeys: STARTS.map(({ operation, fields }) => ({ operation, channel: channelOf(operation), fields, key: personKey(operation, fields) })),
    addresses: ADDRESSES.map((address) => ({ address, key: addressKey(address) })),
    visitorDigests: [
      {
        visitor: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        secret: 'event-secret',
        digest: visitorDigest('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'event-secret'),
      },
    ],
    signers: STARTS.flatMap(({ fields }) => SIGNERS.map((signer) => ({ fields, signer, same: sameSigner(fields, signer) }))),
    // the counters a start is counted under, in the order they are counted: visitor, address, person
    counters: STARTS.map(({ operation, fields }, i) => {
      const visitor = `visitor-${i}`;
      const address = i % 2 ? ADDRESSES[i % ADDRESSES.length]! : null;
      const person = personKey(operation, fields);
      const counted: [string, string][] = [[counterKey('visitor', `cookie:${visitor}`), 'visitor']];
      if (address !== null) counted.push([counterKey('address', addressKey(address)), 'address']);
      if (person !== null) counted.push([counterKey('person', person), 'person']);
      return { operation, channel: channelOf(operation), fields, visitor, address, counters: counted };
    }),
    fields: BODIES.map(({ operation, body }) => ({ operation, body, ...pickedOrInvalid(operation, body) })),
    startFields: START_FIELDS.map((fields) => ({ fields, bad: badStartField(fields) })),
    sealed: { secret: SEAL_SECRET, values: SEALED_TEXTS.map((text, i) => ({ text, sealed: sealWithNonce(SEAL_SECRET, text, Buffer.alloc(12, i + 1)) })) },
    operations: [...OPERATION_IDS],
  };
}

type Vectors = ReturnType<typeof vectors>;
const made = vectors();
if (process.argv.includes('--check')) {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the file this script wrote; what differs from what it makes now fails the check below
  const kept = JSON.parse(readFileSync(FILE, 'utf8')) as Vectors;
  const opened = kept.sealed.values.every(({ text, sealed }) => unseal(SEAL_SECRET, sealed) === text);
  if (!opened || JSON.stringify(kept) !== JSON.stringify(made)) {
    console.error(`${FILE} is not what the Node proxy decides now (run npm run proxy-vectors)`);
    process.exit(1);
  }
  console.log("the vectors are the Node proxy's");
} else {
  writeFileSync(FILE, `${JSON.stringify(made, null, 2)}\n`);
}

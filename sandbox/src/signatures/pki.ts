import { webcrypto, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { CertificateObject, Country } from '../types.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- Node's Web Crypto is the browser's, typed apart by @types/node
export const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as Crypto });

const OID = {
  country: '2.5.4.6',
  organisation: '2.5.4.10',
  organisationUnit: '2.5.4.11',
  commonName: '2.5.4.3',
  surname: '2.5.4.4',
  givenName: '2.5.4.42',
  serialNumber: '2.5.4.5',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
} as const;

type NameParts = [oid: string, value: string][];

/** A Name with one attribute per RDN (pkijs would put them all into one multi-valued RDN). */
function buildName(parts: NameParts): pkijs.RelativeDistinguishedNames {
  const rdns = parts.map(
    ([type, value]) =>
      new asn1js.Set({
        value: [
          new pkijs.AttributeTypeAndValue({
            type,
            value: type === OID.country || type === OID.serialNumber ? new asn1js.PrintableString({ value }) : new asn1js.Utf8String({ value }),
          }).toSchema(),
        ],
      }),
  );
  return pkijs.RelativeDistinguishedNames.fromBER(new asn1js.Sequence({ value: rdns }).toBER(false));
}

export interface KeyPairWithCert {
  keys: CryptoKeyPair;
  der: Uint8Array;
}

export type KeyKind = 'ecdsa' | 'rsa';

async function generateKeys(kind: KeyKind): Promise<CryptoKeyPair> {
  const algorithm =
    kind === 'ecdsa'
      ? { name: 'ECDSA', namedCurve: 'P-256' }
      : { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  return await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
}

async function issue(options: {
  subject: NameParts;
  issuer: NameParts;
  publicKey: CryptoKey;
  signingKey: CryptoKey;
  ca: boolean;
  years: number;
}): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = randomBytes(12);
  // positive and without a leading zero byte, as DER wants the shortest encoding
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial });
  cert.subject = buildName(options.subject);
  cert.issuer = buildName(options.issuer);
  const now = new Date();
  const notBefore = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  cert.notBefore.value = notBefore;
  cert.notAfter.value = new Date(Date.UTC(notBefore.getUTCFullYear() + options.years, notBefore.getUTCMonth(), notBefore.getUTCDate()));
  const keyUsage = new asn1js.BitString({
    // digitalSignature + nonRepudiation for persons; keyCertSign + cRLSign for CAs
    valueHex: new Uint8Array([options.ca ? 0x06 : 0xc0]).buffer,
    unusedBits: options.ca ? 1 : 6,
  });
  cert.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: options.ca }).toSchema().toBER(false),
    }),
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: keyUsage.toBER(false) }),
  ];
  await cert.subjectPublicKeyInfo.importKey(options.publicKey, engine);
  await cert.sign(options.signingKey, 'SHA-256', engine);
  return new Uint8Array(cert.toSchema(true).toBER(false));
}

const ROOT_NAME: NameParts = [
  [OID.country, 'EE'],
  [OID.organisation, 'esign-elements sandbox'],
  [OID.commonName, 'esign-elements SANDBOX TEST root CA'],
];
const ISSUING_NAME: NameParts = [
  [OID.country, 'EE'],
  [OID.organisation, 'esign-elements sandbox'],
  [OID.commonName, 'esign-elements SANDBOX TEST issuing CA'],
];

export interface PersonIdentity {
  channel: 'mobile' | 'smartid';
  code: string;
  country: Country;
  givenName: string;
  surname: string;
}

interface StoredPair {
  kind: KeyKind;
  /** base64 PKCS#8 */
  key: string;
  /** base64 DER */
  der: string;
}

const ALGORITHMS: Record<KeyKind, EcKeyImportParams | RsaHashedImportParams> = {
  ecdsa: { name: 'ECDSA', namedCurve: 'P-256' },
  rsa: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
};

async function exportPair(kind: KeyKind, pair: KeyPairWithCert): Promise<StoredPair> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', pair.keys.privateKey);
  return { kind, key: Buffer.from(pkcs8).toString('base64'), der: Buffer.from(pair.der).toString('base64') };
}

async function importPair(stored: StoredPair): Promise<KeyPairWithCert> {
  const privateKey = await webcrypto.subtle.importKey('pkcs8', Buffer.from(stored.key, 'base64'), ALGORITHMS[stored.kind], true, ['sign']);
  const der = new Uint8Array(Buffer.from(stored.der, 'base64'));
  const spki = pkijs.Certificate.fromBER(der).subjectPublicKeyInfo.toSchema().toBER(false);
  const publicKey = await webcrypto.subtle.importKey('spki', spki, ALGORITHMS[stored.kind], true, ['verify']);
  return { keys: { privateKey, publicKey }, der };
}

/**
 * The sandbox's test PKI: a root and an issuing CA, both clearly named as test CAs, and
 * one key and certificate per identity (ECDSA P-256 on the mobile channel, RSA on the
 * smart channel), made on first use. With a data directory they are kept in `pki.json`
 * there, so certificates survive a restart; without one they live as long as the process.
 */
export class SandboxPki {
  #ca: Promise<{ root: KeyPairWithCert; issuing: KeyPairWithCert }> | undefined;
  readonly #people = new Map<string, Promise<KeyPairWithCert>>();
  readonly #file: string | undefined;
  readonly #stored: { root?: StoredPair; issuing?: StoredPair; people: Record<string, StoredPair> };

  constructor(dataDir?: string) {
    this.#file = dataDir ? join(dataDir, 'pki.json') : undefined;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the sandbox's own keys, written by it into its data folder
    this.#stored = this.#file && existsSync(this.#file) ? JSON.parse(readFileSync(this.#file, 'utf8')) : { people: {} };
  }

  #save(): void {
    if (!this.#file) return;
    mkdirSync(dirname(this.#file), { recursive: true });
    writeFileSync(this.#file, JSON.stringify(this.#stored));
  }

  get authorities(): Promise<{ root: KeyPairWithCert; issuing: KeyPairWithCert }> {
    this.#ca ??= (async () => {
      if (this.#stored.root && this.#stored.issuing) {
        return { root: await importPair(this.#stored.root), issuing: await importPair(this.#stored.issuing) };
      }
      const rootKeys = await generateKeys('ecdsa');
      const root = {
        keys: rootKeys,
        der: await issue({ subject: ROOT_NAME, issuer: ROOT_NAME, publicKey: rootKeys.publicKey, signingKey: rootKeys.privateKey, ca: true, years: 20 }),
      };
      const issuingKeys = await generateKeys('ecdsa');
      const issuing = {
        keys: issuingKeys,
        der: await issue({ subject: ISSUING_NAME, issuer: ROOT_NAME, publicKey: issuingKeys.publicKey, signingKey: rootKeys.privateKey, ca: true, years: 10 }),
      };
      this.#stored.root = await exportPair('ecdsa', root);
      this.#stored.issuing = await exportPair('ecdsa', issuing);
      this.#stored.people = {};
      this.#save();
      return { root, issuing };
    })();
    return this.#ca;
  }

  person(identity: PersonIdentity): Promise<KeyPairWithCert> {
    const key = `${identity.channel}:${identity.country}:${identity.code}`;
    let found = this.#people.get(key);
    if (!found) {
      found = (async () => {
        const { issuing } = await this.authorities;
        const stored = this.#stored.people[key];
        if (stored) return importPair(stored);
        const kind: KeyKind = identity.channel === 'mobile' ? 'ecdsa' : 'rsa';
        const keys = await generateKeys(kind);
        const subject: NameParts = [
          [OID.country, identity.country],
          [OID.commonName, `${identity.surname},${identity.givenName},${identity.code}`],
          [OID.surname, identity.surname],
          [OID.givenName, identity.givenName],
          [OID.serialNumber, `PNO${identity.country}-${identity.code}`],
        ];
        const der = await issue({ subject, issuer: ISSUING_NAME, publicKey: keys.publicKey, signingKey: issuing.keys.privateKey, ca: false, years: 3 });
        const pair = { keys, der };
        this.#stored.people[key] = await exportPair(kind, pair);
        this.#save();
        return pair;
      })();
      this.#people.set(key, found);
    }
    return found;
  }
}

function readName(name: pkijs.RelativeDistinguishedNames): Map<string, string> {
  const values = new Map<string, string>();
  for (const entry of name.typesAndValues) {
    values.set(entry.type, String((entry.value.valueBlock as { value?: unknown }).value ?? ''));
  }
  return values;
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** Certificates parsed, by their DER bytes (a person's certificate is one array for the sandbox's life). */
const parsedCertificates = new WeakMap<Uint8Array, CertificateObject>();

/** The service's certificate object of a DER certificate: parsed once, a copy each time. */
export function certificateObject(der: Uint8Array): CertificateObject {
  let parsed = parsedCertificates.get(der);
  if (!parsed) {
    parsed = parseCertificate(der);
    parsedCertificates.set(der, parsed);
  }
  return structuredClone(parsed);
}

function parseCertificate(der: Uint8Array): CertificateObject {
  const cert = pkijs.Certificate.fromBER(new Uint8Array(der));
  const subject = readName(cert.subject);
  const issuer = readName(cert.issuer);
  const get = (map: Map<string, string>, oid: string) => map.get(oid) ?? '';
  const dnOrder: [string, string][] = [
    ['C', OID.country],
    ['CN', OID.commonName],
    ['SN', OID.surname],
    ['GN', OID.givenName],
    ['serialNumber', OID.serialNumber],
  ];
  const base64Der = Buffer.from(der).toString('base64');
  return {
    name: dnOrder.map(([label, oid]) => `/${label}=${get(subject, oid)}`).join(''),
    subject: {
      country: get(subject, OID.country),
      organisation: subject.get(OID.organisation) ?? null,
      organisation_unit: subject.get(OID.organisationUnit) ?? null,
      common_name: get(subject, OID.commonName),
      surname: get(subject, OID.surname),
      name: get(subject, OID.givenName),
      serial_number: get(subject, OID.serialNumber),
    },
    issuer: {
      country: get(issuer, OID.country),
      organisation: get(issuer, OID.organisation),
      common_name: get(issuer, OID.commonName),
    },
    valid_from: isoDate(cert.notBefore.value),
    valid_to: isoDate(cert.notAfter.value),
    value: Buffer.from(base64Der, 'utf8').toString('base64'),
  };
}

import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import type { Country } from '../protocol/types.js';
import { SIGNATURE_ENTRIES } from '../protocol/proxy-rules.js';
import { canonicalPersonCode, isCountry } from './person.js';

/*
 * Who made the signature the service added in one signing session, by the certificate's subject
 * serial number (`PNO<country>-<code>`, OID 2.5.4.5). At the start the proxy remembers what the
 * uploaded file already held (a PDF's bytes by their digest; a container's signature entries, each
 * with a digest); at the end it reads exactly the signature that was added: for a PDF the signed
 * file must begin with the uploaded bytes and hold one signature in what was appended; for an
 * ASiC-E, BDOC or ADOC container every earlier signature entry must be there unchanged and one new
 * entry added. Anything else names nobody. A CA's subject carries no personal number, so the
 * persons found are the signer's.
 */

/** The DER of the attribute type serialNumber (2.5.4.5). */
const SERIAL_NUMBER_OID = Buffer.from([0x06, 0x03, 0x55, 0x04, 0x05]);
/** PrintableString and UTF8String, the two types a serial number comes in. */
const STRING_TAGS = new Set([0x13, 0x0c]);
const PERSONAL_NUMBER = /^PNO([A-Z]{2})-([0-9A-Z-]{6,20})$/;
/** A container's signature files: `signatures<N>.xml` (ASiC-E, BDOC) or `signatures/signatures<N>.xml` (ADOC). */
const SIGNATURE_ENTRY = new RegExp(SIGNATURE_ENTRIES.pattern);
const CERTIFICATE_ELEMENT = /<(?:[A-Za-z0-9_-]+:)?X509Certificate>([A-Za-z0-9+/=\s]+)<\//g;
const PDF_SIGNATURE = /\/Contents\s*<([0-9A-Fa-f\s]{128,})>/g;
/** The most a container's signature entry may inflate to. */
const ENTRY_LIMIT = SIGNATURE_ENTRIES.inflateLimit;
/** More signature entries than any real container holds: an upload with more is refused at the start. */
export const MOST_SIGNATURE_ENTRIES = SIGNATURE_ENTRIES.most;

export interface SignedPerson {
  country: Country;
  /** Canonical for the country (a Latvian code without its hyphen). */
  code: string;
}

/** What an uploaded file held before the service signed it. */
export type UploadPrint = { type: 'pdf'; length: number; sha256: string } | { type: 'container'; entries: Record<string, string> };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url');

/** Persons of subject serial numbers found anywhere in DER bytes. */
export function personsInDer(der: Buffer): SignedPerson[] {
  const found = new Map<string, SignedPerson>();
  for (let at = der.indexOf(SERIAL_NUMBER_OID); at >= 0; at = der.indexOf(SERIAL_NUMBER_OID, at + 1)) {
    const tag = der[at + 5];
    const length = der[at + 6];
    if (tag === undefined || length === undefined || !STRING_TAGS.has(tag) || length > 64) continue;
    const number = PERSONAL_NUMBER.exec(der.subarray(at + 7, at + 7 + length).toString('latin1'));
    if (!number || !isCountry(number[1]) || number[2] === undefined) continue;
    const person = { country: number[1], code: canonicalPersonCode(number[1], number[2]) };
    found.set(`${person.country}:${person.code}`, person);
  }
  return [...found.values()];
}

interface ZipEntry {
  name: string;
  method: number;
  size: number;
  offset: number;
}

/** The entries of a ZIP's central directory (no ZIP64: a container the service signs is far smaller). */
function zipEntries(file: Buffer): ZipEntry[] {
  const end = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > file.length) return [];
  const count = file.readUInt16LE(end + 10);
  let at = file.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count && at + 46 <= file.length && file.readUInt32LE(at) === 0x02014b50; i++) {
    const nameLength = file.readUInt16LE(at + 28);
    entries.push({
      method: file.readUInt16LE(at + 10),
      size: file.readUInt32LE(at + 20),
      offset: file.readUInt32LE(at + 42),
      name: file.subarray(at + 46, at + 46 + nameLength).toString('utf8'),
    });
    at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  return entries;
}

function zipEntryBytes(file: Buffer, entry: ZipEntry): Buffer | null {
  const at = entry.offset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== 0x04034b50) return null;
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  const stored = file.subarray(start, start + entry.size);
  if (entry.method === 0) return stored;
  return entry.method === 8 ? inflateRawSync(stored, { maxOutputLength: ENTRY_LIMIT }) : null;
}

const isZip = (file: Buffer) => file.subarray(0, 2).toString('latin1') === 'PK';

/** A container's signature entries, each by its digest (an entry that cannot be read by a digest of nothing). */
function signatureEntries(file: Buffer): Map<string, Buffer | null> {
  const found = new Map<string, Buffer | null>();
  if (!isZip(file)) return found;
  for (const entry of zipEntries(file)) {
    if (!SIGNATURE_ENTRY.test(entry.name)) continue;
    let bytes: Buffer | null;
    try {
      bytes = zipEntryBytes(file, entry);
    } catch {
      bytes = null;
    }
    found.set(entry.name, bytes);
  }
  return found;
}

/**
 * What the files of a signing start hold before the service signs them; null when a container
 * brings more signature entries than any real one. A PDF: the first file. A container: the
 * signature entries of the one container uploaded, and any file named like one (the service puts
 * loose files into the new container by their names).
 */
export function uploadPrint(type: 'pdf' | 'container', files: { name: string; content: Buffer }[]): UploadPrint | null {
  if (type === 'pdf') {
    const pdf = files[0]?.content ?? Buffer.alloc(0);
    return { type, length: pdf.length, sha256: sha256(pdf) };
  }
  const entries: Record<string, string> = {};
  for (const file of files) {
    if (SIGNATURE_ENTRY.test(file.name)) entries[file.name] = sha256(file.content);
  }
  const [only] = files;
  if (files.length === 1 && only) {
    for (const [name, bytes] of signatureEntries(only.content)) entries[name] = bytes ? sha256(bytes) : '';
  }
  return Object.keys(entries).length > MOST_SIGNATURE_ENTRIES ? null : { type, entries };
}

function certificatesOf(xml: string): Buffer[] {
  return [...xml.matchAll(CERTIFICATE_ELEMENT)].map((match) => Buffer.from((match[1] ?? '').replace(/\s/g, ''), 'base64'));
}

/** The one signature a PDF's incremental update appended to the uploaded bytes. */
function addedToPdf(print: Extract<UploadPrint, { type: 'pdf' }>, signed: Buffer): Buffer[] | string {
  if (signed.length <= print.length || sha256(signed.subarray(0, print.length)) !== print.sha256) return 'does not begin with the uploaded file';
  const added = [...signed.subarray(print.length).toString('latin1').matchAll(PDF_SIGNATURE)];
  const hex = added[0]?.[1];
  if (added.length !== 1 || hex === undefined) return added.length ? 'has more than one new signature' : 'has no new signature';
  return [Buffer.from(hex.replace(/\s/g, ''), 'hex')];
}

/** The one signature entry the service added to a container, every earlier one unchanged. */
function addedToContainer(print: Extract<UploadPrint, { type: 'container' }>, signed: Buffer): Buffer[] | string {
  const now = signatureEntries(signed);
  for (const [name, digest] of Object.entries(print.entries)) {
    const bytes = now.get(name);
    if (!bytes || sha256(bytes) !== digest) return 'changed or dropped a signature it already had';
  }
  const added = [...now].filter(([name]) => !(name in print.entries));
  if (added.length !== 1) return added.length ? 'has more than one new signature' : 'has no new signature';
  const xml = added[0]?.[1];
  return xml ? certificatesOf(xml.toString('utf8')) : 'has a new signature that cannot be read';
}

/**
 * Who made the signature the service added to the uploaded file: the persons its certificate
 * names, or why no one can be named (a sentence for the log).
 */
export function addedSignature(print: UploadPrint, signed: Buffer): { persons: SignedPerson[] } | { problem: string } {
  try {
    const ders = print.type === 'pdf' ? addedToPdf(print, signed) : addedToContainer(print, signed);
    if (typeof ders === 'string') return { problem: ders };
    const persons = ders.flatMap(personsInDer);
    return persons.length ? { persons } : { problem: 'has a new signature that names nobody' };
  } catch {
    return { problem: 'cannot be read' };
  }
}

import { inflateRawSync } from 'node:zlib';

/*
 * Who signed a file last, by the personal codes in the signing certificate's subject serial number
 * (`PNOLT-<code>`, OID 2.5.4.5): read from the last signature of a PDF (its CMS, in the last
 * signature dictionary's /Contents) or from the newest signature file of an ASiC-E, BDOC or ADOC
 * container. A CA's subject carries no personal number, so the codes found are the signer's.
 */

/** The DER of the attribute type serialNumber (2.5.4.5). */
const SERIAL_NUMBER_OID = Buffer.from([0x06, 0x03, 0x55, 0x04, 0x05]);
/** PrintableString and UTF8String, the two types a serial number comes in. */
const STRING_TAGS = new Set([0x13, 0x0c]);
const PERSONAL_NUMBER = /^PNO[A-Z]{2}-([0-9A-Z-]{6,20})$/;
/** Newest signature files win: `signatures<N>.xml` (ASiC-E, BDOC) or `signatures/signatures<N>.xml` (ADOC). */
const SIGNATURE_ENTRY = /^META-INF\/(?:signatures\/)?signatures(\d+)\.xml$/;
const CERTIFICATE_ELEMENT = /<(?:[A-Za-z0-9_-]+:)?X509Certificate>([A-Za-z0-9+/=\s]+)<\//g;

/** Personal codes of subject serial numbers found anywhere in DER bytes, in canonical form (no hyphen). */
export function codesInDer(der: Buffer): string[] {
  const codes: string[] = [];
  for (let at = der.indexOf(SERIAL_NUMBER_OID); at >= 0; at = der.indexOf(SERIAL_NUMBER_OID, at + 1)) {
    const tag = der[at + 5];
    const length = der[at + 6];
    if (tag === undefined || length === undefined || !STRING_TAGS.has(tag) || length > 64) continue;
    const found = PERSONAL_NUMBER.exec(der.subarray(at + 7, at + 7 + length).toString('latin1'));
    if (found) codes.push(found[1]!.replace(/-/g, ''));
  }
  return [...new Set(codes)];
}

function lastPdfSignature(file: Buffer): Buffer | null {
  const text = file.toString('latin1');
  let last: string | null = null;
  for (const match of text.matchAll(/\/Contents\s*<([0-9A-Fa-f\s]{128,})>/g)) last = match[1]!;
  return last === null ? null : Buffer.from(last.replace(/\s/g, ''), 'hex');
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
  return entry.method === 8 ? inflateRawSync(stored, { maxOutputLength: 16 * 1024 * 1024 }) : null;
}

function lastContainerSignature(file: Buffer): Buffer[] | null {
  let newest: { entry: ZipEntry; n: number } | null = null;
  for (const entry of zipEntries(file)) {
    const n = SIGNATURE_ENTRY.exec(entry.name);
    if (n && (!newest || Number(n[1]) >= newest.n)) newest = { entry, n: Number(n[1]) };
  }
  const xml = newest ? zipEntryBytes(file, newest.entry)?.toString('utf8') : undefined;
  if (!xml) return null;
  return [...xml.matchAll(CERTIFICATE_ELEMENT)].map((match) => Buffer.from(match[1]!.replace(/\s/g, ''), 'base64'));
}

/**
 * The personal codes of whoever made the file's newest signature (canonical: no hyphen), or null
 * when the file is of no kind read here or its newest signature names nobody.
 */
export function newestSignerCodes(file: Buffer): string[] | null {
  try {
    const head = file.subarray(0, 5).toString('latin1');
    const ders = head === '%PDF-' ? [lastPdfSignature(file)].filter((der): der is Buffer => der !== null) : head.startsWith('PK') ? lastContainerSignature(file) : null;
    const codes = ders ? ders.flatMap(codesInDer) : [];
    return codes.length ? codes : null;
  } catch {
    return null;
  }
}

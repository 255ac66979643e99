import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import type { FileType, ReportSignature as SimpleReportSignature } from '../types.js';
import type { TrustAnchors } from './validate-pdf.js';
import { xadesSign, xadesVerify, type XadesSigner } from './xades.js';

export type ContainerType = Exclude<FileType, 'pdf'>;

export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

export const MIMETYPES = {
  asic: 'application/vnd.etsi.asic-e+zip',
  adoc: 'application/vnd.lt.archyvai.adoc-2008',
} as const;

const ADOC_SIGNABLE = 'http://www.archyvai.lt/adoc/2008/metadata/signable';
const ADOC_UNSIGNABLE = 'http://www.archyvai.lt/adoc/2008/metadata/unsignable';
const ADOC_RELATIONS = 'http://www.archyvai.lt/adoc/2008/relationships';
const ODF_MANIFEST = 'urn:oasis:names:tc:opendocument:xmlns:manifest:1.0';
const ODF_DSIG = 'urn:oasis:names:tc:opendocument:xmlns:digitalsignature:1.0';
const ASIC = 'http://uri.etsi.org/02918/v1.2.1#';

export class UnreadableContainerError extends Error {}

export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A path as a reference URI: each segment percent-encoded. */
function uriOf(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function mediaType(name: string): string {
  const extension = name.split('.').pop()?.toLowerCase();
  const known: Record<string, string> = { pdf: 'application/pdf', txt: 'text/plain', xml: 'application/xml', png: 'image/png', jpg: 'image/jpeg' };
  return known[extension ?? ''] ?? 'application/octet-stream';
}

function signedName(name: string, type: ContainerType): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return `${stem.endsWith('_signed') ? stem : `${stem}_signed`}.${type}`;
}

function manifest(rootType: string, entries: [path: string, type: string][]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<manifest:manifest xmlns:manifest="${ODF_MANIFEST}" manifest:version="1.2">\n` +
    `  <manifest:file-entry manifest:full-path="/" manifest:media-type="${rootType}"/>\n` +
    entries.map(([path, type]) => `  <manifest:file-entry manifest:full-path="${escapeXml(path)}" manifest:media-type="${escapeXml(type)}"/>\n`).join('') +
    '</manifest:manifest>\n'
  );
}

/** Zips entries with the uncompressed mimetype first, as the container formats require. */
function zip(entries: Record<string, Uint8Array>, time: Date): Uint8Array {
  const zippable: Zippable = {};
  if (entries['mimetype']) zippable['mimetype'] = [entries['mimetype'], { level: 0 }];
  for (const [path, data] of Object.entries(entries)) if (path !== 'mimetype') zippable[path] = data;
  return zipSync(zippable, { mtime: time });
}

function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes);
  } catch (cause) {
    throw new UnreadableContainerError('not a readable container', { cause });
  }
}

/** An existing container of the family to sign in place, or null when the files must be wrapped. */
function existingContainer(files: NamedBytes[], mimetype: string): Record<string, Uint8Array> | null {
  if (files.length !== 1 || !isZip(files[0]!.bytes)) return null;
  const entries = unzip(files[0]!.bytes);
  return entries['mimetype'] && strFromU8(entries['mimetype']).trim() === mimetype ? entries : null;
}

export interface ContainerSigner extends XadesSigner {
  name: string;
}

/** ASiC-E / BDOC: every data file under one XAdES signature in META-INF/signatures<N>.xml. */
async function signAsic(type: 'asice' | 'bdoc', files: NamedBytes[], signer: ContainerSigner, time: Date): Promise<NamedBytes> {
  let entries = existingContainer(files, MIMETYPES.asic);
  if (!entries) {
    entries = { mimetype: strToU8(MIMETYPES.asic) };
    for (const file of files) entries[file.name] = file.bytes;
    entries['META-INF/manifest.xml'] = strToU8(
      manifest(
        MIMETYPES.asic,
        files.map((f) => [f.name, mediaType(f.name)]),
      ),
    );
  }
  const dataFiles = Object.keys(entries).filter((path) => path !== 'mimetype' && !path.startsWith('META-INF/') && !path.endsWith('/'));
  const existing = Object.keys(entries).filter((path) => /^META-INF\/signatures\d+\.xml$/.test(path)).length;
  const xml = await xadesSign(
    `<asic:XAdESSignatures xmlns:asic="${ASIC}"></asic:XAdESSignatures>`,
    dataFiles.map((path) => ({ uri: uriOf(path), bytes: entries[path]! })),
    signer,
    `S${existing}`,
    time,
  );
  entries[`META-INF/signatures${existing}.xml`] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>${xml}`);
  return { name: signedName(files[0]!.name, type), bytes: zip(entries, time) };
}

/** ADOC-V1.0: the main document, metadata, relations and META-INF/signatures/signatures<N>.xml. */
async function signAdoc(files: NamedBytes[], signer: ContainerSigner, time: Date): Promise<NamedBytes> {
  let entries = existingContainer(files, MIMETYPES.adoc);
  let main: string;
  if (entries) {
    const relations = strFromU8(entries['META-INF/relations.xml'] ?? new Uint8Array());
    main = /type="content\/main"[^>]*full-path="([^"]+)"/.exec(relations)?.[1] ?? '';
    if (!main || !entries[main]) throw new UnreadableContainerError('the ADOC container has no main document');
  } else {
    entries = { mimetype: strToU8(MIMETYPES.adoc) };
    main = files[0]!.name;
    for (const file of files) entries[file.name] = file.bytes;
    entries['metadata/unsignableMetadata0.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?>\n<metadata xmlns="${ADOC_UNSIGNABLE}"><standardVersion>ADOC-V1.0</standardVersion><generator>esign-elements sandbox</generator></metadata>\n`,
    );
    entries['metadata/signableMetadata0.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?>\n<metadata xmlns="${ADOC_SIGNABLE}"><document><title>${escapeXml(main)}</title><authors><author><name>${escapeXml(signer.name)}</name></author></authors></document></metadata>\n`,
    );
  }
  const existing = Object.keys(entries).filter((path) => /^META-INF\/signatures\/signatures\d+\.xml$/.test(path)).length;
  const id = `S${existing}`;
  const ownMetadata = `metadata/signableMetadata${existing + 1}.xml`;
  entries[ownMetadata] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?>\n<metadata xmlns="${ADOC_SIGNABLE}"><signature><id>${id}</id><signingTime>${time.toISOString()}</signingTime><purpose>Signing</purpose><signer>${escapeXml(signer.name)}</signer></signature></metadata>\n`,
  );
  const appendices = Object.keys(entries).filter((p) => p !== main && p !== 'mimetype' && !p.includes('/'));
  const signables = Object.keys(entries)
    .filter((p) => /^metadata\/signableMetadata\d+\.xml$/.test(p))
    .sort();
  const signatureFiles = [
    ...Object.keys(entries).filter((p) => /^META-INF\/signatures\/signatures\d+\.xml$/.test(p)),
    `META-INF/signatures/signatures${existing}.xml`,
  ];
  entries['META-INF/relations.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?>\n<relationships xmlns="${ADOC_RELATIONS}">\n  <sourcePart full-path="/">\n` +
      `    <relationship type="content/main" full-path="${escapeXml(main)}"/>\n` +
      appendices.map((p) => `    <relationship type="content/appendix" full-path="${escapeXml(p)}"/>\n`).join('') +
      signables.map((p) => `    <relationship type="metadata/signable" full-path="${p}"/>\n`).join('') +
      `    <relationship type="metadata/unsignable" full-path="metadata/unsignableMetadata0.xml"/>\n` +
      signatureFiles.map((p) => `    <relationship type="signatures" full-path="${p}"/>\n`).join('') +
      '  </sourcePart>\n</relationships>\n',
  );
  entries['META-INF/manifest.xml'] = strToU8(
    manifest(MIMETYPES.adoc, [
      ...[main, ...appendices].map((p): [string, string] => [p, mediaType(p)]),
      ['metadata/', `${MIMETYPES.adoc}#metadata-folder`],
      ...signables.map((p): [string, string] => [p, 'text/xml']),
      ['metadata/unsignableMetadata0.xml', 'text/xml'],
      ['META-INF/signatures/', `${MIMETYPES.adoc}#signatures-folder`],
      ...signatureFiles.map((p): [string, string] => [p, 'text/xml']),
      ['META-INF/relations.xml', 'text/xml'],
    ]),
  );
  const xml = await xadesSign(
    `<document-signatures xmlns="${ODF_DSIG}"></document-signatures>`,
    [main, 'metadata/signableMetadata0.xml', ownMetadata].map((path) => ({ uri: uriOf(path), bytes: entries[path]! })),
    signer,
    id,
    time,
  );
  entries[`META-INF/signatures/signatures${existing}.xml`] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>${xml}`);
  return { name: signedName(files[0]!.name, 'adoc'), bytes: zip(entries, time) };
}

/** Signs files as a container of the type: in place when they are one such container, wrapped otherwise. */
export function signContainer(type: ContainerType, files: NamedBytes[], signer: ContainerSigner, time: Date): Promise<NamedBytes> {
  return type === 'adoc' ? signAdoc(files, signer, time) : signAsic(type, files, signer, time);
}

/** The XAdES signatures of an ASiC-E, BDOC or ADOC container, checked; empty for any other ZIP. */
export async function containerSignatures(bytes: Uint8Array, trust: TrustAnchors): Promise<SimpleReportSignature[]> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch {
    return [];
  }
  const resolve = (uri: string) => {
    try {
      return entries[decodeURIComponent(uri)];
    } catch {
      return undefined;
    }
  };
  const out: SimpleReportSignature[] = [];
  const files = Object.keys(entries)
    .filter((p) => /^META-INF\/(signatures\/)?signatures\d+\.xml$/.test(p))
    .sort();
  for (const path of files) {
    const format = path.includes('/signatures/') ? 'XAdES-BASELINE-B (ADOC)' : 'XAdES-BASELINE-B';
    out.push(...(await xadesVerify(strFromU8(entries[path]!), resolve, trust, format, path)));
  }
  return out;
}

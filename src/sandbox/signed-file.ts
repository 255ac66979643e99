import { unzipSync, zipSync, strToU8, strFromU8, type Zippable } from 'fflate';
import type { FileType, SignaturePage, SignaturePosition } from '../client/types.js';
import { PdfFile } from './pdf-update.js';

/**
 * Until the sandbox makes real signatures, every "signed" file says plainly inside itself
 * that it is not validly signed: a visible note in a PDF incremental update, a note file in
 * a container. The input never comes back unchanged.
 */
export interface SandboxNote {
  signatureId: string;
  signer: string;
  code: string;
  country: string;
  channel: 'mobile' | 'smartid';
  time: string;
}

export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

export const NOTE_FILE_PREFIX = 'SANDBOX-NOT-SIGNED';
const NOTE_HEADLINE = 'SANDBOX - NOT A VALID SIGNATURE';

export const CONTAINER_MIMETYPES: Record<Exclude<FileType, 'pdf'>, string> = {
  asice: 'application/vnd.etsi.asic-e+zip',
  bdoc: 'application/vnd.etsi.asic-e+zip',
  adoc: 'application/vnd.lt.archyvai.adoc-2008',
};

export class CorruptDocumentError extends Error {}

export function signedName(name: string, type: FileType): string {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  return `${base}_signed.${type}`;
}

function ascii(text: string): string {
  return text.normalize('NFD').replace(/[^\x20-\x7e]/g, '');
}

function pdfString(text: string): string {
  return `(${ascii(text).replace(/[\\()]/g, '\\$&')})`;
}

function hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex');
}

const NOTE_SIZE = { width: 230, height: 50 };

function notePlacement(mediaBox: number[], position: SignaturePosition | undefined) {
  const [x0 = 0, y0 = 0, x1 = 595, y1 = 842] = mediaBox;
  const margin = 36;
  const left = x0 + margin;
  const right = x1 - margin - NOTE_SIZE.width;
  const bottom = y0 + margin;
  const top = y1 - margin - NOTE_SIZE.height;
  switch (position) {
    case 'left_top':
      return [left, top];
    case 'left_bottom':
      return [left, bottom];
    case 'right_top':
      return [right, top];
    default:
      return [right, bottom];
  }
}

/** Adds a visible sandbox note to a PDF as an incremental update. */
export function notePdf(
  bytes: Uint8Array,
  note: SandboxNote,
  position?: SignaturePosition,
  page: SignaturePage = 'last_page',
): Uint8Array {
  let pdf: PdfFile;
  try {
    pdf = new PdfFile(bytes);
  } catch (cause) {
    throw new CorruptDocumentError('not a readable PDF', { cause });
  }
  const pages = pdf.pages();
  const pageRef = page === 'first_page' ? pages[0] : pages[pages.length - 1];
  const marker = `/ESignSandboxNote <${hex(JSON.stringify(note))}>`;
  const objects = new Map<number, string>();
  let next = pdf.size;
  if (!pageRef) {
    // the page tree sits in object streams: keep the note in the document information only
    const info = next++;
    objects.set(info, `<< /Title ${pdfString(NOTE_HEADLINE)} /Subject ${pdfString(`${note.signer} ${note.time}`)} ${marker} >>`);
    return pdf.appendUpdate(objects, `/Info ${info} 0 R`);
  }
  const pageDict = pdf.object(pageRef) as string;
  const mediaBox = (/\/MediaBox\s*\[([^\]]*)\]/.exec(pageDict)?.[1] ?? '0 0 595 842').trim().split(/\s+/).map(Number);
  const [x, y] = notePlacement(mediaBox, position) as [number, number];
  const { width, height } = NOTE_SIZE;
  const font = next++;
  const appearance = next++;
  const annotation = next++;
  const content = [
    '1 0.96 0.84 rg 0 0 ' + `${width} ${height} re f`,
    `0.7 0.25 0 RG 1 w 0.5 0.5 ${width - 1} ${height - 1} re S`,
    'BT 0.45 0.12 0 rg /F1 9 Tf 8 ' + `${height - 15} Td ${pdfString(NOTE_HEADLINE)} Tj`,
    `0 -13 Td /F1 8 Tf ${pdfString(`Signer: ${note.signer}`)} Tj`,
    `0 -11 Td ${pdfString(`${note.time} - esign-elements sandbox`)} Tj ET`,
  ].join('\n');
  objects.set(font, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.set(
    appearance,
    `<< /Type /XObject /Subtype /Form /BBox [0 0 ${width} ${height}] /Resources << /Font << /F1 ${font} 0 R >> >> /Length ${content.length} >>\nstream\n${content}\nendstream`,
  );
  objects.set(
    annotation,
    `<< /Type /Annot /Subtype /FreeText /Rect [${x} ${y} ${x + width} ${y + height}] /F 4 /P ${pageRef} R ` +
      `/Contents ${pdfString(`${NOTE_HEADLINE}. Signer: ${note.signer}. ${note.time}`)} /DA (/Helv 9 Tf 0 g) ` +
      `/AP << /N ${appearance} 0 R >> ${marker} >>`,
  );
  const annotRef = `${annotation} 0 R`;
  let updatedPage: string;
  const inline = /\/Annots\s*\[([^\]]*)\]/.exec(pageDict);
  const indirect = /\/Annots\s+(\d+\s+\d+)\s+R/.exec(pageDict);
  if (inline) {
    updatedPage = pageDict.replace(inline[0], `/Annots [${inline[1]} ${annotRef}]`);
  } else if (indirect) {
    const existing = pdf.object(indirect[1] as string)?.replace(/^\[|\]$/g, '') ?? '';
    updatedPage = pageDict.replace(indirect[0], `/Annots [${existing} ${annotRef}]`);
  } else {
    updatedPage = `${pageDict.slice(0, -2)} /Annots [${annotRef}] >>`;
  }
  objects.set(Number(pageRef.split(/\s+/)[0]), updatedPage);
  return pdf.appendUpdate(objects, pdf.info ? `/Info ${pdf.info}` : '');
}

function noteText(note: SandboxNote): string {
  return [
    NOTE_HEADLINE,
    '',
    'The esign-elements sandbox stands in for the signing service. This container carries',
    'no valid electronic signature: this file only records who confirmed the session.',
    '',
    `Signer: ${note.signer} (${note.country}, ${note.code})`,
    `Channel: ${note.channel}`,
    `Time: ${note.time}`,
    `Signature id: ${note.signatureId}`,
    '',
    `esign-sandbox-note: ${JSON.stringify(note)}`,
    '',
  ].join('\n');
}

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function manifest(mimetype: string, names: string[]): string {
  const entries = names.map((name) => `  <manifest:file-entry manifest:full-path="${escapeXml(name)}" manifest:media-type="application/octet-stream"/>`);
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">\n' +
    `  <manifest:file-entry manifest:full-path="/" manifest:media-type="${mimetype}"/>\n` +
    `${entries.join('\n')}\n</manifest:manifest>\n`
  );
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Adds a note file to a container, or wraps loose files into a new container with the note. */
export function noteContainer(type: Exclude<FileType, 'pdf'>, files: NamedBytes[], note: SandboxNote): NamedBytes {
  const mimetype = CONTAINER_MIMETYPES[type];
  const first = files[0] as NamedBytes;
  let entries: Record<string, Uint8Array>;
  let name: string;
  if (files.length === 1 && isZip(first.bytes)) {
    try {
      entries = unzipSync(first.bytes);
    } catch (cause) {
      throw new CorruptDocumentError('not a readable container', { cause });
    }
    name = signedName(first.name, type);
  } else {
    entries = { mimetype: strToU8(mimetype) };
    for (const file of files) entries[file.name] = file.bytes;
    entries['META-INF/manifest.xml'] = strToU8(manifest(mimetype, files.map((f) => f.name)));
    name = signedName(first.name, type);
  }
  let index = 0;
  let noteName = `${NOTE_FILE_PREFIX}.txt`;
  while (noteName in entries) noteName = `${NOTE_FILE_PREFIX}-${++index}.txt`;
  const zippable: Zippable = {};
  // the mimetype entry comes first and uncompressed, as the container formats require
  if (entries['mimetype']) zippable['mimetype'] = [entries['mimetype'], { level: 0 }];
  for (const [path, data] of Object.entries(entries)) if (path !== 'mimetype') zippable[path] = data;
  zippable[noteName] = strToU8(noteText(note));
  return { name, bytes: zipSync(zippable, { mtime: new Date(note.time) }) };
}

/** The sandbox notes a stored document carries (what validation reports as signatures). */
export function readNotes(bytes: Uint8Array): SandboxNote[] {
  const notes: SandboxNote[] = [];
  if (isZip(bytes)) {
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(bytes);
    } catch {
      return notes;
    }
    for (const [path, data] of Object.entries(entries)) {
      if (!path.startsWith(NOTE_FILE_PREFIX)) continue;
      const line = /esign-sandbox-note: (.*)/.exec(strFromU8(data))?.[1];
      if (line) notes.push(JSON.parse(line) as SandboxNote);
    }
    return notes;
  }
  const text = Buffer.from(bytes).toString('latin1');
  for (const found of text.matchAll(/\/ESignSandboxNote\s*<([0-9a-f]+)>/g)) {
    notes.push(JSON.parse(Buffer.from(found[1] as string, 'hex').toString('utf8')) as SandboxNote);
  }
  return notes;
}

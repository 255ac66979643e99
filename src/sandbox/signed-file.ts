import { unzipSync, zipSync, strToU8, strFromU8, type Zippable } from 'fflate';
import type { FileType } from '../client/types.js';

/**
 * Until the sandbox signs containers for real, every "signed" container says plainly inside
 * itself that it is not validly signed: a note file beside the data files. The input never
 * comes back unchanged. (PDFs are signed for real: see pades.ts.)
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
  return notes;
}

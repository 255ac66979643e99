import type { FileType } from '../../protocol/types.js';
import { isOneOf } from '../../protocol/checks.js';

/** What a host may give as a document: a File or Blob, or a name with base64 content. */
export type SignInput = File | Blob | { name: string; content: string };

export interface SignFile {
  name: string;
  size: number;
  blob?: Blob;
  base64?: string;
}

export const FILE_TYPES: FileType[] = ['pdf', 'asice', 'adoc', 'bdoc'];

/** What the file pickers offer: exactly the types the service takes, nothing the type check would then refuse. */
export const FILE_ACCEPT = FILE_TYPES.map((type) => `.${type}`).join(',');

export const MIME_TYPES: Record<FileType, string> = {
  pdf: 'application/pdf',
  asice: 'application/vnd.etsi.asic-e+zip',
  bdoc: 'application/vnd.etsi.asic-e+zip',
  adoc: 'application/vnd.lt.archyvai.adoc-2008',
};

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function toSignFile(input: SignInput): SignFile {
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    const name = 'name' in input && typeof input.name === 'string' ? input.name : input.type === 'application/pdf' ? 'document.pdf' : 'document';
    return { name, size: input.size, blob: input };
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the branch above found both strings
  const { name, content } = input as { name: string; content: string };
  return { name, size: Math.floor((content.replace(/\s+/g, '').length * 3) / 4), base64: content };
}

export function toSignFiles(value: SignInput | SignInput[] | null | undefined): SignFile[] {
  if (!value) return [];
  return (Array.isArray(value) ? value : [value]).map(toSignFile);
}

/** The type a set of files is signed as: the host's, else the single file's, else an ASiC-E container. */
export function resolveType(hostType: FileType | '', files: SignFile[]): FileType | null {
  if (hostType) return hostType;
  if (files.length > 1) return 'asice';
  const extension = extensionOf(files[0]?.name ?? '');
  return isOneOf(FILE_TYPES, extension) ? extension : null;
}

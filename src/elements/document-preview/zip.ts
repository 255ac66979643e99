/** A file inside a signature container (ASiC-E, BDOC, ADOC are ZIP files). */
export interface ContainerEntry {
  name: string;
  size: number;
  /** Reads the file's bytes (inflating them); refuses more than the limit. */
  read(limit: number): Promise<Uint8Array>;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** Far more than any real container holds; a file claiming more is not read further. */
const MAX_ENTRIES = 10_000;

export class ContainerError extends Error {}

/**
 * The files of a ZIP container, from its central directory: names and sizes, and each file's
 * bytes on demand (stored or deflated, inflated by the browser's DecompressionStream).
 */
export function readContainer(bytes: Uint8Array): ContainerEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // the end record is within the last 64 KiB + 22 bytes (its comment is at most 64 KiB)
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ContainerError('not a ZIP container');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count > MAX_ENTRIES) throw new ContainerError('too many files');
  const names = new TextDecoder();
  const entries: ContainerEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new ContainerError('broken directory');
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    entries.push({
      name,
      size,
      read: (limit) => readEntry(bytes, view, local, method, compressed, Math.min(size, limit)),
    });
  }
  return entries;
}

async function readEntry(bytes: Uint8Array, view: DataView, local: number, method: number, compressed: number, limit: number): Promise<Uint8Array> {
  if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_HEADER) throw new ContainerError('broken file header');
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const data = bytes.subarray(start, start + compressed);
  if (method === 0) return data.subarray(0, limit);
  if (method !== 8) throw new ContainerError('unsupported compression');
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- bytes of an ArrayBuffer, which a Blob takes (the DOM types ask for a narrower buffer)
  const reader = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  // a file that inflates beyond what its directory said is not read on (a ZIP bomb stops here)
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      await reader.cancel();
      throw new ContainerError('file larger than it says');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

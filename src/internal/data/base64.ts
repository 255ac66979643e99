/** Bytes per chunk: a multiple of 3, so chunks encode to base64 that can be joined as is. */
const ENCODE_CHUNK = 3 * 256 * 1024;
/** Characters per chunk: a multiple of 4, so chunks decode on their own. */
const DECODE_CHUNK = 4 * 1024 * 1024;

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- readAsDataURL's result is a string
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(blob);
  });
}

function abortError(): DOMException {
  return new DOMException('Aborted', 'AbortError');
}

/**
 * Standard base64 of a Blob without freezing the page: the browser's own encoder
 * (FileReader) works off the main thread on 3 MiB slices, and progress is reported
 * after each.
 */
export async function blobToBase64(blob: Blob, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<string> {
  const parts: string[] = [];
  for (let offset = 0; offset < blob.size || (offset === 0 && blob.size === 0); offset += ENCODE_CHUNK) {
    if (signal?.aborted) throw abortError();
    const url = await readAsDataUrl(blob.slice(offset, offset + ENCODE_CHUNK));
    parts.push(url.slice(url.indexOf(',') + 1));
    onProgress?.(Math.min(1, (offset + ENCODE_CHUNK) / Math.max(1, blob.size)));
    if (blob.size === 0) break;
  }
  return parts.join('');
}

type Base64Decoder = (text: string) => Uint8Array;

function decoder(): Base64Decoder {
  // newer engines only: not in the DOM types of every TypeScript a host compiles with
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- Uint8Array.fromBase64 of newer engines, not in every TypeScript's DOM types
  const native = Reflect.get(Uint8Array, 'fromBase64') as Base64Decoder | undefined;
  if (native) return (text) => native(text);
  return (text) => {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  };
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A Blob from standard base64, decoded in 4 MiB slices with a pause between them. */
export async function base64ToBlob(text: string, type: string): Promise<Blob> {
  const decode = decoder();
  const clean = text.replace(/\s+/g, '');
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < clean.length; offset += DECODE_CHUNK) {
    parts.push(decode(clean.slice(offset, offset + DECODE_CHUNK)));
    if (offset + DECODE_CHUNK < clean.length) await nextTask();
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- bytes of ArrayBuffers, which a Blob takes
  return new Blob(parts as BlobPart[], { type });
}

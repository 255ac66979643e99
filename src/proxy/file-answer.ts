import { proxyError, type ProxyAnswer } from './errors.js';

const FILE_TYPES = new Set(['application/pdf', 'application/vnd.etsi.asic-e+zip', 'application/vnd.lt.archyvai.adoc-2008', 'application/octet-stream']);

/**
 * A downloaded file for the browser: its bytes as they came (no token can hide in them: such an
 * answer is refused), a content type from a short known list, and an attachment name made safe.
 */
export function fileAnswer(answer: { bytes: Buffer; contentType: string; disposition: string }, documentId: string, token: string): ProxyAnswer {
  if (answer.bytes.includes(token)) return proxyError('upstream-invalid');
  const type = (answer.contentType.split(';')[0] ?? '').trim().toLowerCase();
  const fallback = `${documentId}.${type === 'application/pdf' ? 'pdf' : type === 'application/vnd.etsi.asic-e+zip' ? 'asice' : type === 'application/vnd.lt.archyvai.adoc-2008' ? 'adoc' : 'bin'}`;
  const name = safeFileName(fileNameOf(answer.disposition) ?? fallback);
  return {
    status: 200,
    headers: {
      'content-type': FILE_TYPES.has(type) ? type : 'application/octet-stream',
      'content-disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
    body: answer.bytes,
  };
}

/** The file name of a content-disposition (`filename*=UTF-8''…` first, then `filename="…"`). */
function fileNameOf(disposition: string): string | null {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      return null;
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
}

/** A name without paths, quotes, control or direction characters, and not too long. */
function safeFileName(name: string): string {
  const clean = name
    .replace(/^.*[\\/]/, '')
    .replace(/[\u0000-\u001f\u007f"\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '_')
    .trim()
    .slice(0, 200);
  return clean && clean !== '.' && clean !== '..' ? clean : 'document';
}

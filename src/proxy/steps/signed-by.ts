import { ProxyRefusal, proxyError } from '../errors.js';
import { STATUS_OF } from '../operation-kinds.js';
import { newestSignerCodes } from '../signed-by.js';
import type { Step } from './exchange.js';
import { signerKey } from './signer.js';

/**
 * Signed by: defence in depth behind `signer`. A finished file signing of a session started for
 * the signed-in person is handed over only when the file's newest signature names that person
 * (the certificate's serial number); a signature by anyone else, or one whose signer cannot be
 * read, reaches neither `onResult` nor the browser. A hash signing's answer names nobody.
 */
export const signedBy: Step<'operation' | 'service'> = (x, { log }) => {
  const { binding, operation, service } = x;
  if (!binding?.signer || STATUS_OF[operation.id]?.kind !== 'sign' || service.value['status'] !== 'ok') return;
  const content = (service.value['file'] as { content?: unknown } | undefined)?.content;
  const codes = typeof content === 'string' ? newestSignerCodes(Buffer.from(content, 'base64')) : null;
  if (codes?.some((code) => signerKey(code) === binding.signer)) return;
  log(`[esign-proxy] a finished ${operation.id} ${codes ? 'was signed by another person than the signer' : 'names no signer that could be read'}: not handed over`);
  throw new ProxyRefusal(proxyError('signer-mismatch'));
};

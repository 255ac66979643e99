import { ProxyRefusal, proxyError } from '../errors.js';
import { STATUS_OF } from '../operation-kinds.js';
import { personDigest } from '../person.js';
import { addedSignature } from '../signed-by.js';
import type { Step } from './exchange.js';

/**
 * Signed by: defence in depth behind `signer`. A finished file signing of a session started for
 * the signed-in person is handed over only when the signature the service added in this session
 * (and no other) names that person, country and code, by its certificate's serial number; a
 * signature by anyone else, an earlier signature changed, none or two added, or one whose signer
 * cannot be read, reaches neither `onResult` nor the browser. A hash signing's answer names nobody.
 */
export const signedBy: Step<'operation' | 'service'> = (x, { log }) => {
  const { binding, operation, service } = x;
  if (!binding?.signer || STATUS_OF[operation.id]?.kind !== 'sign' || service.value['status'] !== 'ok') return;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- content is checked a string before use
  const content = (service.value['file'] as { content?: unknown } | undefined)?.content;
  const found = typeof content === 'string' && binding.upload ? addedSignature(binding.upload, Buffer.from(content, 'base64')) : { problem: 'cannot be read' };
  if ('persons' in found && found.persons.some((person) => personDigest(person.country, person.code) === binding.signer)) return;
  log(
    'error',
    `[esign-proxy] a finished ${operation.id} ${'persons' in found ? 'was signed by another person than the signer: not handed over' : `is not handed over: the signed file ${found.problem}`}`,
  );
  throw new ProxyRefusal(proxyError('signer-mismatch'));
};

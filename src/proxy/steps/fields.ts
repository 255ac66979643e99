import { ProxyRefusal, proxyError } from '../errors.js';
import { InvalidField, operationFields } from '../fields.js';
import { BodyTimeout, BodyTooLarge } from '../incoming.js';
import { SMALL_BODIES, STARTS } from '../operation-kinds.js';
import { checkStartFields } from '../start-rules.js';
import type { Step, Has } from './exchange.js';
import type { ProxySetup } from './setup.js';
import { isRecord } from '../../protocol/checks.js';

const DECODER = new TextDecoder();

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProxyRefusal(proxyError('malformed-json'));
  }
}

function refusedBody(error: unknown): never {
  if (error instanceof BodyTooLarge) throw new ProxyRefusal(proxyError('request-too-large'));
  if (error instanceof BodyTimeout) throw new ProxyRefusal(proxyError('body-timeout'));
  throw error;
}

/** The body read within its limits (a session's small, a file's large). */
function bodyBytes({ request, operation }: Has<'operation'>, setup: ProxySetup): Promise<Uint8Array> {
  try {
    return request.readBody(SMALL_BODIES.has(operation.id) ? setup.sessionBodyLimit : setup.bodyLimit, setup.timeoutFor);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** The operation's fields of a body parsed once, each checked. */
function checked(x: Has<'operation'>, body: unknown): void {
  if (!isRecord(body)) throw new ProxyRefusal(proxyError('malformed-json'));
  const { operation } = x;
  try {
    x.fields = operationFields(operation.id, body);
    if (STARTS[operation.id]) checkStartFields(x.fields);
  } catch (error) {
    if (error instanceof InvalidField) throw new ProxyRefusal(proxyError('invalid-field', { field: error.field }));
    throw error;
  }
  if (operation.id === 'generateTemporarySigningLink' && typeof x.fields['document_id'] === 'string') operation.params['documentId'] = x.fields['document_id'];
}

/**
 * Fields: the operation's own fields and nothing else, each checked (a start's person and text by
 * the start rules too); anything else in the body is dropped. A GET has none. A body a framework
 * parsed already is used as it is.
 */
export const fields: Step<'operation'> = (x, setup) => {
  if (x.request.method === 'GET') return;
  const body = x.request.parsedBody;
  if (body !== undefined) {
    setup.hint(
      'parsed-body',
      '[esign-proxy] a body parsed by another middleware reached the proxy (express.json() or the like in front of it): mount the proxy before your body parsers, ' +
        `or give them a limit of ${setup.bodyLimit / (1024 * 1024)} MB for files to sign (express.json({ limit: '${setup.bodyLimit / (1024 * 1024)}mb' })); ` +
        "with express.json()'s default of 100 kb a larger file is answered 413 by the parser before the proxy sees it. (Said once.)",
    );
  }
  if (body !== undefined) {
    // the same limits for a body read before the proxy: a session operation's is small
    const limit = SMALL_BODIES.has(x.operation.id) ? setup.sessionBodyLimit : setup.bodyLimit;
    const size =
      typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : Buffer.byteLength(JSON.stringify(body) ?? '');
    if (size > limit) throw new ProxyRefusal(proxyError('request-too-large'));
  }
  if (typeof body === 'string') return checked(x, parsed(body));
  if (body instanceof Uint8Array) return checked(x, parsed(DECODER.decode(body)));
  if (body !== undefined) return checked(x, body);
  return bodyBytes(x, setup).then((bytes) => checked(x, parsed(DECODER.decode(bytes))), refusedBody);
};

import { ProxyRefusal, proxyError } from '../errors.js';
import { InvalidField, operationFields } from '../fields.js';
import { BodyTimeout, BodyTooLarge } from '../incoming.js';
import { SMALL_BODIES, STARTS } from '../operation-kinds.js';
import { checkStartFields } from '../start-rules.js';
import type { Exchange, Step } from './exchange.js';
import type { ProxySetup } from './setup.js';

const DECODER = new TextDecoder();

/** The body as an object: read within its limits (a session's small, a file's large) and parsed once. */
async function readBody({ request, operation }: Exchange, setup: ProxySetup): Promise<unknown> {
  const body = request.parsedBody;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) return body;
  let text: string;
  if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) text = DECODER.decode(body);
  else {
    try {
      text = DECODER.decode(await request.readBody(SMALL_BODIES.has(operation.id) ? setup.sessionBodyLimit : setup.bodyLimit, setup.timeoutFor));
    } catch (error) {
      if (error instanceof BodyTooLarge) throw new ProxyRefusal(proxyError('request-too-large'));
      if (error instanceof BodyTimeout) throw new ProxyRefusal(proxyError('body-timeout'));
      throw error;
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProxyRefusal(proxyError('malformed-json'));
  }
}

/**
 * Fields: the operation's own fields and nothing else, each checked (a start's person and text by
 * the start rules too); anything else in the body is dropped. A GET has none.
 */
export const fields: Step = async (x, setup) => {
  if (x.request.method === 'GET') return;
  const body = await readBody(x, setup);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ProxyRefusal(proxyError('malformed-json'));
  const { operation } = x;
  try {
    x.fields = operationFields(operation.id, body as Record<string, unknown>);
    if (STARTS[operation.id]) checkStartFields(x.fields);
  } catch (error) {
    if (error instanceof InvalidField) throw new ProxyRefusal(proxyError('invalid-field', { field: error.field }));
    throw error;
  }
  if (operation.id === 'generateTemporarySigningLink' && typeof x.fields['document_id'] === 'string') operation.params['documentId'] = x.fields['document_id'];
};

import { proxyError } from '../errors.js';
import { isJsonContentType } from '../origin.js';
import type { Step } from './exchange.js';

/** Content type: a body is JSON, whatever parsed it before the proxy (a form or text parser of the host's framework). */
export const contentType: Step = ({ request }) => {
  if (request.method !== 'GET' && !isJsonContentType(request.header('content-type'))) return proxyError('unsupported-media-type');
};

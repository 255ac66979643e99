import { proxyError } from '../errors.js';
import { isAllowedOrigin, pageSchemes } from '../origin.js';
import type { Step } from './exchange.js';

/** Origin: a request from a page of another site is refused (`cross-site`), whatever it asks. */
export const origin: Step = ({ request }, { options }) => {
  const schemes = pageSchemes(options.publicScheme, request.secure, request.host);
  if (!isAllowedOrigin(request.header, request.host, options.allowedOrigins ?? [], schemes)) return proxyError('cross-site');
};

import type { ProxyErrorKind } from '../protocol/types.js';
import type { HostHook, RateLimitName, RefusalReason } from './events.js';

/** What the proxy answers: status, headers and a JSON (or, for downloads, binary) body. */
export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** `Set-Cookie` lines of the host's, beside the proxy's own visitor cookie (a new session at a login). */
  cookies?: readonly string[];
  /** The proxy's own refusal or failure this answer says (for its events; not sent). */
  kind?: ProxyErrorKind;
}

export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

const KINDS: Record<ProxyErrorKind, [status: number, message: string]> = {
  'operation-not-allowed': [404, 'Not an operation of the service'],
  'operation-disabled': [403, 'This operation is not enabled on this proxy'],
  'cross-site': [403, 'Requests from other sites are not accepted'],
  'unsupported-media-type': [415, 'Request body must be application/json'],
  'malformed-json': [400, 'Request body must be a JSON object'],
  'invalid-field': [400, 'A field has the wrong type'],
  'request-too-large': [413, 'Request body is too large'],
  'body-timeout': [408, 'The request body did not arrive in time'],
  forbidden: [403, 'Not allowed for this request'],
  'signer-mismatch': [403, 'Signing is allowed only as the person signed in to this site'],
  'signer-unknown': [403, 'Nobody is signed in to this site to sign as'],
  'rate-limited': [429, 'Too many sessions started; try again later'],
  'host-error': [500, 'The host could not process this request'],
  'site-refused': [409, 'The site did not accept this result'],
  'store-unavailable': [503, 'The proxy cannot check this request right now; try again in a moment'],
  'upstream-unreachable': [502, 'The service could not be reached'],
  'upstream-timeout': [504, 'The service did not answer in time'],
  'upstream-invalid': [502, 'The service answered with something other than JSON'],
  'upstream-redirect': [502, 'The service answered with a redirect, which is not followed'],
  'upstream-too-large': [502, 'The service answered with more than the proxy accepts'],
};

export function proxyStatus(kind: ProxyErrorKind): number {
  return KINDS[kind][0];
}

/** The proxy's own JSON error answer: `{status: "error", message, proxy_error, ...extra}`. */
export function proxyError(kind: ProxyErrorKind, extra: Record<string, string | number> = {}, headers: Record<string, string> = {}): ProxyAnswer {
  const [status, message] = KINDS[kind];
  return {
    status,
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify({ status: 'error', message, proxy_error: kind, ...extra }),
    kind,
  };
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): ProxyAnswer {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

/** A refusal that ends request processing early; carries its answer. */
export class ProxyRefusal extends Error {
  constructor(
    readonly answer: ProxyAnswer,
    /** For the events: a refusal its answer's kind does not name, or the host hook that failed. */
    readonly why: { reason?: RefusalReason; hook?: HostHook; limit?: RateLimitName } = {},
  ) {
    super('refused');
  }
}

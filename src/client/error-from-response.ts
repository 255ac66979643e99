import { EsignError, type EsignErrorCode, type EsignErrorInit } from './errors.js';
import type { ErrorResponse } from '../protocol/types.js';

/*
 * How an error answer of the service or of the proxy reads as an EsignError: a module of its own,
 * so that an element's first file, which only makes and shows errors, does not carry the maps.
 */

const SERVICE_CODES: Record<number, EsignErrorCode> = {
  0: 'invalid-input',
  40001: 'invalid-input',
  40003: 'unauthorized',
  40004: 'invalid-input',
  40005: 'invalid-input',
  40020: 'refused',
  40021: 'expired',
  40022: 'document-corrupted',
  40401: 'not-a-user',
  40402: 'session-not-found',
  40403: 'not-qualified',
  40801: 'certificate-timeout',
  50000: 'service-error',
  50001: 'provider-error',
  50002: 'service-unreachable',
  50003: 'not-permitted',
  50004: 'misconfigured',
};

/**
 * The proxy's own refusals (`proxy_error`), by their HTTP status: the statuses are the proxy's
 * contract (README), and a map by number is smaller in the browser than one by kind.
 */
const PROXY_CODES: Record<number, EsignErrorCode> = {
  400: 'invalid-input',
  403: 'not-permitted',
  404: 'operation-not-allowed',
  408: 'network',
  // the host's site refused a finished session's result (its webhook answered 4xx): the session has ended
  409: 'site-refused',
  413: 'request-too-large',
  415: 'misconfigured',
  429: 'rate-limited',
  500: 'service-error',
  502: 'service-unreachable',
  // the proxy's store is away for a moment: a poll goes on, a start may be tried again
  503: 'service-unreachable',
  504: 'timeout',
};

const FIELD_IN_MESSAGE = /\[([A-Za-z_.\d]+)\]/;
/** The field a service code names (40001 names its own in the message). */
const SERVICE_FIELDS: Record<number, string> = { 40004: 'phone', 40005: 'code', 0: 'file' };
const NOT_FOUND_MESSAGE = /not found|nerasta/i;

/** Reads a `{status: "error"}` body (of the service or of the proxy) into an EsignError. */
export function errorFromResponse(body: ErrorResponse, httpStatus?: number, retryAfterHeader?: string | null, requestId?: string | null): EsignError {
  const message = typeof body.message === 'string' && body.message ? body.message : 'Unknown error';
  const init: EsignErrorInit = {};
  if (httpStatus !== undefined) init.httpStatus = httpStatus;
  if (requestId) init.requestId = requestId;
  const status = httpStatus ?? 0;
  // a 429 of any proxy (a host's own may say only Retry-After) is the rate limit
  const proxyCode = status === 429 || (body.proxy_error && httpStatus !== undefined) ? PROXY_CODES[status] : undefined;
  const serviceCode = typeof body.error_code === 'number' ? body.error_code : undefined;
  let code: EsignErrorCode;
  if (proxyCode) {
    // the proxy's signing gate (403 signer-mismatch, signer-unknown) says who may sign: its own codes
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- signer-mismatch and signer-unknown are the proxy's only signer codes, both EsignErrorCodes
    code = body.proxy_error?.startsWith('signer') ? (body.proxy_error as EsignErrorCode) : proxyCode;
    // a node under a burst (429 busy) is the service away for a moment, not the person's limit
    if (body.proxy_error === 'busy') code = 'service-unreachable';
    if (typeof body.field === 'string') init.field = body.field;
    const wait = Number(body.retry_after ?? retryAfterHeader ?? NaN);
    if (wait >= 0) init.retryAfter = Math.ceil(wait);
  } else if (serviceCode !== undefined) {
    init.serviceCode = serviceCode;
    code = SERVICE_CODES[serviceCode] ?? (serviceCode >= 50000 ? 'service-error' : 'unknown');
    const field = SERVICE_FIELDS[serviceCode] ?? (serviceCode === 40001 ? FIELD_IN_MESSAGE.exec(message)?.[1] : undefined);
    if (field) init.field = field;
  } else if (NOT_FOUND_MESSAGE.test(message) || status === 404) {
    code = 'document-not-found';
  } else {
    code = status === 401 ? 'unauthorized' : status >= 500 ? 'service-error' : status >= 400 ? 'invalid-input' : 'unknown';
  }
  return new EsignError(code, message, init);
}

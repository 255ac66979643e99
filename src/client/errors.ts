import type { ErrorResponse } from './types.js';

/**
 * The closed set of error codes, grouped by cause:
 * - person: what the person did or is (refused, expired, not a user, not qualified, certificate timeout)
 * - input: what was sent (invalid input with `field`, corrupted document)
 * - service: the service or its providers (session or document not found, 5000x)
 * - network: the way there (network, timeout)
 * - caller: the host's setup (unauthorized, not permitted, misconfigured, proxy refusals)
 * - flow: the person or host stopped it (cancelled)
 */
export const ERROR_GROUPS = {
  refused: 'person',
  expired: 'person',
  'not-a-user': 'person',
  'not-qualified': 'person',
  'certificate-timeout': 'person',
  'rate-limited': 'person',
  'invalid-input': 'input',
  'document-corrupted': 'input',
  'session-not-found': 'service',
  'document-not-found': 'service',
  'signer-not-found': 'service',
  'service-error': 'service',
  'provider-error': 'service',
  'service-unreachable': 'service',
  network: 'network',
  timeout: 'network',
  unauthorized: 'caller',
  'not-permitted': 'caller',
  misconfigured: 'caller',
  'operation-not-allowed': 'caller',
  'request-too-large': 'caller',
  cancelled: 'flow',
  unknown: 'service',
} as const;

export type EsignErrorCode = keyof typeof ERROR_GROUPS;
export type EsignErrorGroup = (typeof ERROR_GROUPS)[EsignErrorCode];
export const ERROR_CODES = /* @__PURE__ */ Object.keys(ERROR_GROUPS) as EsignErrorCode[];

/** Codes for which trying the same thing again can help. */
const RETRYABLE: ReadonlySet<EsignErrorCode> = new Set<EsignErrorCode>([
  'refused',
  'expired',
  'certificate-timeout',
  'rate-limited',
  'session-not-found',
  'service-error',
  'provider-error',
  'service-unreachable',
  'network',
  'timeout',
  'cancelled',
  'unknown',
]);

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
  413: 'request-too-large',
  415: 'misconfigured',
  429: 'rate-limited',
  500: 'service-error',
  502: 'service-unreachable',
  // the proxy's store is away for a moment: a poll goes on, a start may be tried again
  503: 'service-unreachable',
  504: 'timeout',
};

export interface EsignErrorDetail {
  code: EsignErrorCode;
  message: string;
  retryable: boolean;
  field?: string;
  serviceCode?: number;
  /** With `rate-limited`: seconds until a new attempt is allowed. */
  retryAfter?: number;
  cause?: unknown;
}

export interface EsignErrorInit {
  field?: string;
  retryAfter?: number;
  serviceCode?: number;
  httpStatus?: number;
  cause?: unknown;
  retryable?: boolean;
}

/** The one error type of the client and the elements. */
export class EsignError extends Error {
  override readonly name = 'EsignError';
  readonly code: EsignErrorCode;
  readonly group: EsignErrorGroup;
  readonly retryable: boolean;
  readonly field?: string;
  readonly serviceCode?: number;
  readonly httpStatus?: number;
  readonly retryAfter?: number;

  constructor(code: EsignErrorCode, message: string, init: EsignErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.group = ERROR_GROUPS[code];
    this.retryable = init.retryable ?? RETRYABLE.has(code);
    // only what is known: an absent field stays absent (not `undefined`) on the error and its detail
    for (const key of ['field', 'serviceCode', 'httpStatus', 'retryAfter'] as const) {
      if (init[key] !== undefined) (this as Record<typeof key, unknown>)[key] = init[key];
    }
  }

  /** The `esign-error` event detail of design.md. */
  toDetail(message: string = this.message): EsignErrorDetail {
    const detail: EsignErrorDetail = { code: this.code, message, retryable: this.retryable };
    for (const key of ['field', 'serviceCode', 'retryAfter', 'cause'] as const) {
      if (this[key] !== undefined) (detail as Record<typeof key, unknown>)[key] = this[key];
    }
    return detail;
  }
}

const FIELD_IN_MESSAGE = /\[([A-Za-z_.\d]+)\]/;
/** The field a service code names (40001 names its own in the message). */
const SERVICE_FIELDS: Record<number, string> = { 40004: 'phone', 40005: 'code', 0: 'file' };
const NOT_FOUND_MESSAGE = /not found|nerasta/i;

/** Reads a `{status: "error"}` body (of the service or of the proxy) into an EsignError. */
export function errorFromResponse(body: ErrorResponse, httpStatus?: number, retryAfterHeader?: string | null): EsignError {
  const message = typeof body.message === 'string' && body.message ? body.message : 'Unknown error';
  const init: EsignErrorInit = {};
  if (httpStatus !== undefined) init.httpStatus = httpStatus;
  // a 429 of any proxy (a host's own may say only Retry-After) is the rate limit
  const proxyCode = httpStatus === 429 || (body.proxy_error && httpStatus !== undefined) ? PROXY_CODES[httpStatus as number] : undefined;
  if (proxyCode) {
    if (typeof body.field === 'string') init.field = body.field;
    const wait = Number(body.retry_after ?? retryAfterHeader ?? NaN);
    if (wait >= 0) init.retryAfter = Math.ceil(wait);
    return new EsignError(proxyCode, message, init);
  }
  const serviceCode = typeof body.error_code === 'number' ? body.error_code : undefined;
  if (serviceCode !== undefined) {
    init.serviceCode = serviceCode;
    const code = SERVICE_CODES[serviceCode] ?? (serviceCode >= 50000 ? 'service-error' : 'unknown');
    const field = SERVICE_FIELDS[serviceCode] ?? (serviceCode === 40001 ? FIELD_IN_MESSAGE.exec(message)?.[1] : undefined);
    if (field) init.field = field;
    return new EsignError(code, message, init);
  }
  if (NOT_FOUND_MESSAGE.test(message) || httpStatus === 404) {
    return new EsignError('document-not-found', message, init);
  }
  if (httpStatus === 401) return new EsignError('unauthorized', message, init);
  const status = httpStatus ?? 0;
  if (status >= 500) return new EsignError('service-error', message, init);
  if (status >= 400) return new EsignError('invalid-input', message, init);
  return new EsignError('unknown', message, init);
}

export function cancelledError(cause?: unknown): EsignError {
  return new EsignError('cancelled', 'Cancelled', { cause });
}

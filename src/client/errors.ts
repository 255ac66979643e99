import { keysOf } from '../protocol/checks.js';

/**
 * The closed set of error codes, grouped by cause:
 * - person: what the person did or is (refused, expired, not a user, not qualified, certificate
 *   timeout, signing as someone else than the person logged in to the site, or logged in as nobody)
 * - input: what was sent (invalid input with `field`, corrupted document)
 * - service: the service or its providers (session or document not found, 5000x)
 * - network: the way there (network, timeout)
 * - caller: the host's setup (unauthorized, not permitted, misconfigured, proxy refusals) or its
 *   decision (the site refused a finished session's result)
 * - flow: the person or host stopped it (cancelled)
 */
export const ERROR_GROUPS = {
  refused: 'person',
  expired: 'person',
  'not-a-user': 'person',
  'not-qualified': 'person',
  'certificate-timeout': 'person',
  'rate-limited': 'person',
  'signer-mismatch': 'person',
  'signer-unknown': 'person',
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
  'site-refused': 'caller',
  cancelled: 'flow',
  unknown: 'service',
} as const;

export type EsignErrorCode = keyof typeof ERROR_GROUPS;
export type EsignErrorGroup = (typeof ERROR_GROUPS)[EsignErrorCode];
export const ERROR_CODES = /* @__PURE__ */ keysOf(ERROR_GROUPS);

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

export interface EsignErrorDetail {
  code: EsignErrorCode;
  message: string;
  retryable: boolean;
  field?: string;
  serviceCode?: number;
  /** With `rate-limited`: seconds until a new attempt is allowed. */
  retryAfter?: number;
  /** The proxy's id of the request that failed (its `x-request-id`): what to look for in the host's log. */
  requestId?: string;
  cause?: unknown;
}

export interface EsignErrorInit {
  field?: string;
  retryAfter?: number;
  serviceCode?: number;
  httpStatus?: number;
  requestId?: string;
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
  /** The proxy's id of the request that failed (its answer's `x-request-id`), when it answered. */
  readonly requestId?: string;

  constructor(code: EsignErrorCode, message: string, init: EsignErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.group = ERROR_GROUPS[code];
    this.retryable = init.retryable ?? RETRYABLE.has(code);
    // only what is known: an absent field stays absent (not `undefined`) on the error and its detail
    for (const key of ['field', 'serviceCode', 'httpStatus', 'retryAfter', 'requestId'] as const) {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- copies an optional field of the same name and type
      if (init[key] !== undefined) (this as Record<typeof key, unknown>)[key] = init[key];
    }
  }

  /** The `esign-error` event detail (docs/elements.md, Errors). */
  toDetail(message: string = this.message): EsignErrorDetail {
    const detail: EsignErrorDetail = { code: this.code, message, retryable: this.retryable };
    for (const key of ['field', 'serviceCode', 'retryAfter', 'requestId', 'cause'] as const) {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- copies an optional field of the same name and type
      if (this[key] !== undefined) (detail as Record<typeof key, unknown>)[key] = this[key];
    }
    return detail;
  }
}

export function cancelledError(cause?: unknown): EsignError {
  return new EsignError('cancelled', 'Cancelled', { cause });
}

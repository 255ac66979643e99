import { EsignError, cancelledError, errorFromResponse, type EsignErrorCode } from './errors.js';
import { OPERATIONS, buildPath, type OperationId, type ServiceLocale } from './operations.js';
import { serializeJson } from './json.js';
import { poll, type PollOptions } from './poll.js';
import type {
  ErrorResponse,
  HashSignStatusResponse,
  IdentificationStatusResponse,
  InviteSignerRequest,
  InviteSignerResponse,
  MobileHashSignRequest,
  MobileLoginRequest,
  MobileLoginResponse,
  MobileSignRequest,
  OkResponse,
  RemoveDocumentResponse,
  RemoveTemporarySignerRequest,
  SessionStartResponse,
  SignStatusResponse,
  SignersListResponse,
  SmartIdHashSignRequest,
  SmartIdLoginRequest,
  SmartIdLoginResponse,
  SmartIdSignRequest,
  TemporarySigningLink,
  TemporarySigningLinkRequest,
  TemporarySigningLinkResponse,
  UploadDocumentRequest,
  UploadDocumentResponse,
  ValidationResponse,
  WaitingResponse,
} from './types.js';

export interface EsignClientOptions {
  /** Base URL of the host's proxy, e.g. `/esign` or `https://host.example/esign`. */
  endpoint: string;
  /** UI language; `lt` selects the service's plain paths, any other the `/en` ones. */
  lang?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export type Channel = 'mobile' | 'smartid';
/** A session kind: which start created the token, so which status endpoint answers for it. */
export type SessionKind = 'login' | 'sign' | 'hash';

type Status<T> = T | WaitingResponse;

interface StatusResponses {
  login: IdentificationStatusResponse;
  sign: SignStatusResponse;
  hash: HashSignStatusResponse;
}

const STATUS_OPERATION: Record<Channel, Record<SessionKind, OperationId>> = {
  mobile: { login: 'mobileLoginStatus', sign: 'mobileSignStatus', hash: 'mobileHashSignStatus' },
  smartid: { login: 'smartIdLoginStatus', sign: 'smartIdSignStatus', hash: 'smartIdHashSignStatus' },
};

/** Default time limits: the providers end sessions after about 2 (mobile) and 3 (smart) minutes. */
export const DEFAULT_TIME_LIMIT: Record<Channel, number> = { mobile: 150_000, smartid: 210_000 };

/**
 * What a "not found" without an error code is about, for the operations where it is not a
 * document: session removal (`Request number is invalid`) and temporary signer removal,
 * which says "not found" for a missing signer as well as for a missing document.
 */
function notFoundCode(id: OperationId, message: string): EsignErrorCode | null {
  if (id === 'removeMobileSession' || id === 'removeSmartIdSession') return 'session-not-found';
  if (id === 'removeTemporarySigner' && !/document/i.test(message)) return 'signer-not-found';
  return null;
}

export function serviceLocale(lang: string | undefined): ServiceLocale {
  return lang?.toLowerCase().startsWith('lt') ? 'lt' : 'en';
}

/**
 * Typed client of the service through the host's proxy: one method per operation. Every
 * failure is an {@link EsignError}; the JSON body is read whatever the HTTP status.
 */
export class EsignClient {
  readonly endpoint: string;
  readonly locale: ServiceLocale;
  readonly #fetch: typeof fetch;

  constructor(options: EsignClientOptions) {
    this.endpoint = options.endpoint.replace(/\/+$/, '');
    this.locale = serviceLocale(options.lang);
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Sends one operation and returns its `ok` (or `waiting`) body; throws EsignError otherwise. */
  async request<T>(
    id: OperationId,
    body: object,
    params: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<T> {
    let path: string;
    try {
      path = buildPath(id, params, this.locale);
    } catch (cause) {
      const field = Object.keys(params)[0];
      throw new EsignError('invalid-input', (cause as Error).message, { cause, ...(field ? { field } : {}) });
    }
    const { method } = OPERATIONS[id];
    let response: Response;
    try {
      response = await this.#fetch(`${this.endpoint}${path}`, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: serializeJson(body),
        credentials: 'same-origin',
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cancelledError(cause);
      throw new EsignError('network', 'The service could not be reached', { cause });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      if (options.signal?.aborted) throw cancelledError(cause);
      throw new EsignError('network', 'The answer broke off', { cause });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new EsignError('network', `The answer was not JSON (HTTP ${response.status})`, {
        cause,
        httpStatus: response.status,
      });
    }
    if (typeof json !== 'object' || json === null || typeof (json as { status?: unknown }).status !== 'string') {
      throw new EsignError('network', `The answer had no status (HTTP ${response.status})`, {
        httpStatus: response.status,
      });
    }
    const status = (json as { status: string }).status;
    if (status === 'ok' || status === 'waiting') return json as T;
    const error = errorFromResponse(json as ErrorResponse, response.status, response.headers.get('retry-after'));
    const notFound = error.code === 'document-not-found' ? notFoundCode(id, error.message) : null;
    if (!notFound) throw error;
    throw new EsignError(notFound, error.message, { cause: error, httpStatus: response.status });
  }

  // --- authentication ---------------------------------------------------------------------

  mobileLogin(body: MobileLoginRequest, options?: RequestOptions): Promise<MobileLoginResponse> {
    return this.request('mobileLogin', body, {}, options);
  }

  smartIdLogin(body: SmartIdLoginRequest, options?: RequestOptions): Promise<SmartIdLoginResponse> {
    return this.request('smartIdLogin', body, {}, options);
  }

  mobileLoginStatus(token: string, options?: RequestOptions): Promise<Status<IdentificationStatusResponse>> {
    return this.request('mobileLoginStatus', {}, { token }, options);
  }

  smartIdLoginStatus(token: string, options?: RequestOptions): Promise<Status<IdentificationStatusResponse>> {
    return this.request('smartIdLoginStatus', {}, { token }, options);
  }

  // --- file signing -----------------------------------------------------------------------

  mobileSign(body: MobileSignRequest, options?: RequestOptions): Promise<SessionStartResponse> {
    return this.request('mobileSign', body, {}, options);
  }

  smartIdSign(body: SmartIdSignRequest, options?: RequestOptions): Promise<SessionStartResponse> {
    return this.request('smartIdSign', body, {}, options);
  }

  mobileSignStatus(token: string, options?: RequestOptions): Promise<Status<SignStatusResponse>> {
    return this.request('mobileSignStatus', {}, { token }, options);
  }

  smartIdSignStatus(token: string, options?: RequestOptions): Promise<Status<SignStatusResponse>> {
    return this.request('smartIdSignStatus', {}, { token }, options);
  }

  // --- hash signing -----------------------------------------------------------------------

  mobileHashSign(body: MobileHashSignRequest, options?: RequestOptions): Promise<SessionStartResponse> {
    return this.request('mobileHashSign', body, {}, options);
  }

  smartIdHashSign(body: SmartIdHashSignRequest, options?: RequestOptions): Promise<SessionStartResponse> {
    return this.request('smartIdHashSign', body, {}, options);
  }

  mobileHashSignStatus(token: string, options?: RequestOptions): Promise<Status<HashSignStatusResponse>> {
    return this.request('mobileHashSignStatus', {}, { token }, options);
  }

  smartIdHashSignStatus(token: string, options?: RequestOptions): Promise<Status<HashSignStatusResponse>> {
    return this.request('smartIdHashSignStatus', {}, { token }, options);
  }

  // --- sessions ---------------------------------------------------------------------------

  removeMobileSession(sessionId: string, options?: RequestOptions): Promise<OkResponse> {
    return this.request('removeMobileSession', {}, { sessionId }, options);
  }

  removeSmartIdSession(sessionId: string, options?: RequestOptions): Promise<OkResponse> {
    return this.request('removeSmartIdSession', {}, { sessionId }, options);
  }

  /** The status endpoint for a session of this channel and kind. */
  status<K extends SessionKind>(
    channel: Channel,
    kind: K,
    token: string,
    options?: RequestOptions,
  ): Promise<Status<StatusResponses[K]>> {
    return this.request(STATUS_OPERATION[channel][kind], {}, { token }, options);
  }

  /** Polls a session until it ends; resolves with its `ok` answer, rejects with EsignError. */
  waitForResult<K extends SessionKind>(
    channel: Channel,
    kind: K,
    token: string,
    options: PollOptions = {},
  ): Promise<StatusResponses[K]> {
    return poll<StatusResponses[K]>((signal) => this.status(channel, kind, token, signal ? { signal } : {}), {
      timeLimit: DEFAULT_TIME_LIMIT[channel],
      ...options,
    });
  }

  // --- documents --------------------------------------------------------------------------

  uploadDocument(body: UploadDocumentRequest, options?: RequestOptions): Promise<UploadDocumentResponse> {
    return this.request('uploadDocument', body, {}, options);
  }

  inviteSigner(documentId: string, body: InviteSignerRequest, options?: RequestOptions): Promise<InviteSignerResponse> {
    return this.request('inviteSigner', body, { documentId }, options);
  }

  validateDocument(documentId: string, options?: RequestOptions): Promise<ValidationResponse> {
    return this.request('validateDocument', {}, { documentId }, options);
  }

  removeDocument(documentId: string, options?: RequestOptions): Promise<RemoveDocumentResponse> {
    return this.request('removeDocument', {}, { documentId }, options);
  }

  generateTemporarySigningLink(
    body: TemporarySigningLinkRequest,
    options?: RequestOptions,
  ): Promise<TemporarySigningLinkResponse> {
    return this.request('generateTemporarySigningLink', body, {}, options);
  }

  removeTemporarySigner(documentId: string, body: RemoveTemporarySignerRequest, options?: RequestOptions): Promise<OkResponse> {
    return this.request('removeTemporarySigner', body, { documentId }, options);
  }

  listSigners(documentId: string, options?: RequestOptions): Promise<SignersListResponse> {
    return this.request('listSigners', {}, { documentId }, options);
  }
}

/** Reads both answer forms of the temporary-link operation into `{url, validUntil}` entries. */
export function readTemporarySigningLinks(response: TemporarySigningLinkResponse): TemporarySigningLink[] {
  const entries =
    'temporary_signing_links' in response && Array.isArray(response.temporary_signing_links)
      ? response.temporary_signing_links
      : 'temporary_signing_link' in response
        ? [response]
        : [];
  return entries.map((entry) => ({
    url: entry.temporary_signing_link,
    validUntil: new Date(Number(entry.valid_until) * 1000),
  }));
}

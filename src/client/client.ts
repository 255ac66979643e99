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
  DocumentStatusResponse,
  ValidateFileRequest,
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
  if (id.endsWith('Session')) return 'session-not-found';
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
        // the GETs have no body: the proxy adds the token to their query
        ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: serializeJson(body) }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (cause) {
      if (options.signal?.aborted) throw cancelledError(cause);
      throw new EsignError('network', 'Service unreachable', { cause });
    }
    // a downloaded file: the bytes, named as the proxy says
    if (id === 'downloadDocument' && response.ok && !/json/.test(response.headers.get('content-type') ?? '')) {
      const name = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
      const blob = await response.blob();
      return new File([blob], name ? decodeURIComponent(name) : 'document', { type: blob.type }) as T;
    }
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      if (options.signal?.aborted) throw cancelledError(cause);
      throw new EsignError('network', 'The answer broke off', { cause });
    }
    let json: { status?: unknown } | null = null;
    try {
      json = JSON.parse(text) as { status?: unknown } | null;
    } catch {
      // not JSON: an error page of something on the way
    }
    if (typeof json?.status !== 'string') {
      throw new EsignError('network', `Not the service's JSON (HTTP ${response.status})`, { httpStatus: response.status });
    }
    const status = (json as { status: string }).status;
    if (status === 'ok' || status === 'waiting') return json as T;
    const error = errorFromResponse(json as ErrorResponse, response.status, response.headers.get('retry-after'));
    const notFound = error.code === 'document-not-found' ? notFoundCode(id, error.message) : null;
    if (!notFound) throw error;
    throw new EsignError(notFound, error.message, { cause: error, httpStatus: response.status });
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

}

/** Reads both answer forms of the temporary-link operation into `{url, validUntil}` entries. */
/** One method per operation, made from the operation table (see below). */
export interface EsignClient {
  mobileLogin(body: MobileLoginRequest, options?: RequestOptions): Promise<MobileLoginResponse>;
  smartIdLogin(body: SmartIdLoginRequest, options?: RequestOptions): Promise<SmartIdLoginResponse>;
  mobileLoginStatus(token: string, options?: RequestOptions): Promise<Status<IdentificationStatusResponse>>;
  smartIdLoginStatus(token: string, options?: RequestOptions): Promise<Status<IdentificationStatusResponse>>;
  mobileSign(body: MobileSignRequest, options?: RequestOptions): Promise<SessionStartResponse>;
  smartIdSign(body: SmartIdSignRequest, options?: RequestOptions): Promise<SessionStartResponse>;
  mobileSignStatus(token: string, options?: RequestOptions): Promise<Status<SignStatusResponse>>;
  smartIdSignStatus(token: string, options?: RequestOptions): Promise<Status<SignStatusResponse>>;
  mobileHashSign(body: MobileHashSignRequest, options?: RequestOptions): Promise<SessionStartResponse>;
  smartIdHashSign(body: SmartIdHashSignRequest, options?: RequestOptions): Promise<SessionStartResponse>;
  mobileHashSignStatus(token: string, options?: RequestOptions): Promise<Status<HashSignStatusResponse>>;
  smartIdHashSignStatus(token: string, options?: RequestOptions): Promise<Status<HashSignStatusResponse>>;
  removeMobileSession(sessionId: string, options?: RequestOptions): Promise<OkResponse>;
  removeSmartIdSession(sessionId: string, options?: RequestOptions): Promise<OkResponse>;
  uploadDocument(body: UploadDocumentRequest, options?: RequestOptions): Promise<UploadDocumentResponse>;
  inviteSigner(documentId: string, body: InviteSignerRequest, options?: RequestOptions): Promise<InviteSignerResponse>;
  validateDocument(documentId: string, options?: RequestOptions): Promise<ValidationResponse>;
  removeDocument(documentId: string, options?: RequestOptions): Promise<RemoveDocumentResponse>;
  generateTemporarySigningLink(
    body: TemporarySigningLinkRequest,
    options?: RequestOptions,
  ): Promise<TemporarySigningLinkResponse>;
  removeTemporarySigner(documentId: string, body: RemoveTemporarySignerRequest, options?: RequestOptions): Promise<OkResponse>;
  listSigners(documentId: string, options?: RequestOptions): Promise<SignersListResponse>;
  /** The document's state: `saved`, `signing`, `signed`, or another value of the service's. */
  checkDocumentStatus(documentId: string, options?: RequestOptions): Promise<DocumentStatusResponse>;
  /** The stored (signed, once signed) file, named and typed. */
  downloadDocument(documentId: string, options?: RequestOptions): Promise<File>;
  /** Validates a file that is not stored: the report of a stored document's validation. */
  validateFile(body: ValidateFileRequest, options?: RequestOptions): Promise<ValidationResponse>;
}

/** Operations that take a URL parameter and a body (all others take one or the other). */
const PARAM_AND_BODY: ReadonlySet<OperationId> = new Set(['inviteSigner', 'removeTemporarySigner']);

// every operation as a method: `(param?, body?, options?)`, as the path and the table say
for (const id of Object.keys(OPERATIONS) as OperationId[]) {
  const param = /\{(\w+)\}/.exec(OPERATIONS[id].path)?.[1];
  (EsignClient.prototype as unknown as Record<string, unknown>)[id] = function (this: EsignClient, ...args: unknown[]) {
    const params = param ? { [param]: args.shift() as string } : {};
    const body = !param || PARAM_AND_BODY.has(id) ? args.shift() : {};
    return this.request(id, (body ?? {}) as object, params, args[0] as RequestOptions | undefined);
  };
}

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

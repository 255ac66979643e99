import { DEFAULT_TIME_LIMIT, ProxyCaller, type Channel, type RequestOptions, type SessionKind } from './caller.js';
import { OPERATIONS, OPERATION_IDS, type NoBody, type Operation, type OperationId } from './operations.js';
import { poll, type PollOptions } from './poll.js';
import type {
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
  TemporarySigningLinkRequest,
  TemporarySigningLinkResponse,
  UploadDocumentRequest,
  UploadDocumentResponse,
  ValidationResponse,
  WaitingResponse,
  DocumentStatusResponse,
  ValidateFileRequest,
} from './types.js';

export { readTemporarySigningLinks } from './temporary-links.js';
export { DEFAULT_TIME_LIMIT, ProxyCaller, serviceLocale, type Channel, type EsignClientOptions, type RequestOptions, type SessionKind } from './caller.js';

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

/**
 * Typed client of the service through the host's proxy: one method per operation (and `call` of
 * {@link ProxyCaller} for an operation passed in). Every failure is an {@link EsignError}; the
 * JSON body is read whatever the HTTP status.
 */
export class EsignClient extends ProxyCaller {
  /** The status endpoint for a session of this channel and kind. */
  status<K extends SessionKind>(
    channel: Channel,
    kind: K,
    token: string,
    options?: RequestOptions,
  ): Promise<Status<StatusResponses[K]>> {
    return this.call(OPERATIONS[STATUS_OPERATION[channel][kind]] as Operation<NoBody, Status<StatusResponses[K]>>, {}, { token }, options);
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
const PARAM_AND_BODY: readonly OperationId[] = ['inviteSigner', 'removeTemporarySigner'];

// every operation as a method: `(param?, body?, options?)`, as the path and the table say
for (const id of OPERATION_IDS) {
  const param = /\{(\w+)\}/.exec(OPERATIONS[id].path)?.[1];
  (EsignClient.prototype as unknown as Record<string, unknown>)[id] = function (this: EsignClient, ...args: unknown[]) {
    const params = param ? { [param]: args.shift() as string } : {};
    const body = !param || PARAM_AND_BODY.includes(id) ? args.shift() : {};
    return this.call(OPERATIONS[id] as Operation<unknown>, body ?? {}, params, args[0] as RequestOptions | undefined);
  };
}

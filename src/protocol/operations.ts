import type {
  DocumentStatusResponse,
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
  ValidateFileRequest,
  ValidationResponse,
  WaitingResponse,
  Channel,
  SessionKind,
} from './types.js';
import { pathOf, type OperationSpec, type ServiceLocale } from './paths.js';
import { keysOf } from './checks.js';

export type { OperationSpec } from './paths.js';

/**
 * One operation of the service, with the types of its body and of its answer (for the compiler
 * only). Each is a constant of its own, so a bundle carries only the operations its code sends.
 */
export interface Operation<Body = never, Answer = unknown, Param extends string = never> extends OperationSpec {
  /** Never set: carries the body, answer and path parameter types. */
  readonly types?: (body: Body, param: Param) => Answer;
}

/** A path with `{Param}` in it, or any path when the operation has no parameter. */
type PathWith<Param extends string> = [Param] extends [never] ? string : `${string}{${Param}}${string}`;

/** Unused operations are left out of bundles: the call has no side effect. */
/* #__NO_SIDE_EFFECTS__ */
function operation<Body, Answer, Param extends string = never>(
  method: OperationSpec['method'],
  path: PathWith<Param>,
  { localized, ...traits }: { localized?: false; answersFile?: true; repeatable?: true; result?: 'document' } = {},
): Operation<Body, Answer, Param> {
  return { method, path, localized: localized ?? true, ...traits };
}

/** The body of an operation that sends none. */
export type NoBody = Record<string, never>;
type Status<T> = T | WaitingResponse;

export const mobileLogin = operation<MobileLoginRequest, MobileLoginResponse>('POST', '/mobile/login.json');
export const smartIdLogin = operation<SmartIdLoginRequest, SmartIdLoginResponse>('POST', '/smartid/login.json');
export const mobileLoginStatus = operation<NoBody, Status<IdentificationStatusResponse>, 'token'>('POST', '/mobile/status/{token}.json', { repeatable: true });
export const smartIdLoginStatus = operation<NoBody, Status<IdentificationStatusResponse>, 'token'>('POST', '/smartid/status/{token}.json', {
  repeatable: true,
});
export const mobileSign = operation<MobileSignRequest, SessionStartResponse>('POST', '/mobile/sign.json');
export const smartIdSign = operation<SmartIdSignRequest, SessionStartResponse>('POST', '/smartid/sign.json');
export const mobileSignStatus = operation<NoBody, Status<SignStatusResponse>, 'token'>('POST', '/mobile/sign/status/{token}.json', { repeatable: true });
export const smartIdSignStatus = operation<NoBody, Status<SignStatusResponse>, 'token'>('POST', '/smartid/sign/status/{token}.json', { repeatable: true });
export const mobileHashSign = operation<MobileHashSignRequest, SessionStartResponse>('POST', '/mobile/sign/hash.json');
export const smartIdHashSign = operation<SmartIdHashSignRequest, SessionStartResponse>('POST', '/smartid/sign/hash.json');
export const mobileHashSignStatus = operation<NoBody, Status<HashSignStatusResponse>, 'token'>('POST', '/mobile/sign-hash/status/{token}.json', {
  repeatable: true,
});
export const smartIdHashSignStatus = operation<NoBody, Status<HashSignStatusResponse>, 'token'>('POST', '/smartid/sign/hash/status/{token}.json', {
  repeatable: true,
});
export const removeMobileSession = operation<NoBody, OkResponse, 'sessionId'>('DELETE', '/api/mobile/session/{sessionId}', { repeatable: true });
export const removeSmartIdSession = operation<NoBody, OkResponse, 'sessionId'>('DELETE', '/api/smartid/session/{sessionId}', { repeatable: true });
export const uploadDocument = operation<UploadDocumentRequest, UploadDocumentResponse>('POST', '/api/document/upload.json', { result: 'document' });
export const inviteSigner = operation<InviteSignerRequest, InviteSignerResponse, 'documentId'>('POST', '/api/document/{documentId}/invite-signer.json', {
  result: 'document',
});
export const validateDocument = operation<NoBody, ValidationResponse, 'documentId'>('POST', '/api/v2/document/{documentId}/validation.json', {
  repeatable: true,
});
export const removeDocument = operation<NoBody, RemoveDocumentResponse, 'documentId'>('DELETE', '/api/document/{documentId}/remove.json', {
  result: 'document',
});
export const generateTemporarySigningLink = operation<TemporarySigningLinkRequest, TemporarySigningLinkResponse>(
  'POST',
  '/api/document/generate-temporary-signing-link.json',
  { localized: false, result: 'document' },
);
export const removeTemporarySigner = operation<RemoveTemporarySignerRequest, OkResponse, 'documentId'>(
  'POST',
  '/api/document/{documentId}/remove-temporary-signer.json',
  { localized: false, result: 'document' },
);
export const listSigners = operation<NoBody, SignersListResponse, 'documentId'>('POST', '/api/document/{documentId}/signers.json', {
  localized: false,
  repeatable: true,
});
// beyond the published interface, localized as every other (the official client calls them
// with /en too); the proxy puts the token into the GETs' query
export const checkDocumentStatus = operation<NoBody, DocumentStatusResponse, 'documentId'>('GET', '/api/document/{documentId}/check-status.json', {
  repeatable: true,
});
/** Answers the file itself (a `File`, named as the proxy says) rather than JSON. */
export const downloadDocument = operation<NoBody, File, 'documentId'>('GET', '/api/document/{documentId}/download.json', {
  answersFile: true,
  repeatable: true,
});
export const validateFile = operation<ValidateFileRequest, ValidationResponse>('POST', '/api/v2/document/validation.json', { repeatable: true });

/**
 * The closed list of the service's operations. The client builds requests from it, the proxy
 * allows only what matches it, and the sandbox routes by it.
 */
export const OPERATIONS = {
  mobileLogin,
  smartIdLogin,
  mobileLoginStatus,
  smartIdLoginStatus,
  mobileSign,
  smartIdSign,
  mobileSignStatus,
  smartIdSignStatus,
  mobileHashSign,
  smartIdHashSign,
  mobileHashSignStatus,
  smartIdHashSignStatus,
  removeMobileSession,
  removeSmartIdSession,
  uploadDocument,
  inviteSigner,
  validateDocument,
  removeDocument,
  generateTemporarySigningLink,
  removeTemporarySigner,
  listSigners,
  checkDocumentStatus,
  downloadDocument,
  validateFile,
} as const;

export type OperationId = keyof typeof OPERATIONS;

/** What a finished session of each kind answers. */
export interface StatusAnswers {
  login: IdentificationStatusResponse;
  sign: SignStatusResponse;
  hash: HashSignStatusResponse;
}

/** The operation that asks a session's status, typed by the session's kind. */
export type StatusOperation<K extends SessionKind> = Operation<NoBody, Status<StatusAnswers[K]>, 'token'>;

/** Where a session's status is asked: by the kind and the channel of the start that made its token. */
export const SESSION_STATUS: { readonly [K in SessionKind]: Readonly<Record<Channel, StatusOperation<K>>> } = {
  login: { mobile: mobileLoginStatus, smartid: smartIdLoginStatus },
  sign: { mobile: mobileSignStatus, smartid: smartIdSignStatus },
  hash: { mobile: mobileHashSignStatus, smartid: smartIdHashSignStatus },
};

/** The status operation of a session of this kind on this channel. */
export function statusOperation<K extends SessionKind>(kind: K, channel: Channel): StatusOperation<K> {
  return SESSION_STATUS[kind][channel];
}

export type { ServiceLocale } from './paths.js';

export const OPERATION_IDS = /* @__PURE__ */ keysOf(OPERATIONS);

/** {@link pathOf} for an operation named by its id. */
export function buildPath(id: OperationId, params: Record<string, string> = {}, locale: ServiceLocale = 'lt'): string {
  return pathOf(OPERATIONS[id], params, locale);
}

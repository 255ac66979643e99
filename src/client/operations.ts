/**
 * The closed list of the service's operations: method, path template and whether the
 * path has an `/en` locale variant. The client builds requests from it, the proxy allows
 * only what matches it, and the sandbox routes by it.
 */
export const OPERATIONS = {
  mobileLogin: { method: 'POST', path: '/mobile/login.json', localized: true },
  smartIdLogin: { method: 'POST', path: '/smartid/login.json', localized: true },
  mobileLoginStatus: { method: 'POST', path: '/mobile/status/{token}.json', localized: true },
  smartIdLoginStatus: { method: 'POST', path: '/smartid/status/{token}.json', localized: true },
  mobileSign: { method: 'POST', path: '/mobile/sign.json', localized: true },
  smartIdSign: { method: 'POST', path: '/smartid/sign.json', localized: true },
  mobileSignStatus: { method: 'POST', path: '/mobile/sign/status/{token}.json', localized: true },
  smartIdSignStatus: { method: 'POST', path: '/smartid/sign/status/{token}.json', localized: true },
  mobileHashSign: { method: 'POST', path: '/mobile/sign/hash.json', localized: true },
  smartIdHashSign: { method: 'POST', path: '/smartid/sign/hash.json', localized: true },
  mobileHashSignStatus: { method: 'POST', path: '/mobile/sign-hash/status/{token}.json', localized: true },
  smartIdHashSignStatus: { method: 'POST', path: '/smartid/sign/hash/status/{token}.json', localized: true },
  removeMobileSession: { method: 'DELETE', path: '/api/mobile/session/{sessionId}', localized: true },
  removeSmartIdSession: { method: 'DELETE', path: '/api/smartid/session/{sessionId}', localized: true },
  uploadDocument: { method: 'POST', path: '/api/document/upload.json', localized: true },
  inviteSigner: { method: 'POST', path: '/api/document/{documentId}/invite-signer.json', localized: true },
  validateDocument: { method: 'POST', path: '/api/v2/document/{documentId}/validation.json', localized: true },
  removeDocument: { method: 'DELETE', path: '/api/document/{documentId}/remove.json', localized: true },
  generateTemporarySigningLink: {
    method: 'POST',
    path: '/api/document/generate-temporary-signing-link.json',
    localized: false,
  },
  removeTemporarySigner: {
    method: 'POST',
    path: '/api/document/{documentId}/remove-temporary-signer.json',
    localized: false,
  },
  listSigners: { method: 'POST', path: '/api/document/{documentId}/signers.json', localized: false },
  // beyond the interface (service-facts.md); the proxy puts the token into the GETs' query
  checkDocumentStatus: { method: 'GET', path: '/api/document/{documentId}/check-status.json', localized: false },
  downloadDocument: { method: 'GET', path: '/api/document/{documentId}/download.json', localized: false },
  validateFile: { method: 'POST', path: '/api/v2/document/validation.json', localized: false },
} as const satisfies Record<string, OperationSpec>;

export interface OperationSpec {
  method: 'POST' | 'DELETE' | 'GET';
  path: string;
  localized: boolean;
}

export type OperationId = keyof typeof OPERATIONS;
export type ServiceLocale = 'lt' | 'en';

export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];

/** Characters a URL parameter (token, uuid, session id) may hold: no dots, slashes or escapes. */
export const PARAM_PATTERN = '[A-Za-z0-9_-]{1,128}';
const PARAM_TEST = new RegExp(`^${PARAM_PATTERN}$`);

export function isSafePathParam(value: string): boolean {
  return PARAM_TEST.test(value);
}

/** Builds the service path of an operation; throws on a parameter that is not a safe id. */
export function buildPath(
  id: OperationId,
  params: Record<string, string> = {},
  locale: ServiceLocale = 'lt',
): string {
  const spec: OperationSpec = OPERATIONS[id];
  const path = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || !isSafePathParam(value)) {
      throw new TypeError(`Invalid ${name} for ${id}: ${String(value)}`);
    }
    return value;
  });
  return spec.localized && locale === 'en' ? `/en${path}` : path;
}


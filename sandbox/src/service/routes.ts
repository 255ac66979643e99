import type { Locale } from '../types.js';

/*
 * The service's routes: method, path and whether an `/en` variant exists. Written from the
 * interface for the sandbox alone (the widget keeps its own table; each checks the other).
 */

export type RouteId =
  | 'mobileLogin'
  | 'smartIdLogin'
  | 'mobileLoginStatus'
  | 'smartIdLoginStatus'
  | 'mobileSign'
  | 'smartIdSign'
  | 'mobileSignStatus'
  | 'smartIdSignStatus'
  | 'mobileHashSign'
  | 'smartIdHashSign'
  | 'mobileHashSignStatus'
  | 'smartIdHashSignStatus'
  | 'removeMobileSession'
  | 'removeSmartIdSession'
  | 'uploadDocument'
  | 'inviteSigner'
  | 'validateDocument'
  | 'removeDocument'
  | 'generateTemporarySigningLink'
  | 'removeTemporarySigner'
  | 'listSigners'
  | 'checkDocumentStatus'
  | 'downloadDocument'
  | 'validateFile';

interface RouteSpec {
  id: RouteId;
  method: 'POST' | 'DELETE' | 'GET';
  /** Segments; a segment starting with `:` is a parameter. */
  segments: string[];
  localized: boolean;
}

const TABLE: [RouteId, RouteSpec['method'], string, boolean][] = [
  ['mobileLogin', 'POST', 'mobile/login.json', true],
  ['smartIdLogin', 'POST', 'smartid/login.json', true],
  ['mobileLoginStatus', 'POST', 'mobile/status/:token.json', true],
  ['smartIdLoginStatus', 'POST', 'smartid/status/:token.json', true],
  ['mobileSign', 'POST', 'mobile/sign.json', true],
  ['smartIdSign', 'POST', 'smartid/sign.json', true],
  ['mobileSignStatus', 'POST', 'mobile/sign/status/:token.json', true],
  ['smartIdSignStatus', 'POST', 'smartid/sign/status/:token.json', true],
  ['mobileHashSign', 'POST', 'mobile/sign/hash.json', true],
  ['smartIdHashSign', 'POST', 'smartid/sign/hash.json', true],
  ['mobileHashSignStatus', 'POST', 'mobile/sign-hash/status/:token.json', true],
  ['smartIdHashSignStatus', 'POST', 'smartid/sign/hash/status/:token.json', true],
  ['removeMobileSession', 'DELETE', 'api/mobile/session/:sessionId', true],
  ['removeSmartIdSession', 'DELETE', 'api/smartid/session/:sessionId', true],
  ['uploadDocument', 'POST', 'api/document/upload.json', true],
  ['inviteSigner', 'POST', 'api/document/:documentId/invite-signer.json', true],
  ['validateDocument', 'POST', 'api/v2/document/:documentId/validation.json', true],
  ['removeDocument', 'DELETE', 'api/document/:documentId/remove.json', true],
  ['generateTemporarySigningLink', 'POST', 'api/document/generate-temporary-signing-link.json', false],
  ['removeTemporarySigner', 'POST', 'api/document/:documentId/remove-temporary-signer.json', false],
  ['listSigners', 'POST', 'api/document/:documentId/signers.json', false],
  // beyond the published interface, as the service answers them: the token goes in the query of the two GETs; the
  // official client calls these with the /en prefix too, as every other operation
  ['checkDocumentStatus', 'GET', 'api/document/:documentId/check-status.json', true],
  ['downloadDocument', 'GET', 'api/document/:documentId/download.json', true],
  ['validateFile', 'POST', 'api/v2/document/validation.json', true],
];

const ROUTES: RouteSpec[] = TABLE.map(([id, method, path, localized]) => ({ id, method, segments: path.split('/'), localized }));

/** A token, uuid or session id as the sandbox accepts it in a path. */
const PATH_PARAM = /^[A-Za-z0-9_-]{1,128}$/;

export interface Route {
  id: RouteId;
  params: Record<string, string>;
  locale: Locale;
}

function matchSegments(spec: RouteSpec, parts: string[]): Record<string, string> | null {
  if (parts.length !== spec.segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const want = spec.segments[i] ?? '';
    const got = parts[i] ?? '';
    if (!want.startsWith(':')) {
      if (want !== got) return null;
      continue;
    }
    const suffix = want.endsWith('.json') ? '.json' : '';
    if (suffix && !got.endsWith(suffix)) return null;
    const value = suffix ? got.slice(0, -suffix.length) : got;
    if (!PATH_PARAM.test(value)) return null;
    params[want.slice(1, want.length - suffix.length)] = value;
  }
  return params;
}

/** The route of a method and a path as sent (no query); null when the service has none. */
export function findRoute(method: string, path: string): Route | null {
  if (!path.startsWith('/')) return null;
  let parts = path.slice(1).split('/');
  let locale: Locale = 'lt';
  if (parts[0] === 'en') {
    locale = 'en';
    parts = parts.slice(1);
  }
  for (const spec of ROUTES) {
    if (spec.method !== method || (locale === 'en' && !spec.localized)) continue;
    const params = matchSegments(spec, parts);
    if (params) return { id: spec.id, params, locale };
  }
  return null;
}

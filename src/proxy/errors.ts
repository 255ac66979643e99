import type { ProxyErrorKind } from '../protocol/types.js';
import { PROXY_ANSWERS } from '../protocol/proxy-rules.js';
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

const KINDS: Record<ProxyErrorKind, readonly [status: number, message: string]> = PROXY_ANSWERS;

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

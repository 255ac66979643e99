import { matchOperation, type MatchedOperation } from '../client/operation-match.js';
import type { ProxyErrorKind } from '../client/types.js';

export interface ProxyRequestInfo {
  method: string;
  /** The service path the browser asked for (without the mount prefix). */
  path: string;
  headers: Headers;
  /** The JSON body as the browser sent it, without any `access_token`. */
  body: Record<string, unknown>;
  /** The framework's own request object (IncomingMessage or Request). */
  raw: unknown;
}

export interface ProxyOptions {
  /** The service's base URL, e.g. `https://service.example`. */
  baseUrl: string;
  /** The secret access token. Never sent to the browser, never logged. */
  accessToken: string;
  /** Path the proxy is mounted at, e.g. `/esign`. Default: none (mounted at the root or stripped by the framework). */
  prefix?: string;
  /** Per-request decision of the host; false (or a throw) answers 403. */
  authorize?: (request: ProxyRequestInfo, operation: MatchedOperation) => boolean | Promise<boolean>;
  /** Largest request body in bytes. Default 80 MB (a 50 MB file as base64 with room to spare). */
  bodyLimit?: number;
  /** How long to wait for the service, in ms. Default 30 000. */
  upstreamTimeout?: number;
  /** The fetch used to reach the service. Default: global fetch. */
  fetch?: typeof fetch;
}

export interface ProxyAnswer {
  status: number;
  body: string;
}

export const DEFAULT_BODY_LIMIT = 80 * 1024 * 1024;
export const DEFAULT_UPSTREAM_TIMEOUT = 30_000;

const PROXY_MESSAGES: Record<ProxyErrorKind, string> = {
  'operation-not-allowed': 'Not an operation of the service',
  'malformed-json': 'Request body must be a JSON object',
  'request-too-large': 'Request body is too large',
  forbidden: 'Not allowed for this request',
  'upstream-unreachable': 'The service could not be reached',
  'upstream-timeout': 'The service did not answer in time',
  'upstream-invalid': 'The service answered with something other than JSON',
};

const PROXY_STATUS: Record<ProxyErrorKind, number> = {
  'operation-not-allowed': 404,
  'malformed-json': 400,
  'request-too-large': 413,
  forbidden: 403,
  'upstream-unreachable': 502,
  'upstream-timeout': 504,
  'upstream-invalid': 502,
};

export function proxyError(kind: ProxyErrorKind): ProxyAnswer {
  return { status: PROXY_STATUS[kind], body: JSON.stringify({ status: 'error', message: PROXY_MESSAGES[kind], proxy_error: kind }) };
}

export class BodyTooLarge extends Error {}

/** Where a request goes, or null when it is not for the proxy (outside its prefix). */
export function routeOf(rawUrl: string, prefix = ''): { path: string } | null {
  const cleanPrefix = prefix.replace(/\/+$/, '');
  if (cleanPrefix && rawUrl !== cleanPrefix && !rawUrl.startsWith(`${cleanPrefix}/`)) return null;
  return { path: rawUrl.slice(cleanPrefix.length) };
}

/**
 * The proxy contract, framework-free: allow only the interface's operations, replace the
 * browser's access_token by the host's, ask the host, forward, pass the answer back.
 */
export async function proxyRequest(
  options: ProxyOptions,
  request: { method: string; path: string; headers: Headers; raw: unknown; readBody: (limit: number) => Promise<Uint8Array> },
): Promise<ProxyAnswer> {
  // the raw path is matched as sent: a query, an escape or a dot segment matches no operation
  const operation = /[?#%\\]/.test(request.path) ? null : matchOperation(request.method, request.path);
  if (!operation) return proxyError('operation-not-allowed');
  let bytes: Uint8Array;
  try {
    bytes = await request.readBody(options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  } catch (error) {
    if (error instanceof BodyTooLarge) return proxyError('request-too-large');
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return proxyError('malformed-json');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return proxyError('malformed-json');
  const fields = { ...(body as Record<string, unknown>) };
  delete fields['access_token'];
  if (options.authorize) {
    let allowed = false;
    try {
      allowed = await options.authorize(
        { method: request.method, path: request.path, headers: request.headers, body: fields, raw: request.raw },
        operation,
      );
    } catch {
      allowed = false;
    }
    if (!allowed) return proxyError('forbidden');
  }
  const doFetch = options.fetch ?? globalThis.fetch;
  let response: Response;
  let text: string;
  try {
    response = await doFetch(`${options.baseUrl.replace(/\/+$/, '')}${request.path}`, {
      method: request.method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ...fields, access_token: options.accessToken }),
      signal: AbortSignal.timeout(options.upstreamTimeout ?? DEFAULT_UPSTREAM_TIMEOUT),
    });
    text = await response.text();
  } catch (error) {
    const name = (error as { name?: string }).name;
    return proxyError(name === 'TimeoutError' || name === 'AbortError' ? 'upstream-timeout' : 'upstream-unreachable');
  }
  try {
    JSON.parse(text);
  } catch {
    return proxyError('upstream-invalid');
  }
  // a service that echoed the token must not hand it to the browser
  if (options.accessToken && text.includes(options.accessToken)) text = text.split(options.accessToken).join('[redacted]');
  return { status: response.status, body: text };
}

export const RESPONSE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

import { EsignError, cancelledError, type EsignErrorCode } from './errors.js';
import { errorFromResponse } from './error-from-response.js';
import type { Operation } from './operations.js';
import { pathOf, type ServiceLocale } from './paths.js';
import { serializeJson } from './json.js';
import type { ErrorResponse } from './types.js';

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

/** Default time limits: the providers end sessions after about 2 (mobile) and 3 (smart) minutes. */
export const DEFAULT_TIME_LIMIT: Record<Channel, number> = { mobile: 150_000, smartid: 210_000 };


export function serviceLocale(lang: string | undefined): ServiceLocale {
  return lang?.toLowerCase().startsWith('lt') ? 'lt' : 'en';
}

/**
 * What a "not found" without an error code is about, for the operations where it is not a
 * document: session removal (`Request number is invalid`) and temporary signer removal,
 * which says "not found" for a missing signer as well as for a missing document.
 */
function notFoundCode(path: string, message: string): EsignErrorCode | null {
  if (path.includes('/session/')) return 'session-not-found';
  if (path.includes('/remove-temporary-signer') && !/document/i.test(message)) return 'signer-not-found';
  return null;
}

/**
 * Sends operations of the service through the host's proxy: the part of the client every element
 * shares. It knows no operation itself; each is passed in (see operations.ts), so a bundle holds
 * only those its code sends. Every failure is an {@link EsignError}; the JSON body is read
 * whatever the HTTP status.
 */
export class ProxyCaller {
  readonly endpoint: string;
  readonly locale: ServiceLocale;
  readonly #fetch: typeof fetch;

  constructor(options: EsignClientOptions) {
    this.endpoint = options.endpoint.replace(/\/+$/, '');
    this.locale = serviceLocale(options.lang);
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Sends one operation and returns its `ok` (or `waiting`) body; throws EsignError otherwise. */
  async call<Body, Answer>(
    operation: Operation<Body, Answer>,
    body: Body,
    params: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<Answer> {
    let path: string;
    try {
      path = pathOf(operation, params, this.locale);
    } catch (cause) {
      throw new EsignError('invalid-input', (cause as Error).message, { cause, field: Object.keys(params)[0] });
    }
    const { method } = operation;
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
    if (operation.path.endsWith('/download.json') && response.ok && !/json/.test(response.headers.get('content-type') ?? '')) {
      const name = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
      const blob = await response.blob();
      return new File([blob], name ? decodeURIComponent(name) : 'document', { type: blob.type }) as Answer;
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
    if (status === 'ok' || status === 'waiting') return json as Answer;
    const error = errorFromResponse(json as ErrorResponse, response.status, response.headers.get('retry-after'));
    const notFound = error.code === 'document-not-found' ? notFoundCode(operation.path, error.message) : null;
    if (!notFound) throw error;
    throw new EsignError(notFound, error.message, { cause: error, httpStatus: response.status });
  }
}

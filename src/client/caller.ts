import { EsignError, cancelledError, type EsignErrorCode } from './errors.js';
import { errorFromResponse } from './error-from-response.js';
import type { Operation } from '../protocol/operations.js';
import { pathOf, type ServiceLocale } from '../protocol/paths.js';
import { serializeJson } from './json.js';
import type { ErrorResponse } from '../protocol/types.js';

export interface EsignClientOptions {
  /** Base URL of the host's proxy, e.g. `/esign` or `https://host.example/esign`. */
  endpoint: string;
  /** UI language; `lt` selects the service's plain paths, any other the `/en` ones. */
  lang?: string;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /**
   * A request's time limit, ms, before what it carries: a file adds 10 s a megabyte each way.
   * Past it the request is abandoned (`timeout`, retryable). Default 30 000.
   */
  timeoutMs?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** This request's time limit, ms, before its body (default: the client's). */
  timeoutMs?: number;
  /**
   * Told the bytes of the body sent so far and its total, for a body of 256 KB or more sent with
   * the browser's own fetch (a document: a minute's upload on a slow uplink). `EsignClient` sends
   * such a body with `XMLHttpRequest`; a bare `ProxyCaller` needs `uploadSender` too.
   */
  onUploadProgress?: (sent: number, total: number) => void;
  /** How a body whose progress is told is sent: `sendWithProgress` (upload-progress.ts), where a bundle wants it. */
  uploadSender?: UploadSender;
}

/** Sends a body and tells its progress, answering as fetch does. */
export type UploadSender = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
  onProgress: (sent: number, total: number) => void,
) => Promise<Response>;

/** A body this large is sent so that its progress is told (smaller ones go in a moment). */
const UPLOAD_PROGRESS_FROM = 256 * 1024;

/** A phone on a bad network moves 100 KB a second at worst: a body's bytes add this many ms each. */
const MS_PER_BYTE = 0.01;

export type { Channel, SessionKind } from '../protocol/types.js';

export { DEFAULT_TIME_LIMIT, PERSON_TIME_LIMIT } from '../protocol/time-limits.js';

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
  readonly timeoutMs: number;
  readonly #fetch: typeof fetch;
  /** With the browser's own fetch: a host's fetch may reach another origin its own way. */
  readonly #sameOriginOnly: boolean;

  constructor(options: EsignClientOptions) {
    this.endpoint = options.endpoint.replace(/\/+$/, '');
    this.locale = serviceLocale(options.lang);
    this.timeoutMs = options.timeoutMs || 30_000;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#sameOriginOnly = !options.fetch;
  }

  /** Sends one operation and returns its `ok` (or `waiting`) body; throws EsignError otherwise. */
  async call<Body, Answer>(operation: Operation<Body, Answer>, body: Body, params: Record<string, string> = {}, options: RequestOptions = {}): Promise<Answer> {
    let path: string;
    try {
      path = pathOf(operation, params, this.locale);
    } catch (cause) {
      throw new EsignError('invalid-input', cause instanceof Error ? cause.message : String(cause), { cause, field: Object.keys(params)[0] });
    }
    const { method } = operation;
    // the proxy answers its own origin only (decision 0011): another origin would fail as "the network"
    // (resolved as fetch resolves it, against the document's base: a frame's srcdoc page has its parent's)
    if (this.#sameOriginOnly && typeof document == 'object' && new URL(this.endpoint, document.baseURI).origin != origin) {
      throw new EsignError('misconfigured', `The endpoint must be on the page's own origin (${origin})`, { field: 'endpoint', retryable: false });
    }
    // the GETs have no body: the proxy adds the token to their query
    const payload = method === 'GET' ? undefined : serializeJson(body);
    const base = options.timeoutMs ?? this.timeoutMs;
    // one signal for the caller's abort and the time limit, which runs first to the answer's
    // headers (by what the request carries), then again to its end (by what the answer announces)
    const limit = new AbortController();
    const outer = options.signal;
    const stop = () => limit.abort();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        limit.abort();
      }, ms);
    };
    const failure = (cause: unknown, what: string) =>
      outer?.aborted
        ? cancelledError(cause)
        : timedOut
          ? new EsignError('timeout', 'No answer in time', { cause })
          : new EsignError('network', what, { cause });
    outer?.addEventListener('abort', stop);
    if (outer?.aborted) stop();
    arm(base + (payload?.length ?? 0) * MS_PER_BYTE);
    let response: Response;
    let text: string;
    try {
      try {
        const url = `${this.endpoint}${path}`;
        const { onUploadProgress: progress, uploadSender } = options;
        response =
          progress && uploadSender && payload !== undefined && payload.length >= UPLOAD_PROGRESS_FROM && this.#sameOriginOnly
            ? await uploadSender(url, { method, headers: { 'content-type': 'application/json' }, body: payload, signal: limit.signal }, progress)
            : await this.#fetch(url, {
                method,
                ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: payload }),
                signal: limit.signal,
              });
      } catch (cause) {
        throw failure(cause, 'Service unreachable');
      }
      arm(base + Number(response.headers.get('content-length') ?? 0) * MS_PER_BYTE);
      // a downloaded file: the bytes, named as the proxy says
      if (operation.answersFile && response.ok && !/json/.test(response.headers.get('content-type') ?? '')) {
        const name = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
        let blob: Blob;
        try {
          blob = await response.blob();
        } catch (cause) {
          throw failure(cause, 'The answer broke off');
        }
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- an operation that answers a file is typed to answer a File (answersFile)
        return new File([blob], name ? decodeURIComponent(name) : 'document', { type: blob.type }) as Answer;
      }
      try {
        text = await response.text();
      } catch (cause) {
        throw failure(cause, 'The answer broke off');
      }
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', stop);
    }
    const requestId = response.headers.get('x-request-id') ?? undefined;
    let json: { status?: unknown } | null = null;
    try {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- its status is checked on the next line before anything is read
      json = JSON.parse(text) as { status?: unknown } | null;
    } catch {
      // not JSON: an error page of something on the way
    }
    if (typeof json?.status !== 'string') {
      // a body parser or a web server in front that refused the size (its own page, not JSON): the file, not the network
      const code = response.status == 413 ? 'request-too-large' : 'network';
      throw new EsignError(code, `Not the service's JSON (HTTP ${response.status})`, { httpStatus: response.status, requestId });
    }
    const status = json.status;
    // the rest of an answer is the operation's contract, relayed by the host's own proxy: an element
    // reads what it shows defensively, and the browser's answer is never proof of anything (the proxy's is)
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the operation's contract, relayed by the host's proxy; elements check what they read (answer-check.ts)
    if (status === 'ok' || status === 'waiting') return json as Answer;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- an error answer: errorFromResponse reads each field defensively
    const error = errorFromResponse(json as ErrorResponse, response.status, response.headers.get('retry-after'), requestId);
    const notFound = error.code === 'document-not-found' ? notFoundCode(operation.path, error.message) : null;
    if (!notFound) throw error;
    throw new EsignError(notFound, error.message, { cause: error, httpStatus: response.status, requestId });
  }
}

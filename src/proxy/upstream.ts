import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ProxyErrorKind } from '../protocol/types.js';

export interface UpstreamAnswer {
  status: number;
  contentType: string;
  /** The service's content-disposition (downloads), as it came. */
  disposition: string;
  bytes: Buffer;
}

export class UpstreamFailure extends Error {
  constructor(readonly kind: ProxyErrorKind) {
    super(kind);
  }
}

export interface UpstreamOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Largest answer read from the service, in bytes. */
  answerLimit: number;
  /** A fetch to use instead of the pooled node:http client (tests, other runtimes). */
  fetch?: typeof fetch;
}

/**
 * A call to the service; `headers`: the trace context's, added to the call's own; `repeatable`: the
 * service may read it twice with no effect (a status, a read), so it is sent again once when it set
 * out on a kept-alive connection the service had just closed.
 */
export type Upstream = (
  method: string,
  path: string,
  body: string | undefined,
  headers?: Record<string, string>,
  repeatable?: boolean,
) => Promise<UpstreamAnswer>;

/** How long a connection to the service is kept idle for the next request, ms. */
const IDLE_CONNECTION_MS = 4_000;

/** What a request meets on a kept-alive connection the other side has just closed. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

function checkStatus(status: number): void {
  if (status >= 300 && status < 400) throw new UpstreamFailure('upstream-redirect');
  if (status < 200 || status > 599) throw new UpstreamFailure('upstream-invalid');
}

/**
 * Requests to the service over kept-alive connections (one pool per proxy), never following a
 * redirect, with a time limit for the whole exchange and a cap on the answer's size.
 */
export function createUpstream(options: UpstreamOptions): Upstream {
  const base = options.baseUrl.replace(/\/+$/, '');
  if (options.fetch) return fetchUpstream(base, options, options.fetch);
  const target = new URL(base);
  const secure = target.protocol === 'https:';
  // an idle connection is closed before the common 5 s of a server's keep-alive (or sooner, as the
  // server's Keep-Alive hint says): without a timeout, node:http keeps it for ever and ignores the hint
  const pooled = { keepAlive: true, maxSockets: 128, timeout: IDLE_CONNECTION_MS };
  const agent = secure ? new HttpsAgent(pooled) : new HttpAgent(pooled);
  const send = secure ? httpsRequest : httpRequest;
  const basePath = target.pathname.replace(/\/+$/, '');
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  const port = target.port || (secure ? 443 : 80);
  return (method, path, body, traceHeaders, repeatable = false) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      const headers: Record<string, string | number> = { ...traceHeaders, accept: 'application/json' };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      let req: ClientRequest;
      const timer = setTimeout(() => {
        req.destroy();
        reject(new UpstreamFailure('upstream-timeout'));
      }, options.timeoutMs);
      const fail = (kind: ProxyErrorKind) => {
        clearTimeout(timer);
        reject(new UpstreamFailure(kind));
      };
      const open = (through: HttpAgent | false) => {
        req = send({ hostname, port, path: `${basePath}${path}`, method, agent: through, headers });
        let answered = false;
        req.on('error', (error: NodeJS.ErrnoException) => {
          // a kept-alive connection closed as this request set out on it: most likely the service's
          // idle time ran out before it read the request, but a start is never risked twice
          if (repeatable && !answered && through && req.reusedSocket && STALE_CONNECTION.has(error.code ?? '')) return open(false);
          fail('upstream-unreachable');
        });
        req.on('response', (res: IncomingMessage) => {
          answered = true;
          answer(res);
        });
        req.end(body);
      };
      const answer = (res: IncomingMessage) => {
        try {
          checkStatus(res.statusCode ?? 0);
        } catch (error) {
          res.resume();
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.answerLimit) {
          req.destroy();
          fail('upstream-too-large');
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.answerLimit) {
            req.destroy();
            fail('upstream-too-large');
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            disposition: String(res.headers['content-disposition'] ?? ''),
            bytes: Buffer.concat(chunks, size),
          });
        });
        res.on('error', () => fail('upstream-unreachable'));
      };
      open(agent);
    });
}

function fetchUpstream(base: string, options: UpstreamOptions, doFetch: typeof fetch): Upstream {
  return async (method, path, body, traceHeaders) => {
    let response: Response;
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        redirect: 'manual',
        headers: { ...traceHeaders, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body }),
        signal,
      });
    } catch (error) {
      const name = error instanceof Error ? error.name : undefined;
      throw new UpstreamFailure(name === 'TimeoutError' || name === 'AbortError' ? 'upstream-timeout' : 'upstream-unreachable');
    }
    if (response.type === 'opaqueredirect') throw new UpstreamFailure('upstream-redirect');
    checkStatus(response.status);
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      const reader = response.body?.getReader();
      for (;;) {
        if (!reader) break;
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        if (size > options.answerLimit) {
          await reader.cancel();
          throw new UpstreamFailure('upstream-too-large');
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof UpstreamFailure) throw error;
      throw new UpstreamFailure(signal.aborted ? 'upstream-timeout' : 'upstream-unreachable');
    }
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      disposition: response.headers.get('content-disposition') ?? '',
      bytes: Buffer.concat(chunks, size),
    };
  };
}

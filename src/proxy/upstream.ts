import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
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

/** A call to the service; `headers`: the trace context's, added to the call's own. */
export type Upstream = (method: string, path: string, body: string | undefined, headers?: Record<string, string>) => Promise<UpstreamAnswer>;

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
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets: 128 }) : new HttpAgent({ keepAlive: true, maxSockets: 128 });
  const send = secure ? httpsRequest : httpRequest;
  const basePath = target.pathname.replace(/\/+$/, '');
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  const port = target.port || (secure ? 443 : 80);
  return (method, path, body, traceHeaders) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      const headers: Record<string, string | number> = { ...traceHeaders, accept: 'application/json' };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      const req = send({ hostname, port, path: `${basePath}${path}`, method, agent, headers });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new UpstreamFailure('upstream-timeout'));
      }, options.timeoutMs);
      const fail = (kind: ProxyErrorKind) => {
        clearTimeout(timer);
        reject(new UpstreamFailure(kind));
      };
      req.on('error', () => fail('upstream-unreachable'));
      req.on('response', (res: IncomingMessage) => {
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
      });
      req.end(body);
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

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { createProxyCore, type ProxyHealth } from './core.js';
import { BodyTimeout, BodyTooLarge, type IncomingProxyRequest } from './incoming.js';
import { JSON_HEADERS, type ProxyAnswer } from './errors.js';
import type { ProxyOptions } from './options.js';
import { operationOf } from './steps/route.js';

/** The proxy for node:http, Express, Connect and Vite; `health()` for a load balancer's check. */
export type NodeProxyHandler = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void) & { health(): Promise<ProxyHealth> };

type MaybeParsed = IncomingMessage & { originalUrl?: string; baseUrl?: string; body?: unknown };

const AT_ROOT =
  "[esign-proxy] mounted at the site's root without `prefix`: requests that are no operation of the service go on to your routes. To keep the proxy to a path of its own, mount it with prefix: '/esign' (the elements' endpoint).";

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * Reads a body up to `limit` bytes within a deadline that grows with its size. Over the limit
 * or past the deadline it stops reading at once: the answer is sent and the connection closed,
 * so nobody can stream gigabytes or drip bytes into a held connection.
 */
function readBody(req: IncomingMessage, limit: number, timeoutFor: (bytes: number) => number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const started = Date.now();
    const announced = Number.isFinite(declared) ? declared : 0;
    // the deadline grows with what has come (or was declared); the timer is set again only when it
    // fires before the deadline, never for every chunk
    let deadline = started + timeoutFor(announced);
    const check = (): void => {
      const left = deadline - Date.now();
      if (left <= 0) fail(new BodyTimeout());
      else timer = setTimeout(check, left);
    };
    let timer = setTimeout(check, deadline - started);
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        fail(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
      if (size > announced) deadline = started + timeoutFor(size);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, size));
    });
    req.on('error', fail);
  });
}

/** Writes an answer; a request whose body was not read to the end gets its connection closed. */
export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: ProxyAnswer): void {
  const { body } = answer;
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const headers: Record<string, string | string[]> = { ...answer.headers };
  if (answer.cookies?.length) headers['set-cookie'] = [...(answer.headers['set-cookie'] ? [answer.headers['set-cookie']] : []), ...answer.cookies];
  if (req.complete) {
    res.writeHead(answer.status, { ...headers, 'content-length': length });
    res.end(body);
    return;
  }
  res.writeHead(answer.status, { ...headers, 'content-length': length, connection: 'close' });
  res.end(body, () => req.socket.destroy());
}

/** A node:http request as the core reads it: its methods on the prototype, not new closures for every request. */
class NodeRequest implements IncomingProxyRequest {
  readonly method: string;
  readonly secure: boolean;
  readonly host: string | null;
  readonly parsedBody: unknown;
  /** Handed around on its own (the origin check), so bound to this request. */
  readonly header: (name: string) => string | null;

  constructor(
    readonly raw: IncomingMessage,
    readonly url: string,
    parsedBody: unknown,
  ) {
    this.method = raw.method ?? 'GET';
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a TLS socket says encrypted; a plain one has no such field
    this.secure = Boolean((raw.socket as TLSSocket).encrypted);
    this.host = raw.headers.host ?? null;
    this.parsedBody = parsedBody;
    this.header = (name) => {
      const value = raw.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    };
  }

  headers(): Headers {
    return headersOf(this.raw);
  }

  readBody(limit: number, timeoutFor: (bytes: number) => number): Promise<Uint8Array> {
    return readBody(this.raw, limit, timeoutFor);
  }
}

/**
 * The proxy as a `(req, res, next?)` handler for node:http, Express, Connect and Vite.
 * With `prefix`, requests are matched on the full URL (`originalUrl` under Express); without,
 * on the URL the framework left after its own mount path. Requests outside go to `next`.
 * Behind a body parser (`express.json()`), the parsed `req.body` is used.
 */
export function createProxyHandler<Raw extends IncomingMessage = IncomingMessage>(options: ProxyOptions<Raw>): NodeProxyHandler {
  // the hooks get back the request this handler was given (Express's Request is an IncomingMessage)
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the overloads above type the options; this is their one implementation
  const core = createProxyCore(options as ProxyOptions);
  const log = (message: string) => (options.log ?? ((text: string) => console.error(text)))(message, { level: 'warn' });
  let saidAtRoot = false;
  const handler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    const request = req as MaybeParsed;
    const url = options.prefix ? (request.originalUrl ?? req.url ?? '/') : (req.url ?? '/');
    // at the site's root (no prefix, no mount path of the framework's): the site's own pages are not the proxy's
    if (!options.prefix && next && !request.baseUrl && !operationOf(req.method ?? 'GET', url)) {
      if (!saidAtRoot) log(AT_ROOT);
      saidAtRoot = true;
      next();
      return;
    }
    const parsed = request.body !== undefined && (req.complete || req.readableEnded) ? request.body : undefined;
    core(new NodeRequest(req, url, parsed)).then(
      (answer) => {
        if (answer) writeAnswer(req, res, answer);
        else if (next) next();
        else writeAnswer(req, res, { status: 404, headers: { ...JSON_HEADERS }, body: JSON.stringify({ status: 'error', message: 'Not found' }) });
      },
      (error: unknown) => {
        console.error(`[esign-proxy] failure: ${error instanceof Error ? error.name : typeof error}`);
        writeAnswer(req, res, { status: 500, headers: { ...JSON_HEADERS }, body: JSON.stringify({ status: 'error', message: 'Proxy failure' }) });
      },
    );
  };
  return Object.assign(handler, { health: core.health });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLarge, RESPONSE_HEADERS, proxyRequest, routeOf, type ProxyOptions } from './core.js';

export type NodeProxyHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new BodyTooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The proxy as a `(req, res, next?)` handler for node:http, Express, Connect and Vite.
 * Requests outside `prefix` go to `next` (or get a 404 JSON without one).
 */
export function createProxyHandler(options: ProxyOptions): NodeProxyHandler {
  return (req, res, next) => {
    const url = (req as IncomingMessage & { originalUrl?: string }).url ?? '/';
    const route = routeOf(url, options.prefix);
    if (!route) {
      if (next) next();
      else res.writeHead(404, RESPONSE_HEADERS).end(JSON.stringify({ status: 'error', message: 'Not found' }));
      return;
    }
    proxyRequest(options, {
      method: req.method ?? 'GET',
      path: route.path,
      headers: headersOf(req),
      raw: req,
      readBody: (limit) => readBody(req, limit),
    }).then(
      (answer) => {
        // an unread body (of a refused request) would otherwise hold the connection
        req.resume();
        res.writeHead(answer.status, { ...RESPONSE_HEADERS, 'content-length': Buffer.byteLength(answer.body) });
        res.end(answer.body);
      },
      (error: unknown) => {
        if (next) next(error);
        else res.writeHead(500, RESPONSE_HEADERS).end(JSON.stringify({ status: 'error', message: 'Proxy failure' }));
      },
    );
  };
}

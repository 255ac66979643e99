import { BodyTooLarge, RESPONSE_HEADERS, proxyRequest, routeOf, type ProxyOptions } from './core.js';

async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The proxy as a fetch-style `(Request) => Promise<Response>` route handler. */
export function createFetchProxyHandler(options: ProxyOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const route = routeOf(`${url.pathname}${url.search}`, options.prefix);
    if (!route) return new Response(JSON.stringify({ status: 'error', message: 'Not found' }), { status: 404, headers: RESPONSE_HEADERS });
    const answer = await proxyRequest(options, {
      method: request.method,
      path: route.path,
      headers: request.headers,
      raw: request,
      readBody: (limit) => readBody(request, limit),
    });
    return new Response(answer.body, { status: answer.status, headers: RESPONSE_HEADERS });
  };
}

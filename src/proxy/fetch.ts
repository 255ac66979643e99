import type { IncomingMessage, ServerResponse } from 'node:http';
import { createProxyCore, type ProxyHealth } from './core.js';
import { BodyTimeout, BodyTooLarge } from './incoming.js';
import { JSON_HEADERS } from './errors.js';
import type { ProxyOptions } from './options.js';

async function readBody(request: Request, limit: number, timeoutFor: (bytes: number) => number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const started = Date.now();
  for (;;) {
    const expected = Math.max(size, Number.isFinite(declared) ? declared : 0);
    const left = started + timeoutFor(expected) - Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BodyTimeout()), Math.max(0, left));
    });
    let step: Awaited<ReturnType<typeof reader.read>>;
    try {
      step = await Promise.race([reader.read(), timeout]);
    } catch (error) {
      await reader.cancel().catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (step.done) break;
    size += step.value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(step.value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The proxy as a fetch-style `(Request) => Promise<Response>` route handler (Next.js, Hono, Deno, Bun). */
export function createFetchProxyHandler<Raw extends Request = Request>(options: ProxyOptions<Raw>): FetchProxyHandler {
  // the hooks get back the Request this handler was given
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the overloads above type the options; this is their one implementation
  const core = createProxyCore(options as ProxyOptions);
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    let answer;
    try {
      answer = await core({
        method: request.method,
        // the fragment too: a "#" sent to a server is no path of the service
        url: `${url.pathname}${url.search}${url.hash}`,
        header: (name) => request.headers.get(name),
        headers: () => request.headers,
        secure: url.protocol === 'https:',
        host: request.headers.get('host') ?? url.host,
        raw: request,
        readBody: (limit, timeoutFor) => readBody(request, limit, timeoutFor),
      });
    } catch (error) {
      console.error(`[esign-proxy] failure: ${error instanceof Error ? error.name : typeof error}`);
      return new Response(JSON.stringify({ status: 'error', message: 'Proxy failure' }), { status: 500, headers: JSON_HEADERS });
    }
    if (!answer) return new Response(JSON.stringify({ status: 'error', message: 'Not found' }), { status: 404, headers: JSON_HEADERS });
    const headers = new Headers(answer.headers);
    for (const cookie of answer.cookies ?? []) headers.append('set-cookie', cookie);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a Buffer or a string, both bodies a Response takes
    return new Response(answer.body as ConstructorParameters<typeof Response>[0], { status: answer.status, headers });
  };
  return Object.assign(handler, { health: core.health });
}

/** The proxy as a fetch-style route handler; `health()` for a load balancer's check. */
export type FetchProxyHandler = ((request: Request) => Promise<Response>) & { health(): Promise<ProxyHealth> };

/**
 * Serves a fetch-style handler from node:http (or Express, Connect, Vite): builds a `Request`
 * from the incoming message, streams its body, and writes the `Response` back.
 */
export function fetchHandlerToNode(handler: (request: Request) => Promise<Response>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a TLS socket says encrypted; any other has no such field
    const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const body = hasBody
      ? new ReadableStream<Uint8Array>({
          start(controller) {
            req.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
            req.on('end', () => controller.close());
            req.on('error', (error) => controller.error(error));
          },
          cancel() {
            req.destroy();
          },
        })
      : null;
    const fail = (status: number, message: string) => {
      req.resume();
      res.writeHead(status, { ...JSON_HEADERS, connection: 'close' }).end(JSON.stringify({ status: 'error', message }));
    };
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- Express's request adds originalUrl; a plain one has none
    const raw = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    let request: Request;
    try {
      const url = new URL(raw, `${protocol}://${req.headers.host ?? 'localhost'}`);
      // a URL that fetch would resolve (dot segments, backslashes) is not passed on as another one
      if (`${url.pathname}${url.search}${url.hash}` !== raw) throw new TypeError('not a plain path');
      request = new Request(url, {
        method: req.method ?? 'GET',
        headers,
        ...(body ? { body, duplex: 'half' } : {}),
      });
    } catch {
      // a method or URL that fetch's Request refuses (TRACE, CONNECT, a malformed Host)
      fail(400, 'Bad request');
      return;
    }
    handler(request).then(
      async (response) => {
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          out[name] = value;
        });
        const bytes = Buffer.from(await response.arrayBuffer());
        res.writeHead(response.status, { ...out, 'content-length': bytes.length });
        res.end(bytes);
      },
      () => fail(500, 'Proxy failure'),
    );
  };
}

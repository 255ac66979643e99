import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createProxyHandler, type ProxyOptions } from '../../src/proxy/index.js';
import { BodyTooLarge, type IncomingProxyRequest } from '../../src/proxy/core.js';
import { Sandbox, type SandboxOptions } from 'esign-sandbox';

export const ACCESS_TOKEN = 'test-secret-token-0f9e8d';
/** The widget's built script-tag files, which the sandbox's signing pages serve. */
export const WIDGET_DIR = fileURLToPath(new URL('../../dist/cdn/', import.meta.url));

/** A clock the tests move by hand, so persons answer without waiting. */
export class TestClock {
  time = Date.UTC(2026, 10, 21, 9, 0, 0);
  now = () => this.time;
  advance(ms: number) {
    this.time += ms;
  }
}

const received: { where: string; text: string }[] = [];

/** Every response any test receives is checked for the access token at the end of the file. */
after(() => {
  for (const { where, text } of received) assert.ok(!text.includes(ACCESS_TOKEN), `access token leaked in ${where}`);
});

/**
 * Servers a test file starts on loopback, all closed when the file ends:
 * `const serve = serverPool();` then `await serve(handler)` gives the server's URL.
 */
export function serverPool(): (handler: RequestListener) => Promise<string> {
  const servers: Server[] = [];
  after(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return (handler) => {
    const server = createServer(handler);
    servers.push(server);
    return listen(server);
  };
}

export { until } from './wait.js';

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface Stack {
  clock: TestClock;
  sandbox: Sandbox;
  sandboxUrl: string;
  proxyUrl: string;
  close: () => Promise<void>;
}

/** The sandbox and, in front of it, the proxy: each on its own loopback port. */
export async function startStack(sandboxOptions: SandboxOptions = {}, proxyOptions: Partial<ProxyOptions> = {}): Promise<Stack> {
  const clock = new TestClock();
  const sandbox = new Sandbox({ accessToken: ACCESS_TOKEN, now: clock.now, widgetDir: WIDGET_DIR, ...sandboxOptions });
  const sandboxServer = createServer(sandbox.handle);
  const sandboxUrl = await listen(sandboxServer);
  // most suites exercise the service through the proxy: every operation on, no limits; the proxy's
  // own rules have their suite
  const proxyServer = createServer(
    createProxyHandler({
      baseUrl: sandboxUrl,
      accessToken: ACCESS_TOKEN,
      operations: 'all',
      authorize: () => true,
      rateLimit: false,
      exposeScreening: true,
      ...proxyOptions,
    }),
  );
  const proxyUrl = await listen(proxyServer);
  return {
    clock,
    sandbox,
    sandboxUrl,
    proxyUrl,
    close: async () => {
      for (const server of [proxyServer, sandboxServer]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** The stack of a test file: started before its tests, closed after them; read it inside a test. */
export function stackOfThisFile(): () => Stack {
  let stack: Stack | undefined;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });
  return () => stack ?? assert.fail('the stack starts before the tests');
}

export interface Answer {
  status: number;
  json: Record<string, any>;
  headers: Headers;
}

/** Cookies per host, as a browser keeps them: the proxy's visitor cookie goes back on every request. */
export class CookieJar {
  readonly #cookies = new Map<string, Map<string, string>>();
  header(url: string): string {
    return [...(this.#cookies.get(new URL(url).host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  keep(url: string, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const host = new URL(url).host;
      if (!this.#cookies.has(host)) this.#cookies.set(host, new Map());
      this.#cookies.get(host)!.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}

/** The jar of the one visitor most tests are. */
export const VISITOR = new CookieJar();

export interface SendOptions {
  headers?: Record<string, string>;
  /** Whose cookies; null sends none. Default the common visitor. */
  jar?: CookieJar | null;
}

/** Sends a request and records the answer for the token check. */
export async function send(url: string, method: string, body: unknown, raw = false, options: SendOptions = {}): Promise<Answer> {
  const jar = options.jar === undefined ? VISITOR : options.jar;
  const cookie = jar?.header(url);
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...options.headers },
    ...(body === undefined ? {} : { body: raw ? (body as string) : JSON.stringify(body) }),
  });
  jar?.keep(url, response);
  const text = await response.text();
  received.push({ where: `${method} ${url}`, text: text + JSON.stringify([...response.headers]) });
  let json: Record<string, any>;
  try {
    json = JSON.parse(text);
  } catch {
    json = { nonJson: text };
  }
  return { status: response.status, json, headers: response.headers };
}

export function b64(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString('base64');
}

/** A GET of a page (invitation and temporary links), recorded for the token check. */
export async function getPage(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  const text = await response.text();
  received.push({ where: `GET ${url}`, text: text + JSON.stringify([...response.headers]) });
  return { status: response.status, text };
}

/** Records a Response that did not come over HTTP (a fetch-style handler called directly). */
export async function recordResponse(where: string, response: Response): Promise<Response> {
  const text = await response.clone().text();
  received.push({ where, text: text + JSON.stringify([...response.headers]) });
  return response;
}

/** A service that starts every session and records the paths that reached it (served by the given pool). */
export async function countingService(
  serve: (handler: RequestListener) => Promise<string>,
  answer: (path: string) => object = () => ({ status: 'ok', token: '0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01', control_code: '1234' }),
): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const url = await serve((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(req.url ?? '')));
    });
  });
  return { url, seen };
}

/** A request as the proxy's adapters hand it to the steps; `body` is what readBody gives (refused over its limit). */
export function incomingRequest(init: { method?: string; url: string; headers?: Record<string, string>; body?: string }): IncomingProxyRequest {
  const headers = new Headers({ 'content-type': 'application/json', ...init.headers });
  return {
    method: init.method ?? 'POST',
    url: init.url,
    header: (name) => headers.get(name),
    headers: () => headers,
    secure: false,
    host: '127.0.0.1:1',
    raw: null,
    readBody: async (limit) => {
      const bytes = new TextEncoder().encode(init.body ?? '');
      if (bytes.byteLength > limit) throw new BodyTooLarge();
      return bytes;
    },
  };
}

/**
 * Resolves once the proxy has handed over the events of every answer already received: it hands
 * each to onEvent in a timer it sets before it answers, and Node runs timers of the same delay in
 * the order they were set, so a timer set after the answers are in runs after all of those.
 */
export function eventsDelivered(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

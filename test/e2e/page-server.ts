import { after, before } from 'node:test';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { Sandbox } from 'esign-sandbox';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { createProxyHandler } from '../../src/proxy/index.js';

export interface PageServer {
  url: string;
  close: () => Promise<void>;
}

/**
 * A host for browser tests: pages and scripts by path, the widget's script-tag files at `/cdn/`,
 * and the proxy at `/esign/` in front of the given sandbox on a port of its own. The proxy's poll
 * floor is off: these tests poll at once after a page event, sooner than 500 ms apart.
 */
export async function startPageServer(options: {
  sandbox: Sandbox;
  token: string;
  /** A page's HTML, or a script (a path ending in `.js`), by path; undefined for none. */
  content: (path: string) => string | undefined;
  /** Sees each request that reaches the service side. */
  onService?: (request: IncomingMessage) => void;
  /** A network that swallows a request: true holds this request of the page unanswered until its connection closes. */
  hold?: (request: IncomingMessage) => boolean;
}): Promise<PageServer> {
  const service = createServer((req, res) => {
    options.onService?.(req);
    options.sandbox.handle(req, res);
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const proxy = createProxyHandler({
    baseUrl: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
    accessToken: options.token,
    prefix: '/esign',
    rateLimit: false,
    minPollIntervalMs: 0,
  });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://loopback').pathname;
    const content = options.content(path);
    if (content !== undefined) res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(content);
    else if (/^\/cdn\/esign-elements[\w.-]*\.js$/.test(path))
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(new URL(`../../dist${path}`, import.meta.url)));
    else if (path.startsWith('/esign/') && options.hold?.(req)) req.resume();
    else if (path.startsWith('/esign/')) proxy(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      service.closeAllConnections();
      await new Promise((resolve) => service.close(resolve));
    },
  };
}

/**
 * For a test file: the page server and Chromium, started before its tests and ended after them;
 * the fields are set once `before` has run.
 */
export function pagesInChromium(options: () => Parameters<typeof startPageServer>[0]): { url: string; browser: Browser } {
  const env = { url: '', browser: undefined as unknown as Browser };
  let host: PageServer | undefined;
  before(async () => {
    host = await startPageServer(options());
    env.url = host.url;
    env.browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await env.browser?.close();
    await host?.close();
  });
  return env;
}

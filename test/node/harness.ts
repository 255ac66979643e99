import { after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createProxyHandler, type ProxyOptions } from '../../src/proxy/index.js';
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
  const proxyServer = createServer(createProxyHandler({ baseUrl: sandboxUrl, accessToken: ACCESS_TOKEN, ...proxyOptions }));
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

export interface Answer {
  status: number;
  json: Record<string, any>;
  headers: Headers;
}

/** Sends a request and records the answer for the token check. */
export async function send(url: string, method: string, body: unknown, raw = false): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: raw ? (body as string) : JSON.stringify(body),
  });
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

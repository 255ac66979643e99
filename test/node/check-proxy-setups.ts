import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkProxy, type CheckOptions, type CheckRow } from 'esign-sandbox';
import { freePort, scratchDir, startedByThisFile } from './processes.js';
import { createProxyHandler, ResultRefused, type ProxyEvent, type ProxyOptions, type ProxyResult } from '../../src/proxy/index.js';

// What the check-proxy suites share (check-proxy.test.ts: our Node proxy; -broken: proxies broken one rule at a time, and the command): the rows, the proxies
// under check on free ports, and the check itself. One file each, so that they run side by side.

export const ALL_ROWS = [
  'allow-list-pass',
  'allow-list-refuse',
  'fields',
  'json-only',
  'form-bodies',
  'field-shapes',
  'cross-site',
  'scheme',
  'request-id',
  'visitor-binding',
  'signer-gate',
  'signer-country',
  'screening',
  'token-echo-plain',
  'token-echo-escaped',
  'token-header',
  'token-redirect',
  'body-limit',
  'small-bodies',
  'poll-floor',
  'upstream-timeout',
  'result-first',
  'site-refused',
  'slow-hook',
  'fail-closed',
  'no-lockout',
  'no-lockout-country',
  'limits-exact',
  'rate-limit',
  'events',
  'state-at-rest',
  'token-never',
];

export const { servers, children } = startedByThisFile();

export type Wrap = (req: IncomingMessage, res: ServerResponse, proxy: RequestListener) => void;

/** Our proxy on its own port in front of the check's sandbox, optionally with one rule broken. */
export async function nodeProxy(sandboxPort: number, token: string, options: Partial<ProxyOptions> = {}, wrap?: Wrap): Promise<string> {
  const proxy = createProxyHandler({ baseUrl: `http://127.0.0.1:${sandboxPort}`, accessToken: token, prefix: '/esign', ...options }) as RequestListener;
  const server = createServer(wrap ? (req, res) => wrap(req, res, proxy) : proxy);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/esign`;
}

export async function check(
  start: (sandboxPort: number, token: string) => Promise<string>,
  exposesScreening = false,
  signer?: { code: string; country: 'LT' | 'LV' | 'EE'; phone?: string },
  state?: { stopState: string; startState: string },
  events?: string,
  more: Partial<CheckOptions> = {},
): Promise<CheckRow[]> {
  // the check's sandbox listens on a port found free a moment before: another file running beside
  // this one may take it in between, and then the check starts again on another (the proxy too)
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const token = `check-${port}-secret`;
    const url = await start(port, token);
    try {
      const { rows } = await checkProxy({
        proxyUrl: url,
        port,
        accessToken: token,
        exposesScreening,
        waitMs: 20_000,
        ...(signer ? { signer } : {}),
        ...state,
        ...(events ? { events } : {}),
        ...more,
      });
      return rows;
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error && 'code' in error && error.code === 'EADDRINUSE')) throw error;
    }
  }
}

export const skipped = (rows: CheckRow[]) => rows.filter((row) => row.skipped).map((row) => row.id);

/** What check-proxy's result-first row asks of a result hook: it reports when it begins and ends, and takes its time between. */
export function reportingHook(sandboxPort: number, ms = 2_000): (result: ProxyResult) => Promise<void> {
  const report = (token: string, at: string) =>
    fetch(`http://127.0.0.1:${sandboxPort}/__probe/hook`, { method: 'POST', body: JSON.stringify({ token, at }) }).then(
      async (r) => (await r.arrayBuffer(), r.status),
    );
  return async (result) => {
    const said = await report(result.token, 'start');
    await new Promise((resolve) => setTimeout(resolve, ms));
    await report(result.token, 'end');
    // the check's site turns this person away: the host's refusal for good
    if (said === 409) throw new ResultRefused(409);
  };
}

/** A file the Node proxy's events are appended to as JSON lines (check-proxy's --events), each changed first by `change`. */
export function eventsFile(change: (event: Record<string, unknown>) => Record<string, unknown> = (event) => event): {
  file: string;
  onEvent: (event: ProxyEvent) => void;
} {
  const file = join(scratchDir('esign-events-'), 'events.jsonl');
  return { file, onEvent: (event) => appendFileSync(file, `${JSON.stringify(change({ ...event }))}\n`) };
}

export const failing = (rows: CheckRow[]) => rows.filter((row) => !row.ok).map((row) => row.id);

/** A wrap that reads a JSON body first (passed on to the proxy as it came, or changed). */
export function withBody(
  decide: (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse, pass: (changed?: Record<string, unknown>) => void) => void,
): Wrap {
  return (req, res, proxy) => {
    if (Number(req.headers['content-length'] ?? 0) > 1024 * 1024) return proxy(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON: the proxy's own answer
      }
      decide(body, req, res, (changed) => {
        (req as IncomingMessage & { body?: unknown }).body = changed ?? text;
        proxy(req, res);
      });
    });
  };
}

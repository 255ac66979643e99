import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createProxyHandler } from '../proxy/node.js';
import { RedisStore } from '../proxy/redis.js';
import type { ProxyStore } from '../proxy/store.js';
import type { ServerSettings } from './settings.js';
import { askSigner, deliverResults } from './webhook.js';

/*
 * `esign-proxy`: the Node proxy as a server of its own, for a site on any stack. Around the
 * handler: health and readiness answers, the widget's script-tag files, the state in Redis by a
 * URL, events as JSON lines, and a shutdown that lets requests in flight (their hooks) finish.
 */

export interface ServerIo {
  /** One line of an event (JSON): stdout. */
  event: (line: string) => void;
  /** A line for the operator: stderr. */
  log: (line: string) => void;
  /** Where the script-tag files are (the package's dist/cdn/), when they are served. */
  widgetDir: string | null;
}

export interface RunningServer {
  url: string;
  /** Stops taking requests, lets those in flight end (within the setting's time), closes the store. */
  close: () => Promise<void>;
}

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', json: 'application/json', map: 'application/json', css: 'text/css; charset=utf-8' };
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The state of several instances in Redis by its URL (node-redis, an optional peer of the package), else this process's memory. */
async function storeOf(settings: ServerSettings): Promise<{ store: ProxyStore | undefined; close: () => Promise<void> }> {
  if (!settings.redisUrl && !settings.redisClusterUrls.length) return { store: undefined, close: async () => undefined };
  const redis = await import('redis').catch(() => {
    throw new Error('ESIGN_REDIS_URL and ESIGN_REDIS_CLUSTER need the redis package: npm install redis');
  });
  const client = settings.redisUrl ? redis.createClient({ url: settings.redisUrl }) : redis.createCluster({ rootNodes: settings.redisClusterUrls.map((url) => ({ url })) });
  // a Redis away at start or later: requests are refused (503) until it is back, the client reconnects
  client.on('error', () => undefined);
  await client.connect();
  return { store: new RedisStore(client), close: async () => void (await client.quit().catch(() => undefined)) };
}

/** The host's own session cookie as the visitor, by its name: kept only as a keyed digest, never its value. */
function sessionVisitor(name: string, key: string): (request: { headers: Headers }) => string | null {
  return (request) => {
    for (const part of (request.headers.get('cookie') ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) {
        const value = part.slice(eq + 1).trim();
        return value ? createHmac('sha256', key).update(`session:${value}`).digest('base64url') : null;
      }
    }
    return null;
  };
}

/** The browser's address as the reverse proxy in front saw it: the last hop of X-Forwarded-For, which it added. */
function forwardedFor(request: { headers: Headers }): string | null {
  const hops = (request.headers.get('x-forwarded-for') ?? '').split(',').map((hop) => hop.trim()).filter(Boolean);
  return hops.at(-1) ?? null;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

/** A script-tag file, by its bare name from the widget's folder: nothing else of the disk. */
function serveFile(res: ServerResponse, dir: string, name: string, head: boolean): boolean {
  if (!FILE_NAME.test(name)) return false;
  const path = join(dir, name);
  if (!existsSync(path) || !statSync(path).isFile()) return false;
  const type = TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
  const body = readFileSync(path);
  res.writeHead(200, { 'content-type': type, 'content-length': body.byteLength, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' });
  res.end(head ? undefined : body);
  return true;
}

export async function startServer(settings: ServerSettings, io: ServerIo): Promise<RunningServer> {
  const { store, close: closeStore } = await storeOf(settings);
  const handler = createProxyHandler({
    baseUrl: settings.baseUrl,
    accessToken: settings.accessToken,
    prefix: settings.prefix,
    allowedOrigins: settings.allowedOrigins,
    ...(settings.publicScheme ? { publicScheme: settings.publicScheme } : {}),
    ...(store ? { store } : {}),
    ...(settings.eventSecret ? { eventSecret: settings.eventSecret } : {}),
    ...(settings.trustRequestIdHeader ? { trustRequestIdHeader: settings.trustRequestIdHeader } : {}),
    ...(settings.visitorSecret ? { visitorSecret: settings.visitorSecret } : {}),
    exposeScreening: settings.exposeScreening,
    ...(settings.trustProxy ? { clientAddress: forwardedFor } : {}),
    onEvent: (event) => io.event(JSON.stringify(event)),
    log: io.log,
    resultTimeoutMs: settings.resultTimeoutMs,
    ...(settings.webhookUrl ? { onResult: deliverResults({ url: settings.webhookUrl, keys: settings.webhookKeys }) } : {}),
    ...(settings.signerUrl ? { signer: askSigner({ url: settings.signerUrl, keys: settings.webhookKeys }) } : {}),
    ...(settings.visitorCookie ? { visitor: sessionVisitor(settings.visitorCookie, settings.visitorSecret ?? settings.accessToken) } : {}),
  });
  const cdn = `${settings.prefix}/cdn/`;
  let inFlight = 0;
  let drained: (() => void) | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'GET' && path === '/healthz') return json(res, 200, { ok: true });
    if (req.method === 'GET' && path === '/readyz') {
      void handler.health().then((health) => json(res, health.ok ? 200 : 503, health));
      return;
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && io.widgetDir && settings.serveWidget && path.startsWith(cdn)) {
      if (serveFile(res, io.widgetDir, path.slice(cdn.length), req.method === 'HEAD')) return;
      return json(res, 404, { status: 'error', message: 'Not found' });
    }
    handler(req, res, () => json(res, 404, { status: 'error', message: 'Not found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, resolve);
  });
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- listening on a TCP port: its address is an AddressInfo (a string only for a pipe)
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, settings.shutdownMs).unref();
        });
      }
      server.closeAllConnections();
      await closed;
      await closeStore();
    },
  };
}

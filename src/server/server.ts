import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createProxyHandler } from '../proxy/node.js';
import type { ProxyLogLine, ProxyResult } from '../proxy/options.js';
import { MemoryStore } from '../proxy/store.js';
import { visitorFromCookie } from '../proxy/visitor.js';
import { createOidcProvider, type OidcProvider } from './oidc/provider.js';
import { RedisStore } from '../proxy/redis.js';
import type { ServerSettings } from './settings.js';
import { askSigner, deliverResults, deliveryId } from './webhook.js';

/*
 * `esign-proxy`: the Node proxy as a server of its own, for a site on any stack. Around the
 * handler: health and readiness answers, the widget's script-tag files, the state in Redis by a
 * URL, events as JSON lines, and a shutdown that lets requests in flight (their hooks) finish.
 */

export interface ServerIo {
  /** One line of an event (JSON): stdout. */
  event: (line: string) => void;
  /** A line for the operator (JSON, with its level): stderr. */
  log: (line: string) => void;
  /** Where the script-tag files are (the package's dist/cdn/), when they are served. */
  widgetDir: string | null;
}

export interface RunningServer {
  url: string;
  /** Stops taking requests, lets those in flight end (within the setting's time), closes the store. */
  close: () => Promise<void>;
}

type Level = 'info' | 'warn' | 'error';

/** An operator's line: JSON with its level and time, the message, and what names the cause (a URL, an error's code, a request id). */
export function operatorLine(level: Level, msg: string, fields: Record<string, string | number | undefined> = {}): string {
  return JSON.stringify({ level, time: new Date().toISOString(), msg, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) });
}

/** A line of the proxy library as an operator's line: at the level and with the request the proxy gave it, the cause's code and address taken out. */
function libraryLine(message: string, line: ProxyLogLine): string {
  const code = /\b(E[A-Z0-9_]{3,}|HTTP \d{3})\b/.exec(message)?.[1];
  const url = /\b(https?:\/\/[^\s)]+)/.exec(message)?.[1];
  const msg = message.replace(/^\[esign-proxy\] /, '').replace(/ \[request [^\]]+\]$/, '');
  return operatorLine(line.level, msg, { code, url, requestId: line.requestId });
}

/** A Redis address as a line may show it: its password taken out. */
function shownRedis(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** Why a Redis client failed: the system's code (ECONNREFUSED, ...) or its message. */
function redisCause(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown';
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  css: 'text/css; charset=utf-8',
};
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The state of several instances in Redis by its URL (node-redis, an optional peer of the
 * package), else this process's memory. A Redis away at start or later does not stop the server:
 * it listens at once, answers 503 (and /readyz 503) until the store answers, says so in one line
 * each time the store goes or comes back, and the client keeps trying.
 */
async function storeOf(settings: ServerSettings, log: (line: string) => void): Promise<{ store: RedisStore | undefined; close: () => Promise<void> }> {
  if (!settings.redisUrl && !settings.redisClusterUrls.length) return { store: undefined, close: async () => undefined };
  const redis = await import('redis').catch(() => {
    throw new Error('ESIGN_REDIS_URL and ESIGN_REDIS_CLUSTER need the redis package: npm install redis');
  });
  const address = settings.redisUrl ? shownRedis(settings.redisUrl) : settings.redisClusterUrls.map(shownRedis).join(',');
  // commands fail at once while the connection is away (the request gets 503), not queued for later
  const client = settings.redisUrl
    ? redis.createClient({
        url: settings.redisUrl,
        disableOfflineQueue: true,
        socket: { reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5_000) },
      })
    : redis.createCluster({ rootNodes: settings.redisClusterUrls.map((url) => ({ url })), defaults: { disableOfflineQueue: true } });
  let away: string | null = null;
  client.on('error', (error: unknown) => {
    const cause = redisCause(error);
    if (away === cause) return;
    away = cause;
    log(operatorLine('error', 'the store (Redis) cannot be reached: requests are refused 503 until it answers; trying again', { url: address, code: cause }));
  });
  client.on('ready', () => {
    if (away === null) return;
    away = null;
    log(operatorLine('info', 'the store (Redis) answers again', { url: address }));
  });
  let closed = false;
  const connect = async (): Promise<void> => {
    while (!closed) {
      try {
        await client.connect();
        return;
      } catch (error) {
        // a cluster that cannot be reached at start: its first connection is tried again here
        const cause = redisCause(error);
        if (away !== cause) {
          away = cause;
          log(
            operatorLine('error', 'the store (Redis) cannot be reached: requests are refused 503 until it answers; trying again', {
              url: address,
              code: cause,
            }),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    }
  };
  void connect();
  return {
    store: new RedisStore(client, { prefix: settings.redisPrefix }),
    close: async () => {
      closed = true;
      await client.quit().catch(() => undefined);
    },
  };
}

/**
 * The host's own session cookie as the visitor, by its name: kept only as a keyed digest, never
 * its value. A browser without it is refused (403), and the log says once why: the site must set
 * a session id that stays the same (server-side sessions) before the widget starts.
 */
function sessionVisitor(name: string, key: string, log: (line: string) => void): (request: { headers: Headers }) => string | null {
  let said = false;
  return (request) => {
    for (const part of (request.headers.get('cookie') ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) {
        const value = part.slice(eq + 1).trim();
        if (value) return createHmac('sha256', key).update(`session:${value}`).digest('base64url');
      }
    }
    if (!said) {
      said = true;
      log(
        operatorLine(
          'warn',
          `ESIGN_VISITOR_COOKIE: a request came without a cookie named ${name}, refused 403. The site must set its session cookie before the page shows the widget, and its value must stay the same for the session (a server-side session id; a cookie that carries signed session data changes with every change and is no visitor). Said once.`,
          { code: 'visitor-cookie-missing' },
        ),
      );
    }
    return null;
  };
}

/** The browser's address as the reverse proxy in front saw it: the last hop of X-Forwarded-For, which it added. */
function forwardedFor(request: { headers: Headers }): string | null {
  const hops = (request.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
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
  const { store: sharedStore, close: closeStore } = await storeOf(settings, io.log);
  // the OpenID Provider keeps its state where the proxy keeps its own: one memory store for both without Redis
  const store = sharedStore ?? (settings.oidc ? new MemoryStore() : undefined);
  const visitorSecret = settings.visitorSecret ?? settings.accessToken;
  // esign-proxy serves plain http: its cookies are Secure (the visitor's __Host-) when the public scheme says TLS ends in front
  const secureCookie = settings.publicScheme === 'https';
  const hostVisitor = settings.visitorCookie ? sessionVisitor(settings.visitorCookie, visitorSecret, io.log) : undefined;
  let oidc: OidcProvider | undefined;
  if (settings.oidc && store) {
    oidc = await createOidcProvider({
      settings: settings.oidc,
      prefix: settings.prefix,
      store,
      sealSecret: visitorSecret,
      trustProxy: settings.trustProxy,
      visitorOf: (req) => {
        const headers = new Headers();
        if (req.headers.cookie) headers.set('cookie', req.headers.cookie);
        if (hostVisitor) return hostVisitor({ headers });
        return visitorFromCookie(req.headers.cookie, { secure: secureCookie, secret: visitorSecret });
      },
      log: (level, msg, fields) => io.log(operatorLine(level, msg, fields)),
    });
  }
  const deliver = settings.webhookUrl
    ? deliverResults(
        {
          url: settings.webhookUrl,
          keys: settings.webhookKeys,
          cookies: settings.forwardCookies.length ? { names: settings.forwardCookies } : ('all-but-the-proxys' as const),
        },
        settings.eventSecret ?? settings.accessToken,
        (level, msg, fields) => io.log(operatorLine(level, msg, fields)),
      )
    : undefined;
  /** The results being handed over, by their webhook-id: a shutdown waits for them (a poll answered "waiting" is no longer in flight). */
  const handing = new Map<Promise<void>, string>();
  const tracked = async (result: ProxyResult, work: Promise<void>): Promise<void> => {
    handing.set(work, deliveryId(result));
    try {
      await work;
    } finally {
      handing.delete(work);
    }
  };
  /**
   * A login by OpenID Connect ends on the provider alone: the site hears of it after, as a
   * notification tried again within the result's time, whose failure (the site down, slow, or
   * answering 4xx) is a log line and never touches the login.
   */
  const notify = (result: ProxyResult, send: NonNullable<typeof deliver>): void => {
    const signal = AbortSignal.timeout(settings.resultTimeoutMs);
    void tracked(
      result,
      send({ ...result, signal }, { notification: true }).catch(() => undefined), // each failure is said by the delivery's own log lines
    );
  };
  const onResult =
    oidc || deliver
      ? async (result: ProxyResult) => {
          if (oidc && result.kind === 'login') {
            await tracked(result, oidc.loginVerified(result));
            if (deliver) notify(result, deliver);
            return;
          }
          if (deliver) await tracked(result, deliver(result));
        }
      : undefined;
  const cookies = settings.forwardCookies.length ? { names: settings.forwardCookies } : ('all-but-the-proxys' as const);
  const hooks = { keys: settings.webhookKeys, cookies };
  const limits = settings.rateLimit;
  const handler = createProxyHandler({
    baseUrl: settings.baseUrl,
    accessToken: settings.accessToken,
    prefix: settings.prefix,
    allowedOrigins: settings.allowedOrigins,
    ...(settings.publicScheme ? { publicScheme: settings.publicScheme } : {}),
    secureCookie,
    ...(store ? { store } : {}),
    ...(settings.eventSecret ? { eventSecret: settings.eventSecret } : {}),
    ...(settings.trustRequestIdHeader ? { trustRequestIdHeader: settings.trustRequestIdHeader } : {}),
    ...(settings.visitorSecret ? { visitorSecret: settings.visitorSecret } : {}),
    exposeScreening: settings.exposeScreening,
    ...(settings.trustProxy ? { clientAddress: forwardedFor } : {}),
    onEvent: (event) => io.event(JSON.stringify(event)),
    log: (message, line) => io.log(libraryLine(message, line)),
    resultTimeoutMs: settings.resultTimeoutMs,
    storeTimeoutMs: settings.storeTimeoutMs,
    pressure: { maxStartsInFlight: settings.maxStartsInFlight, maxEventLoopDelayMs: settings.maxEventLoopDelayMs },
    ...(limits
      ? {
          rateLimit: {
            perVisitor: { limit: limits.visitor, windowMs: limits.windowMs },
            perPerson: { limit: limits.person, windowMs: limits.windowMs },
            ...(limits.address ? { perAddress: { limit: limits.address, windowMs: limits.windowMs } } : {}),
          },
        }
      : {}),
    ...(onResult ? { onResult } : {}),
    ...(settings.signerUrl ? { signer: askSigner({ url: settings.signerUrl, ...hooks }) } : {}),
    ...(hostVisitor ? { visitor: hostVisitor } : {}),
  });
  const health = new Set(['/healthz', `${settings.prefix}/healthz`]);
  const ready = new Set(['/readyz', `${settings.prefix}/readyz`]);
  const cdn = `${settings.prefix}/cdn/`;
  let inFlight = 0;
  let drained: (() => void) | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && health.has(path)) return json(res, 200, { ok: true });
    if (req.method === 'GET' && ready.has(path)) {
      void handler.health().then((health) => json(res, health.ok ? 200 : 503, health));
      return;
    }
    if (oidc?.handle(req, res)) return;
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
      const deadline = Date.now() + settings.shutdownMs;
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, settings.shutdownMs).unref();
        });
      }
      // the hand-overs still on their way (a site that takes its time) finish too, within the same time
      if (handing.size > 0) {
        const left = Math.max(0, deadline - Date.now());
        await Promise.race([Promise.allSettled(handing.keys()), new Promise((resolve) => setTimeout(resolve, left).unref())]);
        for (const webhookId of handing.values()) {
          io.log(operatorLine('warn', "a delivery was cut by the shutdown: its session's next poll tries again (to any node)", { webhookId }));
        }
      }
      server.closeAllConnections();
      await closed;
      await closeStore();
    },
  };
}

/**
 * A host that trusts only its own server: people log in with esign-identify and sign with
 * esign-sign, and the host's server session and stored files come from the proxy's onResult,
 * never from the browser's events.
 *
 *   node --import tsx examples/host-express/server.ts        (the sandbox behind it)
 *   ESIGN_BASE_URL=… ESIGN_ACCESS_TOKEN=… node --import tsx examples/host-express/server.ts
 */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';
import { pino } from 'pino';
import { createProxyHandler, eventLogger, type EventLogger, type ProxyResult } from 'esign-elements/proxy';

const here = dirname(fileURLToPath(import.meta.url));
const widgetFiles = dirname(fileURLToPath(import.meta.resolve('esign-elements/cdn')));

interface Account {
  code: string;
  name: string;
  surname: string;
  country: string;
}

interface SignedFile {
  /** The signing session's token: onResult may run twice for one session, the file is kept once. */
  session: string;
  name: string;
  bytes: Buffer;
  signer: string;
}

/** The host's own server-side sessions (a real host has its session store here). */
interface HostSession {
  account?: Account;
  files: SignedFile[];
}

export interface HostOptions {
  baseUrl: string;
  accessToken: string;
  port?: number;
  /** Where the proxy's events go as JSON lines: the host's own logger (pino here). */
  logger?: EventLogger;
  /** The secret the proxy keys persons with in its events (the host can compute the same digests). */
  eventSecret?: string;
}

export interface RunningHost {
  url: string;
  sessions: Map<string, HostSession>;
  close: () => Promise<void>;
}

const SESSION_COOKIE = 'host_session';

function sessionId(cookieHeader: string | null | undefined): string | null {
  const found = /(?:^|;\s*)host_session=([A-Za-z0-9_-]{20,})/.exec(cookieHeader ?? '');
  return found?.[1] ?? null;
}

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const sessions = new Map<string, HostSession>();
  const app = express();

  /** Every page visit has a server-side session: its id, in an HttpOnly cookie, is also the proxy's visitor. */
  const session = (req: Request, res: express.Response): HostSession => {
    let id = sessionId(req.headers.cookie);
    if (!id || !sessions.has(id)) {
      id = randomBytes(24).toString('base64url');
      sessions.set(id, { files: [] });
      res.cookie(SESSION_COOKIE, id, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' });
    }
    return sessions.get(id)!;
  };

  // The one place a login or a signature becomes real: the service's own answer, through the proxy.
  // It may run more than once for one session (at least once is the promise), so it is idempotent.
  const onResult = (result: ProxyResult): void => {
    const owner = sessions.get(result.visitor);
    if (!owner) throw new Error('result for an unknown session');
    if (result.kind === 'login') {
      const { code, name, surname, country } = result.result;
      owner.account = { code, name, surname, country };
    } else if (result.kind === 'sign' && !owner.files.some((kept) => kept.session === result.token)) {
      const { file, person } = result.result;
      owner.files.push({ session: result.token, name: file.name, bytes: Buffer.from(file.content, 'base64'), signer: `${person.name} ${person.surname}` });
    }
  };

  app.use(
    createProxyHandler({
      baseUrl: options.baseUrl,
      accessToken: options.accessToken,
      prefix: '/esign',
      // sessions are bound to the host's own session, not to a cookie of the proxy's
      visitor: (request) => {
        const id = sessionId(request.headers.get('cookie'));
        return id && sessions.has(id) ? id : null;
      },
      // session starts limited per network address too; behind a load balancer, set Express's
      // `trust proxy` to it so that req.ip is the browser's address, not the balancer's
      clientAddress: (request) => (request.raw as Request).ip,
      onResult,
      // what the proxy did, as JSON lines in the host's log: refusals, failures, starts and ends;
      // spans and metrics go to OpenTelemetry when the host registers its SDK (see below)
      onEvent: eventLogger(options.logger ?? pino()),
      ...(options.eventSecret ? { eventSecret: options.eventSecret } : {}),
    }),
  );
  app.use('/widget', express.static(widgetFiles, { immutable: true, maxAge: '1h' }));
  app.get('/', (_req, res) => res.redirect('/login'));
  for (const page of ['login', 'sign']) {
    app.get(`/${page}`, (req, res) => {
      session(req, res);
      res.sendFile(join(here, 'public', `${page}.html`));
    });
  }
  app.get('/page.js', (_req, res) => res.sendFile(join(here, 'public', 'page.js')));
  app.get('/page.css', (_req, res) => res.sendFile(join(here, 'public', 'page.css')));
  // what the server knows, for the page to show: the truth, whatever the browser's events said
  app.get('/me', (req, res) => {
    const known = sessions.get(sessionId(req.headers.cookie) ?? '');
    const files = (known?.files ?? []).map((f) => ({ name: f.name, size: f.bytes.length, signer: f.signer }));
    if (!known?.account) res.status(401).json({ loggedIn: false, files });
    else res.json({ loggedIn: true, account: known.account, files });
  });
  app.get('/files/:index', (req, res) => {
    const known = sessions.get(sessionId(req.headers.cookie) ?? '');
    const file = known?.files[Number(req.params.index)];
    if (!file) {
      res.status(404).json({ error: 'not found' });
      return;
    }
    res.attachment(file.name).type('application/octet-stream').send(file.bytes);
  });

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(options.port ?? 0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // OpenTelemetry's SDK, printing each span to the console: a real host exports to its collector
  const { trace } = await import('@opentelemetry/api');
  const { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] }));
  let baseUrl = process.env['ESIGN_BASE_URL'];
  let accessToken = process.env['ESIGN_ACCESS_TOKEN'];
  if (!baseUrl || !accessToken) {
    const { startSandbox, DEFAULT_ACCESS_TOKEN } = await import('esign-sandbox');
    const sandbox = await startSandbox({ accessToken: DEFAULT_ACCESS_TOKEN, widgetDir: widgetFiles });
    baseUrl = sandbox.url;
    accessToken = DEFAULT_ACCESS_TOKEN;
  }
  const host = await startHost({ baseUrl, accessToken, port: Number(process.env['PORT'] ?? 3000), ...(process.env['EVENT_SECRET'] ? { eventSecret: process.env['EVENT_SECRET'] } : {}) });
  console.log(`host example on ${host.url}/login`);
}

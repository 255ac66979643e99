import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findRoute, type Route as MatchedOperation } from './service/routes.js';
import { DocumentStore } from './service/documents.js';
import { Failure, Fields, type Body } from './service/fields.js';
import { recordOf } from './service/json.js';
import { message } from './service/messages.js';
import { SIGNING_PAGE_CSP, SIGNING_PAGE_SCRIPT, findWidgetDir, linkPage, widgetAsset } from './signing-pages/pages.js';
import { Probe } from './check-proxy/probe.js';
import { SandboxPki } from './signatures/pki.js';
import { SessionStore, type SessionOrigin } from './service/sessions.js';

export interface SandboxOptions {
  /** The access token the sandbox accepts. Default `sandbox-access-token`. */
  accessToken?: string;
  /** How long a person takes to answer, in ms. Default 3000. */
  answerAfterMs?: number;
  /** How long the slow sandbox identity takes, in ms. Default 60000. */
  slowAnswerAfterMs?: number;
  /** Length of a "minute" of temporary links, in ms, so tests need not wait. Default 60000. */
  minuteMs?: number;
  /** Keep documents in this directory across restarts. Default: memory only. */
  dataDir?: string;
  /** The clock. Default `Date.now`. */
  now?: () => number;
  /** Base URL of invitation and temporary links. Default: taken from each request's Host. */
  publicUrl?: string;
  /** Which of the two known answer forms the temporary-link operation uses. Default `single`. */
  linkResponseForm?: 'single' | 'list';
  /** Largest request body in bytes. Default 150 MB. */
  bodyLimit?: number;
  /** Probe mode for `check-proxy`: record what reaches the service side, answer hostile on request. */
  probe?: boolean;
  /**
   * Directory of the widget's script-tag files (`esign-elements.js` and its chunks), served to
   * the signing pages. Default: the `esign-elements` package installed beside the sandbox.
   */
  widgetDir?: string;
}

export const DEFAULT_ACCESS_TOKEN = 'sandbox-access-token';

/** Operations whose failures carry only status and message. */
const WITHOUT_ERROR_CODE: ReadonlySet<MatchedOperation['id']> = new Set([
  'inviteSigner',
  'validateDocument',
  'removeDocument',
  'listSigners',
  'generateTemporarySigningLink',
  'removeTemporarySigner',
  'removeMobileSession',
  'removeSmartIdSession',
  'checkDocumentStatus',
  'downloadDocument',
  'validateFile',
]);

type Handler = (op: MatchedOperation, fields: Fields, baseUrl: string, origin?: SessionOrigin) => object | Promise<object>;

/** What the signing pages behind invitations and temporary links may do. */
const PAGE_OPERATIONS: ReadonlySet<MatchedOperation['id']> = new Set([
  'mobileSign',
  'smartIdSign',
  'mobileSignStatus',
  'smartIdSignStatus',
  'removeMobileSession',
  'removeSmartIdSession',
]);

/** The whole service interface in one Node request handler. */
export class Sandbox {
  readonly options: Required<Omit<SandboxOptions, 'dataDir' | 'publicUrl' | 'widgetDir' | 'probe'>> & Pick<SandboxOptions, 'dataDir' | 'publicUrl'>;
  readonly widgetDir: string | null;
  /** Set in probe mode only. */
  readonly probe: Probe | null;
  readonly #bodies = new WeakMap<IncomingMessage, Buffer>();
  readonly pki: SandboxPki;
  readonly sessions: SessionStore;
  readonly documents: DocumentStore;
  readonly #handlers: Record<MatchedOperation['id'], Handler>;

  constructor(options: SandboxOptions = {}) {
    this.options = {
      accessToken: options.accessToken ?? DEFAULT_ACCESS_TOKEN,
      answerAfterMs: options.answerAfterMs ?? 3000,
      slowAnswerAfterMs: options.slowAnswerAfterMs ?? 60_000,
      minuteMs: options.minuteMs ?? 60_000,
      now: options.now ?? (() => Date.now()),
      linkResponseForm: options.linkResponseForm ?? 'single',
      bodyLimit: options.bodyLimit ?? 150 * 1024 * 1024,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.publicUrl ? { publicUrl: options.publicUrl.replace(/\/+$/, '') } : {}),
    };
    this.widgetDir = findWidgetDir(options.widgetDir);
    this.probe = options.probe ? new Probe(options.accessToken ?? DEFAULT_ACCESS_TOKEN) : null;
    const { now, answerAfterMs, slowAnswerAfterMs, minuteMs, dataDir, linkResponseForm } = this.options;
    this.pki = new SandboxPki(dataDir);
    this.sessions = new SessionStore(this.pki, { now, answerAfterMs, slowAnswerAfterMs }, (origin, file, person) => {
      const recorded = this.documents.recordSignature(origin, file, person);
      if (recorded?.callbackUrl) {
        void notify(recorded.callbackUrl, { uuid: recorded.uuid, status: 'signed', signer: { name: recorded.signer.name, surname: recorded.signer.surname } });
      }
    });
    const trust = async () => {
      const { root, issuing } = await this.pki.authorities;
      return { root: root.der, issuing: issuing.der };
    };
    this.documents = new DocumentStore({ now, minuteMs, linkResponseForm, trust, ...(dataDir ? { dataDir } : {}) });
    const s = this.sessions;
    const d = this.documents;
    const p = (op: MatchedOperation, name: string) => op.params[name] ?? '';
    this.#handlers = {
      mobileLogin: (_, f) => s.start('mobile', 'login', f),
      smartIdLogin: (_, f) => s.start('smartid', 'login', f),
      mobileLoginStatus: (op, f) => s.status('mobile', 'login', p(op, 'token'), f),
      smartIdLoginStatus: (op, f) => s.status('smartid', 'login', p(op, 'token'), f),
      mobileSign: (_, f, __, origin) => s.start('mobile', 'sign', f, origin),
      smartIdSign: (_, f, __, origin) => s.start('smartid', 'sign', f, origin),
      mobileSignStatus: (op, f) => s.status('mobile', 'sign', p(op, 'token'), f),
      smartIdSignStatus: (op, f) => s.status('smartid', 'sign', p(op, 'token'), f),
      mobileHashSign: (_, f) => s.start('mobile', 'hash', f),
      smartIdHashSign: (_, f) => s.start('smartid', 'hash', f),
      mobileHashSignStatus: (op, f) => s.status('mobile', 'hash', p(op, 'token'), f),
      smartIdHashSignStatus: (op, f) => s.status('smartid', 'hash', p(op, 'token'), f),
      removeMobileSession: (op, f) => s.remove('mobile', p(op, 'sessionId'), f),
      removeSmartIdSession: (op, f) => s.remove('smartid', p(op, 'sessionId'), f),
      uploadDocument: (_, f, base) => d.upload(f, base),
      inviteSigner: (op, f, base) => d.invite(p(op, 'documentId'), f, base),
      validateDocument: (op, f) => d.validate(p(op, 'documentId'), f),
      removeDocument: (op, f) => d.remove(p(op, 'documentId'), f),
      generateTemporarySigningLink: (_, f, base) => d.temporaryLink(f, base),
      removeTemporarySigner: (op, f) => d.removeTemporarySigner(p(op, 'documentId'), f),
      listSigners: (op, f) => d.signers(p(op, 'documentId'), f),
      checkDocumentStatus: (op, f) => d.checkStatus(p(op, 'documentId'), f),
      downloadDocument: (op, f) => d.download(p(op, 'documentId'), f),
      validateFile: (_, f) => d.validateFile(f),
    };
  }

  /** A `(req, res)` handler for node:http. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.#handle(req, res).catch((error: unknown) => {
      send(res, 500, { status: 'error', message: 'Processing failed', error_code: 50000 });
      console.error('[esign-sandbox]', error);
    });
  };

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    if (this.probe) {
      const body = await readAll(req, this.options.bodyLimit);
      if (body === null) {
        send(res, 413, { status: 'error', message: 'Request body is too large' });
        return;
      }
      this.#bodies.set(req, body);
      this.probe.record(req, body);
      if (this.probe.answer(req, res)) return;
    }
    // links name the address the sandbox listens on, never a Host header a client chose
    const local = req.socket.localAddress ?? '127.0.0.1';
    const baseUrl = this.options.publicUrl ?? `http://${local.includes(':') ? `[${local}]` : local}:${req.socket.localPort}`;
    if (req.method === 'GET' && url === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && url === '/assets/signing-page.js') {
      res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' })
        .end(SIGNING_PAGE_SCRIPT);
      return;
    }
    const asset = /^\/assets\/([\w.-]+)$/.exec(url);
    if (req.method === 'GET' && asset) {
      const file = widgetAsset(this.widgetDir, asset[1] ?? '');
      if (!file) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      else res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }).end(file);
      return;
    }
    const [pagePath = '', pageQuery = ''] = url.split('?', 2);
    // only the page itself takes a query (its language); its document and operations take none
    const pageRoute = /^\/(sign|link)\/([A-Za-z0-9-]{1,64})(?:(\/document)|\/esign(\/[^?#]*))?$/.exec(pagePath);
    if (pageRoute && pageQuery && (pageRoute[3] || pageRoute[4] !== undefined)) {
      send(res, 404, { status: 'error', message: message('en', 'unknownOperation') });
      return;
    }
    if (pageRoute) {
      const kind = pageRoute[1] === 'link' ? 'link' : 'sign';
      const token = pageRoute[2] ?? '';
      if (req.method === 'GET' && !pageRoute[3] && pageRoute[4] === undefined) {
        const { status, html } = linkPage(this.documents, kind, token, this.options.now(), this.widgetDir !== null, {
          query: pageQuery,
          acceptLanguage: req.headers['accept-language'],
        });
        res
          .writeHead(status, {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy': SIGNING_PAGE_CSP,
            'x-content-type-options': 'nosniff',
            'referrer-policy': 'no-referrer',
          })
          .end(html);
        return;
      }
      if (req.method === 'GET' && pageRoute[3]) {
        this.#sendDocument(kind, token, res);
        return;
      }
      if (pageRoute[4] !== undefined) {
        // a signing page's own requests: the sandbox adds its access token, as a host proxy would
        const op = findRoute(req.method ?? 'GET', pageRoute[4]);
        const open = kind === 'sign' ? this.documents.findByInvitation(token) : this.documents.findByLink(token);
        const expired = kind === 'link' && open && 'link' in open && this.options.now() >= open.link.validUntil;
        if (!op || !PAGE_OPERATIONS.has(op.id) || !open || expired) {
          send(res, 404, { status: 'error', message: message(op?.locale ?? 'en', 'unknownOperation') });
          return;
        }
        // a page may follow and remove only the sessions it started itself
        const sessionToken = op.params['token'] ?? op.params['sessionId'];
        const started = sessionToken === undefined ? undefined : this.sessions.originOf(sessionToken);
        if (sessionToken !== undefined && (started?.kind !== kind || started.token !== token)) {
          send(res, 404, { status: 'error', message: message(op.locale, 'sessionNotFound'), error_code: 40402 });
          return;
        }
        const starts = op.id === 'mobileSign' || op.id === 'smartIdSign';
        await this.#operation(req, res, op, baseUrl, starts ? { kind, token, document: Buffer.from(open.doc.content, 'base64') } : { kind, token }, true);
        return;
      }
    }
    const [path = '', query] = url.split('?', 2);
    const found = findRoute(req.method ?? 'GET', path);
    // a query is the access token of the GET operations, nothing else
    const op = found && (query === undefined ? found.id !== 'checkDocumentStatus' && found.id !== 'downloadDocument' : req.method === 'GET') ? found : null;
    if (!op) {
      send(res, 404, { status: 'error', message: message(url.startsWith('/en/') ? 'en' : 'lt', 'unknownOperation') });
      return;
    }
    await this.#operation(req, res, op, baseUrl, undefined, false, query);
  }

  #sendDocument(kind: 'sign' | 'link', token: string, res: ServerResponse): void {
    const found = kind === 'sign' ? this.documents.findByInvitation(token) : this.documents.findByLink(token);
    if (!found || (kind === 'link' && 'link' in found && this.options.now() >= found.link.validUntil)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const bytes = Buffer.from(found.doc.content, 'base64');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
  }

  async #operation(
    req: IncomingMessage,
    res: ServerResponse,
    op: MatchedOperation,
    baseUrl: string,
    origin?: SessionOrigin,
    trusted = false,
    query?: string,
  ): Promise<void> {
    const locale = op.locale;
    try {
      const body =
        req.method === 'GET'
          ? { access_token: new URLSearchParams(query ?? '').get('access_token') ?? undefined }
          : await readJson(this.#bodies.get(req) ?? req, this.options.bodyLimit);
      if (!body) throw new Failure(400, message(locale, 'malformed'), 40001);
      if (trusted) body['access_token'] = this.options.accessToken;
      const fields = new Fields(body, locale);
      if (body['access_token'] !== this.options.accessToken) fields.fail('accessToken', {}, 40003, 401);
      const answer = await this.#handlers[op.id](op, fields, baseUrl, origin);
      if ('bytes' in answer && Buffer.isBuffer(answer.bytes)) {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the file operations' answer (a download), told apart by its bytes
        const file = answer as { bytes: Buffer; contentType: string; filename: string };
        res.writeHead(200, {
          'content-type': file.contentType,
          'content-length': file.bytes.length,
          'content-disposition': `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        });
        res.end(file.bytes);
        return;
      }
      send(res, 200, answer);
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      const answer: Record<string, unknown> = { status: 'error', message: error.message };
      if (error.errorCode !== undefined && !WITHOUT_ERROR_CODE.has(op.id)) answer['error_code'] = error.errorCode;
      send(res, error.httpStatus, answer);
    }
  }

  /** Starts an HTTP server on loopback. Port 0 picks a free one. */
  listen(port = 0, host = '127.0.0.1'): Promise<RunningSandbox> {
    const server = createServer(this.handle);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- listening on a TCP port: an address, never a pipe's name
        const address = server.address() as AddressInfo;
        const shownHost = host.includes(':') ? `[${host}]` : host;
        resolve({ url: `http://${shownHost}:${address.port}`, server, sandbox: this, close: () => closeServer(server) });
      });
    });
  }
}

export interface RunningSandbox {
  url: string;
  server: Server;
  sandbox: Sandbox;
  close: () => Promise<void>;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Creates a sandbox and starts it on loopback. */
export function startSandbox(options: SandboxOptions & { port?: number; host?: string } = {}): Promise<RunningSandbox> {
  return new Sandbox(options).listen(options.port, options.host);
}

/** Sends a signing callback; a callback that fails is logged, never retried (not shown by the service). */
async function notify(url: string, body: object): Promise<void> {
  try {
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
  } catch (error) {
    console.warn(`[esign-sandbox] callback to ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function send(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  // exactly application/json: the service's official client reads error bodies only then
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readAll(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > limit) return null;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

async function readJson(source: IncomingMessage | Buffer, limit: number): Promise<Body | null> {
  const bytes = Buffer.isBuffer(source) ? source : await readAll(source, limit);
  if (bytes === null) throw new Failure(413, 'Request body is too large');
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8') || 'null');
    return Array.isArray(value) ? null : (recordOf(value) ?? null);
  } catch {
    return null;
  }
}

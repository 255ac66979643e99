import { camelCased } from '../client/camel.js';
import { matchOperation, type MatchedOperation } from '../client/operation-match.js';
import { OPERATION_IDS, type OperationId } from '../client/operations.js';
import { mayHoldToken, redactToken, withoutScreening } from './answer-filter.js';
import { JSON_HEADERS, ProxyRefusal, jsonAnswer, proxyError, type ProxyAnswer } from './errors.js';
import { InvalidField, operationFields } from './fields.js';
import {
  DEFAULT_ANSWER_LIMIT,
  DEFAULT_BODY_LIMIT,
  DEFAULT_BODY_TIMEOUT,
  DEFAULT_BODY_TIMEOUT_PER_MB,
  DEFAULT_MIN_POLL_INTERVAL,
  DEFAULT_RATE_LIMITS,
  DEFAULT_RESULT_TIMEOUT,
  DEFAULT_RESULT_WAIT,
  DEFAULT_STORE_TIMEOUT,
  STORE_RETRY_AFTER,
  DEFAULT_SESSION_BODY_LIMIT,
  DEFAULT_SESSION_TTL,
  DEFAULT_UPSTREAM_TIMEOUT,
  type ProxyOptions,
  type ProxyRequestInfo,
  type ProxyResult,
  type RateLimit,
} from './options.js';
import { addressKey } from './address.js';
import { HandOverTimeout, handOver, within, type HandOverOutcome } from './hand-over.js';
import { isAllowedOrigin, isJsonContentType, pageSchemes } from './origin.js';
import { FILE_STARTS, checkStartFields, storeKey } from './start-rules.js';
import { MemoryStore, type ProxyStore } from './store.js';
import { StoreUnavailable, guardStore } from './guarded-store.js';
import { createTelemetry, type RequestTelemetry } from './telemetry.js';
import { FAILURES, REFUSALS, eventPerson, type EventPerson, type HostHook, type ProxyEvent, type ProxyEventBase, type RefusalReason } from './events.js';
import { UpstreamFailure, createUpstream, type Upstream } from './upstream.js';
import { newVisitorId, readCookie, visitorCookie, visitorCookieName } from './visitor.js';

export type { ProxyAnswer } from './errors.js';

/** A request as each adapter hands it to the core. */
export interface IncomingProxyRequest {
  method: string;
  /** Path and query exactly as received (the prefix included). */
  url: string;
  /** One request header (names in lower case), null when absent. */
  header: (name: string) => string | null;
  /** All headers, made when a host hook asks for them. */
  headers: () => Headers;
  /** Came over https (decides the visitor cookie's Secure flag). */
  secure: boolean;
  /** host:port the request was sent to, for the same-origin check. */
  host: string | null;
  raw: unknown;
  /** A body a framework's parser already read, if any. */
  parsedBody?: unknown;
  /** Reads the body; rejects with BodyTooLarge over `limit`, BodyTimeout past the deadline. */
  readBody: (limit: number, timeoutFor: (bytes: number) => number) => Promise<Uint8Array>;
}

export class BodyTooLarge extends Error {}
export class BodyTimeout extends Error {}

type Channel = 'mobile' | 'smartid';
/** The request as the `visitor` and `clientAddress` hooks get it. */
type HookRequest = Omit<ProxyRequestInfo, 'visitor' | 'body'>;
type SessionKind = 'login' | 'sign' | 'hash';

/** Session starts, and what their tokens may then be used for. */
const STARTS: Partial<Record<OperationId, { channel: Channel; kind: SessionKind; status: OperationId }>> = {
  mobileLogin: { channel: 'mobile', kind: 'login', status: 'mobileLoginStatus' },
  smartIdLogin: { channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus' },
  mobileSign: { channel: 'mobile', kind: 'sign', status: 'mobileSignStatus' },
  smartIdSign: { channel: 'smartid', kind: 'sign', status: 'smartIdSignStatus' },
  mobileHashSign: { channel: 'mobile', kind: 'hash', status: 'mobileHashSignStatus' },
  smartIdHashSign: { channel: 'smartid', kind: 'hash', status: 'smartIdHashSignStatus' },
};
const STATUS_OPERATIONS = new Set(Object.values(STARTS).map((start) => start.status));
const REMOVALS: Partial<Record<OperationId, Channel>> = { removeMobileSession: 'mobile', removeSmartIdSession: 'smartid' };

/** The session operations: what a proxy forwards unless the host enables more. */
export const SESSION_OPERATIONS: readonly OperationId[] = [
  ...(Object.keys(STARTS) as OperationId[]),
  ...STATUS_OPERATIONS,
  ...(Object.keys(REMOVALS) as OperationId[]),
];
export const DOCUMENT_OPERATIONS: readonly OperationId[] = OPERATION_IDS.filter((id) => !SESSION_OPERATIONS.includes(id));
/** Session operations that carry no file: their bodies are small (`sessionBodyLimit`). */
const SMALL_BODIES: ReadonlySet<OperationId> = new Set(SESSION_OPERATIONS.filter((id) => !FILE_STARTS.has(id)));
/** Document operations whose success is handed to `onResult`. */
const DOCUMENT_RESULTS = new Set<OperationId>(['uploadDocument', 'inviteSigner', 'removeDocument', 'generateTemporarySigningLink', 'removeTemporarySigner']);

interface Binding {
  visitor: string;
  channel: Channel;
  kind: SessionKind;
  status: OperationId;
  /** The person as events show them (digests or masked): never in clear. */
  person?: EventPerson;
}

/** What one request's event will say, filled in as the request is read and decided. */
interface EventState {
  t0: number;
  base: Omit<ProxyEventBase, 'durationMs' | 'at'>;
  /** A session started, or a polled one ended (`ok` or the service's error code). */
  outcome?: { type: 'started' } | { type: 'finished'; outcome: string };
  why?: { reason?: RefusalReason; hook?: HostHook };
}

const SESSION_NOT_FOUND = 'Session for given token was not found';
/** The service's own answer for a session the person has not answered yet. */
const WAITING = JSON.stringify({ status: 'waiting' });
export const MIN_TOKEN_LENGTH = 8;
const DECODER = new TextDecoder();

/** Where a request goes, or null when it is not for the proxy (outside its prefix). */
export function routeOf(rawUrl: string, prefix = ''): { path: string } | null {
  const cleanPrefix = prefix.replace(/\/+$/, '');
  if (cleanPrefix && rawUrl !== cleanPrefix && !rawUrl.startsWith(`${cleanPrefix}/`)) return null;
  return { path: rawUrl.slice(cleanPrefix.length) };
}

function personKeys(id: OperationId, fields: Record<string, unknown>): string[] {
  const keys: string[] = [];
  const code = fields['code'];
  if (typeof code === 'string') keys.push(`code:${code.replace(/-/g, '')}`);
  const phone = fields['phone'];
  if (typeof phone === 'string' && id.startsWith('mobile')) keys.push(`phone:${phone.replace(/\D/g, '')}`);
  return keys;
}

function checkOptions(options: ProxyOptions): void {
  if (!options || typeof options !== 'object') throw new TypeError('esign-elements proxy: options are required ({ baseUrl, accessToken })');
  if (typeof options.baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(options.baseUrl) || !URL.canParse(options.baseUrl)) {
    throw new TypeError('esign-elements proxy: baseUrl must be the service\'s http(s) URL, e.g. https://service.example');
  }
  if (typeof options.accessToken !== 'string' || options.accessToken.trim() === '') {
    throw new TypeError('esign-elements proxy: accessToken is required (the service\'s secret token, from your server\'s configuration)');
  }
  // every occurrence of the token is taken out of answers; a token this short is also ordinary
  // text of answers, and is no secret anyway
  if (options.accessToken.length < MIN_TOKEN_LENGTH) {
    throw new TypeError(`esign-elements proxy: accessToken must have at least ${MIN_TOKEN_LENGTH} characters`);
  }
}

/** The operations this configuration forwards. */
function enabledOperations(options: ProxyOptions): Set<OperationId> {
  const choice = options.operations ?? 'sessions';
  const ids = choice === 'sessions' ? SESSION_OPERATIONS : choice === 'all' ? OPERATION_IDS : choice;
  for (const id of ids) if (!OPERATION_IDS.includes(id)) throw new TypeError(`esign-elements proxy: unknown operation ${String(id)}`);
  if (ids.some((id) => DOCUMENT_OPERATIONS.includes(id)) && !options.authorize) {
    throw new TypeError('esign-elements proxy: document operations need authorize(request, operation) to decide who may use which document');
  }
  return new Set(ids);
}

/** What `health()` of a handler says: for a load balancer's health check (no secrets, nothing of a visitor). */
export interface ProxyHealth {
  /** The proxy can check and forward requests. */
  ok: boolean;
  /** Its store (bindings, limits, hand-overs) answers within `storeTimeoutMs`. */
  store: 'ok' | 'unavailable';
}

/** The proxy's rules, from a request to its answer (null: not a path of the proxy), and its health. */
export type ProxyCore = ((request: IncomingProxyRequest) => Promise<ProxyAnswer | null>) & { health(): Promise<ProxyHealth> };

/**
 * The proxy, framework-free: the rules of design.md in one pipeline. Returns the answer, or
 * null for a request outside its prefix.
 */
export function createProxyCore(options: ProxyOptions): ProxyCore {
  checkOptions(options);
  const enabled = enabledOperations(options);
  const token = options.accessToken;
  // every call of a host's store bounded: one that fails or is late refuses the request (fails
  // closed); the process's own memory cannot be away
  const store: ProxyStore = options.store ? guardStore(options.store, options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT) : new MemoryStore(options.now ? { now: options.now } : {});
  const upstream: Upstream = createUpstream({
    baseUrl: options.baseUrl,
    timeoutMs: options.upstreamTimeout ?? DEFAULT_UPSTREAM_TIMEOUT,
    answerLimit: options.answerLimit ?? DEFAULT_ANSWER_LIMIT,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const sessionBodyLimit = Math.min(bodyLimit, options.sessionBodyLimit ?? DEFAULT_SESSION_BODY_LIMIT);
  const minPollInterval = options.minPollIntervalMs ?? DEFAULT_MIN_POLL_INTERVAL;
  const handOverOptions = {
    store,
    timeoutMs: options.resultTimeoutMs ?? DEFAULT_RESULT_TIMEOUT,
    waitMs: options.resultWaitMs ?? DEFAULT_RESULT_WAIT,
    doneTtlMs: options.sessionTtlMs ?? DEFAULT_SESSION_TTL,
  };
  const baseTimeout = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT;
  const perMb = options.bodyTimeoutPerMbMs ?? DEFAULT_BODY_TIMEOUT_PER_MB;
  const timeoutFor = (bytes: number) => baseTimeout + (perMb * bytes) / (1024 * 1024);
  const sessionTtl = options.sessionTtlMs ?? DEFAULT_SESSION_TTL;
  const limits: { perVisitor?: RateLimit | false; perPerson?: RateLimit | false; perAddress?: RateLimit | false } =
    options.rateLimit === false ? {} : { ...DEFAULT_RATE_LIMITS, ...options.rateLimit };
  const write = options.log ?? ((message: string) => console.error(message));
  // a host's error message could quote anything: the token never reaches a log line
  const log = (message: string) => write(message.split(token).join('[redacted]'));
  const allowedOrigins = options.allowedOrigins ?? [];
  const beginTelemetry = createTelemetry(options.openTelemetry !== false, options.baseUrl);

  /**
   * Counts a start under `key` (kept as a fixed-size digest: no personal code in clear, whatever
   * its size); returns the store key it counted under, or null when this limit is off.
   */
  async function limit(scope: string, rule: RateLimit | false | undefined, key: string): Promise<string | null> {
    if (!rule) return null;
    const counter = `limit:${scope}:${storeKey(key)}`;
    const { count, resetInMs } = await store.increment(counter, rule.windowMs);
    if (count > rule.limit) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new ProxyRefusal(proxyError('rate-limited', { retry_after: seconds }, { 'retry-after': String(seconds) }));
    }
    return counter;
  }

  /** Runs a host hook: a throw is the host's failure, logged without secrets and answered 500 (no denial). */
  async function askHost<T>(hook: HostHook, call: () => T | Promise<T>, context = ''): Promise<T> {
    try {
      return await call();
    } catch (error) {
      log(`[esign-proxy] ${hook}() failed${context}: ${describe(error)}`);
      throw new ProxyRefusal(proxyError('host-error'), { hook });
    }
  }

  /** The visitor: `id` as the host knows it, `key` as bindings and limits store it (host ids and cookie ids never meet). */
  async function visitorOf(request: IncomingProxyRequest, asked: HookRequest): Promise<{ id: string; key: string; cookie?: string }> {
    const hook = options.visitor;
    if (hook) {
      const id = await askHost('visitor', () => hook(asked));
      if (!id) throw new ProxyRefusal(proxyError('forbidden'));
      return { id, key: `host:${id}` };
    }
    const secure = options.secureCookie ?? request.secure;
    const name = visitorCookieName(secure);
    const existing = readCookie(request.header('cookie'), name);
    if (existing) return { id: existing, key: `cookie:${existing}` };
    const id = newVisitorId();
    return { id, key: `cookie:${id}`, cookie: visitorCookie(name, id, secure) };
  }

  /** The key of the browser's network address for the per-address limit, when the host says it. */
  async function addressOf(asked: HookRequest): Promise<{ address: string; key: string } | null> {
    const hook = options.clientAddress;
    if (!hook || !limits.perAddress) return null;
    const address = await askHost('clientAddress', () => hook(asked));
    return typeof address === 'string' && address.trim() ? { address: address.trim().slice(0, 64), key: addressKey(address) } : null;
  }

  async function readFields(request: IncomingProxyRequest, operation: MatchedOperation): Promise<Record<string, unknown>> {
    let body: unknown = request.parsedBody;
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
      let text: string;
      if (typeof body === 'string') text = body;
      else if (body instanceof Uint8Array) text = DECODER.decode(body);
      else {
        try {
          text = DECODER.decode(await request.readBody(SMALL_BODIES.has(operation.id) ? sessionBodyLimit : bodyLimit, timeoutFor));
        } catch (error) {
          if (error instanceof BodyTooLarge) throw new ProxyRefusal(proxyError('request-too-large'));
          if (error instanceof BodyTimeout) throw new ProxyRefusal(proxyError('body-timeout'));
          throw error;
        }
      }
      try {
        body = JSON.parse(text);
      } catch {
        throw new ProxyRefusal(proxyError('malformed-json'));
      }
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ProxyRefusal(proxyError('malformed-json'));
    try {
      const fields = operationFields(operation.id, body as Record<string, unknown>);
      if (STARTS[operation.id]) checkStartFields(fields);
      if (operation.id === 'generateTemporarySigningLink' && typeof fields['document_id'] === 'string') {
        operation.params['documentId'] = fields['document_id'];
      }
      return fields;
    } catch (error) {
      if (error instanceof InvalidField) throw new ProxyRefusal(proxyError('invalid-field', { field: error.field }));
      throw error;
    }
  }

  async function authorize(info: ProxyRequestInfo, operation: MatchedOperation): Promise<void> {
    const hook = options.authorize;
    if (!hook) return;
    const allowed = await askHost('authorize', () => hook(info, operation), ` for ${operation.id}`);
    if (allowed !== true) throw new ProxyRefusal(proxyError('forbidden'));
  }

  async function checkBinding(operation: MatchedOperation, visitor: string): Promise<Binding | null> {
    const sessionToken = operation.params['token'] ?? operation.params['sessionId'] ?? '';
    const stored = await store.get(`bind:${sessionToken}`);
    const binding = stored ? (JSON.parse(stored) as Binding) : null;
    const removalChannel = REMOVALS[operation.id];
    const fits =
      binding !== null &&
      binding.visitor === visitor &&
      (removalChannel ? binding.channel === removalChannel : binding.status === operation.id);
    if (fits) return binding;
    // the service's own answer for a token it does not know
    const answer = removalChannel ? { status: 'error', message: SESSION_NOT_FOUND } : { status: 'error', message: SESSION_NOT_FOUND, error_code: 40402 };
    throw new ProxyRefusal(jsonAnswer(404, answer), { reason: 'not-your-session' });
  }

  /** Runs onResult within its time limit: a throw or a time-out is the host's failure (500, logged). */
  async function runOnResult(result: Omit<ProxyResult, 'signal'>): Promise<void> {
    const onResult = options.onResult;
    if (!onResult) return;
    const context = ` for ${result.operation}`;
    try {
      await within(handOverOptions.timeoutMs, (signal) => askHost('onResult', () => onResult({ ...result, signal }), context));
    } catch (error) {
      if (!(error instanceof HandOverTimeout)) throw error;
      log(`[esign-proxy] onResult() failed${context}: ${error.message}`);
      throw new ProxyRefusal(proxyError('host-error'), { hook: 'onResult' });
    }
  }

  /**
   * A session's result: handed to the host before the browser may see it, and only once it
   * succeeded (a lease in the store, see hand-over.ts). `still-running` when another request is
   * handing it over right now and did not finish within the wait: the browser is then told to keep
   * waiting; `already-delivered` when an earlier poll handed it over (its session ended then).
   */
  async function deliverSession(result: Omit<ProxyResult, 'signal'>): Promise<HandOverOutcome> {
    if (!options.onResult) return 'delivered';
    return handOver(`result:${result.token}`, handOverOptions, () => runOnResult(result));
  }

  /** A polled session the same visitor asked about a moment ago is answered "waiting" without asking the service. */
  async function tooSoon(sessionToken: string): Promise<boolean> {
    if (minPollInterval <= 0) return false;
    return !(await store.setIfAbsent(`poll:${sessionToken}`, '1', minPollInterval));
  }

  /** Whether the store answers: one bounded read of a key nobody writes. */
  async function health(): Promise<ProxyHealth> {
    try {
      await store.get('health');
      return { ok: true, store: 'ok' };
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      return { ok: false, store: 'unavailable' };
    }
  }

  /**
   * Hands the host its event after the answer is on its way: a hook that throws or takes its time
   * never changes or delays what the browser gets.
   */
  function emit(event: ProxyEvent): void {
    const onEvent = options.onEvent;
    if (!onEvent) return;
    setTimeout(() => {
      try {
        Promise.resolve(onEvent(event)).catch((error: unknown) => log(`[esign-proxy] onEvent() failed: ${describe(error)}`));
      } catch (error) {
        log(`[esign-proxy] onEvent() failed: ${describe(error)}`);
      }
    }, 0);
  }

  /** The one event a request's answer makes, if any: a refusal, a failure, a host's failure, a start or an end. */
  function eventOf(answer: ProxyAnswer, ev: EventState): ProxyEvent | null {
    const base = { at: new Date(ev.t0).toISOString(), ...ev.base, durationMs: Date.now() - ev.t0 };
    if (ev.why?.hook) return { ...base, type: 'host-error', hook: ev.why.hook, status: answer.status };
    const reason = ev.why?.reason ?? (answer.kind && REFUSALS[answer.kind]);
    if (reason) return { ...base, type: 'refused', reason, status: answer.status };
    const failure = answer.kind && FAILURES[answer.kind];
    if (failure) return { ...base, type: 'failed', failure, status: answer.status };
    return ev.outcome ? { ...base, ...ev.outcome } : null;
  }

  const handle = async (request: IncomingProxyRequest): Promise<ProxyAnswer | null> => {
    const t0 = Date.now();
    const userAgent = request.header('user-agent');
    const ev: EventState = { t0, base: userAgent ? { userAgent: userAgent.slice(0, 256) } : {} };
    const telemetry = await beginTelemetry();
    let answer: ProxyAnswer | null = null;
    let event: ProxyEvent | null = null;
    try {
      answer = await decide(request, ev, telemetry);
      event = answer && eventOf(answer, ev);
      if (event) emit(event);
      return answer;
    } finally {
      telemetry?.end(answer, ev.base.operation, event);
    }
  };

  async function decide(request: IncomingProxyRequest, ev: EventState, telemetry: RequestTelemetry | null): Promise<ProxyAnswer | null> {
    const route = routeOf(request.url, options.prefix);
    if (!route) return null;
    const { path } = route;
    let cookie: string | undefined;
    try {
      // the raw path is matched as sent: a query, an escape or a dot segment matches no operation
      const operation = /[?#%\\]/.test(path) ? null : matchOperation(request.method, path);
      if (!operation) return proxyError('operation-not-allowed');
      ev.base.operation = operation.id;
      const session = STARTS[operation.id] ?? Object.values(STARTS).find((start) => start.status === operation.id);
      if (session) Object.assign(ev.base, { kind: session.kind, channel: session.channel });
      else if (REMOVALS[operation.id]) ev.base.channel = REMOVALS[operation.id]!;
      else ev.base.kind = 'document';
      if (!enabled.has(operation.id)) return proxyError('operation-disabled');
      if (!isAllowedOrigin(request.header, request.host, allowedOrigins, pageSchemes(options.publicScheme, request.secure, request.host))) {
        return proxyError('cross-site');
      }
      const get = request.method === 'GET';
      // whatever parsed the body before us (a form or text parser of the host's framework): JSON only
      if (!get && !isJsonContentType(request.header('content-type'))) return proxyError('unsupported-media-type');
      const fields = get ? {} : await readFields(request, operation);
      // what the host's hooks see of the request; its headers made once, when a hook first reads them
      let headers: Headers | undefined;
      const asked: HookRequest = {
        method: request.method,
        path,
        get headers() {
          headers ??= request.headers();
          return headers;
        },
        raw: request.raw,
      };
      const visitor = await visitorOf(request, asked);
      cookie = visitor.cookie;
      ev.base.visitor = visitor.id;
      const person = STARTS[operation.id] ? eventPerson(fields, options.eventSecret) : undefined;
      if (person) ev.base.person = person;
      const info: ProxyRequestInfo = {
        method: request.method,
        path,
        get headers() {
          return asked.headers;
        },
        body: fields,
        visitor: visitor.id,
        raw: request.raw,
      };

      const start = STARTS[operation.id];
      let binding: Binding | null = null;
      if (STATUS_OPERATIONS.has(operation.id) || REMOVALS[operation.id]) binding = await checkBinding(operation, visitor.key);
      /** The person's counters this start was counted under, given back if the service refuses it. */
      const personCounters: string[] = [];
      if (start) {
        await limit('visitor', limits.perVisitor, visitor.key);
        const address = await addressOf(asked);
        if (address) {
          ev.base.address = address.address;
          await limit('address', limits.perAddress, address.key);
        }
        for (const key of personKeys(operation.id, fields)) {
          const counter = await limit('person', limits.perPerson, key);
          if (counter) personCounters.push(counter);
        }
      }
      await authorize(info, operation);
      if (binding && STATUS_OPERATIONS.has(operation.id) && (await tooSoon(operation.params['token'] as string))) {
        return withCookie(jsonAnswer(200, WAITING), cookie);
      }

      // the GETs carry the token in their query: added here, on the server, never in a URL the browser sees
      const call = () =>
        get ? upstream('GET', `${path}?access_token=${encodeURIComponent(token)}`, undefined) : upstream(request.method, path, JSON.stringify({ ...fields, access_token: token }));
      const answer = telemetry ? await telemetry.service(request.method, operation.id, call) : await call();
      if (operation.id === 'downloadDocument' && answer.status === 200 && !isJsonContentType(answer.contentType)) {
        return withCookie(fileAnswer(answer, operation.params['documentId'] ?? 'document', token), cookie);
      }
      const text = answer.bytes.toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return withCookie(proxyError('upstream-invalid'), cookie);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return withCookie(proxyError('upstream-invalid'), cookie);
      // the token out of the answer, once, on the parsed value; the host's onResult gets it so too
      const redacted = mayHoldToken(text, token) ? redactToken(parsed, token) : { value: parsed, changed: false };
      const value = redacted.value as Record<string, unknown>;
      const ok = value['status'] === 'ok';
      // a start the service refused started no session and sent no push: the person is not charged
      // for it, so nobody can lock a person out with starts the service turns away (wrong country)
      if (start && value['status'] === 'error') for (const counter of personCounters) await store.decrement(counter);

      if (ok && start && typeof value['token'] === 'string') {
        const bound: Binding = { visitor: visitor.key, channel: start.channel, kind: start.kind, status: start.status, ...(person ? { person } : {}) };
        await store.set(`bind:${value['token']}`, JSON.stringify(bound), sessionTtl);
        ev.outcome = { type: 'started' };
      }
      if (binding && STATUS_OPERATIONS.has(operation.id)) {
        if (binding.person) ev.base.person = binding.person;
        // a session ends with the service's final answer: ok, or its error code
        if (value['status'] === 'error') ev.outcome = { type: 'finished', outcome: String(value['error_code'] ?? 'error') };
      }
      // a session removed at the service is gone here too: its polls get 40402 from the binding check
      if (ok && binding && REMOVALS[operation.id]) await store.delete(`bind:${operation.params['sessionId'] ?? ''}`);
      if (ok && binding && STATUS_OPERATIONS.has(operation.id)) {
        const sessionToken = operation.params['token'] as string;
        const delivered = await deliverSession({
          operation: operation.id,
          kind: binding.kind,
          channel: binding.channel,
          token: sessionToken,
          visitor: visitor.id,
          result: camelCased(value),
          raw: value,
          request: info,
        });
        if (delivered === 'still-running') return withCookie(jsonAnswer(200, WAITING), cookie);
        // one end per session: a poll after the one that handed the result over ends nothing
        if (delivered === 'delivered') ev.outcome = { type: 'finished', outcome: 'ok' };
      }
      if (ok && DOCUMENT_RESULTS.has(operation.id)) {
        const documentId = operation.params['documentId'] ?? String((value['document'] as { uuid?: unknown } | undefined)?.uuid ?? '');
        await runOnResult({ operation: operation.id, kind: 'document', token: documentId, visitor: visitor.id, result: camelCased(value), raw: value, request: info });
      }

      const shown = options.exposeScreening ? { value, changed: false } : withoutScreening(value);
      // the service's own text goes on unless something was taken out of it
      const body = redacted.changed || shown.changed ? JSON.stringify(shown.value) : text;
      return withCookie({ status: answer.status, headers: { ...JSON_HEADERS }, body }, cookie);
    } catch (error) {
      if (error instanceof ProxyRefusal) {
        ev.why = error.why;
        return withCookie(error.answer, cookie);
      }
      if (error instanceof StoreUnavailable) {
        log(`[esign-proxy] ${error.message}`);
        const wait = String(STORE_RETRY_AFTER);
        return withCookie(proxyError('store-unavailable', { retry_after: STORE_RETRY_AFTER }, { 'retry-after': wait }), cookie);
      }
      if (error instanceof UpstreamFailure) return withCookie(proxyError(error.kind), cookie);
      // an answer nested too deep to walk
      if (error instanceof RangeError) return withCookie(proxyError('upstream-invalid'), cookie);
      throw error;
    }
  }
  return Object.assign(handle, { health });
}

const FILE_TYPES = new Set(['application/pdf', 'application/vnd.etsi.asic-e+zip', 'application/vnd.lt.archyvai.adoc-2008', 'application/octet-stream']);

/**
 * A downloaded file for the browser: its bytes as they came (no token can hide in them: such an
 * answer is refused), a content type from a short known list, and an attachment name made safe.
 */
function fileAnswer(answer: { bytes: Buffer; contentType: string; disposition: string }, documentId: string, token: string): ProxyAnswer {
  if (answer.bytes.includes(token)) return proxyError('upstream-invalid');
  const type = answer.contentType.split(';')[0]!.trim().toLowerCase();
  const fallback = `${documentId}.${type === 'application/pdf' ? 'pdf' : type === 'application/vnd.etsi.asic-e+zip' ? 'asice' : type === 'application/vnd.lt.archyvai.adoc-2008' ? 'adoc' : 'bin'}`;
  const name = safeFileName(fileNameOf(answer.disposition) ?? fallback);
  return {
    status: 200,
    headers: {
      'content-type': FILE_TYPES.has(type) ? type : 'application/octet-stream',
      'content-disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
    body: answer.bytes,
  };
}

/** The file name of a content-disposition (`filename*=UTF-8''…` first, then `filename="…"`). */
function fileNameOf(disposition: string): string | null {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      return null;
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
}

/** A name without paths, quotes, control or direction characters, and not too long. */
function safeFileName(name: string): string {
  const clean = name.replace(/^.*[\\/]/, '').replace(/[\u0000-\u001f\u007f"\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '_').trim().slice(0, 200);
  return clean && clean !== '.' && clean !== '..' ? clean : 'document';
}

function withCookie(answer: ProxyAnswer, cookie: string | undefined): ProxyAnswer {
  return cookie ? { ...answer, headers: { ...answer.headers, 'set-cookie': cookie } } : answer;
}

/** A host hook's failure for the log: its kind and message, never a request's body or token. */
function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300);
  return typeof error;
}

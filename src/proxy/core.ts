import { randomUUID } from 'node:crypto';
import { JSON_HEADERS, ProxyRefusal, proxyError, type ProxyAnswer } from './errors.js';
import { FAILURES, REFUSALS, type ProxyEvent } from './events.js';
import { StoreUnavailable } from './guarded-store.js';
import type { IncomingProxyRequest } from './incoming.js';
import { STORE_RETRY_AFTER, type ProxyOptions } from './options.js';
import { createTelemetry } from './telemetry.js';
import { UpstreamFailure } from './upstream.js';
import { authorize } from './steps/authorize.js';
import { binding } from './steps/binding.js';
import { contentType } from './steps/content-type.js';
import { newExchange, type AnyStep, type EventState, type Exchange, type InOrder } from './steps/exchange.js';
import { fields } from './steps/fields.js';
import { filter } from './steps/filter.js';
import { forward } from './steps/forward.js';
import { handOver } from './steps/hand-over.js';
import { limits } from './steps/limits.js';
import { origin } from './steps/origin.js';
import { pollFloor } from './steps/poll-floor.js';
import { route } from './steps/route.js';
import { sessions } from './steps/sessions.js';
import { signedBy } from './steps/signed-by.js';
import { signer } from './steps/signer.js';
import { tokenRefused } from './steps/token-refused.js';
import { createSetup, describe, type ProxySetup } from './steps/setup.js';
import { visitor } from './steps/visitor.js';

export type { ProxyAnswer } from './errors.js';
export { BodyTimeout, BodyTooLarge, type IncomingProxyRequest } from './incoming.js';
export { DOCUMENT_OPERATIONS, SESSION_OPERATIONS } from './operation-kinds.js';
export { MIN_TOKEN_LENGTH } from './steps/setup.js';

/**
 * The proxy's rules in the order they run, each a step of its own (src/proxy/steps): a step
 * refuses (a ProxyRefusal with its reason), answers early, or lets the request go on. The event
 * a request makes is recorded by the step that decides it and handed to the host after the answer.
 */
export const STEPS = [
  route,
  origin,
  contentType,
  fields,
  visitor,
  signer,
  binding,
  limits,
  authorize,
  pollFloor,
  forward,
  tokenRefused,
  filter,
  sessions,
  signedBy,
  handOver,
] as const;

/** Fails to compile when a step comes before a step that sets what it needs. */
export type StepsInOrder = Checked<InOrder<typeof STEPS>>;
type Checked<T extends true> = T;

/** Where a request goes, or null when it is not for the proxy (outside its prefix, given without its trailing slashes). */
export function routeOf(rawUrl: string, cleanPrefix = ''): { path: string } | null {
  if (cleanPrefix && rawUrl !== cleanPrefix && !rawUrl.startsWith(`${cleanPrefix}/`)) return null;
  return { path: rawUrl.slice(cleanPrefix.length) };
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
 * Runs the steps in order until one answers early (else the service's answer goes back as the
 * filters left it); a thrown refusal, an unreachable store or service, or an answer too deep to
 * walk becomes the answer. A failure that is none of the proxy's rejects.
 */
export async function runSteps(x: Exchange, setup: ProxySetup, steps: readonly AnyStep[] = STEPS): Promise<ProxyAnswer> {
  try {
    for (const step of steps) {
      const early = await step(x, setup);
      if (early) return withCookie(early, x);
    }
    const service = x.service;
    if (!service) throw new TypeError('the steps ended without forwarding the request');
    return withCookie({ status: service.status, headers: { ...JSON_HEADERS }, body: service.body }, x);
  } catch (error) {
    return answerFor(error, x, setup);
  } finally {
    x.leaveStart?.();
  }
}

/** The answer a step's failure makes; a failure that is not the proxy's own is thrown on. */
function answerFor(error: unknown, x: Exchange, setup: ProxySetup): ProxyAnswer {
  if (error instanceof ProxyRefusal) {
    x.event.why = error.why;
    return withCookie(error.answer, x);
  }
  if (error instanceof StoreUnavailable) {
    setup.log('error', `[esign-proxy] ${error.message} [request ${x.requestId}]`, x.requestId);
    return withCookie(proxyError('store-unavailable', { retry_after: STORE_RETRY_AFTER }, { 'retry-after': String(STORE_RETRY_AFTER) }), x);
  }
  if (error instanceof UpstreamFailure) return withCookie(proxyError(error.kind), x);
  // an answer nested too deep to walk
  if (error instanceof RangeError) return withCookie(proxyError('upstream-invalid'), x);
  throw error;
}

/** The one event a request's answer makes, if any: a refusal, a failure, a host's failure, a start or an end. */
export function eventOf(answer: ProxyAnswer, ev: EventState, now = Date.now()): ProxyEvent | null {
  // made only when there is an event (most polls have none); the person is the session's
  // binding's, shared by all its polls, so each event gets a copy of its own
  const event = <T extends object>(what: T) => ({
    at: new Date(ev.t0).toISOString(),
    ...ev.base,
    ...(ev.base.person ? { person: { ...ev.base.person } } : {}),
    durationMs: now - ev.t0,
    ...what,
  });
  if (ev.why?.hook) return event({ type: 'host-error' as const, hook: ev.why.hook, status: answer.status });
  const reason = ev.why?.reason ?? (answer.kind && REFUSALS[answer.kind]);
  if (reason) return event({ type: 'refused' as const, reason, status: answer.status, ...(ev.why?.limit ? { limit: ev.why.limit } : {}) });
  const failure = ev.failure ?? (answer.kind && FAILURES[answer.kind]);
  if (failure) return event({ type: 'failed' as const, failure, status: answer.status });
  return ev.outcome ? event(ev.outcome) : null;
}

/**
 * The proxy, framework-free: the rules of docs/proxy.md as the steps above. Returns the answer, or
 * null for a request outside its prefix; rejects with a failure that is none of the proxy's.
 */
export function createProxyCore(options: ProxyOptions): ProxyCore {
  const setup = createSetup(options);
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const telemetryOption = options.openTelemetry;
  const beginTelemetry = createTelemetry(
    telemetryOption !== false,
    options.baseUrl,
    typeof telemetryOption === 'object' && telemetryOption.propagate === 'all',
  );

  /** Whether the store answers: one bounded read of a key nobody writes. */
  async function health(): Promise<ProxyHealth> {
    try {
      await setup.store.get('health');
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
        Promise.resolve(onEvent(event)).catch((error: unknown) =>
          setup.log('error', `[esign-proxy] onEvent() failed: ${describe(error)} [request ${event.requestId}]`, event.requestId),
        );
      } catch (error) {
        setup.log('error', `[esign-proxy] onEvent() failed: ${describe(error)} [request ${event.requestId}]`, event.requestId);
      }
    }, 0);
  }

  async function core(request: IncomingProxyRequest): Promise<ProxyAnswer | null> {
    const t0 = Date.now();
    const where = routeOf(request.url, prefix);
    if (!where) return null;
    // the request's span begins with it, under the host's active span (its HTTP instrumentation's)
    const telemetry = await beginTelemetry();
    const x = newExchange(request, where.path, telemetry, t0, requestIdOf(request, options.trustRequestIdHeader));
    let answer: ProxyAnswer | undefined;
    let event: ProxyEvent | null = null;
    try {
      answer = await runSteps(x, setup);
      answer = { ...answer, headers: { ...answer.headers, 'x-request-id': x.requestId } };
      event = options.onEvent || telemetry ? eventOf(answer, x.event) : null;
      if (event) emit(event);
      return answer;
    } finally {
      telemetry?.end(answer ?? null, x.event.base.operation, event);
    }
  }
  return Object.assign(core, { health });
}

/** What a trusted request id may be: short, and nothing a log line or a header could be broken by. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the host edge's, where the host trusts that header and it is well formed, else a new one. */
export function requestIdOf(request: IncomingProxyRequest, trustedHeader: string | undefined): string {
  const given = trustedHeader ? request.header(trustedHeader.toLowerCase()) : null;
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The answer with the visitor's new cookie, and the host's own cookies its result hook set (a new session at a login). */
function withCookie(answer: ProxyAnswer, x: Exchange): ProxyAnswer {
  const cookie = x.visitor?.cookie;
  const withVisitor = cookie ? { ...answer, headers: { ...answer.headers, 'set-cookie': cookie } } : answer;
  return x.hostCookies.length ? { ...withVisitor, cookies: x.hostCookies } : withVisitor;
}

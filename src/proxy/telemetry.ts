import type { Attributes, Context, Counter, Histogram, Span, Tracer } from '@opentelemetry/api';
import { OPERATIONS, type OperationId } from '../protocol/operations.js';
import type { ProxyAnswer } from './errors.js';
import type { ProxyEvent } from './events.js';

/*
 * OpenTelemetry, when the host has `@opentelemetry/api` (an optional peer): one server span per
 * request, named by its operation, with a client span for the call to the service (both made after
 * the request ended, with its times: see `record`); counters of starts, ends, refusals and
 * failures, and the service's response time. Nothing happens without the package or with
 * `openTelemetry: false`. The same privacy rule as the events: no token, no body, no person; a
 * path is named by its template (`/smartid/status/{token}.json`), never as sent.
 */

type Api = typeof import('@opentelemetry/api');

/** The package's name in a variable: a host's bundler does not go looking for a peer it does not have. */
const PACKAGE = '@opentelemetry/api';
const SCOPE = 'esign-elements/proxy';

/** What a request tells telemetry while it runs. */
export interface RequestTelemetry {
  /** Notes that the call to the service begins (its client span is made with the request's, see `record`). */
  callStarted(method: string, operation: OperationId): ServiceCall;
  /** Notes how it ended: the service's status, or the failure that ended it. */
  callEnded(call: ServiceCall, status: number | undefined, failure?: unknown): void;
  /** Notes what came of the request: its spans are made, and its event counted, with its batch (see `record`). */
  end(answer: ProxyAnswer | null, operation: OperationId | undefined, event: ProxyEvent | null): void;
}

interface Instruments {
  api: Api;
  tracer: Tracer;
  starts: Counter;
  finishes: Counter;
  refusals: Counter;
  failures: Counter;
  storeErrors: Counter;
  serviceDuration: Histogram;
}

/**
 * The instruments, made once the package is found (null when it is not, or turned off). `batched`:
 * a request's spans are made with the batch of the others that ended (see `record`; the
 * Node handler, a long-running server); else at once, before its answer is handed over (the
 * fetch handler, which may run where the host flushes its SDK right after each request).
 */
export function createTelemetry(enabled: boolean, serviceUrl: string, batched: boolean): () => RequestTelemetry | null | Promise<RequestTelemetry | null> {
  let loading: Promise<Instruments | null> | undefined;
  const attributes = callAttributes(new URL(serviceUrl));
  const load = async (): Promise<Instruments | null> => {
    const api = (await import(/* @vite-ignore */ PACKAGE).catch(() => null)) as Api | null;
    if (!api?.trace) return null;
    const meter = api.metrics.getMeter(SCOPE);
    return {
      api,
      tracer: api.trace.getTracer(SCOPE),
      starts: meter.createCounter('esign.proxy.session.starts', { description: 'Sessions started at the service' }),
      finishes: meter.createCounter('esign.proxy.session.finishes', { description: 'Sessions ended, by outcome (ok or the service\'s error code)' }),
      refusals: meter.createCounter('esign.proxy.refusals', { description: 'Requests the proxy refused, by reason' }),
      failures: meter.createCounter('esign.proxy.failures', { description: 'Requests that failed: the service or the store, or a host hook' }),
      storeErrors: meter.createCounter('esign.proxy.store.errors', { description: 'Store calls that failed or were late' }),
      serviceDuration: meter.createHistogram('esign.proxy.service.duration', { unit: 's', description: 'Time the service took to answer' }),
    };
  };
  let found: Instruments | null | undefined;
  const loaded = async () => {
    found = await (loading ??= load());
    return found ? begin(found, attributes, batched) : null;
  };
  // known after the first request: no promise for every request after it
  return () => (!enabled || found === null ? null : found ? begin(found, attributes, batched) : loaded());
}

/** The names and attributes of a proxy's spans and durations, each made once (attributes frozen: the SDK copies or only reads them). */
interface CallAttributes {
  request(operation: OperationId): { name: string; attributes: Attributes };
  service(method: string, operation: OperationId): Attributes;
  duration(operation: OperationId, status: number): Attributes;
}

function callAttributes(server: URL): CallAttributes {
  // by operation, then method or status: no key to build and hash on every request
  const requests = new Map<OperationId, { name: string; attributes: Attributes }>();
  const services = new Map<OperationId, Map<string, Attributes>>();
  const durations = new Map<OperationId, Map<number, Attributes>>();
  const remembered = <K>(byOperation: Map<OperationId, Map<K, Attributes>>, operation: OperationId, key: K, make: () => Attributes): Attributes => {
    let made = byOperation.get(operation);
    if (!made) byOperation.set(operation, (made = new Map()));
    let value = made.get(key);
    if (!value) made.set(key, (value = Object.freeze(make())));
    return value;
  };
  return {
    request: (operation) => {
      let made = requests.get(operation);
      if (!made) requests.set(operation, (made = { name: `esign-proxy ${operation}`, attributes: Object.freeze({ 'esign.operation': operation }) }));
      return made;
    },
    service: (method, operation) =>
      remembered(services, operation, method, () => ({
        'http.request.method': method,
        'server.address': server.hostname,
        'url.template': OPERATIONS[operation].path,
        'esign.operation': operation,
        ...(server.port ? { 'server.port': Number(server.port) } : {}),
      })),
    duration: (operation, status) => remembered(durations, operation, status, () => ({ 'esign.operation': operation, 'http.response.status_code': status })),
  };
}

/** A service call as it happened, made into a span with its request's. */
export interface ServiceCall {
  method: string;
  operation: OperationId;
  started: number;
  ended: number;
  status?: number;
  failure?: string;
}

/** A request as it happened, made into spans a moment after it ended (see `record`). */
interface RequestDone {
  context: Context;
  started: number;
  ended: number;
  operation: OperationId | undefined;
  status: number | undefined;
  event: ProxyEvent | null;
  calls: ServiceCall[];
}

function begin(found: Instruments, attributes: CallAttributes, batched: boolean): RequestTelemetry {
  return new RequestSpans(found, attributes, batched, { context: found.api.context.active(), started: performance.now(), ended: 0, operation: undefined, status: undefined, event: null, calls: [] });
}

/** One request's telemetry: its times noted as it runs, its spans and service duration made when it is recorded. */
class RequestSpans implements RequestTelemetry {
  constructor(
    private readonly found: Instruments,
    private readonly attributes: CallAttributes,
    private readonly batched: boolean,
    private readonly done: RequestDone,
  ) {}

  callStarted(method: string, operation: OperationId): ServiceCall {
    const call: ServiceCall = { method, operation, started: performance.now(), ended: 0 };
    this.done.calls.push(call);
    return call;
  }

  callEnded(call: ServiceCall, status: number | undefined, failure?: unknown): void {
    call.ended = performance.now();
    if (status !== undefined) call.status = status;
    else call.failure = failure instanceof Error ? failure.name : 'failure';
  }

  end(answer: ProxyAnswer | null, operation: OperationId | undefined, event: ProxyEvent | null): void {
    const { done } = this;
    done.ended = performance.now();
    done.operation = operation;
    done.status = answer?.status;
    done.event = event;
    if (this.batched) record(this.found, this.attributes, done);
    else madeSafely(this.found, this.attributes, done, epochClock());
  }
}

const pending: { found: Instruments; attributes: CallAttributes; done: RequestDone }[] = [];
let batch: ReturnType<typeof setTimeout> | undefined;
let full: ReturnType<typeof setImmediate> | undefined;
/** How long an ended request waits to have its spans made with the others that ended meanwhile. */
const BATCH_MS = 20;
/** With so many waiting, they are made on the next turn (a proxy past 50,000 requests a second keeps no more). */
const BATCH_MAX = 1024;

/**
 * With the Node handler, the spans of the requests that ended are made together every 20 ms, each
 * with its own times, parent and attributes. Made one after another, the SDK's code and data stay
 * warm, and a request's answer is never held up by another's spans: made as each request ended or
 * on the next turn of the event loop, they cost a busy proxy clearly more (docs/testing.md). A span
 * is exported only once ended anyway; a host that flushes its SDK calls `flushTelemetry()` first.
 */
function record(found: Instruments, attributes: CallAttributes, done: RequestDone): void {
  pending.push({ found, attributes, done });
  if (pending.length >= BATCH_MAX) full ??= setImmediate(flushOwn);
  else batch ??= setTimeout(flushOwn, BATCH_MS);
}

function flushOwn(): void {
  if (batch !== undefined) clearTimeout(batch);
  if (full !== undefined) clearImmediate(full);
  batch = full = undefined;
  const clock = epochClock();
  for (const { found, attributes, done } of pending.splice(0)) madeSafely(found, attributes, done, clock);
}

/**
 * Every copy of this module in the process (a host whose dependencies bring two versions of the
 * package) adds its own queue here, so that one `flushTelemetry()` empties them all.
 */
const QUEUES = Symbol.for('esign-elements.proxy.telemetry-queues');
const queues: Set<() => void> = ((globalThis as { [QUEUES]?: Set<() => void> })[QUEUES] ??= new Set());
queues.add(flushOwn);

/**
 * Makes the spans of every request that ended, now, rather than with their batch (the Node
 * handler's; the fetch handler makes them before it answers), in every copy of the package the
 * process has loaded. Call it before flushing or shutting down the OpenTelemetry SDK, so that the
 * last requests' spans go with it.
 */
export function flushTelemetry(): void {
  for (const flush of queues) flush();
}

/** A host's span processor that throws costs that request's spans, never its answer, the process or the others. */
function madeSafely(found: Instruments, attributes: CallAttributes, done: RequestDone, clock: EpochClock): void {
  try {
    spansOf(found, attributes, done, clock);
  } catch {
    // nothing to tell the browser: its answer does not depend on telemetry
  }
}

/**
 * A `performance.now()` reading as the SDK keeps a time: [seconds, nanoseconds] since the epoch
 * (its `HrTime`, spelled out: the package's types stay out of the proxy's declarations, as a
 * host may not have it).
 */
export type EpochClock = (at: number) => [seconds: number, nanoseconds: number];

/**
 * Times given to the SDK as it keeps them. Given as `performance.now()` readings, it reads the
 * clock again for each one to tell them from epoch milliseconds, and converts each with two more
 * arrays. The clocks' difference is read once for the batch, as the SDK reads it once a span.
 */
export function epochClock(): EpochClock {
  // split off for precision; a runtime without it (or with 0) still gets epoch times through `drift`
  const origin = (performance.timeOrigin as number | undefined) ?? 0;
  const originSeconds = Math.floor(origin / 1000);
  const originNanos = Math.round((origin - originSeconds * 1000) * 1e6);
  // where the wall clock stands against the monotonic one now (they drift apart: NTP, a suspended machine)
  const drift = Date.now() - (origin + performance.now());
  return (at) => {
    const ms = at + drift;
    const seconds = Math.floor(ms / 1000);
    const nanos = originNanos + Math.round((ms - seconds * 1000) * 1e6);
    return nanos >= 1e9 ? [originSeconds + seconds + 1, nanos - 1e9] : [originSeconds + seconds, nanos];
  };
}

function spansOf(found: Instruments, attributes: CallAttributes, done: RequestDone, clock: EpochClock): void {
  const { api, tracer } = found;
  const operation = done.operation;
  const named = operation ? attributes.request(operation) : UNROUTED;
  const span = tracer.startSpan(named.name, { kind: api.SpanKind.SERVER, startTime: clock(done.started), attributes: named.attributes }, done.context);
  if (done.calls.length) {
    const parent = api.trace.setSpan(done.context, span);
    for (const call of done.calls) {
      if (call.ended) {
        found.serviceDuration.record(
          (call.ended - call.started) / 1000,
          call.status === undefined ? { 'esign.operation': call.operation, 'error.type': call.failure ?? 'failure' } : attributes.duration(call.operation, call.status),
        );
      }
      const child = tracer.startSpan(call.method, { kind: api.SpanKind.CLIENT, startTime: clock(call.started), attributes: attributes.service(call.method, call.operation) }, parent);
      if (call.status !== undefined) child.setAttribute('http.response.status_code', call.status);
      else child.setStatus({ code: api.SpanStatusCode.ERROR, message: call.failure ?? 'unfinished' });
      child.end(clock(call.ended || done.ended));
    }
  }
  if (done.status !== undefined) span.setAttribute('http.response.status_code', done.status);
  if (done.event) count(found, done.event, span);
  span.end(clock(done.ended));
}

/** A request outside the service's operations (refused before it was routed). */
const UNROUTED = { name: 'esign-proxy', attributes: undefined };

/** The event on the span and in the counters: its kind, channel and outcome or reason, nothing of a person. */
function count(found: Instruments, event: ProxyEvent, span: Span): void {
  const attributes: Attributes = {};
  if (event.operation) attributes['esign.operation'] = event.operation;
  if (event.kind) attributes['esign.kind'] = event.kind;
  if (event.channel) attributes['esign.channel'] = event.channel;
  switch (event.type) {
    case 'started':
      found.starts.add(1, attributes);
      break;
    case 'finished':
      attributes['esign.outcome'] = event.outcome;
      found.finishes.add(1, attributes);
      break;
    case 'refused':
      attributes['esign.refusal'] = event.reason;
      found.refusals.add(1, attributes);
      break;
    case 'failed':
      attributes['esign.failure'] = event.failure;
      found.failures.add(1, attributes);
      if (event.failure === 'store') found.storeErrors.add(1);
      span.setStatus({ code: found.api.SpanStatusCode.ERROR, message: event.failure });
      break;
    case 'host-error':
      attributes['esign.failure'] = `host-${event.hook}`;
      found.failures.add(1, attributes);
      span.setStatus({ code: found.api.SpanStatusCode.ERROR, message: `host ${event.hook}` });
      break;
  }
  span.setAttributes(attributes);
}

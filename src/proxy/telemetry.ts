import type { Attributes, Context, Counter, Histogram, Span, Tracer } from '@opentelemetry/api';
import { OPERATIONS, type OperationId } from '../protocol/operations.js';
import type { ProxyAnswer } from './errors.js';
import type { ProxyEvent } from './events.js';

/*
 * OpenTelemetry, when the host has `@opentelemetry/api` (an optional peer): a server span for each
 * request, begun with it under the host's active span (its HTTP instrumentation's), named by its
 * operation once routed; a client span for the call to the service, active around the call, whose
 * own trace context goes to the service as a W3C `traceparent` (the host's whole propagation, with
 * tracestate and baggage, only with `openTelemetry: { propagate: 'all' }`);
 * counters of starts, ends, refusals and failures, and the service's response time. Nothing
 * happens without the package or with `openTelemetry: false`. The same privacy rule as the events:
 * no token, no body, no person; a path is named by its template (`/smartid/status/{token}.json`).
 */

type Api = typeof import('@opentelemetry/api');

/** The package's name in a variable: a host's bundler does not go looking for a peer it does not have. */
const PACKAGE = '@opentelemetry/api';
const SCOPE = 'esign-elements/proxy';

/** What a request tells telemetry while it runs. */
export interface RequestTelemetry {
  /**
   * Sends the call to the service in its client span, active while it runs; `send` gets the trace
   * context's headers to add to the call.
   */
  call<T extends { status: number }>(method: string, operation: OperationId, send: (headers: Record<string, string>) => Promise<T>): Promise<T>;
  /** Ends the request's span with what came of it, and counts its event. */
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

/** Begins a request's telemetry (null when the package is not there, or it is turned off). */
export function createTelemetry(enabled: boolean, serviceUrl: string, propagateAll = false): () => RequestTelemetry | null | Promise<RequestTelemetry | null> {
  let loading: Promise<Instruments | null> | undefined;
  const attributes = callAttributes(new URL(serviceUrl));
  const load = async (): Promise<Instruments | null> => {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the optional peer @opentelemetry/api, the parts of it this file uses
    const api = (await import(/* @vite-ignore */ PACKAGE).catch(() => null)) as Api | null;
    if (!api?.trace) return null;
    const meter = api.metrics.getMeter(SCOPE);
    return {
      api,
      tracer: api.trace.getTracer(SCOPE),
      starts: meter.createCounter('esign.proxy.session.starts', { description: 'Sessions started at the service' }),
      finishes: meter.createCounter('esign.proxy.session.finishes', { description: "Sessions ended, by outcome (ok or the service's error code)" }),
      refusals: meter.createCounter('esign.proxy.refusals', { description: 'Requests the proxy refused, by reason' }),
      failures: meter.createCounter('esign.proxy.failures', { description: 'Requests that failed: the service or the store, or a host hook' }),
      storeErrors: meter.createCounter('esign.proxy.store.errors', { description: 'Store calls that failed or were late' }),
      serviceDuration: meter.createHistogram('esign.proxy.service.duration', { unit: 's', description: 'Time the service took to answer' }),
    };
  };
  let found: Instruments | null | undefined;
  const loaded = async () => {
    found = await (loading ??= load());
    return found ? begin(found, attributes, propagateAll) : null;
  };
  // known after the first request: no promise for every request after it
  return () => (!enabled || found === null ? null : found ? begin(found, attributes, propagateAll) : loaded());
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
    if (!made) byOperation.set(operation, (made = new Map<K, Attributes>()));
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

/** A request's server span, begun as the request is; null when a host's span processor threw at it. */
function begin(found: Instruments, attributes: CallAttributes, propagateAll: boolean): RequestTelemetry | null {
  try {
    const context = found.api.context.active();
    const span = found.tracer.startSpan(UNROUTED.name, { kind: found.api.SpanKind.SERVER }, context);
    return new RequestSpans(found, attributes, found.api.trace.setSpan(context, span), span, propagateAll);
  } catch {
    // a host's span processor that throws costs that request's spans, never its answer
    return null;
  }
}

/** One request's spans: its own, begun with it, and one for each call to the service under it. */
class RequestSpans implements RequestTelemetry {
  constructor(
    private readonly found: Instruments,
    private readonly attributes: CallAttributes,
    /** The host's context with this request's span in it: the parent of its calls. */
    private readonly context: Context,
    private readonly span: Span,
    private readonly propagateAll: boolean,
  ) {}

  async call<T extends { status: number }>(method: string, operation: OperationId, send: (headers: Record<string, string>) => Promise<T>): Promise<T> {
    const { api, tracer, serviceDuration } = this.found;
    let client: Span | undefined;
    let active: Context;
    const headers: Record<string, string> = {};
    try {
      client = tracer.startSpan(method, { kind: api.SpanKind.CLIENT, attributes: this.attributes.service(method, operation) }, this.context);
      active = api.trace.setSpan(this.context, client);
      if (this.propagateAll) api.propagation.inject(active, headers);
      else ownTraceContext(api, client, headers);
    } catch {
      // a host's processor or propagator that throws: the call goes without its span, none left open
      if (client) endSafely(client);
      return send({});
    }
    const started = performance.now();
    try {
      const answer = await api.context.with(active, send, undefined, headers);
      client.setAttribute('http.response.status_code', answer.status);
      serviceDuration.record((performance.now() - started) / 1000, this.attributes.duration(operation, answer.status));
      return answer;
    } catch (error) {
      const type = error instanceof Error ? error.name : 'failure';
      client.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
      serviceDuration.record((performance.now() - started) / 1000, { 'esign.operation': operation, 'error.type': type });
      throw error;
    } finally {
      endSafely(client);
    }
  }

  end(answer: ProxyAnswer | null, operation: OperationId | undefined, event: ProxyEvent | null): void {
    const { span } = this;
    try {
      if (operation) {
        const named = this.attributes.request(operation);
        span.updateName(named.name);
        span.setAttributes(named.attributes);
      }
      if (answer) span.setAttribute('http.response.status_code', answer.status);
      if (event) count(this.found, event, span);
    } finally {
      endSafely(span);
    }
  }
}

/**
 * The client span's own W3C trace context and nothing else: a browser's `tracestate` and `baggage`,
 * which a host's instrumentation may have taken from the incoming request into the active context,
 * never travel on to the service (baggage can carry anything, a personal code among it).
 */
function ownTraceContext(api: Api, client: Span, headers: Record<string, string>): void {
  const own = client.spanContext();
  if (!api.isSpanContextValid(own)) return;
  headers['traceparent'] = `00-${own.traceId}-${own.spanId}-${(own.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** A host's span processor that throws costs that span, never the request's answer, the process or the others. */
function endSafely(span: Span): void {
  try {
    span.end();
  } catch {
    // nothing to tell the browser: its answer does not depend on telemetry
  }
}

/** A request outside the service's operations (refused before it was routed). */
const UNROUTED = { name: 'esign-proxy' };

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

import type { Attributes, Context, Counter, Histogram, Span, Tracer } from '@opentelemetry/api';
import { OPERATIONS, type OperationId } from '../client/operations.js';
import type { ProxyAnswer } from './errors.js';
import type { ProxyEvent } from './events.js';

/*
 * OpenTelemetry, when the host has `@opentelemetry/api` (an optional peer): one server span per
 * request, named by its operation, with a client span for the call to the service; counters of
 * starts, ends, refusals and failures, and the service's response time. Nothing happens without
 * the package or with `openTelemetry: false`. The same privacy rule as the events: no token, no
 * body, no person; a path is named by its template (`/smartid/status/{token}.json`), never as sent.
 */

type Api = typeof import('@opentelemetry/api');

/** The package's name in a variable: a host's bundler does not go looking for a peer it does not have. */
const PACKAGE = '@opentelemetry/api';
const SCOPE = 'esign-elements/proxy';

/** What a request tells telemetry while it runs. */
export interface RequestTelemetry {
  /** Runs the call to the service inside a client span and times it. */
  service<T extends { status: number }>(method: string, operation: OperationId, call: () => Promise<T>): Promise<T>;
  /** Ends the request's span with what came of it, and counts the event. */
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

/** The instruments, made once the package is found (null when it is not, or turned off). */
export function createTelemetry(enabled: boolean, serviceUrl: string): () => RequestTelemetry | null | Promise<RequestTelemetry | null> {
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
    return found ? begin(found, attributes) : null;
  };
  // known after the first request: no promise for every request after it
  return () => (!enabled || found === null ? null : found ? begin(found, attributes) : loaded());
}

/** The attributes of a proxy's service calls and durations, each made once and frozen: the SDK copies or only reads them. */
interface CallAttributes {
  service(method: string, operation: OperationId): Attributes;
  duration(operation: OperationId, status: number): Attributes;
}

function callAttributes(server: URL): CallAttributes {
  // by operation, then method or status: no key to build and hash on every request
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

function begin(found: Instruments, attributes: CallAttributes): RequestTelemetry {
  const { api, tracer } = found;
  const startTime = performance.now();
  // the request's span is made once its operation is known (its name), backdated to its start
  let span: Span | undefined;
  let parent: Context | undefined;
  const requestSpan = (operation: OperationId | undefined): Span =>
    (span ??= tracer.startSpan(operation ? `esign-proxy ${operation}` : 'esign-proxy', {
      kind: api.SpanKind.SERVER,
      startTime,
      ...(operation ? { attributes: { 'esign.operation': operation } } : {}),
    }));
  return {
    async service(method, operation, call) {
      parent ??= api.trace.setSpan(api.context.active(), requestSpan(operation));
      const child = tracer.startSpan(method, { kind: api.SpanKind.CLIENT, attributes: attributes.service(method, operation) }, parent);
      const started = performance.now();
      try {
        const answer = await call();
        child.setAttribute('http.response.status_code', answer.status);
        found.serviceDuration.record((performance.now() - started) / 1000, attributes.duration(operation, answer.status));
        return answer;
      } catch (error) {
        child.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'failure' });
        found.serviceDuration.record((performance.now() - started) / 1000, { 'esign.operation': operation, 'error.type': error instanceof Error ? error.name : 'failure' });
        throw error;
      } finally {
        child.end();
      }
    },
    end(answer, operation, event) {
      const ended = requestSpan(operation);
      if (answer) ended.setAttribute('http.response.status_code', answer.status);
      if (event) count(found, event, ended);
      ended.end(performance.now());
    },
  };
}

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

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { createFetchProxyHandler, createProxyHandler, MemoryStore, type ProxyOptions, type ProxyStore } from '../../src/proxy/index.js';
import { ACCESS_TOKEN, CookieJar, send, serverPool, startStack, until, type Stack } from './harness.js';

// OpenTelemetry through the optional @opentelemetry/api, seen with the SDK's in-memory span
// exporter and a metric reader: a span per request named by its operation, a client span for the
// service, counters and the service's response time; every span ended, nothing secret in them.

class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const serve = serverPool();
const spans = new InMemorySpanExporter();
/** A host's span processor that fails while told to. */
let processorFails = false;
const failing = {
  onStart: () => undefined,
  onEnd: () => {
    if (processorFails) throw new Error('span processor down');
  },
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};
const reader = new TestReader();
let stack: Stack;
const CODE = '40504040001';

const contextManager = new AsyncLocalStorageContextManager();

before(async () => {
  // as a host's OpenTelemetry setup does: context across awaits, W3C trace context on the wire
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans), failing] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  stack = await startStack({ answerAfterMs: 1_000 });
});
after(async () => {
  await stack.close();
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
});

function proxy(options: Partial<ProxyOptions> = {}): Promise<string> {
  return serve(createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, rateLimit: false, ...options }));
}

/** Every counter and histogram point as `name {attributes}` → value (a histogram's count). */
async function collected(): Promise<Map<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const out = new Map<string, number>();
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      for (const point of metric.dataPoints as DataPoint<number | Histogram>[]) {
        const value = typeof point.value === 'number' ? point.value : point.value.count;
        out.set(`${metric.descriptor.name} ${JSON.stringify(point.attributes)}`, value);
      }
    }
  }
  return out;
}

describe('proxy: OpenTelemetry', () => {
  it('a login: a server span per request named by its operation, a client span for the service under it, counters and response times; nothing secret', async () => {
    spans.reset();
    const url = await proxy();
    const jar = new CookieJar();
    const before = Date.now();
    const start = await send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar });
    stack.clock.advance(5_000);
    const end = await send(`${url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(end.json.status, 'ok');
    await send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar, headers: { origin: 'https://evil.example' } });
    const afterwards = Date.now();

    // every span ended before its request's answer went out
    const finished = spans.getFinishedSpans();
    const servers = finished.filter((span) => span.kind === 1);
    const clients = finished.filter((span) => span.kind === 2);
    assert.deepEqual(
      servers.map((span) => span.name),
      ['esign-proxy smartIdLogin', 'esign-proxy smartIdLoginStatus', 'esign-proxy smartIdLogin'],
    );
    assert.equal(clients.length, 2, 'the refused request never reached the service');
    for (const [i, child] of clients.entries()) {
      assert.equal(child.name, 'POST');
      assert.equal(child.parentSpanContext?.spanId, servers[i]!.spanContext().spanId, 'the service call sits under its request');
      assert.equal(child.spanContext().traceId, servers[i]!.spanContext().traceId);
      assert.equal(child.attributes['http.response.status_code'], 200);
      assert.equal(child.attributes['server.address'], '127.0.0.1');
    }
    assert.equal(clients[1]!.attributes['url.template'], '/smartid/status/{token}.json', 'the path by its template, the token not in it');
    assert.deepEqual(
      servers.map((span) => [span.attributes['esign.channel'], span.attributes['esign.outcome'] ?? span.attributes['esign.refusal'] ?? null]),
      [
        ['smartid', null],
        ['smartid', 'ok'],
        ['smartid', 'cross-site'],
      ],
    );
    assert.deepEqual(
      servers.map((span) => span.attributes['http.response.status_code']),
      [200, 200, 403],
    );
    // every span ended: the exporter holds exactly the spans the requests began, each with an end
    assert.ok(finished.every((span: ReadableSpan) => span.ended && span.duration[0] >= 0));
    // the times are the requests' own, on the wall clock, and a service call lies within its request
    const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    for (const span of finished) {
      assert.ok(ms(span.startTime) >= before - 2 && ms(span.endTime) <= afterwards + 2, `${span.name} in the time of the requests`);
      assert.ok(ms(span.endTime) >= ms(span.startTime) && span.startTime[1] < 1e9 && span.endTime[1] < 1e9);
    }
    for (const [i, child] of clients.entries()) {
      // (to the millisecond: the SDK's clock re-anchors on the wall clock when the two drift apart under load)
      assert.ok(ms(child.startTime) >= ms(servers[i]!.startTime) - 1 && ms(child.endTime) <= ms(servers[i]!.endTime) + 1, 'the call within its request');
    }
    assert.ok(ms(servers[1]!.startTime) >= ms(servers[0]!.endTime) - 1, 'the poll after the login');
    const everything = JSON.stringify(finished.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })));
    for (const secret of [ACCESS_TOKEN, CODE, start.json.token as string]) assert.ok(!everything.includes(secret), `a span holds ${secret}`);

    const points = await collected();
    const scope = { 'esign.operation': 'smartIdLogin', 'esign.kind': 'login', 'esign.channel': 'smartid' };
    assert.equal(points.get(`esign.proxy.session.starts ${JSON.stringify(scope)}`), 1);
    assert.equal(points.get(`esign.proxy.session.finishes ${JSON.stringify({ ...scope, 'esign.operation': 'smartIdLoginStatus', 'esign.outcome': 'ok' })}`), 1);
    assert.equal(points.get(`esign.proxy.refusals ${JSON.stringify({ ...scope, 'esign.refusal': 'cross-site' })}`), 1);
    const durations = [...points].filter(([name]) => name.startsWith('esign.proxy.service.duration '));
    assert.deepEqual(
      durations.map(([, count]) => count),
      [1, 1],
      'one timing for each of the two calls to the service',
    );
    assert.ok(![...points.keys()].join('\n').includes(CODE));
  });

  it('a store that fails marks its span as an error and counts a store error; openTelemetry: false records nothing', async () => {
    spans.reset();
    const hanging: ProxyStore = new Proxy(new MemoryStore(), {
      get: (target, name) => (name === 'get' ? () => new Promise(() => undefined) : Reflect.get(target, name)),
    });
    const url = await proxy({ store: hanging, storeTimeoutMs: 100, log: () => undefined });
    const jar = new CookieJar();
    const answer = await send(`${url}/smartid/status/0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01.json`, 'POST', {}, false, { jar });
    assert.equal(answer.status, 503);
    const [span] = spans.getFinishedSpans();
    assert.equal(span!.name, 'esign-proxy smartIdLoginStatus');
    assert.equal(span!.status.code, 2);
    assert.equal(span!.attributes['esign.failure'], 'store');
    const points = await collected();
    assert.equal(points.get('esign.proxy.store.errors {}'), 1);

    spans.reset();
    const quiet = await proxy({ openTelemetry: false });
    await send(`${quiet}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
    assert.deepEqual(spans.getFinishedSpans(), []);
  });

  it("the Node handler ends a request's spans before its answer goes out", async () => {
    spans.reset();
    const handler = createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, rateLimit: false });
    let endedAsAnswered = -1;
    const url = await serve((req, res) => {
      res.on('finish', () => (endedAsAnswered = spans.getFinishedSpans().length));
      handler(req, res);
    });
    const first = await send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
    assert.equal(first.status, 200);
    await until(() => endedAsAnswered >= 0, 'the answer finished');
    assert.equal(endedAsAnswered, 2, 'the server span and the service call');
    assert.deepEqual(
      spans.getFinishedSpans().map((span) => span.name),
      ['POST', 'esign-proxy smartIdLogin'],
    );
  });

  it("carries the host's trace through the proxy to the service: each request in its own trace, under concurrency, in both handlers", async () => {
    // the service as it is seen from outside: each call's headers, then on to the sandbox
    const seen: IncomingHttpHeaders[] = [];
    const sandbox = new URL(stack.sandboxUrl);
    const service = await serve((req, res) => {
      seen.push(req.headers);
      const forwarded = httpRequest({ hostname: sandbox.hostname, port: sandbox.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forwarded);
    });
    // which span is active while the proxy calls the service (its fetch option, as another runtime's fetch)
    const activeAtCall: (string | undefined)[] = [];
    const watchingFetch: typeof fetch = (input, init) => {
      activeAtCall.push(trace.getActiveSpan()?.spanContext().spanId);
      return fetch(input, init);
    };
    const tracer = trace.getTracer('host');
    const options = { baseUrl: service, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, rateLimit: false } satisfies ProxyOptions;
    const nodeHandler = createProxyHandler({ ...options, fetch: watchingFetch });
    const fetchHandler = createFetchProxyHandler(options);
    // a host's HTTP instrumentation: a span of its own for each request, active while the proxy runs
    const hostUrl = await serve((req, res) =>
      tracer.startActiveSpan('host request', (span) => {
        res.on('finish', () => span.end());
        nodeHandler(req, res);
      }),
    );

    for (const via of ['node', 'fetch'] as const) {
      spans.reset();
      seen.length = 0;
      activeAtCall.length = 0;
      const hostSpans: string[] = [];
      const answers = await Promise.all(
        Array.from({ length: 8 }, async () => {
          if (via === 'node')
            return (await send(`${hostUrl}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() })).status;
          return tracer.startActiveSpan('host route', async (span) => {
            hostSpans.push(span.spanContext().spanId);
            try {
              const request = new Request('http://127.0.0.1/smartid/login.json', {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ code: CODE, country: 'EE' }),
              });
              return (await fetchHandler(request)).status;
            } finally {
              span.end();
            }
          });
        }),
      );
      assert.deepEqual(answers, Array(8).fill(200), via);
      const finished = spans.getFinishedSpans();
      const hosts = finished.filter((span) => span.name.startsWith('host '));
      const servers = finished.filter((span) => span.name === 'esign-proxy smartIdLogin');
      const clients = finished.filter((span) => span.name === 'POST');
      assert.equal(hosts.length, 8, via);
      assert.equal(servers.length, 8, via);
      assert.equal(clients.length, 8, via);
      assert.equal(new Set(hosts.map((span) => span.spanContext().traceId)).size, 8, `${via}: eight traces`);
      if (via === 'fetch') assert.deepEqual(new Set(hosts.map((span) => span.spanContext().spanId)), new Set(hostSpans));
      for (const server of servers) {
        const host = hosts.find((span) => span.spanContext().spanId === server.parentSpanContext?.spanId);
        assert.ok(host, `${via}: the proxy's span sits under the host's`);
        assert.equal(server.spanContext().traceId, host.spanContext().traceId);
        const client = clients.find((span) => span.parentSpanContext?.spanId === server.spanContext().spanId);
        assert.ok(client, `${via}: the service call sits under its request`);
        assert.equal(client.spanContext().traceId, host.spanContext().traceId);
        // what reached the service: this call's trace and span, sampled as the host's
        const traceparent = `00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`;
        assert.equal(seen.filter((headers) => headers['traceparent'] === traceparent).length, 1, `${via}: ${traceparent} reached the service once`);
      }
      assert.equal(seen.length, 8, `${via}: eight calls`);
      if (via === 'node') {
        // the client span is the active one while the call is made
        assert.deepEqual(new Set(activeAtCall), new Set(clients.map((span) => span.spanContext().spanId)));
      }
    }
  });

  it("sends the service only the proxy's own traceparent: a browser's tracestate and baggage stop at the proxy, unless the host opts in", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const sandbox = new URL(stack.sandboxUrl);
    const service = await serve((req, res) => {
      seen.push(req.headers);
      const forwarded = httpRequest(
        { hostname: sandbox.hostname, port: sandbox.port, path: req.url, method: req.method, headers: { 'content-type': 'application/json' } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forwarded);
    });
    // a host whose SDK propagates trace context and baggage, and whose HTTP instrumentation
    // extracts both from the incoming request (what a browser sent) into the request's context
    // (a global propagator is set once: the one of this file's setup goes first)
    propagation.disable();
    propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
    const tracer = trace.getTracer('host');
    const host = (options: Partial<ProxyOptions>) => {
      const handler = createProxyHandler({ baseUrl: service, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, rateLimit: false, ...options });
      return serve((req, res) => {
        const incoming = propagation.extract(context.active(), req.headers);
        tracer.startActiveSpan('host request', {}, incoming, (span) => {
          res.on('finish', () => span.end());
          handler(req, res);
        });
      });
    };
    const browser = {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      tracestate: 'vendor=browser-state',
      baggage: 'user=50001018865,session=from-the-browser',
    };
    try {
      spans.reset();
      const plain = await host({});
      assert.equal(
        (await send(`${plain}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar(), headers: browser })).status,
        200,
      );
      const client = spans.getFinishedSpans().find((span) => span.name === 'POST')!;
      assert.equal(client.spanContext().traceId, '0af7651916cd43dd8448eb211c80319c', 'the trace goes on');
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!['traceparent'], `00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
      assert.equal(seen[0]!['baggage'], undefined, 'no baggage from a browser');
      assert.equal(seen[0]!['tracestate'], undefined, 'no tracestate from a browser');
      // the host opts in: its own propagation, baggage and all
      const all = await host({ openTelemetry: { propagate: 'all' } });
      assert.equal(
        (await send(`${all}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar(), headers: browser })).status,
        200,
      );
      assert.equal(seen.length, 2);
      assert.match(String(seen[1]!['baggage']), /user=50001018865/);
      assert.equal(seen[1]!['tracestate'], 'vendor=browser-state');
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
  });

  it("the fetch handler makes a request's spans before it hands its answer over", async () => {
    spans.reset();
    const handler = createFetchProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, rateLimit: false });
    const response = await handler(
      new Request('http://127.0.0.1/smartid/login.json', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: CODE, country: 'EE' }),
      }),
    );
    assert.equal(response.status, 200);
    // no turn of the event loop awaited: a serverless host may flush its SDK right now
    const finished = spans.getFinishedSpans();
    assert.deepEqual(
      finished.map((span) => [span.kind, span.name]),
      [
        [2, 'POST'],
        [1, 'esign-proxy smartIdLogin'],
      ],
    );
    assert.equal(finished[0]!.parentSpanContext?.spanId, finished[1]!.spanContext().spanId);
  });

  it("a span processor that throws costs that request's spans, never its answer or the process", async () => {
    spans.reset();
    const url = await proxy();
    processorFails = true;
    let answer;
    try {
      answer = await send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
    } finally {
      processorFails = false;
    }
    assert.equal(answer.status, 200);
    assert.match(String(answer.json.token), /^[\w-]+$/);
    // the next request's spans are whole again
    spans.reset();
    await send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
    assert.deepEqual(
      spans.getFinishedSpans().map((span) => span.name),
      ['POST', 'esign-proxy smartIdLogin'],
    );
  });
});

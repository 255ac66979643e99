import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { metrics, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { createFetchProxyHandler, createProxyHandler, flushTelemetry, MemoryStore, type ProxyOptions, type ProxyStore } from '../../src/proxy/index.js';
import { createTelemetry, epochClock, type RequestTelemetry } from '../../src/proxy/telemetry.js';
import { ACCESS_TOKEN, CookieJar, send, serverPool, startStack, type Stack } from './harness.js';

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

before(async () => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans), failing] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  stack = await startStack({ answerAfterMs: 1_000 });
});
after(async () => {
  await stack.close();
  trace.disable();
  metrics.disable();
});

function proxy(options: Partial<ProxyOptions> = {}): Promise<string> {
  return serve(createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, rateLimit: false, ...options }) as RequestListener);
}

/** Until `done` says so, for two seconds at most. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
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

    // the Node handler makes the spans of the requests that ended (and counts their events) in batches
    flushTelemetry();
    const finished = spans.getFinishedSpans();
    const servers = finished.filter((span) => span.kind === 1);
    const clients = finished.filter((span) => span.kind === 2);
    assert.deepEqual(servers.map((span) => span.name), ['esign-proxy smartIdLogin', 'esign-proxy smartIdLoginStatus', 'esign-proxy smartIdLogin']);
    assert.equal(clients.length, 2, 'the refused request never reached the service');
    for (const [i, child] of clients.entries()) {
      assert.equal(child.name, 'POST');
      assert.equal(child.parentSpanContext?.spanId, servers[i]!.spanContext().spanId, 'the service call sits under its request');
      assert.equal(child.spanContext().traceId, servers[i]!.spanContext().traceId);
      assert.equal(child.attributes['http.response.status_code'], 200);
      assert.equal(child.attributes['server.address'], '127.0.0.1');
    }
    assert.equal(clients[1]!.attributes['url.template'], '/smartid/status/{token}.json', 'the path by its template, the token not in it');
    assert.deepEqual(servers.map((span) => [span.attributes['esign.channel'], span.attributes['esign.outcome'] ?? span.attributes['esign.refusal'] ?? null]), [
      ['smartid', null],
      ['smartid', 'ok'],
      ['smartid', 'cross-site'],
    ]);
    assert.deepEqual(servers.map((span) => span.attributes['http.response.status_code']), [200, 200, 403]);
    // every span ended: the exporter holds exactly the spans the requests began, each with an end
    assert.ok(finished.every((span: ReadableSpan) => span.ended && span.duration[0] >= 0));
    // the times are the requests' own, on the wall clock, and a service call lies within its request
    const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    for (const span of finished) {
      assert.ok(ms(span.startTime) >= before - 2 && ms(span.endTime) <= afterwards + 2, `${span.name} in the time of the requests`);
      assert.ok(ms(span.endTime) >= ms(span.startTime) && span.startTime[1] < 1e9 && span.endTime[1] < 1e9);
    }
    for (const [i, child] of clients.entries()) {
      assert.ok(ms(child.startTime) >= ms(servers[i]!.startTime) && ms(child.endTime) <= ms(servers[i]!.endTime), 'the call within its request');
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
    assert.deepEqual(durations.map(([, count]) => count), [1, 1], 'one timing for each of the two calls to the service');
    assert.ok(![...points.keys()].join('\n').includes(CODE));
  });

  it('a store that fails marks its span as an error and counts a store error; openTelemetry: false records nothing', async () => {
    spans.reset();
    const hanging: ProxyStore = new Proxy(new MemoryStore(), { get: (target, name) => (name === 'get' ? () => new Promise(() => undefined) : Reflect.get(target, name)) });
    const url = await proxy({ store: hanging, storeTimeoutMs: 100, log: () => undefined });
    const jar = new CookieJar();
    const answer = await send(`${url}/smartid/status/0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01.json`, 'POST', {}, false, { jar });
    assert.equal(answer.status, 503);
    flushTelemetry();
    const [span] = spans.getFinishedSpans();
    assert.equal(span!.name, 'esign-proxy smartIdLoginStatus');
    assert.equal(span!.status.code, 2);
    assert.equal(span!.attributes['esign.failure'], 'store');
    const points = await collected();
    assert.equal(points.get('esign.proxy.store.errors {}'), 1);

    spans.reset();
    const quiet = await proxy({ openTelemetry: false });
    await send(`${quiet}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
    flushTelemetry();
    assert.deepEqual(spans.getFinishedSpans(), []);
  });

  it('the Node handler makes the spans of the requests that ended with their batch, or at once with flushTelemetry()', async () => {
    spans.reset();
    const handler = createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, rateLimit: false });
    let madeAsAnswered = -1;
    const flushing = await serve(((req, res) => {
      // as the answer goes out, its request's spans wait for their batch: flushed, they are made now
      res.on('finish', () => {
        flushTelemetry();
        madeAsAnswered = spans.getFinishedSpans().length;
      });
      handler(req, res);
    }) as RequestListener);
    const first = await send(`${flushing}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
    assert.equal(first.status, 200);
    await until(() => madeAsAnswered >= 0);
    assert.equal(madeAsAnswered, 2, 'the server span and the service call, made by the flush');

    spans.reset();
    const url = await proxy();
    const second = await send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
    assert.equal(second.status, 200);
    // nobody flushes: the batch makes them on its own
    await until(() => spans.getFinishedSpans().length >= 2);
    assert.deepEqual(spans.getFinishedSpans().map((span) => span.name), ['POST', 'esign-proxy smartIdLogin']);
  });

  it('a full batch is made on the next turn, never inside the request that filled it; flushTelemetry() empties every copy of the module', async () => {
    spans.reset();
    const begin = createTelemetry(true, stack.sandboxUrl, true);
    const first = await begin();
    const requests = [first!, ...Array.from({ length: 1_023 }, () => begin() as RequestTelemetry)];
    const answer = { status: 200, headers: {}, body: '{}' };
    for (const request of requests) request.end(answer, 'smartIdLoginStatus', null);
    assert.equal(spans.getFinishedSpans().length, 0, 'the 1,024th request did not make the others\' spans');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(spans.getFinishedSpans().length, 1_024);
    assert.ok(spans.getFinishedSpans().every((span) => span.name === 'esign-proxy smartIdLoginStatus' && span.ended));

    // a host whose dependencies bring the package twice: one flush, both queues
    spans.reset();
    const specifier = '../../src/proxy/telemetry.ts?another-copy';
    const copy = (await import(specifier)) as typeof import('../../src/proxy/telemetry.js');
    assert.notEqual(copy.flushTelemetry, flushTelemetry);
    const ours = begin() as RequestTelemetry;
    const theirs = await copy.createTelemetry(true, stack.sandboxUrl, true)();
    ours.end(answer, 'smartIdLoginStatus', null);
    theirs!.end(answer, 'mobileLoginStatus', null);
    assert.equal(spans.getFinishedSpans().length, 0);
    flushTelemetry();
    assert.deepEqual(spans.getFinishedSpans().map((span) => span.name).sort(), ['esign-proxy mobileLoginStatus', 'esign-proxy smartIdLoginStatus']);
  });

  it("the fetch handler makes a request's spans before it hands its answer over", async () => {
    spans.reset();
    const handler = createFetchProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, rateLimit: false });
    const response = await handler(new Request('http://127.0.0.1/smartid/login.json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: CODE, country: 'EE' }) }));
    assert.equal(response.status, 200);
    // no turn of the event loop awaited: a serverless host may flush its SDK right now
    const finished = spans.getFinishedSpans();
    assert.deepEqual(finished.map((span) => [span.kind, span.name]), [[2, 'POST'], [1, 'esign-proxy smartIdLogin']]);
    assert.equal(finished[0]!.parentSpanContext?.spanId, finished[1]!.spanContext().spanId);
  });

  it("a span processor that throws costs that request's spans, never its answer or the process", async () => {
    spans.reset();
    const url = await proxy();
    processorFails = true;
    let answer;
    try {
      answer = await send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
      flushTelemetry();
    } finally {
      processorFails = false;
    }
    assert.equal(answer.status, 200);
    assert.match(String(answer.json.token), /^[\w-]+$/);
    // the next request's spans are whole again
    spans.reset();
    await send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE' }, false, { jar: new CookieJar() });
    flushTelemetry();
    assert.deepEqual(spans.getFinishedSpans().map((span) => span.name), ['POST', 'esign-proxy smartIdLogin']);
  });

  it('gives the SDK its times on the wall clock, following the wall clock where it has moved from the monotonic one', () => {
    const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    const clock = epochClock();
    const [wall, now] = [Date.now(), performance.now()];
    assert.ok(Math.abs(ms(clock(now)) - wall) <= 2, 'a reading now is now');
    // a moment's fraction at the edge of a second stays a fraction: never 1e9 nanoseconds
    for (let i = 0; i < 2_000; i++) {
      const [, nanos] = clock(now + i * 0.0999999 + 0.9999999);
      assert.ok(Number.isInteger(nanos) && nanos >= 0 && nanos < 1e9);
    }
    assert.ok(Math.abs(ms(clock(now + 1_500.25)) - ms(clock(now)) - 1_500.25) < 0.001, 'durations kept to the microsecond');
    // the wall clock set an hour ahead (NTP, a suspended machine): a batch made now follows it
    const ahead = Date.now() + 3_600_000;
    const set = mock.method(Date, 'now', () => ahead);
    try {
      assert.ok(Math.abs(ms(epochClock()(performance.now())) - ahead) <= 2);
    } finally {
      set.mock.restore();
    }
  });
});

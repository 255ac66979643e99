import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createProxyHandler, type ProxyEvent, type ProxyOptions } from '../../src/proxy/index.js';
import { ACCESS_TOKEN, CookieJar, eventsDelivered, send, serverPool, startStack, type Stack } from './harness.js';

// A request id end to end: every answer of the proxy carries one (`x-request-id`), its event and
// its log lines the same, so a person's "it failed" (the browser's EsignError keeps the id) is found
// in the host's log. A trusted edge's id is taken only where the host names its header.

const serve = serverPool();
let stack: Stack;
before(async () => {
  stack = await startStack({ answerAfterMs: 200 });
});
after(() => stack.close());

const LOGIN = { code: '40504040001', country: 'EE' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function proxy(options: Partial<ProxyOptions> = {}): Promise<{ url: string; events: ProxyEvent[]; logged: string[] }> {
  const events: ProxyEvent[] = [];
  const logged: string[] = [];
  const url = await serve(
    createProxyHandler({
      baseUrl: stack.sandboxUrl,
      accessToken: ACCESS_TOKEN,
      minPollIntervalMs: 0,
      onEvent: (event) => void events.push(event),
      log: (line) => void logged.push(line),
      ...options,
    }),
  );
  return { url, events, logged };
}

describe('request ids', () => {
  it('answers each request with an id of its own, the one its event carries', async () => {
    const { url, events } = await proxy();
    const jar = new CookieJar();
    const started = await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar });
    const refused = await send(`${url}/api/admin.json`, 'POST', {}, false, { jar });
    const ids = [started.headers.get('x-request-id'), refused.headers.get('x-request-id')];
    for (const id of ids) assert.match(id ?? '', UUID);
    assert.notEqual(ids[0], ids[1], 'one id per request');
    await eventsDelivered();
    assert.deepEqual(
      events.map((event) => [event.type, event.requestId]),
      [
        ['started', ids[0]],
        ['refused', ids[1]],
      ],
    );
  });

  it("puts the id into the proxy's log line for the request", async () => {
    // an onEvent that throws: the proxy logs it, naming the request
    const logged: string[] = [];
    const url = await serve(
      createProxyHandler({
        baseUrl: stack.sandboxUrl,
        accessToken: ACCESS_TOKEN,
        log: (line) => void logged.push(line),
        onEvent: () => {
          throw new Error('the host hook broke');
        },
      }),
    );
    const refused = await send(`${url}/api/admin.json`, 'POST', {}, false, { jar: new CookieJar() });
    await eventsDelivered();
    const id = refused.headers.get('x-request-id')!;
    assert.deepEqual(
      logged.filter((line) => line.includes('the host hook broke')),
      [`[esign-proxy] onEvent() failed: Error: the host hook broke [request ${id}]`],
    );
  });

  it("takes the edge's id only from the header the host trusts, and only a well-formed one", async () => {
    const trusting = await proxy({ trustRequestIdHeader: 'X-Request-Id' });
    const given = await send(`${trusting.url}/api/admin.json`, 'POST', {}, false, { jar: null, headers: { 'x-request-id': 'edge-7f3a.1:2' } });
    assert.equal(given.headers.get('x-request-id'), 'edge-7f3a.1:2');
    // a line break, a space or 129 characters could forge a log line: a new id instead
    for (const hostile of ['a\tb', 'two words', 'x'.repeat(129), '<script>']) {
      const answer = await send(`${trusting.url}/api/admin.json`, 'POST', {}, false, { jar: null, headers: { 'x-request-id': hostile } });
      assert.match(answer.headers.get('x-request-id') ?? '', UUID, JSON.stringify(hostile));
    }
    await eventsDelivered();
    assert.equal(trusting.events[0]?.requestId, 'edge-7f3a.1:2');
    // by default a browser's header is nobody's word: the proxy mints its own
    const plain = await proxy();
    const ignored = await send(`${plain.url}/api/admin.json`, 'POST', {}, false, { jar: null, headers: { 'x-request-id': 'chosen-by-a-browser' } });
    assert.match(ignored.headers.get('x-request-id') ?? '', UUID);
  });
});

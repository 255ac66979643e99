import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createProxyHandler, type ProxyEvent } from '../../src/proxy/index.js';
import { ACCESS_TOKEN, CookieJar, send, serverPool } from './harness.js';
import { errorFromResponse } from '../../src/client/error-from-response.js';
import type { ErrorResponse } from '../../src/protocol/types.js';

// A node under a burst turns new session starts away at once, 429 with Retry-After, before it falls
// behind the sessions it has: when too many starts are in flight on it, or its event loop was late.
// Nothing is forwarded or counted for a start turned away; polls of running sessions still pass; the
// log says it in one line; each is a refused event with the limit `node`. Faults are the test's own:
// a service that holds starts, and the event loop held by the test.

const serve = serverPool();

/** A service that starts every session at once, but holds the starts of the HELD people until let go; polls answer waiting. */
async function holdingService() {
  const reached: string[] = [];
  const held: (() => void)[] = [];
  const url = await serve((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      reached.push(req.url ?? '');
      const answer = () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            JSON.stringify(
              req.url!.includes('/status/') ? { status: 'waiting' } : { status: 'ok', token: `token-${reached.length}-0123456789`, control_code: '1234' },
            ),
          );
      if (HELD.some((code) => body.includes(code))) held.push(answer);
      else answer();
    });
  });
  return { url, reached, held, release: () => held.splice(0).forEach((answer) => answer()) };
}

const HELD = ['30303039914', '39001010607', '60001017869', '61101019999'];
const start = (url: string, code: string) => send(`${url}/smartid/login.json`, 'POST', { code, country: 'LT' }, false, { jar: new CookieJar() });

async function waitFor(what: string, ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(ready(), what);
}

describe('proxy: a node under a burst', () => {
  it('refuses a start at once when its starts in flight are at the limit: 429, Retry-After, nothing forwarded or counted; polls pass; one log line, one event each', async () => {
    const service = await holdingService();
    const events: ProxyEvent[] = [];
    const logged: string[] = [];
    const url = await serve(
      createProxyHandler({
        baseUrl: service.url,
        accessToken: ACCESS_TOKEN,
        pressure: { maxStartsInFlight: 2 },
        // one start a person: a start turned away that counted would leave its person refused
        rateLimit: { perPerson: { limit: 1, windowMs: 60_000 } },
        minPollIntervalMs: 0,
        onEvent: (event) => void events.push(event),
        log: (line) => void logged.push(line),
      }),
    );
    const owner = new CookieJar();
    const running = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: owner });
    assert.equal(running.json.status, 'ok');
    // two starts held at the service: the node's limit
    const held = [start(url, HELD[0]!), start(url, HELD[1]!)];
    await waitFor('both held starts reached the service', () => service.held.length === 2);
    const before = service.reached.length;
    const refused = await start(url, '50001018865');
    assert.equal(refused.status, 429);
    assert.equal(refused.json.proxy_error, 'busy');
    // the widget says the service is away for a moment, to be tried again: not the person's limit
    const said = errorFromResponse(refused.json as ErrorResponse, refused.status, refused.headers.get('retry-after'));
    assert.deepEqual([said.code, said.retryable], ['service-unreachable', true]);
    assert.equal(refused.json.retry_after, 2);
    assert.equal(refused.headers.get('retry-after'), '2');
    assert.equal(service.reached.length, before, 'not forwarded');
    // a running session is polled as ever
    const poll = await send(`${url}/smartid/status/${String(running.json.token)}.json`, 'POST', {}, false, { jar: owner });
    assert.equal(poll.json.status, 'waiting');
    assert.equal(service.reached.length, before + 1, 'the poll reached the service');
    service.release();
    for (const answer of await Promise.all(held)) assert.equal(answer.json.status, 'ok');
    // the places are free again: two more starts pass, held, and the one after is refused again
    const again = [start(url, HELD[2]!), start(url, HELD[3]!)];
    await waitFor('two more starts reached the service', () => service.held.length === 2);
    assert.equal((await start(url, '50001018865')).status, 429);
    service.release();
    await Promise.all(again);
    assert.equal((await start(url, '50001018865')).json.status, 'ok', 'the person of the two refused starts was not charged for them');
    const busy = events.filter((event) => event.type === 'refused' && event.limit === 'node');
    assert.equal(busy.length, 2);
    assert.ok(busy.every((event) => event.type === 'refused' && event.reason === 'rate-limited' && event.status === 429));
    const lines = logged.filter((line) => line.includes('this node under a burst'));
    assert.equal(lines.length, 1, logged.join('\n'));
    assert.match(lines[0]!, /refused a session start \(this node under a burst\); further refusals are counted and said at most once a minute/);
  });

  it('refuses a start while its event loop has lately been late past the limit, and takes starts again once it keeps time; off, never', async () => {
    const service = await holdingService();
    const events: ProxyEvent[] = [];
    const guarded = await serve(
      createProxyHandler({
        baseUrl: service.url,
        accessToken: ACCESS_TOKEN,
        pressure: { maxEventLoopDelayMs: 200 },
        onEvent: (event) => void events.push(event),
        log: () => undefined,
      }),
    );
    const unguarded = await serve(createProxyHandler({ baseUrl: service.url, accessToken: ACCESS_TOKEN, pressure: false, log: () => undefined }));
    assert.equal((await start(guarded, '40504040001')).json.status, 'ok', 'a start while it keeps time');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const until = performance.now() + 600;
    while (performance.now() < until) {
      // the event loop held, as a burst of logins holds it
    }
    const late = await start(guarded, '40504040001');
    assert.deepEqual([late.status, late.json.proxy_error, late.headers.get('retry-after')], [429, 'busy', '2']);
    assert.equal((await start(unguarded, '40504040001')).json.status, 'ok', 'without pressure, taken');
    // once the node keeps time again (two windows of a second), starts pass: tried a few times, a loaded machine may still be late
    let after = late;
    for (let i = 0; i < 8 && after.status === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      after = await start(guarded, '50001018865');
    }
    assert.equal(after.json.status, 'ok');
    assert.ok(events.some((event) => event.type === 'refused' && event.limit === 'node'));
  });
});

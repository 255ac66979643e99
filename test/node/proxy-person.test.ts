import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import pino from 'pino';
import { Writable } from 'node:stream';
import { createProxyHandler, eventLogger, visitorFromCookie, type ProxyEvent, type ProxyOptions, type ProxyResult } from '../../src/proxy/index.js';
import { ACCESS_TOKEN, CookieJar, countingService, eventsDelivered, send, serverPool, stackOfThisFile } from './harness.js';

// A person is a country and a code (the per-person limit), and the visitor is a credential: the
// proxy mints it, adopts no planted one, rotates it at a login, and never writes it into an event
// or a log line. Over HTTP on loopback, the sandbox behind.

const stack = stackOfThisFile();
const serve = serverPool();

async function proxyWith(options: Partial<ProxyOptions> = {}, baseUrl = stack().sandboxUrl) {
  const events: ProxyEvent[] = [];
  const results: ProxyResult[] = [];
  const url = await serve(
    createProxyHandler({
      baseUrl,
      accessToken: ACCESS_TOKEN,
      minPollIntervalMs: 0,
      onEvent: (event) => void events.push(event),
      onResult: (result) => void results.push(result),
      ...options,
    }),
  );
  return { url, events, results };
}

const cookieOf = (answer: { headers: Headers }) => answer.headers.getSetCookie().map((line) => line.split(';')[0]!)[0];

describe('proxy: the per-person limit counts a country and a code', () => {
  it('seven Smart-ID starts for a Lithuanian person do not lock out the Estonian person with the same digits', async () => {
    const proxy = await proxyWith({ rateLimit: { perVisitor: false } });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await send(`${proxy.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'LT' }, false, { jar: new CookieJar() })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429], "the Lithuanian person's own six");
    const estonian = await send(`${proxy.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: new CookieJar() });
    assert.equal(estonian.status, 200);
    assert.equal(estonian.json.status, 'ok');
    await eventsDelivered();
    assert.deepEqual(
      proxy.events.map((e) => (e.type === 'refused' ? e.reason : e.type)),
      ['started', 'started', 'started', 'started', 'started', 'started', 'rate-limited', 'started'],
    );
  });

  it('a Latvian code with and without its hyphen is one person, counted once', async () => {
    const proxy = await proxyWith({ rateLimit: { perVisitor: false, perPerson: { limit: 2, windowMs: 600_000 } } });
    const start = (code: string) => send(`${proxy.url}/smartid/login.json`, 'POST', { code, country: 'LV' }, false, { jar: new CookieJar() });
    assert.deepEqual([(await start('050405-10009')).status, (await start('05040510009')).status, (await start('050405-10009')).status], [200, 200, 429]);
  });
});

describe('proxy: the visitor is a credential', () => {
  it('mints its own visitor ids and replaces a planted one instead of adopting it', async () => {
    const service = await countingService(serve);
    const proxy = await proxyWith({}, service.url);
    const first = await send(`${proxy.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: null });
    const minted = cookieOf(first)!;
    assert.match(minted, /^esign-visitor=[A-Za-z0-9_-]{46}$/);
    // a well-formed value the proxy did not mint (planted over plain http, say)
    const planted = 'esign-visitor=' + 'A'.repeat(46);
    const again = await send(`${proxy.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, {
      jar: null,
      headers: { cookie: planted },
    });
    const replaced = cookieOf(again);
    assert.ok(replaced && replaced !== planted, 'a new id is set');
    assert.match(replaced, /^esign-visitor=[A-Za-z0-9_-]{46}$/);
    // its own id is kept: no new cookie
    const kept = await send(`${proxy.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, {
      jar: null,
      headers: { cookie: minted },
    });
    assert.equal(cookieOf(kept), undefined);
    // the host reads only what the proxy minted, with its secret
    assert.equal(visitorFromCookie(planted, { secure: false, secret: ACCESS_TOKEN }), null);
    assert.equal(visitorFromCookie(minted, { secure: false, secret: ACCESS_TOKEN }), minted.split('=')[1]);
    assert.equal(visitorFromCookie(minted, { secure: false, secret: 'another-secret' }), null);
    assert.equal(service.seen.length, 3);
  });

  it('gives the browser a new visitor id at a login, the one onResult names; a late poll of that browser still gets its answer', async () => {
    const proxy = await proxyWith();
    const jar = new CookieJar();
    const start = await send(`${proxy.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
    const before = cookieOf(start)!.split('=')[1]!;
    stack().clock.advance(60_000);
    const done = await send(`${proxy.url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(done.json.status, 'ok');
    const after = cookieOf(done)!.split('=')[1]!;
    assert.notEqual(after, before, 'a new id at the login');
    assert.deepEqual(
      proxy.results.map((r) => r.visitor),
      [after],
      'onResult names the new id',
    );
    assert.equal(proxy.results[0]!.request.visitor, before, 'the request that finished it came with the old one');
    const late = await send(`${proxy.url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(late.json.status, 'ok');
    // the same new id again, not another: kept for a browser whose answer with it was lost
    assert.equal(cookieOf(late)!.split('=')[1]!, after);
    assert.equal(proxy.results.length, 1, 'handed over once');
  });

  it("a host's own visitor (its session id) is not rotated by the proxy", async () => {
    const proxy = await proxyWith({ visitor: () => 'host-session-id-1234' });
    const start = await send(`${proxy.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: null });
    stack().clock.advance(60_000);
    const done = await send(`${proxy.url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: null });
    assert.equal(done.json.status, 'ok');
    assert.equal(cookieOf(done), undefined);
    assert.deepEqual(
      proxy.results.map((r) => r.visitor),
      ['host-session-id-1234'],
    );
  });

  it('events and log lines carry the visitor as a keyed digest, the same for one visitor, never its value', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString('utf8')), done()) }));
    const log = eventLogger(logger);
    const withSecret = await proxyWith({ eventSecret: 'the-event-secret', onEvent: (event) => log(event) });
    const jar = new CookieJar();
    const first = await send(`${withSecret.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
    const id = cookieOf(first)!.split('=')[1]!;
    await send(`${withSecret.url}/smartid/login.json`, 'POST', { code: '30303039914', country: 'LT' }, false, { jar });
    // a host's own session id is a credential too
    const hosted = await proxyWith({ visitor: () => 'host-session-id-5678' });
    await send(`${hosted.url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: null });
    await eventsDelivered();
    assert.equal(lines.length, 2);
    const logged = lines.map((line) => JSON.parse(line) as { visitor: string; type: string });
    const expected = createHmac('sha256', 'the-event-secret').update(`visitor:${id}`).digest('hex');
    assert.deepEqual(
      logged.map((line) => [line.type, line.visitor]),
      [
        ['started', expected],
        ['started', expected],
      ],
      'the host can compute it and join the lines',
    );
    assert.ok(!lines.join('').includes(id), "the cookie's value is in no log line");
    assert.equal(
      hosted.events[0]!.visitor,
      createHmac('sha256', ACCESS_TOKEN).update('visitor:host-session-id-5678').digest('hex'),
      'without eventSecret, keyed by the access token',
    );
    assert.ok(!JSON.stringify(hosted.events).includes('host-session-id-5678'));
  });
});

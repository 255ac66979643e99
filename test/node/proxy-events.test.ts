import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { createProxyHandler, MemoryStore, type ProxyEvent, type ProxyLogLine, type ProxyOptions, type ProxyStore } from '../../src/proxy/index.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { sayRefusal } from '../../src/proxy/steps/limits.js';
import { ACCESS_TOKEN, CookieJar, b64, eventsDelivered, send, serverPool, startStack, until, type Stack } from './harness.js';

// What the proxy tells its host, one event per request that was refused, failed, met a failing
// host hook, started a session or ended one; never a secret or a person in clear; and never in
// the way of the browser's answer.

const serve = serverPool();
let stack: Stack;
before(async () => {
  stack = await startStack({ answerAfterMs: 1_000 });
});
after(() => stack.close());

const CODE = '40504040001';
const LOGIN = { code: CODE, country: 'EE' };

/** A proxy in front of the sandbox that collects its events. */
async function proxy(options: Partial<ProxyOptions> = {}): Promise<{ url: string; events: ProxyEvent[] }> {
  const events: ProxyEvent[] = [];
  const url = await serve(
    createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, onEvent: (event) => void events.push(event), ...options }),
  );
  return { url, events };
}

/** Events are handed over after the answer: the events of every answer received so far (an extra one shows too). */
async function eventsOf(events: ProxyEvent[], count: number): Promise<ProxyEvent[]> {
  await eventsDelivered();
  assert.ok(events.length >= count, `${count} events handed over, ${events.length} seen`);
  return events;
}

function assertNothingSecret(events: ProxyEvent[], ...secrets: string[]): void {
  const text = JSON.stringify(events);
  for (const secret of [ACCESS_TOKEN, CODE, ...secrets]) assert.ok(!text.includes(secret), `an event holds ${secret}`);
}

/** Sends a body slower than the proxy waits for it. */
async function slowBody(url: string): Promise<void> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.resume();
  socket.write(`POST /smartid/login.json HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"code":`);
  await new Promise((resolve) => socket.once('close', resolve));
}

describe('proxy events', () => {
  it('each refusal reason makes exactly one refused event, with its status and what was known of the request', async () => {
    const refusals: [string, (url: string) => Promise<unknown>, Partial<ProxyOptions>?][] = [
      ['cross-site', (url) => send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar: null, headers: { origin: 'https://evil.example' } })],
      [
        'content-type',
        (url) => send(`${url}/smartid/login.json`, 'POST', 'code=1', true, { jar: null, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      ],
      ['not-allowed', (url) => send(`${url}/api/admin.json`, 'POST', {}, false, { jar: null })],
      ['invalid-field', (url) => send(`${url}/smartid/login.json`, 'POST', { code: 'x'.repeat(30), country: 'EE' }, false, { jar: null })],
      ['too-large', (url) => send(`${url}/smartid/login.json`, 'POST', { code: CODE, country: 'EE', pad: 'x'.repeat(40_000) }, false, { jar: null })],
      ['timeout', slowBody, { bodyTimeoutMs: 100, bodyTimeoutPerMbMs: 0 }],
      [
        'rate-limited',
        async (url) => {
          const jar = new CookieJar();
          await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar });
          return send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar });
        },
        { rateLimit: { perVisitor: { limit: 1, windowMs: 60_000 }, perPerson: false } },
      ],
      [
        'not-your-session',
        async (url) => {
          const start = await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar: new CookieJar() });
          return send(`${url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: new CookieJar() });
        },
      ],
      [
        'unauthorized',
        (url) => send(`${url}/api/document/0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01/signers.json`, 'POST', {}, false, { jar: null }),
        { operations: 'all', authorize: () => false },
      ],
    ];
    for (const [reason, act, options] of refusals) {
      const { url, events } = await proxy({ rateLimit: false, ...options });
      await act(url);
      const seen = await eventsOf(events, reason === 'rate-limited' || reason === 'not-your-session' ? 2 : 1);
      const refused = seen.filter((event) => event.type === 'refused');
      assert.equal(refused.length, 1, `${reason}: ${JSON.stringify(seen)}`);
      const event = refused[0] as Extract<ProxyEvent, { type: 'refused' }>;
      assert.equal(event.reason, reason);
      // a rate limit's refusal names the limit it met (here the visitor's); no other refusal names one
      assert.equal(event.limit, reason === 'rate-limited' ? 'visitor' : undefined, reason);
      assert.ok(event.status >= 400 && event.status < 500, `${reason}: ${event.status}`);
      assert.ok(Number.isFinite(Date.parse(event.at)) && event.durationMs >= 0);
      if (reason !== 'not-allowed' && reason !== 'unauthorized')
        assert.equal(event.operation, reason === 'not-your-session' ? 'smartIdLoginStatus' : 'smartIdLogin', reason);
      assertNothingSecret(seen);
    }
  });

  it('a login and a signing each make started and finished, the person masked, the user agent and the address given', async () => {
    const { url, events } = await proxy({ clientAddress: () => '192.0.2.7', onResult: () => undefined });
    const jar = new CookieJar();
    const headers = { 'user-agent': 'TestBrowser/1.0' };
    const login = await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar, headers });
    stack.clock.advance(5_000);
    const result = await send(`${url}/smartid/status/${login.json.token}.json`, 'POST', {}, false, { jar, headers });
    assert.equal(result.json.status, 'ok');
    // a poll after the one that handed the result over ends nothing again: one end per session
    const again = await send(`${url}/smartid/status/${login.json.token}.json`, 'POST', {}, false, { jar, headers });
    assert.equal(again.json.status, 'ok');
    const sign = await send(
      `${url}/mobile/sign.json`,
      'POST',
      { code: '60001017869', phone: '+37268000769', type: 'pdf', pdf: { files: [{ name: 'a.pdf', content: b64(samplePdf('Events')) }] } },
      false,
      { jar },
    );
    assert.equal(sign.json.status, 'ok', JSON.stringify(sign.json));
    stack.clock.advance(5_000);
    const signed = await send(`${url}/mobile/sign/status/${sign.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(signed.json.status, 'ok');
    const seen = await eventsOf(events, 4);
    assert.deepEqual(
      seen.map((e) => [e.type, e.operation, e.kind, e.channel]),
      [
        ['started', 'smartIdLogin', 'login', 'smartid'],
        ['finished', 'smartIdLoginStatus', 'login', 'smartid'],
        ['started', 'mobileSign', 'sign', 'mobile'],
        ['finished', 'mobileSignStatus', 'sign', 'mobile'],
      ],
    );
    assert.deepEqual(
      seen.map((e) => (e.type === 'finished' ? e.outcome : null)),
      [null, 'ok', null, 'ok'],
    );
    assert.deepEqual(seen[0]!.person, { code: '4050••••001' });
    assert.deepEqual(seen[1]!.person, { code: '4050••••001' }, 'the end names the person the start named');
    assert.deepEqual(seen[2]!.person, { code: '6000••••869', phone: '+372\u00a06••\u00a0••\u00a0769' });
    assert.equal(seen[0]!.userAgent, 'TestBrowser/1.0');
    assert.equal(seen[0]!.address, '192.0.2.7');
    // one browser: the login's two events under the id it started with, the signing's under the new one the login gave it
    assert.equal(seen[0]!.visitor, seen[1]!.visitor);
    assert.equal(seen[2]!.visitor, seen[3]!.visitor);
    assert.notEqual(seen[1]!.visitor, seen[2]!.visitor, 'a login rotates the visitor id');
    assertNothingSecret(seen, login.json.token, sign.json.token, '60001017869', '37268000769');
  });

  it("an event is the host's to change: what one onEvent changes is not in the session's next event", async () => {
    let runs = 0;
    let changed = 0;
    const seen: ProxyEvent[] = [];
    const url = await serve(
      createProxyHandler({
        baseUrl: stack.sandboxUrl,
        accessToken: ACCESS_TOKEN,
        minPollIntervalMs: 0,
        onResult: () => {
          if (++runs === 1) throw new Error("the host's database is away");
        },
        onEvent: (event) => {
          seen.push(structuredClone(event));
          if (event.person) {
            event.person.code = 'changed by the host';
            delete event.person.phone;
            changed++;
          }
        },
      }),
    );
    const jar = new CookieJar();
    const start = await send(`${url}/mobile/login.json`, 'POST', { code: '60001017869', phone: '+37268000769' }, false, { jar });
    stack.clock.advance(5_000);
    const failed = await send(`${url}/mobile/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(failed.status, 500);
    await eventsOf(seen, 2);
    const done = await send(`${url}/mobile/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(done.json.status, 'ok');
    await eventsOf(seen, 3);
    assert.deepEqual(
      seen.map((e) => e.type),
      ['started', 'host-error', 'finished'],
    );
    const masked = { code: '6000••••869', phone: '+372\u00a06••\u00a0••\u00a0769' };
    for (const event of seen) assert.deepEqual(event.person, masked, `${event.type} names the person as the start did`);
    assert.equal(changed, 3, 'every event could be changed');
    assert.equal(runs, 2);
  });

  it("with eventSecret the person is a keyed digest the host can compute; a refused signing ends with the service's code", async () => {
    const secret = 'host-event-secret';
    const { url, events } = await proxy({ eventSecret: secret });
    const jar = new CookieJar();
    // the sandbox's person who refuses on the phone
    const start = await send(`${url}/smartid/login.json`, 'POST', { code: '30403039917', country: 'LT' }, false, { jar });
    stack.clock.advance(5_000);
    const end = await send(`${url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(end.json.status, 'error');
    const seen = await eventsOf(events, 2);
    const digest = createHmac('sha256', secret).update('code:30403039917').digest('hex');
    assert.deepEqual(
      seen.map((e) => e.person),
      [{ code: digest }, { code: digest }],
    );
    assert.equal(seen[1]!.type, 'finished');
    assert.equal((seen[1] as Extract<ProxyEvent, { type: 'finished' }>).outcome, String(end.json.error_code));
    assertNothingSecret(seen, '30403039917', start.json.token);
  });

  it('failures of the service, of the store and of a host hook make failed and host-error events', async () => {
    const closed = await serve(() => undefined);
    const hanging: ProxyStore = new Proxy(new MemoryStore(), {
      get: (target, name) => (name === 'increment' ? () => new Promise(() => undefined) : Reflect.get(target, name)),
    });
    const cases: [Partial<ProxyOptions>, string][] = [
      [{ baseUrl: 'http://127.0.0.1:9', upstreamTimeout: 2_000 }, 'failed service-unreachable'],
      [{ baseUrl: closed, upstreamTimeout: 200 }, 'failed service-timeout'],
      [{ store: hanging, storeTimeoutMs: 100, log: () => undefined }, 'failed store'],
      [
        {
          authorize: () => {
            throw new Error(`db down for ${ACCESS_TOKEN}`);
          },
          log: () => undefined,
        },
        'host-error authorize',
      ],
      [
        {
          visitor: () => {
            throw new Error('no session');
          },
          log: () => undefined,
        },
        'host-error visitor',
      ],
    ];
    for (const [options, expected] of cases) {
      const { url, events } = await proxy(options);
      const answer = await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar: null });
      const seen = await eventsOf(events, 1);
      assert.equal(seen.length, 1, `${expected}: ${JSON.stringify(seen)}`);
      const event = seen[0]!;
      assert.equal(`${event.type} ${event.type === 'failed' ? event.failure : event.type === 'host-error' ? event.hook : ''}`, expected);
      assert.equal((event as { status: number }).status, answer.status);
      assertNothingSecret(seen);
    }
  });

  it('a start refused by a limit is said to the operator once at once, then counted (at most a line a minute), each also a refused event', async () => {
    const lines: ProxyLogLine[] = [];
    const logged: string[] = [];
    const { url, events } = await proxy({
      rateLimit: { perVisitor: { limit: 1, windowMs: 600_000 }, perPerson: false, perAddress: false },
      log: (line, said) => {
        logged.push(line);
        lines.push(said);
      },
    });
    const jar = new CookieJar();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar })).status);
    assert.deepEqual(statuses, [200, 429, 429, 429]);
    const said = logged.filter((line) => line.includes('start limits'));
    assert.equal(said.length, 1, logged.join('\n'));
    assert.match(said[0]!, /the start limits refused a session start \(its visitor limit\); further refusals are counted and said at most once a minute/);
    assert.equal(lines[logged.indexOf(said[0]!)]?.level, 'warn');
    assert.doesNotMatch(said[0]!, new RegExp(CODE), 'no personal code in the line');
    const refused = (await eventsOf(events, 4)).filter((event) => event.type === 'refused');
    assert.deepEqual(
      refused.map((event) => [event.type === 'refused' && event.reason, event.type === 'refused' && event.limit]),
      Array(3).fill(['rate-limited', 'visitor']),
    );
  });

  it('the refusals of the start limits after the first are said in one line a minute, by limit, with the time they span', () => {
    const said: string[] = [];
    const setup = {
      limitRefusals: { saidAt: -Infinity, since: 0, counts: { visitor: 0, person: 0, address: 0, node: 0 } },
      log: (_level: string, message: string) => void said.push(message),
    };
    sayRefusal(setup, 'person', 1_000);
    for (const [scope, at] of [
      ['visitor', 2_000],
      ['person', 30_000],
      ['person', 60_999],
      ['address', 61_000],
      ['visitor', 62_000],
    ] as const)
      sayRefusal(setup, scope, at);
    assert.equal(said.length, 2, said.join('\n'));
    assert.match(said[0]!, /refused a session start \(its person limit\)/);
    assert.match(said[1]!, /refused 4 session starts in the last 60 s \(per visitor 1, per person 2, per address 1, this node under a burst 0\)/);
    assert.deepEqual(setup.limitRefusals.counts, { visitor: 1, person: 0, address: 0, node: 0 }, 'the one after the line waits for the next');
  });

  it('an onEvent that throws or never finishes changes nothing of the answer and does not hold it', async () => {
    const logged: string[] = [];
    const lines: ProxyLogLine[] = [];
    const throwing = await proxy({
      onEvent: () => {
        throw new Error('sink down');
      },
      log: (line, said) => {
        logged.push(line);
        lines.push(said);
      },
    });
    // a hook whose work ends only when the test says so: the answer must come while it is still at it
    let release: () => void = () => undefined;
    const held = { calls: 0, finished: false };
    const slow = await proxy({
      onEvent: () => {
        held.calls++;
        return new Promise<void>((resolve) => (release = resolve)).then(() => void (held.finished = true));
      },
    });
    const plain = await proxy({});
    const answers = [];
    for (const { url } of [throwing, slow, plain]) {
      const answer = await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar: null, headers: { origin: 'https://evil.example' } });
      answers.push({ status: answer.status, body: answer.json, hookFinished: held.finished });
    }
    assert.deepEqual(
      answers.map((a) => [a.status, a.body]),
      Array(3).fill([403, answers[2]!.body]),
    );
    assert.equal(answers[1]!.hookFinished, false, 'the answer came while the hook was still at work');
    await eventsOf(plain.events, 1);
    assert.equal(held.calls, 1);
    release();
    // the hook's rest runs in microtasks, all of them before the next timer
    await eventsDelivered();
    assert.equal(held.finished, true);
    assert.ok(
      logged.some((line) => line.includes('onEvent() failed: ') && line.includes('sink down')),
      logged.join('\n'),
    );
    // its level and request as the proxy gave them, not read from the words
    const failed = logged.findIndex((line) => line.includes('onEvent() failed: '));
    assert.equal(lines[failed]?.level, 'error');
    assert.match(lines[failed]?.requestId ?? '', /^[A-Za-z0-9_-]{8,}$/);
    assert.ok(logged[failed]!.endsWith(`[request ${lines[failed]?.requestId}]`));
  });
});

describe('proxy events as JSON lines through pino', () => {
  it("writes one line per event at the level its kind deserves, with the event's fields", async () => {
    const { pino } = await import('pino');
    const { eventLogger } = await import('../../src/proxy/index.js');
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ base: null, timestamp: false }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const { url } = await proxy({
      onEvent: eventLogger(logger),
      authorize: () => {
        throw new Error('down');
      },
      operations: 'all',
      log: () => undefined,
    });
    const jar = new CookieJar();
    await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar, headers: { origin: 'https://evil.example' } });
    await send(`${url}/smartid/login.json`, 'POST', LOGIN, false, { jar });
    await until(() => lines.length >= 2, 'two log lines', 500);
    assert.deepEqual(
      lines.map((line) => [line['level'], line['msg'], line['type'], line['reason'] ?? line['hook']]),
      [
        [40, 'esign-proxy refused: cross-site', 'refused', 'cross-site'],
        [50, 'esign-proxy host-error', 'host-error', 'authorize'],
      ],
    );
    assert.equal(lines[0]!['operation'], 'smartIdLogin');
    // a cross-site request is refused before its body is read: no person; the second one names them masked
    assert.equal(lines[0]!['person'], undefined);
    assert.deepEqual(lines[1]!['person'], { code: '4050••••001' });
    assertNothingSecret(lines as unknown as ProxyEvent[]);
  });
});

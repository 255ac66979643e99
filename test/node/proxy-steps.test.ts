import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { matchOperation } from '../../src/protocol/operation-match.js';
import { OPERATIONS, OPERATION_IDS } from '../../src/protocol/operations.js';
import { runSteps, type IncomingProxyRequest } from '../../src/proxy/core.js';
import { ProxyRefusal, proxyError, type ProxyAnswer } from '../../src/proxy/errors.js';
import type { ProxyOptions } from '../../src/proxy/options.js';
import { newVisitorId } from '../../src/proxy/visitor.js';
import { authorize } from '../../src/proxy/steps/authorize.js';
import { binding, sealBinding } from '../../src/proxy/steps/binding.js';
import { tokenName, unseal } from '../../src/proxy/sealed.js';
import { contentType } from '../../src/proxy/steps/content-type.js';
import { newExchange, type AnyStep, type Binding, type Exchange, type Found, type Has, type Step } from '../../src/proxy/steps/exchange.js';
import { fields } from '../../src/proxy/steps/fields.js';
import { filter } from '../../src/proxy/steps/filter.js';
import { forward } from '../../src/proxy/steps/forward.js';
import { handOver } from '../../src/proxy/steps/hand-over.js';
import { limits } from '../../src/proxy/steps/limits.js';
import { pollFloor } from '../../src/proxy/steps/poll-floor.js';
import { route } from '../../src/proxy/steps/route.js';
import { sessions } from '../../src/proxy/steps/sessions.js';
import { MemoryStore, type ProxyStore } from '../../src/proxy/store.js';
import { createSetup, type ProxySetup } from '../../src/proxy/steps/setup.js';
import { UpstreamFailure } from '../../src/proxy/upstream.js';
import { visitor } from '../../src/proxy/steps/visitor.js';
import { ACCESS_TOKEN, CookieJar, incomingRequest, listen, send, startStack, type Stack } from './harness.js';

// Each step of the proxy on its own: what it answers or refuses, and what it leaves on the
// exchange, the event and the store for the steps after it. The whole pipeline has its suites
// over HTTP (proxy*.test.ts); here a step is run with the requests that reach it.

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(() => stack.close());

const START = '/smartid/login.json';
const PERSON = { code: '40504040001', country: 'EE' };

const incoming = incomingRequest;

function setupOf(options: Partial<ProxyOptions> = {}): ProxySetup {
  return createSetup({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, minPollIntervalMs: 0, ...options });
}

/** An exchange that has been through the given steps (each must let it go on), as the steps after them see it. */
async function through(steps: readonly AnyStep[], request: IncomingProxyRequest, setup: ProxySetup): Promise<Has<Found>> {
  const x = newExchange(request, new URL(request.url, 'http://loopback').pathname, null);
  for (const step of steps) assert.equal(await step(x, setup), undefined, `${step.name} lets it go on`);
  return x as Has<Found>;
}

const kindOf = (answer: ProxyAnswer | void) => (answer ? { status: answer.status, kind: answer.kind } : undefined);

/** Runs a step that must refuse; returns its refusal's answer and why. */
async function refusal(
  step: AnyStep,
  x: Exchange,
  setup: ProxySetup,
): Promise<{ status: number; body: Record<string, unknown>; why: unknown; headers: Record<string, string> }> {
  const error = await Promise.resolve()
    .then(() => step(x, setup))
    .then(
      () => assert.fail(`${step.name} refuses`),
      (thrown: unknown) => thrown as { answer: ProxyAnswer; why: unknown },
    );
  return { status: error.answer.status, body: JSON.parse(String(error.answer.body)) as Record<string, unknown>, why: error.why, headers: error.answer.headers };
}

describe('proxy steps, each on its own', () => {
  it('route: names the operation and its event, refuses paths that are no operation and operations not enabled', async () => {
    const setup = setupOf();
    const x = newExchange(incoming({ url: START }), START, null);
    assert.equal(await route(x, setup), undefined);
    assert.equal(x.operation?.id, 'smartIdLogin');
    assert.deepEqual(x.event.base, { requestId: x.requestId, operation: 'smartIdLogin', kind: 'login', channel: 'smartid' });
    for (const path of ['/smartid/login.json?x=1', '/smartid/%6cogin.json', '/smartid/../login.json', '/nothing.json']) {
      const other = newExchange(incoming({ url: path }), path, null);
      assert.deepEqual(kindOf(await route(other, setup)), { status: 404, kind: 'operation-not-allowed' }, path);
      assert.deepEqual(other.event.base, { requestId: other.requestId }, `${path}: no operation named`);
    }
    // every operation by its own path, a localized one also under /en, and by no other method
    for (const id of OPERATION_IDS) {
      const spec = OPERATIONS[id];
      const path = spec.path.replace(/\{\w+\}/g, 'Abc_defgh-123');
      assert.equal(matchOperation(spec.method, path)?.id, id, path);
      assert.equal(matchOperation(spec.method, `/en${path}`)?.id, spec.localized ? id : undefined, `/en${path}`);
      assert.equal(matchOperation(spec.method, `/lt${path}`), null, `/lt${path}`);
      assert.notEqual(matchOperation(spec.method === 'GET' ? 'DELETE' : 'GET', path)?.id, id, `${path} by another method`);
    }
    const upload = newExchange(incoming({ url: '/api/document/upload.json' }), '/api/document/upload.json', null);
    assert.deepEqual(kindOf(await route(upload, setup)), { status: 403, kind: 'operation-disabled' });
    assert.deepEqual(upload.event.base, { requestId: upload.requestId, operation: 'uploadDocument', kind: 'document' });
  });

  it('content type: a POST body that is not JSON is refused; a GET has none to check', async () => {
    const setup = setupOf();
    const post = newExchange(incoming({ url: START, headers: { 'content-type': 'text/plain' } }), START, null);
    assert.deepEqual(kindOf(await contentType(post, setup)), { status: 415, kind: 'unsupported-media-type' });
    const get = newExchange(incoming({ method: 'GET', url: '/x', headers: { 'content-type': 'text/plain' } }), '/x', null);
    assert.equal(await contentType(get, setup), undefined);
    assert.equal(
      await contentType(newExchange(incoming({ url: START, headers: { 'content-type': 'application/json; charset=utf-8' } }), START, null), setup),
      undefined,
    );
  });

  it("fields: keeps the operation's fields only, refuses a wrong field, a body that is no object, and one over the session limit", async () => {
    const setup = setupOf();
    const x = await through([route], incoming({ url: START, body: JSON.stringify({ ...PERSON, access_token: 'injected', extra: 1 }) }), setup);
    assert.equal(await fields(x, setup), undefined);
    assert.deepEqual(x.fields, PERSON);
    const wrong = await through([route], incoming({ url: START, body: JSON.stringify({ ...PERSON, code: 12 }) }), setup);
    assert.deepEqual((await refusal(fields, wrong, setup)).body, {
      status: 'error',
      message: 'A field has the wrong type',
      proxy_error: 'invalid-field',
      field: 'code',
    });
    for (const body of ['[1]', 'not json', 'null']) {
      const bad = await through([route], incoming({ url: START, body }), setup);
      assert.equal((await refusal(fields, bad, setup)).body['proxy_error'], 'malformed-json', body);
    }
    const large = await through([route], incoming({ url: START, body: JSON.stringify({ ...PERSON, message: 'x'.repeat(20_000) }) }), setup);
    assert.equal((await refusal(fields, large, setup)).status, 413);
  });

  it("visitor: a new visitor gets a cookie, a known one keeps theirs, a start's person is masked in the event; the host's hook decides when it has one", async () => {
    const setup = setupOf();
    const fresh = await through([route, fields], incoming({ url: START, body: JSON.stringify(PERSON) }), setup);
    assert.equal(await visitor(fresh, setup), undefined);
    assert.match(fresh.visitor.cookie ?? '', /HttpOnly/);
    assert.equal(fresh.visitor.key, `cookie:${fresh.visitor.id}`);
    assert.match(fresh.event.base.visitor ?? '', /^[0-9a-f]{64}$/, 'the event has a keyed digest');
    assert.notEqual(fresh.event.base.visitor, fresh.visitor.id);
    assert.deepEqual(fresh.event.base.person, { code: '4050••••001' });
    assert.deepEqual(fresh.info.body, PERSON);
    const name = /^([^=]+)=/.exec(fresh.visitor.cookie!)![1]!;
    const known = await through(
      [route, fields],
      incoming({ url: START, body: JSON.stringify(PERSON), headers: { cookie: `${name}=${fresh.visitor.id}` } }),
      setup,
    );
    await visitor(known, setup);
    assert.deepEqual(known.visitor, { id: fresh.visitor.id, key: fresh.visitor.key });
    // the visitor's cookie among others, however the header spells them; a look-alike name or value is nobody
    const id = fresh.visitor.id;
    for (const [header, expected] of [
      [`a=1; ${name}=${id}; b=2`, id],
      [`a=1;${name}=${id}`, id],
      [`;; ${name} = ${id} ;`, id],
      [`x${name}=${id}`, null],
      [`${name}x=${id}`, null],
      [`${name}=${id}x!`, null],
      [`${name}=short`, null],
      [`${name}`, null],
      [`a=${name}=${id}`, null],
      [`${name}=; ${name}=${id}`, null],
      // well formed, but not minted by this proxy: planted, and replaced
      [`${name}=${'A'.repeat(id.length)}`, null],
      [`${name}=${id.slice(0, 24)}${'A'.repeat(id.length - 24)}`, null],
    ] as const) {
      const seen = await through([route, fields], incoming({ url: START, body: JSON.stringify(PERSON), headers: { cookie: header } }), setup);
      await visitor(seen, setup);
      if (expected) assert.equal(seen.visitor.id, expected, header);
      else assert.notEqual(seen.visitor.id, id, header);
      assert.equal(Boolean(seen.visitor.cookie), !expected, `${header}: a new visitor's cookie only when none was read`);
    }
    const hooked = setupOf({ visitor: (request) => (request.path === START ? 'user-7' : '') });
    const byHost = await through([route, fields], incoming({ url: START, body: JSON.stringify(PERSON) }), hooked);
    await visitor(byHost, hooked);
    assert.deepEqual(byHost.visitor, { id: 'user-7', key: 'host:user-7' });
    const nobody = await through([route], incoming({ url: '/smartid/status/abcdefgh.json', body: '{}' }), hooked);
    assert.equal((await refusal(visitor, nobody, hooked)).status, 403);
  });

  /** A store of a host's own (memory behind it): every answer a promise. */
  const hostStore = (): ProxyStore => {
    const memory = new MemoryStore();
    return {
      get: (key) => memory.get(key),
      set: (key, value, ttlMs) => memory.set(key, value, ttlMs),
      setIfAbsent: (key, value, ttlMs) => memory.setIfAbsent(key, value, ttlMs),
      increment: (key, windowMs) => memory.increment(key, windowMs),
      decrement: (key) => memory.decrement(key),
      delete: (key) => memory.delete(key),
      deleteIfEqual: (key, value) => memory.deleteIfEqual(key, value),
    };
  };
  for (const [where, store] of [
    ["the process's memory, read at once", undefined],
    ["the process's memory given as the store, read at once", () => new MemoryStore()],
    ["a host's store, read through its promise", hostStore],
  ] as const) {
    it(`binding (${where}): a poll is for the visitor's own session of that kind, anything else gets the service's unknown-token answer`, async () => {
      const setup = setupOf(store ? { store: store() } : {});
      assert.equal(setup.store instanceof MemoryStore, store !== hostStore);
      const poll = '/smartid/status/token-1234.json';
      await setup.store.set(
        `bind:${tokenName(setup.visitorSecret, 'token-1234')}`,
        sealBinding(setup.visitorSecret, { visitor: 'cookie:v1', channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus' }),
        60_000,
      );
      const own = await through([route, fields], incoming({ url: poll, body: '{}' }), setup);
      own.visitor = { id: 'v1', key: 'cookie:v1' };
      assert.equal(await binding(own, setup), undefined);
      assert.equal(own.binding?.kind, 'login');
      for (const [url, key] of [
        [poll, 'cookie:v2'],
        ['/smartid/sign/status/token-1234.json', 'cookie:v1'],
        ['/smartid/status/token-9999.json', 'cookie:v1'],
      ] as const) {
        const other = await through([route, fields], incoming({ url, body: '{}' }), setup);
        other.visitor = { id: key.slice(7), key };
        const refused = await refusal(binding, other, setup);
        assert.deepEqual(
          [refused.status, refused.body, refused.why],
          [404, { status: 'error', message: 'Session for given token was not found', error_code: 40402 }, { reason: 'not-your-session' }],
          url,
        );
      }
      // a stored record that is not a binding (a field of the wrong type, one missing) binds nothing
      for (const [token, record] of [
        ['token-bad1', { visitor: 'cookie:v1', channel: 'smartid', kind: 'login', status: 42 }],
        ['token-bad2', { visitor: ['cookie:v1'], channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus' }],
        ['token-bad3', { visitor: 'cookie:v1', channel: 'fax', kind: 'login', status: 'smartIdLoginStatus' }],
        ['token-bad4', { visitor: 'cookie:v1', channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus', signer: 7 }],
      ] as const) {
        // records that are no binding, sealed as one would be
        await setup.store.set(`bind:${tokenName(setup.visitorSecret, token)}`, sealBinding(setup.visitorSecret, record as unknown as Binding), 60_000);
        const forged = await through([route, fields], incoming({ url: `/smartid/status/${token}.json`, body: '{}' }), setup);
        forged.visitor = { id: 'v1', key: 'cookie:v1' };
        const refused = await refusal(binding, forged, setup);
        assert.deepEqual([refused.status, refused.why], [404, { reason: 'not-your-session' }], token);
      }
      // a binding in clear (an older version's, or written by whoever can write the store) or sealed under another secret binds nothing
      const good = { visitor: 'cookie:v1', channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus' } as const;
      for (const [token, stored] of [
        ['token-clear', JSON.stringify(good)],
        ['token-other', sealBinding('another-secret-of-another-site', good)],
      ] as const) {
        await setup.store.set(`bind:${tokenName(setup.visitorSecret, token)}`, stored, 60_000);
        const forged = await through([route, fields], incoming({ url: `/smartid/status/${token}.json`, body: '{}' }), setup);
        forged.visitor = { id: 'v1', key: 'cookie:v1' };
        assert.deepEqual((await refusal(binding, forged, setup)).why, { reason: 'not-your-session' }, token);
      }
      // a start has no binding to check
      const start = await through([route, fields], incoming({ url: START, body: JSON.stringify(PERSON) }), setup);
      assert.equal(await binding(start, setup), undefined);
      assert.equal(start.binding, null);
    });
  }

  it('limits: a start counts against its visitor and person; over a limit it is refused with the seconds to wait', async () => {
    const setup = setupOf({ rateLimit: { perVisitor: { limit: 5, windowMs: 60_000 }, perPerson: { limit: 1, windowMs: 60_000 } } });
    const sameVisitor = newVisitorId(setup.visitorSecret);
    const start = async () => {
      const x = await through(
        [route, fields, visitor],
        incoming({ url: START, body: JSON.stringify(PERSON), headers: { cookie: `esign-visitor=${sameVisitor}` } }),
        setup,
      );
      return x;
    };
    const first = await start();
    assert.equal(first.visitor.id, sameVisitor, 'one visitor, by its cookie');
    assert.equal(await limits(first, setup), undefined);
    assert.equal(first.personCounters.length, 1, "the person's counter kept, to give back if the service refuses");
    assert.doesNotMatch(first.personCounters[0]!, /40504040001/, 'no personal code in a store key');
    const refused = await refusal(limits, await start(), setup);
    assert.equal(refused.status, 429);
    assert.equal(refused.body['proxy_error'], 'rate-limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60);
    // a poll is not a start: nothing counted
    const poll = await through([route, fields, visitor], incoming({ url: '/smartid/status/abcdefgh.json', body: '{}' }), setup);
    assert.equal(await limits(poll, setup), undefined);
    assert.deepEqual(poll.personCounters, []);
  });

  it("authorize: true goes on; anything else is refused; a throwing hook is the host's failure, logged without the token", async () => {
    const lines: string[] = [];
    for (const [answer, expected] of [
      [true, undefined],
      [false, 403],
      ['yes', 403],
    ] as const) {
      const setup = setupOf({ authorize: () => answer as boolean });
      const x = await through([route, fields, visitor], incoming({ url: START, body: JSON.stringify(PERSON) }), setup);
      if (expected === undefined) assert.equal(await authorize(x, setup), undefined);
      else assert.equal((await refusal(authorize, x, setup)).status, expected);
    }
    const setup = setupOf({
      authorize: () => {
        throw new Error(`no database for ${ACCESS_TOKEN}`);
      },
      log: (line) => void lines.push(line),
    });
    const x = await through([route, fields, visitor], incoming({ url: START, body: JSON.stringify(PERSON) }), setup);
    const refused = await refusal(authorize, x, setup);
    assert.deepEqual([refused.status, refused.why], [500, { hook: 'authorize' }]);
    assert.deepEqual(lines, ['[esign-proxy] authorize() failed for smartIdLogin: Error: no database for [redacted]']);
  });

  it('poll floor: a second poll of a session within the interval is answered waiting without the service', async () => {
    const setup = setupOf({ minPollIntervalMs: 60_000 });
    const poll = async () => {
      const x = await through([route, fields], incoming({ url: '/smartid/status/token-5678.json', body: '{}' }), setup);
      x.binding = { visitor: 'cookie:v', channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus' };
      return x;
    };
    assert.equal(await pollFloor(await poll(), setup), undefined);
    const again = await pollFloor(await poll(), setup);
    assert.deepEqual(again && [again.status, again.body], [200, '{"status":"waiting"}']);
    // without a binding (a start) there is nothing to hold back
    const start = await through([route, fields], incoming({ url: START, body: JSON.stringify(PERSON) }), setup);
    assert.equal(await pollFloor(start, setup), undefined);
  });

  it('forward: the checked fields with the access token to the service; its answer kept for the steps after; a non-JSON answer refused', async () => {
    const setup = setupOf();
    const x = await through([route, fields, visitor], incoming({ url: START, body: JSON.stringify(PERSON) }), setup);
    assert.equal(await forward(x, setup), undefined);
    assert.equal(x.service.status, 200);
    assert.equal(x.service.value['status'], 'ok');
    assert.equal(typeof x.service.value['token'], 'string');
    assert.equal(x.service.body, x.service.text);
    // a service that answers with something other than a JSON object (a fault injected here)
    for (const text of ['<html>', '[1,2]']) {
      const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(text));
      const url = await listen(server);
      const broken = setupOf({ baseUrl: url });
      const y = await through([route, fields, visitor], incoming({ url: START, body: JSON.stringify(PERSON) }), broken);
      assert.deepEqual(kindOf(await forward(y, broken)), { status: 502, kind: 'upstream-invalid' }, text);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('filter: the token out of what the host and the browser get; screening data out of what the browser gets only', async () => {
    const setup = setupOf();
    const value = { status: 'ok', note: `token ${ACCESS_TOKEN}`, peps_data: [{ name: 'X' }] };
    const x = {
      ...newExchange(incoming({ url: START }), START, null),
      service: { status: 200, text: JSON.stringify(value), value: JSON.parse(JSON.stringify(value)) as Record<string, unknown>, body: JSON.stringify(value) },
    };
    await filter(x, setup);
    assert.doesNotMatch(JSON.stringify(x.service.value), new RegExp(ACCESS_TOKEN));
    assert.deepEqual(x.service.value['peps_data'], [{ name: 'X' }], 'the host gets the screening data');
    assert.doesNotMatch(x.service.body, new RegExp(ACCESS_TOKEN));
    assert.doesNotMatch(x.service.body, /peps_data/);
    const text = '{"status":"waiting"}';
    const plain = { ...newExchange(incoming({ url: START }), START, null), service: { status: 200, text, value: { status: 'waiting' }, body: text } };
    await filter(plain, setup);
    assert.equal(plain.service.body, text, "the service's own text when nothing was taken out");
    // a screening field whose name the service spelled with an escape is found all the same
    const sneaky = '{"status":"ok","person":{"sanctions\\u005fdata":[1]}}';
    const escaped = {
      ...newExchange(incoming({ url: START }), START, null),
      service: { status: 200, text: sneaky, value: JSON.parse(sneaky) as Record<string, unknown>, body: sneaky },
    };
    await filter(escaped, setup);
    assert.equal(escaped.service.body, '{"status":"ok","person":{}}');
  });

  it("sessions: a start the service took is bound and starts the event; one it refused gives the person's count back; a removal unbinds", async () => {
    const setup = setupOf();
    const started = await through([route, fields, visitor], incoming({ url: START, body: JSON.stringify(PERSON) }), setup);
    started.service = { status: 200, text: '', value: { status: 'ok', token: 'new-token-1' }, body: '' };
    await sessions(started, setup);
    const kept = (await setup.store.get(`bind:${tokenName(setup.visitorSecret, 'new-token-1')}`))!;
    assert.ok(!kept.includes(started.visitor.id) && !kept.includes('4050'), 'sealed: no visitor id, no person');
    assert.equal(await setup.store.get('bind:new-token-1'), null, 'kept under a digest of the token, never the token');
    assert.deepEqual(JSON.parse(unseal(setup.visitorSecret, kept)!), {
      visitor: started.visitor.key,
      channel: 'smartid',
      kind: 'login',
      status: 'smartIdLoginStatus',
      person: { code: '4050••••001' },
    });
    assert.deepEqual(started.event.outcome, { type: 'started' });
    const refused = await through([route, fields, visitor], incoming({ url: START, body: JSON.stringify(PERSON) }), setup);
    await setup.store.increment('limit:person:counted', 60_000);
    refused.personCounters.push('limit:person:counted');
    refused.service = { status: 400, text: '', value: { status: 'error', error_code: 40005 }, body: '' };
    await sessions(refused, setup);
    assert.equal((await setup.store.increment('limit:person:counted', 60_000)).count, 1, 'given back');
    assert.equal(refused.event.outcome, undefined);
    const removal = await through([route, fields], incoming({ method: 'DELETE', url: '/api/smartid/session/new-token-1', body: '{}' }), setup);
    removal.binding = { visitor: started.visitor.key, channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus' };
    removal.service = { status: 200, text: '', value: { status: 'ok' }, body: '' };
    await sessions(removal, setup);
    assert.equal(await setup.store.get(`bind:${tokenName(setup.visitorSecret, 'new-token-1')}`), null);
  });

  it("hand over: a session's result to onResult once, before the browser; later polls end nothing again", async () => {
    const results: unknown[] = [];
    const setup = setupOf({ onResult: (result) => void results.push([result.operation, result.token, result.result]) });
    const poll = async () => {
      const x = await through([route, fields], incoming({ url: '/smartid/status/done-token.json', body: '{}' }), setup);
      x.visitor = { id: 'v', key: 'cookie:v' };
      x.binding = { visitor: 'cookie:v', channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus' };
      x.service = { status: 200, text: '', value: { status: 'ok', first_name: 'A' }, body: '' };
      return x;
    };
    const first = await poll();
    assert.equal(await handOver(first, setup), undefined);
    assert.deepEqual(first.event.outcome, { type: 'finished', outcome: 'ok' });
    const second = await poll();
    assert.equal(await handOver(second, setup), undefined);
    assert.equal(second.event.outcome, undefined);
    assert.deepEqual(results, [['smartIdLoginStatus', 'done-token', { status: 'ok', firstName: 'A' }]]);
  });

  it("the steps together: a refusal's reason and a new visitor's cookie reach the answer and the event", async () => {
    const setup = setupOf();
    const x = newExchange(incoming({ url: '/smartid/status/not-mine-1.json', body: '{}' }), '/smartid/status/not-mine-1.json', null);
    const answer = await runSteps(x, setup);
    assert.equal(answer.status, 404);
    assert.match(answer.headers['set-cookie'] ?? '', /HttpOnly/);
    assert.deepEqual(x.event.why, { reason: 'not-your-session' });
  });
});

describe('running the steps', () => {
  const poll = () => newExchange(incoming({ url: '/smartid/status/run-1.json', body: '{}' }), '/smartid/status/run-1.json', null);
  const answered = (status: number): ProxyAnswer => ({ status, headers: { 'content-type': 'application/json' }, body: '{}' });

  it('goes on step by step, whether a step decides at once or later, and stops at the first answer', async () => {
    const ran: string[] = [];
    const at =
      (name: string, result?: ProxyAnswer, later = false): Step =>
      () => {
        ran.push(name);
        return later ? new Promise((done) => setImmediate(() => done(result))) : result;
      };
    const x = poll();
    const answer = await runSteps(x, setupOf(), [at('a'), at('b', undefined, true), at('c'), at('d', answered(202), true), at('e')]);
    assert.equal(answer.status, 202);
    assert.deepEqual(ran, ['a', 'b', 'c', 'd']);
    const direct = await runSteps(poll(), setupOf(), [at('f', answered(201)), at('g')]);
    assert.equal(direct.status, 201);
    assert.deepEqual(ran, ['a', 'b', 'c', 'd', 'f']);
  });

  it('a refusal or a service failure thrown at once or later becomes the answer; any other failure is passed on as it came', async () => {
    const refuse: Step = () => {
      throw new ProxyRefusal(proxyError('forbidden'), { reason: 'not-allowed' });
    };
    const refuseLater: Step = async () => {
      await new Promise((done) => setImmediate(done));
      throw new ProxyRefusal(proxyError('forbidden'), { reason: 'not-allowed' });
    };
    for (const step of [refuse, refuseLater]) {
      const x = poll();
      const answer = await runSteps(x, setupOf(), [step]);
      assert.equal(answer.status, 403);
      assert.deepEqual(x.event.why, { reason: 'not-allowed' });
    }
    const unreachable: Step = () => Promise.reject(new UpstreamFailure('upstream-timeout'));
    assert.equal((await runSteps(poll(), setupOf(), [unreachable])).kind, 'upstream-timeout');
    const bug = new TypeError('a bug');
    const throwsAtOnce: Step = () => {
      throw bug;
    };
    const rejectsLater: Step = () => Promise.reject(bug);
    for (const step of [throwsAtOnce, rejectsLater]) {
      const running = runSteps(poll(), setupOf(), [step]);
      assert.ok(running instanceof Promise, 'a failure at once is still a rejected promise, never a throw');
      await assert.rejects(running, (error) => error === bug);
    }
  });
});

describe('requests at the same time', () => {
  it("over HTTP, the Node handler's requests in flight together each get their own answer", async () => {
    const visitors = Array.from({ length: 12 }, () => new CookieJar());
    const starts = await Promise.all(visitors.map((jar) => send(`${stack.proxyUrl}${START}`, 'POST', PERSON, false, { jar })));
    const tokens = starts.map((start) => start.json['token'] as string);
    assert.ok(starts.every((start) => start.status === 200));
    assert.equal(new Set(tokens).size, 12, 'a session of its own for each');
    // each polls its own session and, at the same time, the next visitor's: twenty-four at once
    const polls = await Promise.all(
      visitors.flatMap((jar, i) => [
        send(`${stack.proxyUrl}/smartid/status/${tokens[i]}.json`, 'POST', {}, false, { jar }),
        send(`${stack.proxyUrl}/smartid/status/${tokens[(i + 1) % 12]}.json`, 'POST', {}, false, { jar }),
      ]),
    );
    assert.deepEqual(
      polls.map((poll) => poll.status),
      visitors.flatMap(() => [200, 404]),
    );
    assert.ok(polls.filter((_, i) => i % 2 === 0).every((own) => typeof own.json['status'] === 'string' && own.json['error_code'] === undefined));
    assert.ok(polls.filter((_, i) => i % 2 === 1).every((other) => other.json['error_code'] === 40402));
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { createProxyHandler, type ProxyOptions, type ProxyResult } from '../../src/proxy/index.js';
import { ACCESS_TOKEN, CookieJar, TestClock, b64, send, serverPool, startStack, type Stack } from './harness.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';

// The proxy's trust rules, each over real HTTP: the sandbox behind, a proxy in front, and
// visitors with their own cookie jars.

let stack: Stack;
const serve = serverPool();
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack.close();
});

/** A proxy with the given options in front of the stack's sandbox; rate limits and the poll floor off unless given. */
function proxyFor(options: Partial<ProxyOptions> = {}): Promise<string> {
  return serve(createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, rateLimit: false, minPollIntervalMs: 0, ...options }));
}

/** Moves the sandbox's clock past the persons' answer time and polls once. */
async function finish(url: string, statusPath: string, jar: CookieJar) {
  stack.clock.advance(60_000);
  return send(`${url}${statusPath}`, 'POST', {}, false, { jar });
}

const SMART_OK = { code: '40504040001', country: 'EE' };

describe('proxy: sessions are bound to the visitor who started them', () => {
  it("forwards polls and removal for the starting visitor only; others get the service's 40402 and nothing is forwarded", async () => {
    const url = await proxyFor();
    const alice = new CookieJar();
    const mallory = new CookieJar();
    const start = await send(`${url}/mobile/login.json`, 'POST', { phone: '+37060000666', code: '50001018865' }, false, { jar: alice });
    assert.equal(start.json.status, 'ok');
    const setCookie = start.headers.getSetCookie().join('\n');
    assert.match(setCookie, /^esign-visitor=[A-Za-z0-9_-]{16,}; Path=\/; HttpOnly; SameSite=Strict$/);
    const token = start.json.token as string;

    const foreign = await send(`${url}/mobile/status/${token}.json`, 'POST', {}, false, { jar: mallory });
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.json, { status: 'error', message: 'Session for given token was not found', error_code: 40402 });
    const noCookie = await send(`${url}/mobile/status/${token}.json`, 'POST', {}, false, { jar: null });
    assert.equal(noCookie.json.error_code, 40402);
    const foreignRemoval = await send(`${url}/api/mobile/session/${token}`, 'DELETE', {}, false, { jar: mallory });
    assert.deepEqual(foreignRemoval.json, { status: 'error', message: 'Session for given token was not found' });
    // a token of a mobile login is no token for another status operation, even for its visitor
    const otherKind = await send(`${url}/mobile/sign/status/${token}.json`, 'POST', {}, false, { jar: alice });
    assert.equal(otherKind.json.error_code, 40402);
    const otherChannel = await send(`${url}/api/smartid/session/${token}`, 'DELETE', {}, false, { jar: alice });
    assert.equal(otherChannel.status, 404);

    // the session still exists at the service: nothing of the refused requests reached it
    const own = await finish(url, `/mobile/status/${token}.json`, alice);
    assert.equal(own.json.status, 'ok');
    const removed = await send(`${url}/api/mobile/session/${token}`, 'DELETE', {}, false, { jar: alice });
    assert.equal(removed.json.status, 'ok');
  });

  it("uses the host's visitor() instead of the cookie, and refuses when it returns nothing", async () => {
    const url = await proxyFor({ visitor: (request) => request.headers.get('x-host-session') });
    const start = await send(`${url}/smartid/login.json`, 'POST', SMART_OK, false, { jar: null, headers: { 'x-host-session': 'host-a' } });
    assert.equal(start.json.status, 'ok');
    assert.deepEqual(start.headers.getSetCookie(), [], 'no cookie of its own');
    const other = await send(`${url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: null, headers: { 'x-host-session': 'host-b' } });
    assert.equal(other.json.error_code, 40402);
    stack.clock.advance(60_000);
    const same = await send(`${url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: null, headers: { 'x-host-session': 'host-a' } });
    assert.equal(same.json.status, 'ok');
    const nobody = await send(`${url}/smartid/login.json`, 'POST', SMART_OK, false, { jar: null });
    assert.equal(nobody.status, 403);
    assert.equal(nobody.json.proxy_error, 'forbidden');
  });

  it('marks the cookie Secure and __Host- when the host says it is served over https', async () => {
    const url = await proxyFor({ secureCookie: true });
    const start = await send(`${url}/smartid/login.json`, 'POST', SMART_OK, false, { jar: new CookieJar() });
    assert.match(start.headers.getSetCookie()[0]!, /^__Host-esign-visitor=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
  });
});

describe('proxy: only JSON', () => {
  it('refuses a body that is not application/json with 415 and forwards nothing', async () => {
    let forwarded = 0;
    const upstream = await serve((req, res) => {
      forwarded++;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
    const proxy = await serve(createProxyHandler({ baseUrl: upstream, accessToken: ACCESS_TOKEN, rateLimit: false }));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', '']) {
      const response = await fetch(`${proxy}/smartid/login.json`, {
        method: 'POST',
        headers: type ? { 'content-type': type } : {},
        body: JSON.stringify(SMART_OK),
      });
      if (!type) assert.equal(response.headers.get('content-type'), 'application/json');
      assert.equal(response.status, 415, type);
      assert.equal(((await response.json()) as { proxy_error: string }).proxy_error, 'unsupported-media-type');
    }
    const withCharset = await send(`${proxy}/smartid/login.json`, 'POST', SMART_OK, false, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    assert.equal(withCharset.json.status, 'ok');
    assert.equal(forwarded, 1);
  });
});

describe('proxy: document operations are off by default', () => {
  it('forwards the session operations and refuses every document operation with 403', async () => {
    const url = await proxyFor();
    const id = '00000000-0000-0000-0000-000000000000';
    const documentCalls: [string, string][] = [
      ['POST', '/api/document/upload.json'],
      ['POST', `/api/document/${id}/invite-signer.json`],
      ['POST', `/api/v2/document/${id}/validation.json`],
      ['DELETE', `/api/document/${id}/remove.json`],
      ['POST', '/api/document/generate-temporary-signing-link.json'],
      ['POST', `/api/document/${id}/remove-temporary-signer.json`],
      ['POST', `/api/document/${id}/signers.json`],
    ];
    for (const [method, path] of documentCalls) {
      const answer = await send(`${url}${path}`, method, {});
      assert.equal(answer.status, 403, path);
      assert.equal(answer.json.proxy_error, 'operation-disabled');
    }
    assert.equal((await send(`${url}/smartid/login.json`, 'POST', SMART_OK)).json.status, 'ok');
  });

  it('needs authorize when document operations are enabled, and passes it the document uuid', async () => {
    assert.throws(() => createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, operations: 'all' }), /authorize/);
    const asked: string[] = [];
    const url = await proxyFor({
      operations: ['uploadDocument', 'listSigners', 'generateTemporarySigningLink'],
      authorize: (request, operation) => {
        asked.push(`${operation.id}:${operation.params['documentId'] ?? '-'}:${/^[\w-]{16,}$/.test(request.visitor)}`);
        return operation.params['documentId'] !== 'forbidden-doc';
      },
    });
    const upload = await send(`${url}/api/document/upload.json`, 'POST', {
      access: 'private',
      file: { filename: 'a.pdf', content: b64(samplePdf()) },
      signers: [{ name: 'Ona', surname: 'Tester', email: 'ona@example.test', noEmail: true }],
    });
    const uuid = upload.json.document.uuid as string;
    assert.equal((await send(`${url}/api/document/${uuid}/signers.json`, 'POST', {})).json.status, 'ok');
    const refused = await send(`${url}/api/document/generate-temporary-signing-link.json`, 'POST', {
      document_id: 'forbidden-doc',
      callback_url: 'https://host.example/cb',
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.proxy_error, 'forbidden');
    assert.equal((await send(`${url}/api/document/${uuid}/remove.json`, 'DELETE', {})).json.proxy_error, 'operation-disabled');
    assert.deepEqual(asked, ['uploadDocument:-:true', `listSigners:${uuid}:true`, 'generateTemporarySigningLink:forbidden-doc:true']);
  });

  it('answers 500 and logs without secrets when authorize throws (a host bug is no denial)', async () => {
    const logged: string[] = [];
    const url = await proxyFor({
      log: (line) => logged.push(line),
      authorize: () => {
        throw new Error(`database down (config had ${ACCESS_TOKEN})`);
      },
    });
    const answer = await send(`${url}/smartid/login.json`, 'POST', SMART_OK);
    assert.equal(answer.status, 500);
    assert.equal(answer.json.proxy_error, 'host-error');
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /authorize\(\) failed for smartIdLogin: Error: database down/);
    assert.ok(!logged[0]!.includes(ACCESS_TOKEN));
  });
});

describe('proxy: verified results on the server', () => {
  it('calls onResult once per finished session, before the browser gets the answer, with screening data', async () => {
    const results: ProxyResult[] = [];
    let answeredBeforeResult = false;
    const url = await proxyFor({
      onResult: async (result) => {
        results.push(result);
      },
    });
    const jar = new CookieJar();
    const start = await send(`${url}/mobile/login.json`, 'POST', { phone: '+37060000708', code: '39001010708', peps: true }, false, { jar });
    assert.equal(start.json.status, 'ok');
    assert.equal(results.length, 0, 'a start is no result');
    const waiting = await send(`${url}/mobile/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(waiting.json.status, 'waiting');
    assert.equal(results.length, 0, 'waiting is no result');
    const done = await finish(url, `/mobile/status/${start.json.token}.json`, jar);
    answeredBeforeResult = results.length === 0;
    assert.equal(done.json.status, 'ok');
    assert.equal(done.json.peps_data, undefined, 'screening stays on the server');
    assert.equal(done.json.sanctions_data, undefined);
    assert.equal(answeredBeforeResult, false);
    const again = await send(`${url}/mobile/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(again.json.status, 'ok');
    assert.equal(results.length, 1, 'once per session, however often it is polled');
    const [result] = results;
    assert.equal(result!.operation, 'mobileLoginStatus');
    assert.equal(result!.kind, 'login');
    assert.equal(result!.channel, 'mobile');
    assert.equal(result!.token, start.json.token);
    assert.equal(result!.result['code'], '39001010708');
    assert.ok(Array.isArray(result!.raw['peps_data']) && (result!.raw['peps_data'] as unknown[]).length > 0, 'onResult gets the PEP hit');
    assert.ok(Array.isArray(result!.result['pepsData']));
    // a login gives the browser a new visitor id: onResult names it, the request that finished the login came with the old one
    assert.match(result!.visitor, /^[\w-]{46}$/);
    assert.notEqual(result!.request.visitor, result!.visitor);
    assert.match(start.headers.getSetCookie()[0] ?? '', new RegExp(result!.request.visitor), 'the visitor the login started with');
    assert.match(jar.header(url), new RegExp(result!.visitor), 'the browser now holds the new id');
  });

  it('hands file and hash signatures, both channels and both locales, to onResult', async () => {
    const results: ProxyResult[] = [];
    const url = await proxyFor({ onResult: (result) => void results.push(result) });
    const jar = new CookieJar();
    const pdf = { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] };
    const hash = 'ab'.repeat(32);
    const runs: [string, object, string, string, string][] = [
      ['/smartid/sign.json', { type: 'pdf', ...SMART_OK, pdf }, '/smartid/sign/status/', 'sign', 'smartid'],
      ['/en/mobile/sign.json', { type: 'pdf', phone: '+37060000666', code: '50001018865', pdf }, '/en/mobile/sign/status/', 'sign', 'mobile'],
      ['/en/smartid/sign/hash.json', { hash, hash_algorithm: 'SHA256', ...SMART_OK }, '/en/smartid/sign/hash/status/', 'hash', 'smartid'],
      [
        '/mobile/sign/hash.json',
        { hash, hash_algorithm: 'SHA256', phone: '+37060000666', code: '50001018865', country: 'LT' },
        '/mobile/sign-hash/status/',
        'hash',
        'mobile',
      ],
      ['/en/smartid/login.json', SMART_OK, '/en/smartid/status/', 'login', 'smartid'],
    ];
    for (const [startPath, body, statusPath, kind, channel] of runs) {
      const start = await send(`${url}${startPath}`, 'POST', body, false, { jar });
      assert.equal(start.json.status, 'ok', startPath);
      const done = await finish(url, `${statusPath}${start.json.token}.json`, jar);
      assert.equal(done.json.status, 'ok', statusPath);
      const result = results.at(-1)!;
      assert.deepEqual([result.kind, 'channel' in result ? result.channel : null, result.token], [kind, channel, start.json.token]);
    }
    assert.equal(results.length, runs.length);
    // typed by kind: no cast reads the file or the signature
    const [signed, , hashed] = results;
    assert.ok(signed?.kind === 'sign' && hashed?.kind === 'hash');
    assert.ok(signed.result.file.content.length > 100, 'the signed file reaches the server');
    assert.match(hashed.result.signatureValue, /^[A-Za-z0-9+/]+=*$/);
  });

  it('turns a failing onResult into a 500 for the browser, logs it, and calls it again on the next poll', async () => {
    const logged: string[] = [];
    let calls = 0;
    const url = await proxyFor({
      log: (line) => logged.push(line),
      onResult: () => {
        calls++;
        if (calls === 1) return Promise.reject(new Error('session store unavailable'));
      },
    });
    const jar = new CookieJar();
    const start = await send(`${url}/smartid/login.json`, 'POST', SMART_OK, false, { jar });
    const failed = await finish(url, `/smartid/status/${start.json.token}.json`, jar);
    assert.equal(failed.status, 500);
    assert.equal(failed.json.proxy_error, 'host-error');
    assert.equal(failed.json.certificate, undefined, 'the result does not reach the browser');
    assert.match(logged.join('\n'), /onResult\(\) failed for smartIdLoginStatus: Error: session store unavailable/);
    const retried = await send(`${url}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    assert.equal(retried.json.status, 'ok');
    assert.equal(calls, 2);
  });

  it('calls onResult for document results: upload with uuid and links, invite, link creation, removal', async () => {
    const results: ProxyResult[] = [];
    const url = await proxyFor({ operations: 'all', authorize: () => true, onResult: (result) => void results.push(result) });
    const upload = await send(`${url}/api/document/upload.json`, 'POST', {
      access: 'private',
      file: { filename: 'a.pdf', content: b64(samplePdf()) },
      signers: [{ name: 'Ona', surname: 'Tester', email: 'ona@example.test' }],
    });
    const uuid = upload.json.document.uuid as string;
    await send(`${url}/api/document/${uuid}/invite-signer.json`, 'POST', { signer: { name: 'Jonas', surname: 'Tester', email: 'jonas@example.test' } });
    await send(`${url}/api/document/generate-temporary-signing-link.json`, 'POST', { document_id: uuid, callback_url: 'https://host.example/cb' });
    await send(`${url}/api/document/${uuid}/signers.json`, 'POST', {});
    await send(`${url}/api/document/${uuid}/remove.json`, 'DELETE', {});
    assert.deepEqual(
      results.map((r) => [r.operation, r.kind, r.token]),
      [
        ['uploadDocument', 'document', uuid],
        ['inviteSigner', 'document', uuid],
        ['generateTemporarySigningLink', 'document', uuid],
        ['removeDocument', 'document', uuid],
      ],
    );
    const uploaded = results[0];
    assert.ok(uploaded?.operation === 'uploadDocument');
    assert.match(uploaded.result.signers[0]!.invitationUrl ?? '', /^http/);
  });

  it('passes screening data to the browser only with exposeScreening', async () => {
    const url = await proxyFor({ exposeScreening: true });
    const jar = new CookieJar();
    const start = await send(`${url}/mobile/login.json`, 'POST', { phone: '+37060000708', code: '39001010708', peps: true }, false, { jar });
    const done = await finish(url, `/mobile/status/${start.json.token}.json`, jar);
    assert.ok(done.json.peps_data.length > 0);
    assert.deepEqual(done.json.sanctions_data, []);
  });
});

describe('proxy: rate limits on session starts', () => {
  /** A service that starts every session it is asked for, with a token of its own, and counts them. */
  async function startingService(): Promise<{ url: string; forwarded: () => number }> {
    let count = 0;
    const url = await serve((req, res) => {
      count++;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', token: `t-${count}`, control_code: '1234' }));
    });
    return { url, forwarded: () => count };
  }

  it('limits starts per visitor and answers 429 with Retry-After until the window ends (fake clock)', async () => {
    const clock = new TestClock();
    const { url: upstream, forwarded } = await startingService();
    const proxy = await serve(
      createProxyHandler({
        baseUrl: upstream,
        accessToken: ACCESS_TOKEN,
        now: clock.now,
        rateLimit: { perVisitor: { limit: 3, windowMs: 600_000 }, perPerson: false },
      }),
    );
    const jar = new CookieJar();
    for (let i = 0; i < 3; i++) {
      const code = `3030303991${i}`;
      assert.equal((await send(`${proxy}/smartid/login.json`, 'POST', { code, country: 'LT' }, false, { jar })).json.status, 'ok');
    }
    clock.advance(60_000);
    const limited = await send(`${proxy}/smartid/login.json`, 'POST', { code: '30303039914', country: 'LT' }, false, { jar });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '540');
    assert.deepEqual(limited.json, { status: 'error', message: 'Too many sessions started; try again later', proxy_error: 'rate-limited', retry_after: 540 });
    assert.equal(forwarded(), 3, 'the refused start did not reach the service');
    // another visitor is not affected; polls are not starts
    assert.equal(
      (await send(`${proxy}/smartid/login.json`, 'POST', { code: '30303039914', country: 'LT' }, false, { jar: new CookieJar() })).json.status,
      'ok',
    );
    clock.advance(540_000);
    assert.equal((await send(`${proxy}/smartid/login.json`, 'POST', { code: '30303039914', country: 'LT' }, false, { jar })).json.status, 'ok');
  });

  it('limits starts per person by personal code and by phone, whoever asks', async () => {
    const clock = new TestClock();
    const { url: upstream } = await startingService();
    const proxy = await serve(
      createProxyHandler({
        baseUrl: upstream,
        accessToken: ACCESS_TOKEN,
        now: clock.now,
        rateLimit: { perVisitor: false, perPerson: { limit: 2, windowMs: 300_000 } },
      }),
    );
    const fresh = () => ({ jar: new CookieJar() });
    assert.equal((await send(`${proxy}/smartid/login.json`, 'POST', { code: '050405-10009', country: 'LV' }, false, fresh())).status, 200);
    // a spelling the service would never take is refused before it is counted
    const spaced = await send(`${proxy}/smartid/login.json`, 'POST', { code: '050405 10009', country: 'LV' }, false, fresh());
    assert.deepEqual([spaced.status, spaced.json.proxy_error, spaced.json.field], [400, 'invalid-field', 'code']);
    assert.equal(
      (
        await send(
          `${proxy}/en/smartid/sign.json`,
          'POST',
          { code: '05040510009', country: 'LV', type: 'pdf', pdf: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] } },
          false,
          fresh(),
        )
      ).status,
      200,
    );
    const third = await send(`${proxy}/smartid/login.json`, 'POST', { code: '050405-10009', country: 'LV' }, false, fresh());
    assert.equal(third.status, 429, 'the same code without its hyphen is the same person');
    assert.equal(third.headers.get('retry-after'), '300');
    // Mobile-ID by the phone and code together (a push reaches a phone only for its own code): the
    // Smart-ID starts above did not use it up, and one phone gets no more than the limit
    const mobile = (phone: string, code: string) => send(`${proxy}/mobile/login.json`, 'POST', { phone, code }, false, fresh());
    assert.equal((await mobile('+37060000666', '05040510009')).status, 200);
    assert.equal((await mobile('+37060000666', '50001018865')).status, 200);
    assert.equal((await mobile('+37060000666', '50001018865')).status, 200);
    assert.equal((await mobile('+37060000666', '50001018865')).status, 429);
  });

  it("never lets starts with a person's code and phones not theirs, or their phone and other codes, lock that person out", async () => {
    const clock = new TestClock();
    const { url: upstream, forwarded } = await startingService();
    const proxy = await serve(createProxyHandler({ baseUrl: upstream, accessToken: ACCESS_TOKEN, now: clock.now }));
    const mobile = (phone: string, code: string) => send(`${proxy}/mobile/login.json`, 'POST', { phone, code }, false, { jar: new CookieJar() });
    // as the attack went: each from a new visitor, never polled, each accepted by the service
    for (let i = 0; i < 8; i++) assert.equal((await mobile(`+3706${String(1_000_000 + i).padStart(7, '0')}`, '50001018865')).status, 200);
    for (let i = 0; i < 8; i++) assert.equal((await mobile('+37060000666', `3900101${String(1000 + i)}`)).status, 200);
    // the person's own Mobile-ID and Smart-ID logins still go through, six of each, then no more pushes
    const own: number[] = [];
    for (let i = 0; i < 7; i++) own.push((await mobile('+37060000666', '50001018865')).status);
    assert.deepEqual(own, [200, 200, 200, 200, 200, 200, 429]);
    const smart: number[] = [];
    for (let i = 0; i < 7; i++)
      smart.push((await send(`${proxy}/smartid/login.json`, 'POST', { code: '50001018865', country: 'LT' }, false, { jar: new CookieJar() })).status);
    assert.deepEqual(smart, [200, 200, 200, 200, 200, 200, 429]);
    assert.equal(forwarded(), 16 + 6 + 6, 'the refused starts did not reach the service');
  });

  it('has defaults that let a person retry and stop a flood', async () => {
    const clock = new TestClock();
    const { url: upstream } = await startingService();
    const proxy = await serve(createProxyHandler({ baseUrl: upstream, accessToken: ACCESS_TOKEN, now: clock.now }));
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await send(`${proxy}/smartid/login.json`, 'POST', SMART_OK, false, { jar: new CookieJar() })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it('limits starts per network address when the host names it, whatever the cookies and persons (an IPv6 /64 counts as one)', async () => {
    const clock = new TestClock();
    const { url: upstream, forwarded } = await startingService();
    const asked: string[] = [];
    const proxy = await serve(
      createProxyHandler({
        baseUrl: upstream,
        accessToken: ACCESS_TOKEN,
        now: clock.now,
        // as a host behind its own load balancer would: the header it sets, read by the host
        clientAddress: ({ headers, path }) => {
          asked.push(path);
          return headers.get('x-test-address');
        },
        rateLimit: { perVisitor: false, perPerson: false, perAddress: { limit: 2, windowMs: 600_000 } },
      }),
    );
    let code = 30303039910;
    const start = (address: string | null) =>
      send(`${proxy}/smartid/login.json`, 'POST', { code: String(code++), country: 'LT' }, false, {
        jar: null,
        headers: address ? { 'x-test-address': address } : {},
      });
    // no cookie kept and a new person each time: only the address is the same
    assert.deepEqual([(await start('203.0.113.7')).status, (await start('::ffff:203.0.113.7')).status], [200, 200]);
    const limited = await start('203.0.113.7');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '600');
    assert.equal(limited.json.proxy_error, 'rate-limited');
    assert.equal((await start('203.0.113.8')).status, 200, 'another address is not affected');
    // two addresses of one IPv6 /64 are one household; the next /64 is another
    assert.deepEqual(
      [(await start('2001:db8:1:2::1')).status, (await start('2001:DB8:1:2:ffff::9')).status, (await start('2001:db8:1:2:0:0:0:5')).status],
      [200, 200, 429],
    );
    assert.equal((await start('2001:db8:1:3::1')).status, 200);
    // no address known: no per-address limit (the others still apply)
    assert.deepEqual([(await start(null)).status, (await start(null)).status, (await start(null)).status], [200, 200, 200]);
    assert.equal(forwarded(), 9, 'the refused starts did not reach the service');
    // asked for starts only: a poll is no start
    const polls = await send(`${proxy}/smartid/status/t-1.json`, 'POST', {}, false, { jar: null, headers: { 'x-test-address': '203.0.113.7' } });
    assert.equal(polls.status, 404);
    assert.equal(asked.length, 11);
    assert.ok(asked.every((path) => path === '/smartid/login.json'));
    clock.advance(600_000);
    assert.equal((await start('203.0.113.7')).status, 200, 'the window ended');
  });

  it('answers 500 and logs without secrets when clientAddress throws', async () => {
    const logged: string[] = [];
    const url = await proxyFor({
      log: (line) => logged.push(line),
      rateLimit: {},
      clientAddress: () => {
        throw new Error(`no header (config had ${ACCESS_TOKEN})`);
      },
    });
    const answer = await send(`${url}/smartid/login.json`, 'POST', SMART_OK, false, { jar: new CookieJar() });
    assert.equal(answer.status, 500);
    assert.equal(answer.json.proxy_error, 'host-error');
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /clientAddress\(\) failed: Error: no header/);
    assert.ok(!logged[0]!.includes(ACCESS_TOKEN));
  });
});

describe('proxy: works where hosts put it', () => {
  it('fails at creation with a clear message without baseUrl or accessToken', () => {
    assert.throws(() => createProxyHandler({ baseUrl: '', accessToken: 'x' }), /baseUrl must be the service's http\(s\) URL/);
    assert.throws(() => createProxyHandler({ baseUrl: 'ftp://x', accessToken: 'x' }), /baseUrl/);
    assert.throws(() => createProxyHandler({ baseUrl: 'https://service.example', accessToken: '' }), /accessToken is required/);
    assert.throws(() => createProxyHandler({ baseUrl: 'https://service.example' } as ProxyOptions), /accessToken is required/);
    assert.throws(() => createProxyHandler(undefined as unknown as ProxyOptions), /options are required/);
  });

  it('works behind express.json() and when mounted in Express with and without a prefix', async () => {
    const app = express();
    app.use(express.json({ limit: '10mb' }));
    app.use('/mounted', createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, rateLimit: false }));
    app.use(createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, rateLimit: false, prefix: '/prefixed' }));
    app.use('/both', createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, rateLimit: false, prefix: '/both' }));
    app.use((_req, res) => void res.status(404).json({ fellThrough: true }));
    const url = await serve(app);
    for (const base of ['/mounted', '/prefixed', '/both']) {
      const jar = new CookieJar();
      const start = await send(`${url}${base}/smartid/login.json`, 'POST', SMART_OK, false, { jar });
      assert.equal(start.json.status, 'ok', base);
      const done = await finish(`${url}${base}`, `/smartid/status/${start.json.token}.json`, jar);
      assert.equal(done.json.status, 'ok', base);
    }
    assert.deepEqual((await send(`${url}/elsewhere/smartid/login.json`, 'POST', SMART_OK)).json, { fellThrough: true });
    const wrongType = await send(`${url}/mounted/smartid/login.json`, 'POST', { code: 40504040001, country: 'EE' });
    assert.equal(wrongType.status, 400);
    assert.deepEqual(wrongType.json, { status: 'error', message: 'A field has the wrong type', proxy_error: 'invalid-field', field: 'code' });
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { createClient } from 'redis';
import { MemoryStore, createProxyHandler, type ProxyOptions, type ProxyResult } from '../../src/proxy/index.js';
import { RedisStore } from '../../src/proxy/redis.js';
import { ACCESS_TOKEN, CookieJar, TestClock, b64, countingService as countingServiceOf, send, serverPool, startStack, type Stack } from './harness.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';

// The holes a security review of the proxy found beside the result-first one, each closed and
// tried over real HTTP on loopback.

const serve = serverPool();

const countingService = (answer?: (path: string) => object) => countingServiceOf(serve, answer);

function proxy(baseUrl: string, options: Partial<ProxyOptions> = {}): Promise<string> {
  return serve(createProxyHandler({ baseUrl, accessToken: ACCESS_TOKEN, ...options }));
}

const PDF = { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] };

describe('proxy: start fields are checked before anything is counted, stored or forwarded', () => {
  it('refuses an 8 MB personal code of a login with 413 before reading it, and keeps nothing', async () => {
    const service = await countingService();
    const store = new MemoryStore();
    const url = await proxy(service.url, { store });
    for (let i = 0; i < 6; i++) {
      const answer = await send(`${url}/smartid/login.json`, 'POST', { code: '4'.repeat(8 * 1024 * 1024), country: 'EE' }, false, { jar: null });
      assert.deepEqual([answer.status, answer.json.proxy_error], [413, 'request-too-large']);
    }
    assert.equal(store.size, 0);
    assert.deepEqual(service.seen, []);
  });

  it('refuses a signing start (which may carry megabytes) with a 4 MB phone or code with 400 naming the field, and keeps nothing', async () => {
    const service = await countingService();
    const store = new MemoryStore();
    const url = await proxy(service.url, { store });
    for (const [field, body] of [
      ['phone', { phone: `+370${'6'.repeat(4 * 1024 * 1024)}`, code: '50001018865', type: 'pdf', pdf: PDF }],
      ['code', { phone: '+37060000666', code: '5'.repeat(4 * 1024 * 1024), type: 'pdf', pdf: PDF }],
    ] as const) {
      const answer = await send(`${url}/mobile/sign.json`, 'POST', body, false, { jar: null });
      assert.deepEqual([answer.status, answer.json.proxy_error, answer.json.field], [400, 'invalid-field', field]);
    }
    assert.equal(store.size, 0);
    assert.deepEqual(service.seen, []);
  });

  it('refuses codes, phones, countries, hashes and texts of a shape the service never takes, and counts none of them', async () => {
    const service = await countingService();
    const url = await proxy(service.url, { rateLimit: { perVisitor: { limit: 1, windowMs: 600_000 }, perPerson: { limit: 1, windowMs: 600_000 } } });
    const jar = new CookieJar();
    const refused: [string, string, object][] = [
      ['/smartid/login.json', 'code', { code: '4050404000', country: 'EE' }],
      ['/smartid/login.json', 'code', { code: '405040400011', country: 'EE' }],
      ['/smartid/login.json', 'code', { code: "40504040001' OR '1'='1", country: 'EE' }],
      ['/smartid/login.json', 'code', { code: '40504040001\n', country: 'EE' }],
      ['/smartid/login.json', 'code', { code: '٤٠٥٠٤٠٤٠٠٠١', country: 'EE' }],
      ['/smartid/login.json', 'country', { code: '40504040001', country: 'ee' }],
      ['/smartid/login.json', 'message', { code: '40504040001', country: 'EE', message: 'x'.repeat(201) }],
      ['/mobile/login.json', 'phone', { phone: '+37160000666', code: '50001018865' }],
      ['/mobile/login.json', 'phone', { phone: '37060000666', code: '50001018865' }],
      ['/mobile/login.json', 'phone', { phone: '+370 600 00666', code: '50001018865' }],
      ['/smartid/sign/hash.json', 'hash', { code: '40504040001', country: 'EE', hash: 'ab'.repeat(31), hash_algorithm: 'SHA256' }],
      ['/smartid/sign/hash.json', 'hash', { code: '40504040001', country: 'EE', hash: 'zz'.repeat(32), hash_algorithm: 'SHA256' }],
    ];
    for (const [path, field, body] of refused) {
      const answer = await send(`${url}${path}`, 'POST', body, false, { jar });
      assert.deepEqual([answer.status, answer.json.proxy_error, answer.json.field], [400, 'invalid-field', field], JSON.stringify(body));
    }
    assert.deepEqual(service.seen, []);
    // none of them was counted: this visitor's and this person's one start is still there
    assert.equal((await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar })).status, 200);
    assert.equal((await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar })).status, 429);
    // Latvian codes with and without the hyphen, and a 128-digit hash, are shapes the service takes
    for (const body of [
      { code: '050405-10009', country: 'LV' },
      { code: '32000010003', country: 'LV' },
    ]) {
      assert.notEqual((await send(`${url}/smartid/login.json`, 'POST', body, false, { jar: null })).status, 400);
    }
    assert.notEqual(
      (
        await send(`${url}/smartid/sign/hash.json`, 'POST', { code: '30303039914', country: 'LT', hash: 'ab'.repeat(64), hash_algorithm: 'SHA512' }, false, {
          jar: null,
        })
      ).status,
      400,
    );
  });

  it('gives file-less session operations a small body limit and signing its large one', async () => {
    const service = await countingService();
    const url = await proxy(service.url, { rateLimit: false, sessionBodyLimit: 4096 });
    const padding = 'x'.repeat(8192);
    const login = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE', unknown: padding }, false, { jar: null });
    assert.equal(login.status, 413);
    const sign = await send(`${url}/smartid/sign.json`, 'POST', { code: '40504040001', country: 'EE', type: 'pdf', pdf: PDF, unknown: padding }, false, {
      jar: null,
    });
    assert.equal(sign.status, 200);
    assert.deepEqual(service.seen, ['/smartid/sign.json']);
  });

  describe('on Redis', () => {
    let redis: RedisServer;
    before(async () => {
      redis = await startRedis();
    });
    after(async () => {
      await redis.stop();
    });

    it('keeps Redis as it was after starts with 4 MB fields, and keys of a fixed size without a personal code in clear', async () => {
      const client = createClient({ socket: { path: redis.socket, tls: false } });
      await client.connect();
      try {
        const service = await countingService();
        const url = await proxy(service.url, { store: new RedisStore(client) });
        const memory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
        const before = await memory();
        for (let i = 0; i < 3; i++) {
          const answer = await send(
            `${url}/mobile/sign.json`,
            'POST',
            { phone: `+${'3'.repeat(4 * 1024 * 1024)}`, code: `${i}`.repeat(4 * 1024 * 1024), type: 'pdf', pdf: PDF },
            false,
            { jar: null },
          );
          assert.equal(answer.status, 400);
        }
        assert.equal(await client.dbSize(), 0);
        assert.ok((await memory()) - before < 64 * 1024, `Redis grew by ${(await memory()) - before} bytes`);

        const ok = await send(`${url}/mobile/login.json`, 'POST', { phone: '+37060000666', code: '50001018865' }, false, { jar: null });
        assert.equal(ok.status, 200);
        const keys = await client.keys('*');
        // the visitor, and the person as the phone and code together
        assert.equal(keys.filter((key) => key.startsWith('esign-proxy:limit:')).length, 2, keys.join(' '));
        for (const key of keys) {
          assert.ok(key.length <= 80, key);
          assert.ok(!key.includes('50001018865') && !key.includes('60000666'), key);
        }
      } finally {
        await client.quit();
      }
    });
  });
});

describe('proxy: JSON only, whatever parsed the body first', () => {
  it('refuses form-encoded, nested-form and text bodies behind express.urlencoded() and express.text(), and forwards none', async () => {
    const service = await countingService();
    const app = express();
    app.use(express.urlencoded({ extended: true }));
    app.use(express.text());
    app.use(express.json());
    app.use('/esign', createProxyHandler({ baseUrl: service.url, accessToken: ACCESS_TOKEN, rateLimit: false }));
    const url = await serve(app);
    const bodies: [string, string][] = [
      ['application/x-www-form-urlencoded', 'code=40504040001&country=EE'],
      ['application/x-www-form-urlencoded', 'person[code]=40504040001&code=40504040001&country=EE'],
      ['text/plain', '{"code":"40504040001","country":"EE"}'],
      ['text/plain;charset=utf-8', 'code=40504040001'],
    ];
    for (const [type, body] of bodies) {
      const answer = await fetch(`${url}/esign/smartid/login.json`, { method: 'POST', headers: { 'content-type': type }, body });
      assert.equal(answer.status, 415, type);
      assert.equal(((await answer.json()) as { proxy_error: string }).proxy_error, 'unsupported-media-type');
    }
    assert.deepEqual(service.seen, []);
    const json = await fetch(`${url}/esign/smartid/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"code":"40504040001","country":"EE"}',
    });
    assert.equal(json.status, 200);
    await json.arrayBuffer();
    assert.deepEqual(service.seen, ['/smartid/login.json']);
  });
});

describe('proxy: screening data stays on the server at any depth', () => {
  it('removes nested peps_data and sanctions_data for the browser, and hands them whole to onResult', async () => {
    const TOKEN = '0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01';
    const answer = {
      status: 'ok',
      token: TOKEN,
      control_code: '1234',
      name: 'MARY',
      person: { name: 'MARY', peps_data: [{ position: 'minister' }], checks: [{ sanctions_data: ['list A'], ok: true }] },
      peps_data: [],
    };
    const service = await countingService(() => answer);
    const results: ProxyResult[] = [];
    const url = await proxy(service.url, { rateLimit: false, minPollIntervalMs: 0, onResult: (result) => void results.push(result) });
    const jar = new CookieJar();
    await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
    const polled = await send(`${url}/smartid/status/${TOKEN}.json`, 'POST', {}, false, { jar });
    assert.deepEqual(polled.json, { status: 'ok', token: TOKEN, control_code: '1234', name: 'MARY', person: { name: 'MARY', checks: [{ ok: true }] } });
    assert.equal(results.length, 1);
    assert.deepEqual(results[0]!.raw, answer);
    const exposed = await proxy(service.url, { rateLimit: false, exposeScreening: true });
    assert.deepEqual((await send(`${exposed}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: null })).json, answer);
  });
});

describe('proxy: what counts against a person, and how often a session may be polled', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack.close();
  });

  it('does not charge a person for starts the service refused (no push was sent), but charges the visitor', async () => {
    const url = await proxy(stack.sandboxUrl, { rateLimit: { perVisitor: { limit: 8, windowMs: 600_000 }, perPerson: { limit: 2, windowMs: 600_000 } } });
    const jar = new CookieJar();
    // an Estonian personal code with Latvia as its country: the service refuses the format (40005), no push
    for (let i = 0; i < 6; i++) {
      const refused = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'LV' }, false, { jar: new CookieJar() });
      assert.equal(refused.json.error_code, 40005);
    }
    const first = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
    const second = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
    const third = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
    assert.deepEqual([first.json.status, second.json.status, third.status], ['ok', 'ok', 429], 'two real starts count, the refused ones did not');
    // the visitor's own refused starts still count against the visitor
    const visitor = new CookieJar();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++)
      statuses.push((await send(`${url}/smartid/login.json`, 'POST', { code: '30303039914', country: 'LV' }, false, { jar: visitor })).status);
    assert.deepEqual(statuses.slice(-1), [429]);
  });

  it('answers a poll sooner than minPollIntervalMs after the last one "waiting" without asking the service', async () => {
    const clock = new TestClock();
    const service = await countingService((path) =>
      path.includes('/status/') ? { status: 'waiting' } : { status: 'ok', token: '0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01', control_code: '1234' },
    );
    const url = await proxy(service.url, { now: clock.now, minPollIntervalMs: 500 });
    const jar = new CookieJar();
    await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
    const poll = () => send(`${url}/smartid/status/0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01.json`, 'POST', {}, false, { jar });
    const burst = await Promise.all(Array.from({ length: 20 }, poll));
    assert.ok(burst.every((answer) => answer.status === 200 && answer.json.status === 'waiting'));
    assert.equal(service.seen.filter((path) => path.includes('/status/')).length, 1, 'one of twenty forwarded');
    clock.advance(499);
    await poll();
    assert.equal(service.seen.filter((path) => path.includes('/status/')).length, 1);
    clock.advance(1);
    await poll();
    assert.equal(service.seen.filter((path) => path.includes('/status/')).length, 2);
    // another visitor's polls of the token are refused before the floor, and do not use it up
    const other = await send(`${url}/smartid/status/0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01.json`, 'POST', {}, false, { jar: new CookieJar() });
    assert.equal(other.json.error_code, 40402);
    // a session removed at the service is gone at the proxy too: its next poll is 40402, unforwarded, floor or not
    const removed = await send(`${url}/api/smartid/session/0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01`, 'DELETE', {}, false, { jar });
    assert.equal(removed.json.status, 'ok');
    const afterRemoval = await poll();
    assert.deepEqual([afterRemoval.status, afterRemoval.json.error_code], [404, 40402]);
    assert.equal(service.seen.filter((path) => path.includes('/status/')).length, 2);
  });
});

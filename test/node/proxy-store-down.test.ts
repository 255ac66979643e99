import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import { createFetchProxyHandler, createProxyHandler, MemoryStore, type ProxyStore } from '../../src/proxy/index.js';
import { RedisStore } from '../../src/proxy/redis.js';
import { guardStore, StoreUnavailable } from '../../src/proxy/guarded-store.js';
import { createSetup } from '../../src/proxy/steps/setup.js';
import { EsignClient, EsignError } from '../../src/client/index.js';
import { ACCESS_TOKEN, CookieJar, send, serverPool, until } from './harness.js';
import { startRedis, type RedisServer } from './redis-server.js';

// The proxy's store fails closed: with its real redis-server stopped during a run, every request
// whose binding or limit cannot be checked is refused with 503 and forwarded nowhere; health()
// says so; once the server is back the same client finds it and requests pass again.

const serve = serverPool();
let redis: RedisServer;
const clients: { destroy(): void }[] = [];
const TOKEN = '0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01';

before(async () => {
  redis = await startRedis();
});
after(async () => {
  for (const client of clients) client.destroy();
  await redis.stop();
});

/** A service that starts every session, answers every poll with a result, and records what reached it. */
async function countingService() {
  const seen: string[] = [];
  const url = await serve((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(req.url ?? '');
      const body = req.url!.includes('/status/')
        ? { status: 'ok', state: 'COMPLETE', result: 'OK', person: { name: 'OK', surname: 'TESTNUMBER', code: '40504040001' } }
        : { status: 'ok', token: TOKEN, control_code: '1234' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  return { url, seen };
}

async function redisStore(): Promise<ProxyStore> {
  // reconnecting every 50 ms, queueing commands meanwhile (node-redis's default): only the
  // proxy's own time limit keeps a request from waiting for the server
  const client = createClient({ socket: { path: redis.socket, tls: false, reconnectStrategy: () => 50 } });
  client.on('error', () => undefined);
  clients.push(client);
  await client.connect();
  return new RedisStore(client, { prefix: 'down:' });
}

describe('proxy: a busy node is not a dead store', () => {
  it("answers a store call whose answer came in time while the node's own event loop was busy past the limit; a store that truly does not answer still fails", async () => {
    const guarded = guardStore(await redisStore(), 300);
    await guarded.set('busy:key', 'kept', 60_000);
    // the node busy for twice the limit right after asking: the answer waits in the socket, the timer is due
    const asked = guarded.get('busy:key');
    const until = performance.now() + 600;
    while (performance.now() < until) {
      // the event loop held, as a burst of logins holds it
    }
    assert.equal(await asked, 'kept', 'the store answered at once: the late timer is the node, not the store');
    // a server frozen (SIGSTOP): no answer at all, refused after the limit
    process.kill(redis.pid()!, 'SIGSTOP');
    try {
      await assert.rejects(
        guarded.get('busy:key'),
        (error: unknown) => error instanceof StoreUnavailable && /no answer within 300 ms/.test(String(error.cause)),
      );
    } finally {
      process.kill(redis.pid()!, 'SIGCONT');
    }
    assert.equal(await guarded.get('busy:key'), 'kept', 'and found again');
  });
});

describe("proxy: the store's own calls", () => {
  it('takes a value once, from memory and through the guard; a store that hangs on take fails in its time; the memory itself is not guarded, a wrapper of it is', async () => {
    const memory = new MemoryStore();
    await memory.set('login:x', 'kept', 60_000);
    assert.deepEqual(await Promise.all([memory.take('login:x'), memory.take('login:x')]), ['kept', null], 'one take of two');
    assert.equal(memory.size, 0, 'and nothing left');
    const guarded = guardStore(memory, 200);
    await guarded.set('login:y', 'kept', 60_000);
    assert.equal(await guarded.take!('login:y'), 'kept');
    assert.equal(await guarded.take!('login:y'), null);
    const hanging: ProxyStore = new Proxy(new MemoryStore(), {
      get: (target, name) => (name === 'take' ? () => new Promise(() => undefined) : Reflect.get(target, name)),
    });
    await assert.rejects(guardStore(hanging, 100).take!('login:z'), (error: unknown) => error instanceof StoreUnavailable && error.operation === 'take');
    assert.equal(
      guardStore({ ...memory, get: memory.get.bind(memory) } as unknown as ProxyStore, 100).take,
      undefined,
      'a store without take has none guarded',
    );
    const options = { baseUrl: 'http://127.0.0.1:9', accessToken: ACCESS_TOKEN };
    assert.equal(createSetup({ ...options, store: memory }).store, memory, "the process's own memory, as it is");
    assert.notEqual(createSetup({ ...options, store: hanging }).store, hanging, 'a wrapper of it, guarded');
  });
});

describe('proxy: a store that fails closed', () => {
  it('answers 503 store-unavailable while redis-server is stopped, forwards nothing, logs no secret, and recovers by itself', async () => {
    const service = await countingService();
    const logged: string[] = [];
    const events = { results: 0 };
    const options = {
      baseUrl: service.url,
      accessToken: ACCESS_TOKEN,
      store: await redisStore(),
      storeTimeoutMs: 300,
      minPollIntervalMs: 0,
      log: (line: string) => logged.push(line),
      onResult: () => void events.results++,
    };
    const handler = createProxyHandler(options);
    const url = await serve(handler);
    const visitor = new CookieJar();
    const start = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: visitor });
    assert.equal(start.json.token, TOKEN);
    assert.deepEqual(await handler.health(), { ok: true, store: 'ok' });
    assert.equal(service.seen.length, 1);

    await redis.pause();
    const down = [
      await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: visitor }),
      await send(`${url}/smartid/status/${TOKEN}.json`, 'POST', {}, false, { jar: visitor }),
      await send(`${url}/mobile/login.json`, 'POST', { code: '40504040001', phone: '+37255555555' }, false, { jar: new CookieJar() }),
    ];
    for (const answer of down) {
      assert.equal(answer.status, 503);
      assert.equal(answer.json.proxy_error, 'store-unavailable');
      assert.equal(answer.headers.get('retry-after'), '5');
      assert.equal(answer.json.retry_after, 5);
    }
    assert.equal(service.seen.length, 1, 'nothing forwarded while the store was away');
    assert.equal(events.results, 0);
    assert.deepEqual(await handler.health(), { ok: false, store: 'unavailable' });
    assert.ok(logged.length >= 3 && logged.every((line) => /store failed/.test(line)), logged.join('\n'));
    assert.ok(!logged.join('\n').includes(ACCESS_TOKEN) && !logged.join('\n').includes('40504040001'), 'no secret, no code in the log');

    await redis.resume();
    await until(async () => (await handler.health()).ok, 'the store healthy again', 5_000, 50);
    assert.deepEqual(await handler.health(), { ok: true, store: 'ok' });
    // the server came back empty: the earlier binding is gone, so its poll is refused as not this visitor's
    const lost = await send(`${url}/smartid/status/${TOKEN}.json`, 'POST', {}, false, { jar: visitor });
    assert.equal(lost.json.error_code, 40402);
    const again = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: visitor });
    assert.equal(again.status, 200);
    const poll = await send(`${url}/smartid/status/${TOKEN}.json`, 'POST', {}, false, { jar: visitor });
    assert.equal(poll.json.state, 'COMPLETE');
    assert.equal(events.results, 1);
    assert.equal(service.seen.length, 3, 'forwarded again: the new start and its poll');
  });

  it('a store that hangs is a store that failed: the fetch handler answers 503 in its time limit and health() says so', async () => {
    const service = await countingService();
    const hanging: ProxyStore = new Proxy(new MemoryStore(), {
      get: (target, name) => (name === 'increment' || name === 'get' ? () => new Promise(() => undefined) : Reflect.get(target, name)),
    });
    const handler = createFetchProxyHandler({ baseUrl: service.url, accessToken: ACCESS_TOKEN, store: hanging, storeTimeoutMs: 200, log: () => undefined });
    const answer = await handler(
      new Request('https://proxy.test/smartid/login.json', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://proxy.test' },
        body: JSON.stringify({ code: '40504040001', country: 'EE' }),
      }),
    );
    assert.equal(answer.status, 503);
    assert.equal(((await answer.json()) as { proxy_error: string }).proxy_error, 'store-unavailable');
    assert.deepEqual(service.seen, []);
    assert.deepEqual(await handler.health(), { ok: false, store: 'unavailable' });
  });

  it("the widget's client reads the 503 as the service being unreachable for a moment: retryable, and a poll goes on through it", async () => {
    const answers = [503];
    const client = new EsignClient({
      endpoint: '/esign',
      fetch: async () => {
        const status = answers.shift() ?? 200;
        const body =
          status === 503
            ? { status: 'error', message: 'down', proxy_error: 'store-unavailable', retry_after: 5 }
            : { status: 'ok', state: 'COMPLETE', result: 'OK', person: { name: 'OK', surname: 'TESTNUMBER' } };
        return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      },
    });
    const failed = await client.smartIdLogin({ code: '40504040001', country: 'EE' }).catch((error: unknown) => error);
    assert.ok(failed instanceof EsignError);
    assert.deepEqual([failed.code, failed.retryable, failed.retryAfter], ['service-unreachable', true, 5]);
    answers.push(503, 503, 200);
    const result = await client.waitForResult('smartid', 'login', TOKEN, { interval: 10 });
    assert.equal((result as unknown as { state: string }).state, 'COMPLETE');
    assert.deepEqual(answers, [], 'two 503 polls, then the result');
  });

  it('removes at the service a session it started whose binding could not be stored (the store lost between the forward and the binding), and answers 503', async () => {
    const seen: string[] = [];
    // the service side: the store goes away while the service starts the session
    const service = await serve((req, res) => {
      req.resume();
      req.on('end', async () => {
        seen.push(`${req.method} ${req.url}`);
        if (req.url!.endsWith('/login.json')) await redis.pause();
        const body = req.method === 'DELETE' ? { status: 'ok' } : { status: 'ok', token: TOKEN, control_code: '1234' };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    const logged: string[] = [];
    const url = await serve(
      createProxyHandler({
        baseUrl: service,
        accessToken: ACCESS_TOKEN,
        store: await redisStore(),
        storeTimeoutMs: 300,
        rateLimit: false,
        log: (line) => logged.push(line),
      }),
    );
    try {
      const start = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: new CookieJar() });
      assert.deepEqual([start.status, start.json.proxy_error, start.headers.get('retry-after')], [503, 'store-unavailable', '5']);
      assert.equal(start.json.token, undefined, 'no token the browser could poll');
      assert.deepEqual(seen, ['POST /smartid/login.json', `DELETE /api/smartid/session/${TOKEN}`], 'the session removed at the service');
      assert.ok(
        logged.some((line) => /could not be bound \(the store failed\): removed at the service/.test(line)),
        logged.join('\n'),
      );
      assert.ok(!logged.join('\n').includes(ACCESS_TOKEN));
    } finally {
      await redis.resume();
    }
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createClient } from 'redis';
import { createProxyHandler, type ProxyResult } from '../../src/proxy/index.js';
import { RedisStore, type RedisClientLike } from '../../src/proxy/redis.js';
import { ACCESS_TOKEN, CookieJar, listen, send, startStack, type Stack } from './harness.js';
import { startRedis, type RedisServer } from './redis-server.js';

// Two proxy nodes sharing one real redis-server (Debian's), started on a Unix socket of its own.

let stack: Stack;
let redis: RedisServer;
const clients: { quit(): Promise<unknown> }[] = [];
const servers: Server[] = [];

before(async () => {
  stack = await startStack();
  redis = await startRedis();
});

after(async () => {
  for (const client of clients) await client.quit().catch(() => undefined);
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await stack.close();
  await redis.stop();
});

async function node(options: { onResult?: (result: ProxyResult) => void; perVisitor?: number } = {}): Promise<string> {
  const client = createClient({ socket: { path: redis.socket, tls: false } });
  clients.push(client);
  await client.connect();
  const handler = createProxyHandler({
    baseUrl: stack.sandboxUrl,
    accessToken: ACCESS_TOKEN,
    store: new RedisStore(client as unknown as RedisClientLike, { prefix: 'test:' }),
    rateLimit: options.perVisitor ? { perVisitor: { limit: options.perVisitor, windowMs: 60_000 }, perPerson: false } : false,
    minPollIntervalMs: 0,
    ...(options.onResult ? { onResult: options.onResult } : {}),
  });
  const server = createServer(handler as RequestListener);
  servers.push(server);
  return listen(server);
}

describe('proxy: a Redis store shared by two nodes', () => {
  it('keeps the binding across nodes: the visitor polls on the other node, another visitor is refused there', async () => {
    const results: ProxyResult[] = [];
    const a = await node({ onResult: (r) => void results.push(r) });
    const b = await node({ onResult: (r) => void results.push(r) });
    const visitor = new CookieJar();
    const start = await send(`${a}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: visitor });
    assert.equal(start.json.status, 'ok');
    // the cookie was set by node a; node b is another host:port, so the jar's cookie is carried over by hand
    const cookie = visitor.header(a);
    const foreign = await send(`${b}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: new CookieJar() });
    assert.equal(foreign.json.error_code, 40402);
    stack.clock.advance(60_000);
    const own = await send(`${b}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: null, headers: { cookie } });
    assert.equal(own.json.status, 'ok');
    // the login gave the browser a new visitor id (minted on node b, known on node a)
    const rotated = own.headers.getSetCookie()[0]!.split(';')[0]!;
    const again = await send(`${a}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: null, headers: { cookie: rotated } });
    assert.equal(again.json.status, 'ok');
    assert.equal(results.length, 1, 'one result across both nodes');
  });

  it('counts the rate limit across nodes', async () => {
    const a = await node({ perVisitor: 2 });
    const b = await node({ perVisitor: 2 });
    const first = await send(`${a}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: new CookieJar() });
    const cookie = first.headers.getSetCookie()[0]!.split(';')[0]!;
    const second = await send(`${b}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: null, headers: { cookie } });
    const third = await send(`${a}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: null, headers: { cookie } });
    assert.deepEqual([first.status, second.status, third.status], [200, 200, 429]);
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
  });

  it("counts a window's first start in one command, a later one with INCR (at once on the node that counted it): the window never extended, one that ended since begun again, a lost expiry given back at the limit", async () => {
    const client = createClient({ socket: { path: redis.socket, tls: false } });
    clients.push(client);
    await client.connect();
    /** A node's store, the commands it sends; `expireAfterFoundSet`: between a SET that found the key and the next command, the key expires (as a window's end may fall just then). */
    const node = () => {
      const sent: string[] = [];
      const flags = { expireAfterFoundSet: false };
      const watched = {
        async sendCommand(args: string[]): Promise<unknown> {
          sent.push(args[0]!);
          const answer = await client.sendCommand(args);
          if (flags.expireAfterFoundSet && args[0] === 'SET' && answer === null) await client.del(args[1]!);
          return answer;
        },
      };
      return { store: new RedisStore(watched, { prefix: 'count:' }), sent, flags };
    };
    const key = 'count:limit:person:p';
    const one = node();
    assert.deepEqual(await one.store.increment('limit:person:p', 60_000, 4), { count: 1, resetInMs: 60_000 });
    assert.deepEqual(one.sent.splice(0), ['SET'], 'the first start: one command');
    const ttl = await client.pTTL(key);
    assert.ok(ttl > 55_000 && ttl <= 60_000, `a window of its own: ${ttl} ms`);
    assert.deepEqual(
      await one.store.increment('limit:person:p', 60_000, 4),
      { count: 2, resetInMs: 60_000 },
      'below the limit: the whole window said, not asked',
    );
    assert.deepEqual(one.sent.splice(0), ['INCR'], 'the node that counted it counts at once');
    const other = node();
    assert.deepEqual(await other.store.increment('limit:person:p', 60_000, 4), { count: 3, resetInMs: 60_000 });
    assert.deepEqual(other.sent.splice(0), ['SET', 'INCR'], 'another node looks first');
    // the window left as it is: a counter with 5 s left says 5 s from the limit on, and keeps them
    await client.pExpire(key, 5_000);
    const fourth = await one.store.increment('limit:person:p', 60_000, 4);
    assert.equal(fourth.count, 4);
    assert.deepEqual(one.sent.splice(0), ['INCR', 'PTTL'], 'at the limit its time left is asked');
    assert.ok(fourth.resetInMs > 0 && fourth.resetInMs <= 5_000, `the time left: ${fourth.resetInMs} ms`);
    assert.ok((await client.pTTL(key)) <= 5_000, 'not extended');
    assert.equal(await client.get(key), '4');
    const third = node();
    third.flags.expireAfterFoundSet = true;
    assert.deepEqual(await third.store.increment('limit:person:p', 60_000, 4), { count: 1, resetInMs: 60_000 }, 'expired between: a new window');
    assert.deepEqual(third.sent, ['SET', 'INCR', 'PEXPIRE']);
    const renewed = await client.pTTL(key);
    assert.ok(renewed > 55_000 && renewed <= 60_000, `the new window expires: ${renewed} ms`);
    // a window that ended sooner than the node that counted it knew: begun again, with its expiry
    await client.del(key);
    assert.deepEqual(await one.store.increment('limit:person:p', 60_000, 4), { count: 1, resetInMs: 60_000 });
    assert.deepEqual(one.sent.splice(0), ['INCR', 'PEXPIRE']);
    const again = await client.pTTL(key);
    assert.ok(again > 55_000 && again <= 60_000, `the window begun again expires: ${again} ms`);
    // a count whose expiry was lost (its node gone between INCR and PEXPIRE): given one at the limit
    await client.set(key, '3');
    assert.equal(await client.pTTL(key), -1);
    assert.deepEqual(await one.store.increment('limit:person:p', 60_000, 4), { count: 4, resetInMs: 60_000 });
    assert.deepEqual(one.sent.splice(0), ['INCR', 'PTTL', 'PEXPIRE']);
    const given = await client.pTTL(key);
    assert.ok(given > 55_000 && given <= 60_000, `the lost expiry given back: ${given} ms`);
    await client.del(key);
  });

  it('keeps keys with an expiry and under its prefix', async () => {
    const client = createClient({ socket: { path: redis.socket, tls: false } });
    clients.push(client);
    await client.connect();
    const keys = await client.keys('*');
    assert.ok(keys.length > 0);
    for (const key of keys) {
      assert.match(key, /^test:(bind|limit|result|poll):/);
      assert.ok((await client.pTTL(key)) > 0, `${key} expires`);
    }
    // the sessions above finished: their binding and done mark stay only what a late poll needs
    const finished = keys.filter((key) => /^test:result:[^:]+$/.test(key));
    assert.ok(finished.length > 0);
    for (const key of [...finished, ...finished.map((key) => key.replace(':result:', ':bind:'))]) {
      const ttl = await client.pTTL(key);
      assert.ok(ttl > 0 && ttl <= 5 * 60_000, `${key} lives ${ttl} ms`);
    }
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { createProxyHandler, type ProxyResult } from '../../src/proxy/index.js';
import { RedisStore, type RedisClientLike } from '../../src/proxy/redis.js';
import { CookieJar, send, serverPool } from './harness.js';
import { startRedis, startRedisCluster, type RedisCluster, type RedisServer } from './redis-server.js';

// The Redis store with both maintained clients, on one server and on a real Redis Cluster (three
// masters, three replicas): two proxy nodes on one store keep every promise.

const TOKEN = 'redis-clients-token';
const serve = serverPool();

/** Six ports on loopback whose cluster bus ports (each + 10000) are free too. */
async function clusterPorts(): Promise<number[]> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 8_000);
    const ports = [0, 1, 2, 3, 4, 5].map((i) => base + i);
    const all = await Promise.all(ports.flatMap((port) => [free(port), free(port + 10_000)]));
    if (all.every(Boolean)) return ports;
  }
}

let sandbox: RunningSandbox;
let single: RedisServer;
let cluster: RedisCluster;
const closers: (() => Promise<unknown>)[] = [];
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 0 });
  single = await startRedis();
  cluster = await startRedisCluster(await clusterPorts());
});
after(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await cluster?.stop();
  await single?.stop();
  await sandbox?.close();
});

const CLIENTS: [string, () => Promise<RedisClientLike>][] = [
  [
    'node-redis createClient',
    async () => {
      const client = createClient({ socket: { path: single.socket, tls: false } });
      await client.connect();
      closers.push(() => client.quit());
      return client;
    },
  ],
  [
    'node-redis createCluster',
    async () => {
      const client = createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${cluster.ports[0]}` }] });
      await client.connect();
      closers.push(() => client.close());
      return client;
    },
  ],
  [
    'ioredis new Redis',
    async () => {
      const client = new Redis({ path: single.socket, lazyConnect: true });
      await client.connect();
      closers.push(() => client.quit());
      return client;
    },
  ],
  [
    'ioredis new Cluster',
    async () => {
      const client = new Cluster([{ host: '127.0.0.1', port: cluster.ports[0]! }], { lazyConnect: true });
      await client.connect();
      closers.push(() => client.quit());
      return client;
    },
  ],
];

describe('the Redis store with each client, on one server and on a Redis Cluster', () => {
  for (const [name, connect] of CLIENTS) {
    it(`${name}: two proxy nodes on one store bind, limit and hand over a login once, before its ok`, async () => {
      const store = new RedisStore(await connect(), { prefix: `esign-${name.replace(/\W+/g, '-')}:` });
      const results: ProxyResult[] = [];
      const node = () =>
        serve(
          createProxyHandler({
            baseUrl: sandbox.url,
            accessToken: TOKEN,
            store,
            minPollIntervalMs: 0,
            rateLimit: { perVisitor: false, perPerson: { limit: 2, windowMs: 60_000 } },
            onResult: (result) => void results.push(result),
          }),
        );
      const [a, b] = [await node(), await node()];
      const jar = new CookieJar();
      const start = await send(`${a}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
      assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
      // the other node knows the session's visitor, and no one else may poll it
      const cookie = jar.header(a);
      const stranger = await send(`${b}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: new CookieJar() });
      assert.equal(stranger.json.error_code, 40402);
      const done = await send(`${b}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: null, headers: { cookie } });
      assert.equal(done.json.status, 'ok');
      assert.equal(results.length, 1, 'onResult ran before the ok');
      assert.equal(results[0]!.kind === 'login' && results[0]!.result.surname, 'TESTNUMBER');
      // polled again on the first node, with the new visitor id the login gave the browser: the result, without another run
      const rotated = done.headers.getSetCookie()[0]!.split(';')[0]!;
      assert.notEqual(rotated, cookie);
      assert.equal(
        (await send(`${a}/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar: null, headers: { cookie: rotated } })).json.status,
        'ok',
      );
      assert.equal(results.length, 1);
      // the person's limit counts starts on both nodes
      const statuses = [];
      for (const url of [b, a])
        statuses.push((await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: new CookieJar() })).status);
      assert.deepEqual(statuses, [200, 429]);
    });
  }

  for (const [name, connect] of CLIENTS) {
    it(`${name}: take gives a value once, to one of two takes at once, and leaves nothing`, async () => {
      const store = new RedisStore(await connect(), { prefix: `esign-take-${name.replace(/\W+/g, '-')}:` });
      // keys of different slots of a cluster: each take is about its own key
      for (const key of ['login:a', 'login:b', 'login:c']) {
        await store.set(key, `kept ${key}`, 60_000);
        const both = await Promise.all([store.take(key), store.take(key)]);
        assert.deepEqual(
          both.filter((value) => value !== null),
          [`kept ${key}`],
          `${key}: one take of two`,
        );
        assert.equal(await store.get(key), null, `${key}: gone`);
        assert.equal(await store.take(key), null, `${key}: nothing left to take`);
      }
    });

    it(`${name}: a counter counts from its window's first start, ten at once each once, and says the time left from its limit`, async () => {
      const store = new RedisStore(await connect(), { prefix: `esign-count-${name.replace(/\W+/g, '-')}:` });
      for (const key of ['limit:visitor:a', 'limit:person:b']) {
        const counts = await Promise.all(Array.from({ length: 10 }, () => store.increment(key, 60_000, 10)));
        assert.deepEqual(
          counts.map(({ count }) => count).sort((a, b) => a - b),
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
          `${key}: each start counted once`,
        );
        const last = await store.increment(key, 60_000, 10);
        assert.equal(last.count, 11);
        assert.ok(last.resetInMs > 0 && last.resetInMs <= 60_000, `${key}: ${last.resetInMs} ms left`);
      }
    });
  }
});

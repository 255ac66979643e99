/*
 * What one waiting session costs a proxy node and Redis: the proxy's heap with the memory store,
 * and Redis's memory and keys with the Redis store. The sandbox runs in a process of its own (its
 * sessions are not the proxy's), its people never answer during the run, and every start comes
 * from a new visitor. Run with `npm run bench:capacity`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { createProxyHandler, MemoryStore, type ProxyStore } from '../src/proxy/index.js';
import { RedisStore } from '../src/proxy/redis.js';
import { startRedis } from '../test/node/redis-server.js';

const ACCESS_TOKEN = 'capacity-bench-token';
const SESSIONS = Number(process.env.CAPACITY_SESSIONS ?? 4_000);
const AT_ONCE = 50;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:capacity)');

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

async function startSandbox(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['sandbox/bin/esign-sandbox.js', '--port', String(port), '--access-token', ACCESS_TOKEN, '--answer-after', '3600000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  while (!output.includes(String(port))) output += ((await once(child.stdout, 'data')) as [string])[0];
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function serveProxy(sandboxUrl: string, store: ProxyStore): Promise<{ url: string; server: Server }> {
  const server = createServer(createProxyHandler({ baseUrl: sandboxUrl, accessToken: ACCESS_TOKEN, store, rateLimit: false, openTelemetry: false }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Starts `count` Smart-ID logins, each from a new visitor; resolves once every one is waiting. */
async function startSessions(proxyUrl: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += AT_ONCE) {
    await Promise.all(
      Array.from({ length: Math.min(AT_ONCE, count - done) }, async () => {
        const answer = await fetch(`${proxyUrl}/smartid/login.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: proxyUrl },
          body: JSON.stringify({ code: '40504040001', country: 'EE' }),
        });
        if (answer.status !== 200) throw new Error(`a start answered ${answer.status}: ${await answer.text()}`);
      }),
    );
  }
}

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

const sandbox = await startSandbox();
const rows: string[] = [];
try {
  // the memory store: the proxy's heap per waiting session
  const memory = await serveProxy(sandbox.url, new MemoryStore());
  await startSessions(memory.url, 500); // warm: the code compiled, the pools filled
  const before = heap();
  await startSessions(memory.url, SESSIONS);
  const after = heap();
  memory.server.close();
  rows.push(`| memory store: the proxy's heap | ${Math.round((after - before) / SESSIONS)} B a waiting session |`);

  // the Redis store: Redis's memory and keys per waiting session
  const redis = await startRedis();
  const client = createClient({ socket: { path: redis.socket, tls: false } });
  await client.connect();
  try {
    const proxied = await serveProxy(sandbox.url, new RedisStore(client, { prefix: 'capacity:' }));
    await startSessions(proxied.url, 100);
    await client.flushAll();
    const used = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
    const usedBefore = await used();
    await startSessions(proxied.url, SESSIONS);
    const usedAfter = await used();
    const keys = await client.dbSize();
    const sample = (await client.keys('capacity:*')).slice(0, 50);
    const ttls = await Promise.all(sample.map((key) => client.ttl(key)));
    proxied.server.close();
    rows.push(`| Redis store: Redis's used_memory | ${Math.round((usedAfter - usedBefore) / SESSIONS)} B a waiting session |`);
    rows.push(
      `| Redis store: keys | ${(keys / SESSIONS).toFixed(2)} a waiting session, every one with a time to live (${Math.min(...ttls)}–${Math.max(...ttls)} s in a sample of ${sample.length}) |`,
    );
  } finally {
    await client.quit();
    await redis.stop();
  }
} finally {
  sandbox.stop();
}
console.log(`| ${SESSIONS} waiting sessions | measured |\n|---|---|\n${rows.join('\n')}`);

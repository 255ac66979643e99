import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { browserOf, esignProxyHarness, BIN } from './esign-proxy-harness.js';
import { freePort } from './processes.js';
import { until } from './wait.js';

// esign-proxy as operators run it: a Redis that is not there yet at start, health checks under
// the prefix, the start limits set, a key prefix per site, plain http to another machine refused,
// and every line for the operator JSON that names its cause.

const TOKEN = 'operations-sandbox-token';
const { esignProxy, redisOnPort } = esignProxyHarness();
let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 0 });
});
after(async () => {
  await sandbox?.close();
});

const LOGIN = { code: '40504040001', country: 'EE' };
const redisKeys = (port: number) =>
  execFileSync('redis-cli', ['-p', String(port), '--scan'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean);

describe('esign-proxy in operation', () => {
  it('a Redis away at start: it listens at once, readiness 503 (under the prefix too) with a line naming the address and the cause, and serves once Redis comes', async () => {
    const redisPort = await freePort();
    const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_REDIS_URL: `redis://127.0.0.1:${redisPort}` });
    for (const path of ['/readyz', '/esign/readyz']) {
      const ready = await fetch(`${proxy.url}${path}`);
      assert.deepEqual([ready.status, await ready.json()], [503, { ok: false, store: 'unavailable' }], path);
    }
    for (const path of ['/healthz', '/esign/healthz']) assert.equal((await fetch(`${proxy.url}${path}`)).status, 200, `${path}: alive all the same`);
    const refused = await browserOf(`${proxy.url}/esign`).post('/smartid/login.json', LOGIN);
    assert.deepEqual([refused.status, refused.json['proxy_error']], [503, 'store-unavailable'], 'fails closed');
    await until(
      () => proxy.lines().some((l) => l['level'] === 'error' && l['url'] === `redis://127.0.0.1:${redisPort}` && l['code'] === 'ECONNREFUSED'),
      `a line naming Redis and the cause: ${proxy.stderr()}`,
    );
    await redisOnPort(redisPort);
    await until(async () => (await fetch(`${proxy.url}/esign/readyz`)).status === 200, 'ready once Redis is there', 15_000, 100);
    assert.ok(
      proxy.lines().some((l) => l['level'] === 'info' && String(l['msg']).includes('answers again')),
      proxy.stderr(),
    );
    const started = await browserOf(`${proxy.url}/esign`).post('/smartid/login.json', LOGIN);
    assert.equal(started.json['status'], 'ok');
    // every operator line is JSON with a level; the token in none
    assert.ok(proxy.lines().every((l) => ['info', 'warn', 'error'].includes(String(l['level'])) && typeof l['msg'] === 'string'));
    assert.ok(!proxy.stderr().includes(TOKEN) && !proxy.stdout().includes(TOKEN));
  });

  it('two sites on one Redis share no key: each has its prefix (a digest of its token, or ESIGN_REDIS_PREFIX)', async () => {
    const redis = await redisOnPort();
    const port = Number(new URL(redis.url).port);
    const first = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_REDIS_URL: redis.url });
    const second = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_REDIS_URL: redis.url, ESIGN_REDIS_PREFIX: 'shop-two:' });
    assert.equal((await browserOf(`${first.url}/esign`).post('/smartid/login.json', LOGIN)).json['status'], 'ok');
    assert.equal((await browserOf(`${second.url}/esign`).post('/smartid/login.json', LOGIN)).json['status'], 'ok');
    const keys = redisKeys(port);
    const prefixes = new Set(keys.map((key) => key.split(':').slice(0, -2).join(':') || key.split(':')[0]));
    assert.ok(
      keys.some((key) => /^esign-proxy:[0-9a-f]{12}:/.test(key)),
      keys.join(' '),
    );
    assert.ok(
      keys.some((key) => key.startsWith('shop-two:')),
      keys.join(' '),
    );
    assert.ok(
      keys.every((key) => /^esign-proxy:[0-9a-f]{12}:/.test(key) || key.startsWith('shop-two:')),
      keys.join(' '),
    );
    assert.ok(prefixes.size >= 2);
  });

  it('ESIGN_RATE_LIMIT sets the start limits; the refusal names the limit it met', async () => {
    const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_RATE_LIMIT: '2,100,600' });
    const browser = browserOf(`${proxy.url}/esign`);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await browser.post('/smartid/login.json', LOGIN)).status);
    assert.deepEqual(statuses, [200, 200, 429]);
    await until(() => proxy.stdout().includes('"refused"'), 'the refused event');
    const refused = proxy
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; reason?: string; limit?: string })
      .find((e) => e.type === 'refused');
    assert.deepEqual([refused?.reason, refused?.limit], ['rate-limited', 'visitor']);
  });

  it('refuses plain http to another machine for the webhook or the signer URL unless told, and a bad limit, by name', async () => {
    const run = (env: Record<string, string>) => {
      const out = execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
      assert.match(out, /ESIGN_ALLOW_PLAIN_HTTP/);
      return new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN], {
          env: { ...process.env, ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, PORT: '0', ...env },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          if (stderr.includes('listening on')) child.kill();
        });
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    };
    const secret = `whsec_${Buffer.from('a-test-webhook-secret-of-32-bytes!!').toString('base64')}`;
    for (const name of ['ESIGN_WEBHOOK_URL', 'ESIGN_SIGNER_URL']) {
      const refused = await run({ [name]: 'http://192.0.2.10/esign-webhook', ESIGN_WEBHOOK_SECRET: secret });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(JSON.parse(refused.stderr.trim()).msg as string, new RegExp(`${name} \\(--[a-z-]+\\) is plain http:// to another machine`));
      const told = await run({ [name]: 'http://192.0.2.10/esign-webhook', ESIGN_WEBHOOK_SECRET: secret, ESIGN_ALLOW_PLAIN_HTTP: '1' });
      assert.match(told.stderr, /listening on/, 'allowed when the operator says so');
      const local = await run({ [name]: 'http://127.0.0.1:9/esign-webhook', ESIGN_WEBHOOK_SECRET: secret });
      assert.match(local.stderr, /listening on/, 'http on this machine is fine');
    }
    const limit = await run({ ESIGN_RATE_LIMIT: '12,six,600' });
    assert.equal(limit.code, 2);
    assert.match(limit.stderr, /ESIGN_RATE_LIMIT \(--rate-limit\) takes/);
  });
});

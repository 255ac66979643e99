import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkProxy, type CheckRow } from 'esign-sandbox';
import { SETTINGS } from '../../src/server/settings.js';
import { freePort, startedByThisFile } from './processes.js';

// `esign-proxy`, the proxy as a server of its own, run as a host runs it (the built bin, settings
// in its environment): check-proxy passes against it, with Redis by a URL taken away and back;
// health, readiness, the widget's files, events on stdout, a bad setting said by its name, and a
// SIGTERM that lets a request in flight finish.

const { children, servers } = startedByThisFile();
const BIN = new URL('../../bin/esign-proxy.js', import.meta.url).pathname;

interface Running {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

async function esignProxy(env: Record<string, string>, args: string[] = []): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, PORT: String(port), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  for (let i = 0; i < 100 && !/listening on/.test(stderr); i++) {
    if (child.exitCode !== null) assert.fail(`esign-proxy exited: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.match(stderr, /esign-proxy listening on http:\/\/127\.0\.0\.1:\d+\/esign\//);
  return { url: `http://127.0.0.1:${port}`, child, stdout: () => stdout, stderr: () => stderr };
}

/** A redis-server of this test on a TCP port (the URL a host gives), and its process id. */
async function redisOnPort(): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(redis);
  let output = '';
  redis.stdout!.setEncoding('utf8');
  while (!/ready to accept connections/i.test(output)) {
    const [chunk] = (await Promise.race([once(redis.stdout!, 'data'), once(redis, 'exit').then(() => assert.fail('redis-server exited'))])) as [string];
    output += chunk;
  }
  return { url: `redis://127.0.0.1:${port}`, pid: redis.pid! };
}

const failing = (rows: CheckRow[]) => rows.filter((row) => !row.ok).map((row) => row.id);

describe('esign-proxy, the proxy as a server', () => {
  it('passes check-proxy on every row, its state in Redis by a URL taken away and given back; events are JSON lines on stdout', async () => {
    const redis = await redisOnPort();
    const port = await freePort();
    const token = `server-${port}-secret`;
    const proxy = await esignProxy({ ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_REDIS_URL: redis.url });
    const { rows } = await checkProxy({ proxyUrl: `${proxy.url}/esign`, port, accessToken: token, waitMs: 20_000, stopState: `kill -STOP ${redis.pid}`, startState: `kill -CONT ${redis.pid}` });
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((row) => !row.ok)));
    // the result hook is the host's, by a webhook (to come): until then, nothing to report
    assert.deepEqual(rows.filter((row) => row.skipped).map((row) => row.id), ['signer-gate', 'signer-country', 'result-first']);
    const events = proxy.stdout().trim().split('\n').map((line) => JSON.parse(line) as { type: string; reason?: string; failure?: string });
    assert.ok(events.some((e) => e.type === 'started') && events.some((e) => e.type === 'finished'), 'starts and ends');
    assert.ok(events.some((e) => e.type === 'refused' && e.reason === 'cross-site'));
    assert.ok(events.some((e) => e.type === 'failed' && e.failure === 'store'), 'the state taken away is a failed event');
    assert.ok(!proxy.stdout().includes(token) && !proxy.stderr().includes(token), 'the token in no line');
  });

  it('answers /healthz, /readyz by its state, and serves the widget\'s script-tag files under the prefix, nothing else of the disk', async () => {
    const redis = await redisOnPort();
    const proxy = await esignProxy({ ESIGN_BASE_URL: 'http://127.0.0.1:9', ESIGN_ACCESS_TOKEN: 'files-secret-token', ESIGN_REDIS_URL: redis.url });
    assert.deepEqual(await (await fetch(`${proxy.url}/healthz`)).json(), { ok: true });
    const ready = await fetch(`${proxy.url}/readyz`);
    assert.deepEqual([ready.status, await ready.json()], [200, { ok: true, store: 'ok' }]);
    process.kill(redis.pid, 'SIGSTOP');
    try {
      const away = await fetch(`${proxy.url}/readyz`);
      assert.deepEqual([away.status, await away.json()], [503, { ok: false, store: 'unavailable' }]);
      assert.equal((await fetch(`${proxy.url}/healthz`)).status, 200, 'alive all the same');
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    const script = await fetch(`${proxy.url}/esign/cdn/esign-identify.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(script.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await script.text(), /esign-identify/);
    for (const path of ['/esign/cdn/../package.json', '/esign/cdn/%2e%2e%2fpackage.json', '/esign/cdn/.integrity.json', '/esign/cdn/', '/package.json']) {
      const answer = await fetch(`${proxy.url}${path}`);
      assert.equal(answer.status, 404, path);
      assert.doesNotMatch(await answer.text(), /"name":\s*"esign-elements"/, path);
    }
  });

  it('stops at start with a sentence that names a bad setting, and lists every setting in --help', async () => {
    const run = (env: Record<string, string>, args: string[] = []) =>
      new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ESIGN_BASE_URL: '', ESIGN_ACCESS_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        let stdout = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.on('exit', (code) => resolve({ code, stderr, stdout }));
      });
    const good = { ESIGN_BASE_URL: 'http://127.0.0.1:9', ESIGN_ACCESS_TOKEN: 'a-good-secret' };
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{}, [], /ESIGN_BASE_URL \(--base-url\) is required/],
      [{ ESIGN_BASE_URL: 'ftp://x' }, [], /ESIGN_BASE_URL \(--base-url\) must be an http\(s\) address/],
      [{ ESIGN_BASE_URL: 'http://127.0.0.1:9', ESIGN_ACCESS_TOKEN: 'short' }, [], /ESIGN_ACCESS_TOKEN \(--access-token\) is required, 8 characters or more/],
      [{ ...good, PORT: 'eighty' }, [], /PORT \(--port\) must be a port number, not "eighty"/],
      [good, ['--port', '70000'], /PORT \(--port\) must be a port number/],
      [{ ...good, ESIGN_PREFIX: 'esign' }, [], /ESIGN_PREFIX \(--prefix\) must be a path such as \/esign/],
      [{ ...good, ESIGN_REDIS_URL: 'http://127.0.0.1:6379' }, [], /ESIGN_REDIS_URL \(--redis-url\) takes redis:\/\/ or rediss:\/\/ addresses/],
      [{ ...good, ESIGN_ALLOWED_ORIGINS: 'https://app.example/path' }, [], /ESIGN_ALLOWED_ORIGINS \(--allowed-origins\) lists origins/],
      [{ ...good, ESIGN_TRUST_PROXY: 'yes' }, [], /ESIGN_TRUST_PROXY \(--trust-proxy\) must be 1 or 0/],
      [good, ['--no-such-thing'], /--no-such-thing is no setting of esign-proxy/],
    ];
    for (const [env, args, said] of cases) {
      const { code, stderr } = await run(env, args);
      assert.equal(code, 2, stderr);
      assert.match(stderr, said);
      assert.doesNotMatch(stderr, /a-good-secret/);
    }
    const help = await run({}, ['--help']);
    assert.equal(help.code, 0);
    for (const setting of SETTINGS) {
      assert.ok(help.stdout.includes(setting.env) && help.stdout.includes(setting.flag), setting.env);
    }
  });

  it('on SIGTERM takes no new request, lets the one in flight finish with its answer, and exits 0', async () => {
    // a service side that answers a start after a while: the request is in flight when the signal comes
    let reached = 0;
    const service = createServer((req, res) => {
      reached++;
      req.resume();
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","token":"slow-token-1","control_code":"1234"}'), 1_500);
    });
    servers.push(service);
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const proxy = await esignProxy({ ESIGN_BASE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`, ESIGN_ACCESS_TOKEN: 'sigterm-secret' });
    const inFlight = fetch(`${proxy.url}/esign/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '40504040001', country: 'EE' }) });
    for (let i = 0; i < 100 && reached === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const exited = once(proxy.child, 'exit');
    proxy.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const late = await fetch(`${proxy.url}/healthz`).then((r) => r.status, () => 'refused');
    assert.equal(late, 'refused', 'no new connection after SIGTERM');
    const answer = await inFlight;
    assert.equal(answer.status, 200);
    assert.equal(((await answer.json()) as { status: string }).status, 'ok');
    const [code] = (await exited) as [number];
    assert.equal(code, 0);
    assert.match(proxy.stderr(), /SIGTERM, finishing the requests in flight[\s\S]*stopped/);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkProxy, type CheckRow } from 'esign-sandbox';
import { SETTINGS } from '../../src/server/setting-declarations.js';
import { BIN, esignProxyHarness } from './esign-proxy-harness.js';
import { freePort } from './processes.js';
import { until } from './wait.js';

// `esign-proxy`, the proxy as a server of its own, run as a host runs it (the built bin, settings
// in its environment): check-proxy passes against it, with Redis by a URL taken away and back;
// health, readiness, the widget's files, events on stdout, a bad setting said by its name, and a
// SIGTERM that lets a request in flight finish.

const { servers, esignProxy, redisOnPort, hostServer } = esignProxyHarness();

const failing = (rows: CheckRow[]) => rows.filter((row) => !row.ok).map((row) => row.id);

describe('esign-proxy, the proxy as a server', () => {
  it('passes check-proxy on every row, its state in Redis by a URL taken away and given back; events are JSON lines on stdout', async () => {
    const redis = await redisOnPort();
    const port = await freePort();
    const token = `server-${port}-secret`;
    const proxy = await esignProxy({ ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_REDIS_URL: redis.url });
    const { rows } = await checkProxy({
      proxyUrl: `${proxy.url}/esign`,
      port,
      accessToken: token,
      waitMs: 20_000,
      stopState: `kill -STOP ${redis.pid}`,
      startState: `kill -CONT ${redis.pid}`,
    });
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((row) => !row.ok)));
    // the result hook is the host's, by a webhook (to come): until then, nothing to report
    assert.deepEqual(
      rows.filter((row) => row.skipped).map((row) => row.id),
      ['signer-gate', 'signer-country', 'upstream-timeout', 'result-first', 'site-refused', 'slow-hook', 'events', 'state-at-rest'],
    );
    const events = proxy
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; reason?: string; failure?: string });
    assert.ok(events.some((e) => e.type === 'started') && events.some((e) => e.type === 'finished'), 'starts and ends');
    assert.ok(events.some((e) => e.type === 'refused' && e.reason === 'cross-site'));
    assert.ok(
      events.some((e) => e.type === 'failed' && e.failure === 'store'),
      'the state taken away is a failed event',
    );
    assert.ok(!proxy.stdout().includes(token) && !proxy.stderr().includes(token), 'the token in no line');
  });

  it("answers /healthz, /readyz by its state, and serves the widget's script-tag files under the prefix, nothing else of the disk", async () => {
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
        const child = spawn(process.execPath, [BIN, ...args], {
          env: { ...process.env, ESIGN_BASE_URL: '', ESIGN_ACCESS_TOKEN: '', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
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
      // one operator's line, JSON with its level
      const line = JSON.parse(stderr.trim()) as { level: string; msg: string; code: string };
      assert.deepEqual([line.level, line.code], ['error', 'bad-setting']);
      assert.match(line.msg, said);
      assert.doesNotMatch(stderr, /a-good-secret/);
    }
    const help = await run({}, ['--help']);
    assert.equal(help.code, 0);
    for (const setting of Object.values(SETTINGS)) {
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
    const inFlight = fetch(`${proxy.url}/esign/smartid/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '40504040001', country: 'EE' }),
    });
    await until(() => reached > 0, 'the start reaching the service');
    const exited = once(proxy.child, 'exit');
    proxy.child.kill('SIGTERM');
    // its listener closes at once: a new connection is refused within moments, while the request in flight goes on
    let late: number | string = 0;
    for (const deadline = Date.now() + 2_000; late !== 'refused' && Date.now() < deadline;)
      late = await fetch(`${proxy.url}/healthz`).then(
        (r) => r.status,
        () => 'refused',
      );
    assert.equal(late, 'refused', 'no new connection after SIGTERM');
    const answer = await inFlight;
    assert.equal(answer.status, 200);
    assert.equal(((await answer.json()) as { status: string }).status, 'ok');
    const [code] = (await exited) as [number];
    assert.equal(code, 0);
    assert.match(proxy.stderr(), /SIGTERM, finishing the requests in flight[\s\S]*stopped/);
  });
});

const SECRET = `whsec_${Buffer.from('a-test-webhook-secret-of-32-bytes!!').toString('base64')}`;
const OLD_SECRET = `whsec_${Buffer.from('the-secret-being-rotated-out-now!!').toString('base64')}`;

describe('esign-proxy: the verified result as a signed webhook delivery', () => {
  it("delivers a login to the host before the browser sees it, signed (checked by the Standard Webhooks package, with either secret while one rotates), with none of the browser's cookies, and nothing of the host's answer reaches that browser", async () => {
    const { startSandbox } = await import('esign-sandbox');
    const sandbox = await startSandbox({ accessToken: 'webhook-sandbox-token', answerAfterMs: 200 });
    try {
      // the host is slow to take it, and fails once: the browser waits, the delivery is tried again with the same id
      const host = await hostServer(SECRET, (attempt) =>
        attempt === 1 ? { status: 503 } : { status: 204, cookie: 'host-session=new-session-id; Path=/; HttpOnly; SameSite=Lax', delayMs: 800 },
      );
      const old = await hostServer(OLD_SECRET, () => ({ status: 204 }));
      const proxy = await esignProxy({
        ESIGN_BASE_URL: sandbox.url,
        ESIGN_ACCESS_TOKEN: 'webhook-sandbox-token',
        ESIGN_WEBHOOK_URL: host.url,
        ESIGN_WEBHOOK_SECRET: `${SECRET},${OLD_SECRET}`,
      });
      let cookie = 'host-session=before-login';
      const post = async (path: string, body: object) => {
        const answer = await fetch(`${proxy.url}/esign${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(body),
        });
        const set = answer.headers.getSetCookie();
        for (const line of set) {
          const pair = line.split(';')[0]!;
          cookie = [...cookie.split('; ').filter((c) => !c.startsWith(`${pair.split('=')[0]}=`)), pair].join('; ');
        }
        return { status: answer.status, json: (await answer.json()) as Record<string, unknown>, set, at: Date.now() };
      };
      const start = await post('/smartid/login.json', { code: '40504040001', country: 'EE' });
      assert.equal(start.json['status'], 'ok');
      let done: Awaited<ReturnType<typeof post>> | null = null;
      for (let i = 0; i < 40 && !done; i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const poll = await post(`/smartid/status/${String(start.json['token'])}.json`, {});
        if (poll.json['status'] === 'ok') done = poll;
        else assert.equal(poll.json['status'], 'waiting', JSON.stringify(poll.json));
      }
      assert.ok(done, 'the login ended');
      assert.equal(host.deliveries.length, 2, 'tried again after the 503');
      const [first, second] = host.deliveries;
      assert.equal(first!.headers['webhook-id'], second!.headers['webhook-id'], "one id for every try: the host's idempotency key");
      assert.match(second!.headers['webhook-id']!, /^msg_/);
      assert.deepEqual(second!.verified && { type: second!.verified['type'], kind: (second!.verified['data'] as Record<string, unknown>)['kind'] }, {
        type: 'login.verified',
        kind: 'login',
      });
      const data = (second!.verified as { data: { result: { code: string; country: string }; token: string; operation: string; visitor: string } }).data;
      assert.deepEqual([data.result.code, data.result.country, data.operation, data.token], ['40504040001', 'EE', 'smartIdLoginStatus', start.json['token']]);
      // every field the shipped schema requires of a login's delivery (the whole schema: esign-proxy-delivery.test.ts)
      const schema = JSON.parse(readFileSync(new URL('../../dist/webhook-delivery.schema.json', import.meta.url), 'utf8')) as {
        oneOf: { required: string[]; properties: { type: { const?: string }; data: { required: string[] } } }[];
      };
      const login = schema.oneOf.find((one) => one.properties.type.const === 'login.verified')!;
      for (const field of login.required) assert.ok(field in second!.verified!, field);
      for (const field of login.properties.data.required) assert.ok(field in data, `data.${field}`);
      // the visitor who started it, as the keyed digest events show: never the cookie that lets a browser in
      assert.match(data.visitor, /^[0-9a-f]{64}$/, 'the visitor who started it');
      assert.ok(!cookie.includes(data.visitor) && !second!.body.includes('esign-visitor'), 'no visitor cookie in the delivery');
      assert.equal(second!.headers['cookie'], undefined, "none of the browser's cookies came along");
      assert.ok(done.at >= second!.at + 800, 'the browser got the result only after the host answered');
      assert.deepEqual(
        done.set.filter((line) => line.startsWith('host-session=')),
        [],
        "the host's answer never reaches the browser: no delivery logs anyone in",
      );
      assert.match(cookie, /host-session=before-login/);
      // the old secret verifies the same delivery too (a host still on it while it rotates)
      const { Webhook } = await import('standardwebhooks');
      assert.ok(new Webhook(OLD_SECRET).verify(second!.body, second!.headers));
      assert.equal(old.deliveries.length, 0);
      // a forged or replayed delivery is refused by the package's check
      assert.throws(() => new Webhook(SECRET).verify(second!.body.replace('40504040001', '30303039914'), second!.headers));
      assert.throws(() => new Webhook(SECRET).verify(second!.body, { ...second!.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) }));
    } finally {
      await sandbox.close();
    }
  });

  it("a host that never takes the result: the browser gets the failing hook's error, not the result, and the next poll tries again", async () => {
    const { startSandbox } = await import('esign-sandbox');
    const sandbox = await startSandbox({ accessToken: 'webhook-refused-token', answerAfterMs: 0 });
    try {
      const host = await hostServer(SECRET, () => ({ status: 500 }));
      const proxy = await esignProxy({
        ESIGN_BASE_URL: sandbox.url,
        ESIGN_ACCESS_TOKEN: 'webhook-refused-token',
        ESIGN_WEBHOOK_URL: host.url,
        ESIGN_WEBHOOK_SECRET: SECRET,
        ESIGN_RESULT_TIMEOUT_MS: '1500',
      });
      let cookie = '';
      const post = async (path: string) => {
        const answer = await fetch(`${proxy.url}/esign${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
          body: JSON.stringify({ code: '40504040001', country: 'EE' }),
        });
        cookie = answer.headers.getSetCookie()[0]?.split(';')[0] ?? cookie;
        return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
      };
      const start = await post('/smartid/login.json');
      const refused = await post(`/smartid/status/${String(start.json['token'])}.json`);
      assert.deepEqual([refused.status, refused.json['proxy_error'], refused.json['name']], [500, 'host-error', undefined]);
      const tries = host.deliveries.length;
      assert.ok(tries >= 2, `tried until the time ran out (${tries})`);
      // the proxy answers one poll of a session each 500 ms: the next one comes after that
      await new Promise((resolve) => setTimeout(resolve, 600));
      const again = await post(`/smartid/status/${String(start.json['token'])}.json`);
      assert.equal(again.status, 500);
      assert.ok(host.deliveries.length > tries, 'the next poll tried again');
      assert.ok(
        proxy
          .stdout()
          .split('\n')
          .some((line) => line.includes('"host-error"') && line.includes('"onResult"')),
      );
    } finally {
      await sandbox.close();
    }
  });
});

describe("esign-proxy: the site's own session cookie as the visitor", () => {
  it("binds sessions to the site's session (ESIGN_VISITOR_COOKIE), refuses a browser without one, and never writes its value into an event", async () => {
    const { startSandbox } = await import('esign-sandbox');
    const sandbox = await startSandbox({ accessToken: 'visitor-cookie-token', answerAfterMs: 0 });
    try {
      const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: 'visitor-cookie-token', ESIGN_VISITOR_COOKIE: 'sessionid' });
      const post = (path: string, cookie?: string) =>
        fetch(`${proxy.url}/esign${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
          body: JSON.stringify({ code: '40504040001', country: 'EE' }),
        });
      const nobody = await post('/smartid/login.json');
      assert.equal(nobody.status, 403, 'no session of the site: nobody to bind a session to');
      // said once, with what the site must do: a session id that stays the same, set before the widget starts
      await post('/smartid/login.json');
      const said = proxy.lines().filter((line) => line['code'] === 'visitor-cookie-missing');
      assert.equal(said.length, 1, proxy.stderr());
      assert.match(String(said[0]!['msg']), /without a cookie named sessionid[\s\S]*server-side session id/);
      const started = await post('/smartid/login.json', 'sessionid=the-sites-session-value-1; other=1');
      const token = ((await started.json()) as { token: string }).token;
      assert.deepEqual(started.headers.getSetCookie(), [], "no cookie of the proxy's own");
      const another = await post(`/smartid/status/${token}.json`, 'sessionid=another-session');
      assert.equal(another.status, 404, "another session's poll is refused");
      const own = await post(`/smartid/status/${token}.json`, 'sessionid=the-sites-session-value-1');
      assert.equal(((await own.json()) as { status: string }).status, 'ok');
      const lines = proxy
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; visitor?: string });
      assert.ok(lines.some((e) => e.type === 'started' && /^[0-9a-f]{64}$/.test(e.visitor ?? '')));
      assert.ok(!proxy.stdout().includes('the-sites-session-value-1'), "the session cookie's value is in no event");
    } finally {
      await sandbox.close();
    }
  });
});

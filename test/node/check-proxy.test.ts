import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkProxy, startSandbox, type CheckRow } from 'esign-sandbox';
import { freePort, scratchDir, sqliteStateCommands, startedByThisFile } from './processes.js';
import { until } from './wait.js';
import { countryAndAddedSignatureHold, GATE_PERSON, signThrough, startImpostor, visitorIsMintedAndDigested } from './signing-impostor.js';
import { createFetchProxyHandler, createProxyHandler, fetchHandlerToNode, ResultRefused, type ProxyOptions, type ProxyResult } from '../../src/proxy/index.js';
import { RedisStore } from '../../src/proxy/redis.js';
import { createClient } from 'redis';
import { startRedis } from './redis-server.js';

// `esign-sandbox check-proxy` against our Node proxy (both handlers), the README's Python proxy
// (Flask, run for real), and deliberately broken proxies that each fail exactly their rows.

const ALL_ROWS = [
  'allow-list-pass',
  'allow-list-refuse',
  'fields',
  'json-only',
  'form-bodies',
  'field-shapes',
  'cross-site',
  'scheme',
  'request-id',
  'visitor-binding',
  'signer-gate',
  'signer-country',
  'screening',
  'token-echo-plain',
  'token-echo-escaped',
  'token-header',
  'token-redirect',
  'body-limit',
  'small-bodies',
  'poll-floor',
  'result-first',
  'site-refused',
  'fail-closed',
  'no-lockout',
  'no-lockout-country',
  'limits-exact',
  'rate-limit',
  'token-never',
];

const { servers, children } = startedByThisFile();

type Wrap = (req: IncomingMessage, res: ServerResponse, proxy: RequestListener) => void;

/** Our proxy on its own port in front of the check's sandbox, optionally with one rule broken. */
async function nodeProxy(sandboxPort: number, token: string, options: Partial<ProxyOptions> = {}, wrap?: Wrap): Promise<string> {
  const proxy = createProxyHandler({ baseUrl: `http://127.0.0.1:${sandboxPort}`, accessToken: token, prefix: '/esign', ...options }) as RequestListener;
  const server = createServer(wrap ? (req, res) => wrap(req, res, proxy) : proxy);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/esign`;
}

/** The event lines of the Python proxy started last (each process writes into its own list: a late line of an earlier one cannot land here). */
let pythonLines: string[] = [];

/** The README's Python proxy under Flask (Debian's python3), with this environment; resolves with its /esign URL. */
async function pythonProxy(env: Record<string, string>, onLog?: (chunk: string) => void): Promise<string> {
  const flaskPort = await freePort();
  const child = spawn('/usr/bin/python3', ['-m', 'flask', '--app', 'proxy', 'run', '--port', String(flaskPort)], {
    cwd: new URL('../../examples/proxy-python/', import.meta.url).pathname,
    // each its own state file, as each deployment has
    env: { ...process.env, ESIGN_STATE_FILE: join(scratchDir('esign-py-state-'), 'state.sqlite'), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stderr!.setEncoding('utf8');
  while (!/Running on/.test(output)) {
    const [chunk] = (await Promise.race([once(child.stderr!, 'data'), once(child, 'exit').then(() => assert.fail(`flask exited: ${output}`))])) as [string];
    output += chunk;
  }
  // read on, or a full pipe would stop Flask at its next event line
  const lines: string[] = [];
  pythonLines = lines;
  let rest = '';
  child.stderr!.on('data', (chunk: string) => {
    onLog?.(chunk);
    const got = (rest + chunk).split('\n');
    rest = got.pop()!;
    lines.push(...got.filter((line) => line.startsWith('{')));
  });
  return `http://127.0.0.1:${flaskPort}/esign`;
}

async function check(
  start: (sandboxPort: number, token: string) => Promise<string>,
  exposesScreening = false,
  signer?: { code: string; country: 'LT' | 'LV' | 'EE'; phone?: string },
  state?: { stopState: string; startState: string },
): Promise<CheckRow[]> {
  const port = await freePort();
  const token = `check-${port}-secret`;
  const url = await start(port, token);
  const { rows } = await checkProxy({ proxyUrl: url, port, accessToken: token, exposesScreening, waitMs: 20_000, ...(signer ? { signer } : {}), ...state });
  return rows;
}

const skipped = (rows: CheckRow[]) => rows.filter((row) => row.skipped).map((row) => row.id);

/** What check-proxy's result-first row asks of a result hook: it reports when it begins and ends, and takes its time between. */
function reportingHook(sandboxPort: number, ms = 2_000): (result: ProxyResult) => Promise<void> {
  const report = (token: string, at: string) => fetch(`http://127.0.0.1:${sandboxPort}/__probe/hook`, { method: 'POST', body: JSON.stringify({ token, at }) }).then(async (r) => (await r.arrayBuffer(), r.status));
  return async (result) => {
    const said = await report(result.token, 'start');
    await new Promise((resolve) => setTimeout(resolve, ms));
    await report(result.token, 'end');
    // the check's site turns this person away: the host's refusal for good
    if (said === 409) throw new ResultRefused(409);
  };
}


const failing = (rows: CheckRow[]) => rows.filter((row) => !row.ok).map((row) => row.id);

describe('check-proxy against working proxies', () => {
  it('passes our Node proxy (node:http handler) on every row, and says which rows it could not check', async () => {
    const rows = await check((port, token) => nodeProxy(port, token));
    assert.deepEqual(rows.map((row) => row.id), ALL_ROWS);
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.deepEqual(skipped(rows), ['signer-gate', 'signer-country', 'result-first', 'site-refused', 'fail-closed'], 'nothing told, nothing checked: skipped, never passed');
  });

  it('passes our Node proxy with a Redis store and a slow, reporting result hook on every row, the state taken away and given back', async () => {
    const redis = await startRedis();
    const client = createClient({ socket: { path: redis.socket, tls: false } });
    await client.connect();
    try {
      const pid = redis.pid()!;
      const rows = await check(
        (port, token) => nodeProxy(port, token, { store: new RedisStore(client), onResult: reportingHook(port) }),
        false,
        undefined,
        { stopState: `kill -STOP ${pid}`, startState: `kill -CONT ${pid}` },
      );
      assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
      assert.deepEqual(skipped(rows), ['signer-gate', 'signer-country']);
    } finally {
      await client.quit().catch(() => undefined);
      await redis.stop();
    }
  });

  it('passes our fetch-style handler served through fetchHandlerToNode', async () => {
    const rows = await check(async (port, token) => {
      const handler = createFetchProxyHandler({ baseUrl: `http://127.0.0.1:${port}`, accessToken: token, prefix: '/esign' });
      const server = createServer(fetchHandlerToNode(handler));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/esign`;
    });
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
  });

  it('passes the README\'s Python proxy, run with Flask and requests from Debian, on every row (its result hook reporting, its state taken away), whose on_result gets the Node proxy\'s operation ids', async () => {
    const results = join(scratchDir('esign-py-'), 'results.jsonl');
    const stateFile = join(scratchDir('esign-py-state-'), 'state.sqlite');
    const rows = await check(
      (port, token) =>
        pythonProxy({ ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_RESULT_LOG: results, ESIGN_STATE_FILE: stateFile, ESIGN_CHECK_HOOK_URL: `http://127.0.0.1:${port}/__probe/hook`, ESIGN_CHECK_HOOK_MS: '2000' }),
      false,
      undefined,
      sqliteStateCommands(stateFile),
    );
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.deepEqual(skipped(rows), ['signer-gate', 'signer-country']);
    const handed = readFileSync(results, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { operation: string; status: string });
    assert.ok(handed.some((r) => r.operation === 'mobileLoginStatus' && r.status === 'ok'), JSON.stringify(handed));
    assert.ok(handed.every((r) => /^(mobile|smartId)(Login|Sign|HashSign)Status$/.test(r.operation)), JSON.stringify(handed));
  });

  it('passes the Python proxy mounted as a blueprint in a Flask app of the host\'s, at a prefix of its choosing, the app\'s own routes untouched', async () => {
    const port = await freePort();
    const token = `check-${port}-secret`;
    const appPort = await freePort();
    const host = [
      'import sys',
      'from flask import Flask',
      'import proxy',
      'app = Flask("host")',
      '@app.get("/")',
      'def home():',
      '    return "the host\'s own page"',
      'app.register_blueprint(proxy.blueprint, url_prefix="/api/esign")',
      'app.run(port=int(sys.argv[1]))',
    ].join('\n');
    const child = spawn('/usr/bin/python3', ['-c', host, String(appPort)], {
      cwd: new URL('../../examples/proxy-python/', import.meta.url).pathname,
      env: { ...process.env, ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_STATE_FILE: join(scratchDir('esign-blueprint-'), 'state.sqlite') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    child.stderr!.resume();
    const { rows } = await checkProxy({ proxyUrl: `http://127.0.0.1:${appPort}/api/esign`, port, accessToken: token, exposesScreening: false, waitMs: 20_000 });
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.equal(await (await fetch(`http://127.0.0.1:${appPort}/`)).text(), 'the host\'s own page');
    // the default prefix is the host's to choose: nothing answers for the proxy at /esign
    const elsewhere = await fetch(`http://127.0.0.1:${appPort}/esign/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(elsewhere.status, 404);
    assert.equal(elsewhere.headers.get('content-type')?.includes('json') ? ((await elsewhere.json()) as { proxy_error?: string }).proxy_error : undefined, undefined);
  });

  it('passes the Python proxy under gunicorn with four workers on every row: one state for all of them, its result hook run once at a time, failing closed without it', async () => {
    const port = await freePort();
    const token = `check-${port}-secret`;
    const gunicornPort = await freePort();
    const stateFile = join(scratchDir('esign-gunicorn-'), 'state.sqlite');
    const child = spawn('gunicorn', ['-w', '4', '-b', `127.0.0.1:${gunicornPort}`, 'proxy:app'], {
      cwd: new URL('../../examples/proxy-python/', import.meta.url).pathname,
      env: { ...process.env, ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_STATE_FILE: stateFile, ESIGN_CHECK_HOOK_URL: `http://127.0.0.1:${port}/__probe/hook`, ESIGN_CHECK_HOOK_MS: '2000' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let log = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const { rows } = await checkProxy({ proxyUrl: `http://127.0.0.1:${gunicornPort}/esign`, port, accessToken: token, exposesScreening: false, waitMs: 20_000, ...sqliteStateCommands(stateFile) });
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.deepEqual(skipped(rows), ['signer-gate', 'signer-country']);
    assert.equal(rows.length, ALL_ROWS.length);
    assert.equal((log.match(/Booting worker/g) ?? []).length, 4, log.slice(0, 500));
  });

  it('limits the Python proxy\'s session starts per client address when told to, whatever the cookies and persons', async () => {
    let forwarded = 0;
    const service = createServer((req, res) => {
      forwarded++;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', token: `token-${forwarded}`, control_code: '1234' }));
    });
    servers.push(service);
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const proxy = await pythonProxy({
      ESIGN_BASE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
      ESIGN_ACCESS_TOKEN: 'python-address-secret',
      ESIGN_RATE_LIMIT: '100,100,600,2',
      ESIGN_LIMIT_BY_ADDRESS: '1',
    });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (const code of ['30303039910', '30303039911', '30303039912']) {
      // no cookie sent back: a new visitor each time, and a new person
      const answer = await fetch(`${proxy}/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, country: 'LT' }) });
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter = answer.headers.get('retry-after');
      await answer.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 429]);
    assert.equal(retryAfter, '600');
    assert.equal(forwarded, 2, 'the refused start did not reach the service');
    // the same events as the Node proxy's, as JSON lines: two starts, then the refusal
    await until(() => pythonLines.length >= 3, 'three event lines of the Python proxy', 2_000);
    const events = pythonLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(events.map((e) => [e['type'], e['operation'], e['kind'], e['channel'], e['reason'] ?? null]), [
      ['started', 'smartIdLogin', 'login', 'smartid', null],
      ['started', 'smartIdLogin', 'login', 'smartid', null],
      ['refused', 'smartIdLogin', 'login', 'smartid', 'rate-limited'],
    ]);
    assert.equal(events[2]!['limit'], 'address', 'the refusal names the limit it met');
    assert.deepEqual(events.map((e) => e['person']), [{ code: '3030••••910' }, { code: '3030••••911' }, { code: '3030••••912' }]);
    assert.ok(events.every((e) => e['address'] === '127.0.0.1' && typeof e['durationMs'] === 'number' && Number.isFinite(Date.parse(e['at'] as string))));
    assert.ok(!pythonLines.join('\n').includes('30303039910') && !pythonLines.join('\n').includes('python-address-secret'));
  });

  it('passes a proxy with a signing gate on every row when told its person (--signer), and only then', async () => {
    const gated = (port: number, token: string) => nodeProxy(port, token, { signer: () => GATE_PERSON });
    assert.deepEqual(failing(await check(gated, false, GATE_PERSON)), []);
    const untold = await check(gated);
    assert.deepEqual(failing(untold), ['allow-list-pass'], 'the gate refuses the checks\' own signing for other people');
    assert.match(untold.find((row) => row.id === 'signer-gate')!.rule, /not checked/);
    assert.match(untold.find((row) => row.id === 'signer-country')!.rule, /not checked/);
    const ungated = await check((port, token) => nodeProxy(port, token), false, GATE_PERSON);
    assert.deepEqual(failing(ungated), ['signer-gate', 'signer-country']);
    assert.match(ungated.find((row) => row.id === 'signer-gate')!.evidence ?? '', /another person/);
  });

  it('fails a proxy whose result hook leaves its work running after it returned on the result-first row, and nothing else', async () => {
    const rows = await check((port, token) =>
      nodeProxy(port, token, {
        onResult: (result) => {
          // the host's work goes on in the background: the browser is told before it is done
          reportingHook(port)(result).catch(() => undefined);
        },
      }),
    );
    // nor can it refuse a result: its hook's answer comes after the browser was told
    assert.deepEqual(failing(rows), ['result-first', 'site-refused'], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.match(rows.find((row) => row.id === 'result-first')!.evidence ?? '', /before the result hook ended/, JSON.stringify(rows.find((row) => row.id === 'result-first')));
  });

  it('fails a proxy that goes on without its state on the fail-closed row, and nothing else', async () => {
    // the state taken away is one the proxy does not use: it keeps answering as if nothing happened
    const redis = await startRedis();
    try {
      const pid = redis.pid()!;
      const rows = await check((port, token) => nodeProxy(port, token), false, undefined, { stopState: `kill -STOP ${pid}`, startState: `kill -CONT ${pid}` });
      assert.deepEqual(failing(rows), ['fail-closed'], JSON.stringify(rows.filter((r) => !r.ok)));
    } finally {
      await redis.stop();
    }
  });

  it('fails a signing gate that compares the digits alone on its country row, and nothing else', async () => {
    const digitsOnly = (port: number, token: string) =>
      nodeProxy(port, token, { signer: () => GATE_PERSON }, withBody((body, req, res, pass) => {
        // the gate sees the signer's own country and phone whenever the digits are theirs
        if (!/\/sign/.test(req.url ?? '') || body['code'] !== GATE_PERSON.code) return pass();
        pass({ ...body, ...('country' in body ? { country: GATE_PERSON.country } : {}), ...('phone' in body ? { phone: GATE_PERSON.phone } : {}) });
      }));
    const rows = await check(digitsOnly, false, GATE_PERSON);
    assert.deepEqual(failing(rows), ['signer-country'], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.match(rows.find((row) => row.id === 'signer-country')!.evidence ?? '', /the signer's digits, EE/);
  });

  it('passes the Python proxy with its signing gate (ESIGN_SIGNER), which hands over no signing the service made as another person', async () => {
    const rows = await check((port, token) => pythonProxy({ ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_SIGNER: `${GATE_PERSON.code},${GATE_PERSON.country},${GATE_PERSON.phone}` }), false, GATE_PERSON);
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    const token = 'python-gate-secret';
    const impostor = await startImpostor(token);
    try {
      const honest = await signThrough(await pythonProxy({ ESIGN_BASE_URL: impostor.honest, ESIGN_ACCESS_TOKEN: token, ESIGN_SIGNER: `${GATE_PERSON.code},${GATE_PERSON.country}` }));
      assert.equal(honest.json['status'], 'ok', JSON.stringify(honest.json).slice(0, 200));
      const refused = await signThrough(await pythonProxy({ ESIGN_BASE_URL: impostor.url, ESIGN_ACCESS_TOKEN: token, ESIGN_SIGNER: `${GATE_PERSON.code},${GATE_PERSON.country}` }));
      assert.deepEqual([refused.status, refused.json['proxy_error'], refused.json['file']], [403, 'signer-mismatch', undefined]);
      await until(() => pythonLines.some((line) => line.includes('signer-mismatch')), 'the signer-mismatch event', 1_000);
      assert.ok(pythonLines.some((line) => JSON.parse(line).reason === 'signer-mismatch'), 'the refusal is an event');
    } finally {
      await impostor.close();
    }
  });

  it('the Python proxy: a person is a country and a code at the far end too, and the signature it reads is the one the service added', async () => {
    const token = 'python-person-secret';
    await countryAndAddedSignatureHold(token, async (service) => {
      let log = '';
      const url = await pythonProxy({ ESIGN_BASE_URL: service, ESIGN_ACCESS_TOKEN: token, ESIGN_SIGNER: '40504040001,EE' }, (chunk) => (log += chunk));
      return { url, log: () => log };
    });
  });

  it('the Python proxy mints its visitor ids (a planted one is replaced), names the cookie __Host- over https, and writes only a keyed digest of the visitor into its events', async () => {
    const token = 'python-visitor-secret';
    let log = '';
    await visitorIsMintedAndDigested(
      token,
      async (service) => ({ url: await pythonProxy({ ESIGN_BASE_URL: service, ESIGN_ACCESS_TOKEN: token, ESIGN_RATE_LIMIT: '100,100,600' }, (chunk) => (log += chunk)), log: () => log }),
      async () => {
        await until(() => pythonLines.length >= 3, 'three event lines of the Python proxy', 2_000);
        return pythonLines.map((line) => (JSON.parse(line) as { visitor: string }).visitor);
      },
    );
    // over https (as Flask sees a TLS request): the __Host- cookie, Secure
    const overHttps = execFileSync('/usr/bin/python3', ['-c', [
      'import proxy',
      'path = "/esign/smartid/status/abcdefgh.json"',
      'answer = proxy.app.test_client().post(path, base_url="https://localhost", json={}, environ_overrides={"RAW_URI": path})',
      'print(answer.status_code, answer.headers.getlist("Set-Cookie"))',
    ].join('\n')], { cwd: new URL('../../examples/proxy-python/', import.meta.url).pathname, env: { ...process.env, ESIGN_BASE_URL: 'http://127.0.0.1:9', ESIGN_ACCESS_TOKEN: token }, encoding: 'utf8' });
    assert.match(overHttps, /^404 \['__Host-esign-visitor=[A-Za-z0-9_-]{46}; Secure; HttpOnly; Path=\/; SameSite=Strict'\]/);
  });

  it('the Python proxy says an access token the service refuses in its log once a minute, and as a failed event each time', async () => {
    const port = await freePort();
    const sandbox = await startSandbox({ accessToken: 'the-right-token-123', port });
    try {
      let log = '';
      const url = await pythonProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: 'a-wrong-token-456' }, (chunk) => (log += chunk));
      for (let i = 0; i < 3; i++) {
        const answer = await fetch(`${url}/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '40504040001', country: 'EE' }) });
        assert.equal(((await answer.json()) as { error_code?: number }).error_code, 40003);
      }
      await until(() => pythonLines.length >= 3, 'three event lines of the Python proxy', 2_000);
      assert.deepEqual(pythonLines.map((line) => [JSON.parse(line).type, JSON.parse(line).failure]), [['failed', 'access-token'], ['failed', 'access-token'], ['failed', 'access-token']]);
      assert.equal(log.match(/refused the access token \(40003\) for smartIdLogin/g)?.length, 1, log);
      assert.ok(!log.includes('a-wrong-token-456'));
    } finally {
      await sandbox.close();
    }
  });

  it('checks the exposed-screening flag both ways', async () => {
    const exposed = await check((port, token) => nodeProxy(port, token, { exposeScreening: true }), true);
    assert.deepEqual(failing(exposed), []);
    const notExposed = await check((port, token) => nodeProxy(port, token), true);
    assert.deepEqual(failing(notExposed), ['screening']);
  });
});

/** Writes the proxy's answer through a filter of its text (and headers). */
function filterAnswer(res: ServerResponse, change: (text: string) => string, headers: Record<string, string> = {}): void {
  const end = res.end.bind(res);
  const writeHead = res.writeHead.bind(res);
  let pending: [number, Record<string, string | number>] | null = null;
  res.writeHead = ((status: number, h: Record<string, string | number>) => {
    pending = [status, { ...h, ...headers }];
    return res;
  }) as typeof res.writeHead;
  res.end = ((body: Buffer | string, callback?: () => void) => {
    const text = change(Buffer.isBuffer(body) ? body.toString('utf8') : String(body ?? ''));
    const [status, h] = pending ?? [200, {}];
    writeHead(status, { ...h, 'content-length': Buffer.byteLength(text) });
    return end(text, callback);
  }) as typeof res.end;
}

describe('the check-proxy command', () => {
  it('prints JSON for CI and exits 0 when every rule passes, 1 when one fails', async () => {
    const run = async (options: Partial<ProxyOptions>) => {
      const port = await freePort();
      const token = `cli-${port}-secret`;
      const url = await nodeProxy(port, token, options);
      const child = spawn(process.execPath, ['sandbox/bin/esign-sandbox.js', 'check-proxy', url, '--port', String(port), '--access-token', token, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const [code] = (await once(child, 'exit')) as [number];
      return { code, result: JSON.parse(stdout) as { passed: boolean; rows: CheckRow[] } };
    };
    const good = await run({});
    assert.equal(good.code, 0);
    assert.equal(good.result.passed, true);
    assert.equal(good.result.rows.length, ALL_ROWS.length);
    const bad = await run({ rateLimit: false });
    assert.equal(bad.code, 1);
    assert.deepEqual(failing(bad.result.rows), ['limits-exact', 'rate-limit']);
  });
});

/** Smart-ID starts per code, by the check's token (one proxy each): for the proxy that counts a code without its country. */
const smartCount = new Map<string, number>();

/** A wrap that reads a JSON body first (passed on to the proxy as it came, or changed). */
function withBody(decide: (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse, pass: (changed?: Record<string, unknown>) => void) => void): Wrap {
  return (req, res, proxy) => {
    if (Number(req.headers['content-length'] ?? 0) > 1024 * 1024) return proxy(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON: the proxy's own answer
      }
      decide(body, req, res, (changed) => {
        (req as IncomingMessage & { body?: unknown }).body = changed ?? text;
        proxy(req, res);
      });
    });
  };
}

// each broken proxy is its own server with its own token and sandbox: several checked at once
describe('check-proxy against proxies with one rule broken', { concurrency: 3 }, () => {
  const cases: [string, string[], (port: number, token: string) => Promise<string>][] = [
    ['an operation of the /en locale refused', ['allow-list-pass'], (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        if (req.url?.startsWith('/esign/en/mobile/sign.json')) res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"error","message":"no"}');
        else proxy(req, res);
      })],
    ['queries stripped and passed instead of refused', ['allow-list-refuse'], (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        req.url = req.url?.replace(/\?.*$/, '');
        proxy(req, res);
      })],
    ['extra fields forwarded', ['fields'], (port, token) =>
      nodeProxy(port, token, {
        fetch: (input, init) => fetch(input, { ...init, body: JSON.stringify({ ...JSON.parse(String(init?.body)), accessToken: 'from-the-browser' }) }),
      })],
    ['any content type accepted', ['json-only', 'form-bodies'], (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        req.headers['content-type'] = 'application/json';
        proxy(req, res);
      })],
    ['no origin check', ['cross-site', 'scheme'], (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        delete req.headers['origin'];
        delete req.headers['sec-fetch-site'];
        proxy(req, res);
      })],
    ['the scheme of the page\'s origin ignored', ['scheme'], (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        req.headers['origin'] = req.headers['origin']?.replace(/^http:/, 'https:');
        proxy(req, res);
      })],
    ['start fields of any shape made acceptable instead of refused', ['field-shapes'], (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        if (Number(req.headers['content-length'] ?? 0) > 1024 * 1024) return proxy(req, res);
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown> | string = text;
          try {
            const parsed = JSON.parse(text) as Record<string, unknown>;
            if (String(parsed['code'] ?? '').length > 11) parsed['code'] = '30303039914';
            if (String(parsed['country'] ?? '').length > 2) parsed['country'] = 'LT';
            if (String(parsed['phone'] ?? '').length > 12) parsed['phone'] = '+37060000666';
            body = parsed;
          } catch {
            // not JSON: passed on as text, for the proxy's own answer
          }
          (req as IncomingMessage & { body?: unknown }).body = body;
          proxy(req, res);
        });
      })],
    // (without a limit per visitor, the limits' numbers fail too)
    ['every visitor the same', ['visitor-binding', 'limits-exact'], (port, token) => nodeProxy(port, token, { visitor: () => 'everyone', rateLimit: { perVisitor: false } })],
    ['screening passed on', ['screening'], (port, token) => nodeProxy(port, token, { exposeScreening: true })],
    ['no redaction', ['token-echo-plain', 'token-echo-escaped', 'token-never'], (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        filterAnswer(res, (text) => text.split('[redacted]').join(token));
        proxy(req, res);
      })],
    ['the service\'s headers passed on', ['token-header', 'token-never'], (port, token) => {
      let last: Headers | null = null;
      return nodeProxy(
        port,
        token,
        {
          fetch: async (input, init) => {
            const response = await fetch(input, init);
            last = response.headers;
            return response;
          },
        },
        (req, res, proxy) => {
          const writeHead = res.writeHead.bind(res);
          res.writeHead = ((status: number, headers: Record<string, string | number>) => {
            const leaked = (last as Headers | null)?.get('x-access-token');
            return writeHead(status, leaked ? { ...headers, 'x-access-token': leaked } : headers);
          }) as typeof res.writeHead;
          proxy(req, res);
        },
      );
    }],
    ['redirects followed', ['token-redirect'], (port, token) => nodeProxy(port, token, { fetch: (input, init) => fetch(input, { ...init, redirect: 'follow' }) })],
    ['a refused body read to the end', ['body-limit'], (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        if (Number(req.headers['content-length']) > 1024 * 1024) {
          req.resume();
          req.on('end', () => res.writeHead(413, { 'content-type': 'application/json' }).end('{"status":"error","message":"too large"}'));
        } else proxy(req, res);
      })],
    ['no rate limits', ['rate-limit', 'limits-exact'], (port, token) => nodeProxy(port, token, { rateLimit: false })],
    ['Mobile-ID starts counted by the personal code alone', ['no-lockout'], (port, token) => {
      const byCode = new Map<string, number>();
      return nodeProxy(port, token, {}, (req, res, proxy) => {
        if (!/\/mobile\/(?:login|sign)/.test(req.url ?? '')) return proxy(req, res);
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let code = '';
          try {
            code = String((JSON.parse(text) as Record<string, unknown>)['code'] ?? '');
          } catch {
            // not JSON: the proxy's own answer
          }
          const count = (byCode.get(code) ?? 0) + 1;
          byCode.set(code, count);
          if (code && count > 6) return res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '600' }).end('{"status":"error","proxy_error":"rate-limited"}');
          (req as IncomingMessage & { body?: unknown }).body = text;
          proxy(req, res);
        });
      });
    }],
  ];
  cases.push(['a person\'s window of one minute instead of ten', ['limits-exact'], (port, token) => nodeProxy(port, token, { rateLimit: { perPerson: { limit: 6, windowMs: 60_000 } } })]);
  cases.push(['twenty starts per visitor instead of twelve', ['limits-exact'], (port, token) => nodeProxy(port, token, { rateLimit: { perVisitor: { limit: 20, windowMs: 600_000 } } })]);
  cases.push(['no poll floor', ['poll-floor'], (port, token) => nodeProxy(port, token, { minPollIntervalMs: 0 })]);
  cases.push(['a browser\'s request id taken whatever it holds', ['request-id'], (port, token) =>
    nodeProxy(port, token, {}, (req, res, proxy) => {
      const given = req.headers['x-request-id'];
      if (typeof given === 'string') {
        const writeHead = res.writeHead.bind(res);
        res.writeHead = ((status: number, headers: Record<string, string | number>) => writeHead(status, { ...headers, 'x-request-id': given })) as typeof res.writeHead;
      }
      proxy(req, res);
    })]);
  cases.push(['64 KB for bodies without files', ['small-bodies'], (port, token) => nodeProxy(port, token, { sessionBodyLimit: 64 * 1024 })]);
  cases.push(['Smart-ID starts counted by the personal code alone, whatever the country', ['no-lockout-country'], (port, token) =>
    nodeProxy(port, token, {}, withBody((body, req, res, pass) => {
      if (!req.url?.includes('/smartid/login.json') || body['code'] !== '40504040001') return pass();
      smartCount.set(token, (smartCount.get(token) ?? 0) + 1);
      if (smartCount.get(token)! > 6) return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '600' }).end('{"status":"error","proxy_error":"rate-limited"}');
      pass();
    }))]);
  for (const [broken, rows, start] of cases) {
    it(`${broken}: fails ${rows.join(', ')} and nothing else`, async () => {
      const result = await check(start);
      assert.deepEqual(failing(result).sort(), [...rows].sort(), JSON.stringify(result.filter((r) => !r.ok).map((r) => [r.id, r.evidence])));
      for (const row of result.filter((r) => !r.ok)) assert.ok(row.evidence && row.evidence.length > 10, `${row.id} says what showed it`);
    });
  }
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkProxy, startSandbox } from 'esign-sandbox';
import { freePort, scratchDir, sqliteStateCommands } from './processes.js';
import { until } from './wait.js';
import { countryAndAddedSignatureHold, GATE_PERSON, loginRotatesVisitor, signThrough, startImpostor, visitorIsMintedAndDigested } from './signing-impostor.js';
import { assertProxyEvents } from './proxy-event-schema.js';
import { ALL_ROWS, check, children, failing, pythonLines, pythonProxy, servers, skipped } from './check-proxy-setups.js';

// `esign-sandbox check-proxy` against the README's Python proxy (Flask from Debian, run for real;
// as a blueprint; under gunicorn), and what it keeps beyond the rows.

describe('check-proxy against the Python proxy', () => {
  it('passes the README\'s Python proxy, run with Flask and requests from Debian, on every row (its result hook reporting, its state taken away), whose on_result gets the Node proxy\'s operation ids', async () => {
    const results = join(scratchDir('esign-py-'), 'results.jsonl');
    const stateFile = join(scratchDir('esign-py-state-'), 'state.sqlite');
    // its error log, as a host keeps it: the events row reads the event lines among the rest
    const errorLog = join(scratchDir('esign-py-log-'), 'error.log');
    const rows = await check(
      (port, token) =>
        pythonProxy({ ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_RESULT_LOG: results, ESIGN_STATE_FILE: stateFile, ESIGN_CHECK_HOOK_URL: `http://127.0.0.1:${port}/__probe/hook`, ESIGN_CHECK_HOOK_MS: '2000' }, (chunk) => appendFileSync(errorLog, chunk)),
      false,
      undefined,
      sqliteStateCommands(stateFile),
      errorLog,
    );
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.deepEqual(skipped(rows), ['signer-gate', 'signer-country']);
    const handed = readFileSync(results, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { operation: string; status: string });
    assert.ok(handed.some((r) => r.operation === 'mobileLoginStatus' && r.status === 'ok'), JSON.stringify(handed));
    // its events have the Node proxy's fields, by the one schema
    assertProxyEvents(pythonLines.map((line) => JSON.parse(line) as unknown), 'the Python proxy', ['started', 'finished', 'refused', 'failed']);
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
    child.stderr.resume();
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
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const { rows } = await checkProxy({ proxyUrl: `http://127.0.0.1:${gunicornPort}/esign`, port, accessToken: token, exposesScreening: false, waitMs: 20_000, ...sqliteStateCommands(stateFile) });
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.deepEqual(skipped(rows), ['signer-gate', 'signer-country', 'events']);
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

  it('the Python proxy gives a browser a new visitor id with its login, again to a late poll of it, as the Node proxy does', async () => {
    await loginRotatesVisitor(async (service) => ({ url: await pythonProxy({ ESIGN_BASE_URL: service, ESIGN_ACCESS_TOKEN: 'python-rotation-secret' }) }));
  });

  it('the Python proxy answers a poll "waiting" while a slow on_result goes on, as the Node proxy does: the next poll gets the result, the new visitor id and the site\'s session cookie, and the session ends in one finished event', async () => {
    let starts = 0;
    const service = createServer((req, res) => {
      req.resume();
      const answer = req.url?.includes('/status/') ? { status: 'ok', code: '40504040001', country: 'EE', name: 'OK', surname: 'TESTNUMBER' } : { status: 'ok', token: `slow-token-${++starts}`, control_code: '1234' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    const runs: string[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        runs.push((JSON.parse(body) as { at: string }).at);
        res.writeHead(204).end();
      });
    });
    servers.push(service, hook);
    for (const server of [service, hook]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // the session recipe (on_result logs the person into flask.session), its on_result taking 6 s first
    const dir = scratchDir('esign-py-slow-');
    writeFileSync(
      join(dir, 'slow_host.py'),
      ['import proxy', 'import session_recipe', 'recipe = proxy.on_result', '', '', 'def slow(operation, token, visitor, answer):',
        '    proxy.report_to_check(token)  # says it began, takes ESIGN_CHECK_HOOK_MS, says it ended', '    recipe(operation, token, visitor, answer)', '', '',
        'proxy.on_result = slow', 'app = session_recipe.app', ''].join('\n'),
    );
    const port = await freePort();
    const child = spawn('/usr/bin/python3', ['-m', 'flask', '--app', 'slow_host', 'run', '--port', String(port)], {
      cwd: dir,
      env: {
        ...process.env,
        PYTHONPATH: new URL('../../examples/proxy-python/', import.meta.url).pathname,
        ESIGN_BASE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
        ESIGN_ACCESS_TOKEN: 'python-slow-secret',
        FLASK_SECRET_KEY: 'python-slow-flask-secret',
        ESIGN_STATE_FILE: join(dir, 'state.sqlite'),
        ESIGN_CHECK_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
        ESIGN_CHECK_HOOK_MS: '6000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const url = `http://127.0.0.1:${port}`;
    await until(() => fetch(`${url}/me`).then(() => true, () => false), 'the recipe answering');
    const post = (path: string, cookie: string) => fetch(`${url}/esign${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(path.includes('/status/') ? {} : { code: '40504040001', country: 'EE' }) });
    const cookieOf = (answer: Response, name: string) => answer.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith(`${name}=`));
    const started = await post('/smartid/login.json', '');
    const visitor = cookieOf(started, 'esign-visitor')!;
    const { token } = (await started.json()) as { token: string };
    const first = await post(`/smartid/status/${token}.json`, visitor);
    assert.equal(((await first.json()) as { status: string }).status, 'waiting', 'the poll does not wait for the whole run');
    assert.deepEqual(runs, ['start'], 'it answered while on_result ran');
    await until(() => runs.includes('end'), 'on_result ending', 15_000);
    const second = await post(`/smartid/status/${token}.json`, visitor);
    assert.equal(((await second.json()) as { status: string }).status, 'ok');
    const rotated = cookieOf(second, 'esign-visitor');
    const flaskSession = cookieOf(second, 'session');
    assert.ok(rotated && rotated !== visitor, 'the new visitor id with the result');
    assert.ok(flaskSession, 'the session cookie on_result wrote, though it ran after the poll that started it had answered');
    const me = await fetch(`${url}/me`, { headers: { cookie: flaskSession } });
    assert.equal(((await me.json()) as { code: string }).code, '40504040001', 'the site knows the person');
    await new Promise((resolve) => setTimeout(resolve, 600)); // the floor between two polls
    assert.equal((await post(`/smartid/status/${token}.json`, rotated)).status, 200);
    await until(() => log.split('\n').filter((line) => line.includes('"type": "finished"') || line.includes('"type":"finished"')).length >= 1, 'the finished event');
    const finished = log.split('\n').filter((line) => line.startsWith('{') && (JSON.parse(line) as { type: string }).type === 'finished');
    assert.equal(finished.length, 1, `one finished event, not one per poll:\n${finished.join('\n')}`);
    assert.deepEqual(runs, ['start', 'end'], 'on_result ran once');
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

});

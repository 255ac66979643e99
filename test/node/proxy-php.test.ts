import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkProxy, startSandbox, type CheckRow } from 'esign-sandbox';
import { freePort, nginxBlocks, nginxConfig, sqliteStateCommands, startedByThisFile } from './processes.js';
import { countryAndAddedSignatureHold, GATE_PERSON, loginRotatesVisitor, signThrough, startImpostor, visitorIsMintedAndDigested } from './signing-impostor.js';
import { until, untilAnswering } from './wait.js';
import { assertProxyEvents } from './proxy-event-schema.js';

// The README's PHP proxy, run for real: under PHP's built-in server (`php -S`, the quick way) and
// as the front controller behind nginx and php-fpm with four workers (how PHP is served), against
// `esign-sandbox check-proxy`; and two PHP processes sharing one state file.

const PROXY = new URL('../../php/proxy.php', import.meta.url).pathname;
/** Debian names php-fpm by its PHP version (php-fpm8.2). */
const PHP_FPM = `/usr/sbin/${readdirSync('/usr/sbin').find((file) => /^php-fpm\d/.test(file)) ?? 'php-fpm'}`;
const { children, servers } = startedByThisFile();
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'esign-php-'));
  dirs.push(dir);
  return dir;
}

/** Starts a process and resolves once its port answers; what it wrote to stderr is kept. */
async function run(command: string, args: string[], env: Record<string, string>, port: number): Promise<{ child: ChildProcess; log: () => string }> {
  // (the tests' state files are in the system's temporary folder: allowed in development only)
  const child = spawn(command, args, { env: { ...process.env, ESIGN_DEVELOPMENT: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  await untilAnswering(`http://127.0.0.1:${port}/esign/`, child, () => `${command}: ${log}`);
  return { child, log: () => log };
}

/** `php -S` with the proxy as its router script; resolves with its /esign URL. */
async function phpServer(env: Record<string, string>): Promise<{ url: string; log: () => string }> {
  const port = await freePort();
  const { log } = await run('php', ['-d', 'display_errors=stderr', '-S', `127.0.0.1:${port}`, PROXY], env, port);
  return { url: `http://127.0.0.1:${port}/esign`, log };
}

/** nginx in front of php-fpm (four workers) with the proxy as the front controller of /esign/. */
async function nginxFpm(env: Record<string, string>, poolLines = '', script = PROXY): Promise<{ url: string; log: () => string; events: string }> {
  const dir = scratch();
  const port = await freePort();
  writeFileSync(
    join(dir, 'fpm.conf'),
    `[global]
error_log = ${dir}/fpm.log
log_limit = 8192
daemonize = no
[proxy]
listen = ${dir}/fpm.sock
listen.mode = 0666
pm = static
pm.max_children = 4
clear_env = no
catch_workers_output = yes
decorate_workers_output = no
${poolLines}`,
  );
  // docs/proxy-php.md's block as a reader copies it: their script and php-fpm's socket where the doc has its own
  const block = nginxBlocks('docs/proxy-php.md').find((b) => b.includes('fastcgi_pass'))!;
  assert.ok(block.includes('/srv/app/proxy.php') && block.includes('unix:/run/php/php8.2-fpm.sock'), "the doc's block names what it says");
  writeFileSync(
    join(dir, 'nginx.conf'),
    nginxConfig(
      dir,
      port,
      block
        .replace('include fastcgi_params;', 'include /etc/nginx/fastcgi_params;')
        .replace('/srv/app/proxy.php', script)
        .replace('unix:/run/php/php8.2-fpm.sock', `unix:${dir}/fpm.sock`),
    ),
  );
  const fpm = spawn(PHP_FPM, ['-R', '-F', '-y', join(dir, 'fpm.conf')], {
    env: { ...process.env, ESIGN_DEVELOPMENT: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(fpm);
  let fpmLog = '';
  fpm.stderr.setEncoding('utf8').on('data', (chunk: string) => (fpmLog += chunk));
  const workersLog = () => (existsSync(join(dir, 'fpm.log')) ? readFileSync(join(dir, 'fpm.log'), 'utf8') : '');
  await until(
    () => {
      if (fpm.exitCode !== null) assert.fail(`php-fpm exited: ${fpmLog}${workersLog()}`);
      return existsSync(join(dir, 'fpm.sock'));
    },
    "php-fpm's socket",
    10_000,
  );
  const { log } = await run('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {}, port);
  return { url: `http://127.0.0.1:${port}/esign`, log: () => `${log()}${fpmLog}${workersLog()}`, events: join(dir, 'fpm.log') };
}

async function check(
  start: (sandboxPort: number, token: string) => Promise<{ url: string; log: () => string; events?: string }>,
  signer?: { code: string; country: 'LT' | 'LV' | 'EE'; phone?: string },
  state?: { stopState: string; startState: string; stateFile?: string },
): Promise<{ rows: CheckRow[]; log: string }> {
  const port = await freePort();
  const token = `check-${port}-secret`;
  const proxy = await start(port, token);
  const { rows } = await checkProxy({
    proxyUrl: proxy.url,
    port,
    accessToken: token,
    exposesScreening: false,
    waitMs: 20_000,
    ...(signer ? { signer } : {}),
    ...state,
    ...(proxy.events ? { events: proxy.events } : {}),
  });
  return { rows, log: proxy.log() };
}

const failing = (rows: CheckRow[]) => rows.filter((row) => !row.ok).map((row) => row.id);
const events = (log: string) =>
  log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map(
      (line) =>
        JSON.parse(line) as {
          type: string;
          reason?: string;
          failure?: string;
          operation?: string;
          outcome?: string;
          person?: unknown;
          visitor?: string;
          limit?: string;
        },
    );

describe('the PHP proxy', () => {
  it('behind nginx and php-fpm with four workers: every row of check-proxy passes (its result hook run once at a time, failing closed without its state), and its events say what it refused', async () => {
    const results = join(scratch(), 'results.jsonl');
    const stateFile = join(scratch(), 'state.sqlite');
    const { rows, log } = await check(
      (port, token) =>
        nginxFpm({
          ESIGN_BASE_URL: `http://127.0.0.1:${port}`,
          ESIGN_ACCESS_TOKEN: token,
          ESIGN_STATE_FILE: stateFile,
          ESIGN_RESULT_LOG: results,
          ESIGN_CHECK_HOOK_URL: `http://127.0.0.1:${port}/__probe/hook`,
          ESIGN_CHECK_HOOK_MS: '2000',
        }),
      undefined,
      { ...sqliteStateCommands(stateFile), stateFile },
    );
    assert.equal(rows.length, 32);
    assert.equal(rows.find((row) => row.id === 'state-at-rest')?.skipped, undefined, 'its state file read');
    assert.deepEqual(
      failing(rows),
      [],
      `${JSON.stringify(rows.filter((r) => !r.ok))}\n${log
        .split('\n')
        .filter((line) => line.includes('[esign-proxy]') || /PHP (Warning|Fatal|Notice)/.test(line))
        .join('\n')
        .slice(0, 3000)}`,
    );
    assert.deepEqual(
      rows.filter((row) => row.skipped).map((row) => row.id),
      ['signer-gate', 'signer-country', 'upstream-timeout'],
    );
    const said = events(log);
    // the Node proxy's events, with its fields, by the one schema
    assertProxyEvents(said, 'the PHP proxy', ['started', 'finished', 'refused', 'failed']);
    // the Node proxy's events, by the same names
    const reasons = new Set(said.filter((e) => e.type === 'refused').map((e) => e.reason));
    // (a body over the limit is refused by nginx before PHP sees it)
    for (const reason of ['not-allowed', 'invalid-field', 'content-type', 'cross-site', 'not-your-session', 'rate-limited']) {
      assert.ok(reasons.has(reason), `a refusal for ${reason} was written (${[...reasons].join(', ')})`);
    }
    assert.ok(
      said.some((e) => e.type === 'failed' && e.failure === 'service-invalid'),
      'the redirect of the service is a failure',
    );
    // a rate limit's refusal names the limit it met, as the Node proxy's does
    const limited = said.filter((e) => e.type === 'refused' && e.reason === 'rate-limited');
    assert.ok(limited.length > 0 && limited.every((e) => ['visitor', 'person', 'address'].includes(String(e.limit))), JSON.stringify(limited));
    // the site's refusal of a result ended its session as the Node proxy's does
    assert.ok(
      said.some((e) => e.type === 'finished' && e.outcome === 'site-refused'),
      'a finished event with site-refused',
    );
    assert.ok(
      said.some((e) => e.type === 'started' && e.operation === 'mobileLogin'),
      'a start',
    );
    assert.ok(
      said.some((e) => e.type === 'finished' && e.operation === 'mobileLoginStatus' && e.outcome === 'ok'),
      'the verified result reached on_result and ended the session',
    );
    assert.doesNotMatch(log, /"code":"\d{11}"/, 'no personal code in clear');
    // on_result got the Node proxy's operation ids, as the events have them
    const handed = readFileSync(results, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { operation: string; status: string });
    assert.ok(
      handed.length > 0 && handed.every((r) => r.status === 'ok' && /^(mobile|smartId)(Login|Sign|HashSign)Status$/.test(r.operation)),
      JSON.stringify(handed),
    );
    assert.ok(handed.some((r) => r.operation === 'mobileLoginStatus'));
    assert.doesNotMatch(log, /check-\d+-secret/, 'the access token is in no log line');
  });

  it('behind nginx and php-fpm with its signing gate (ESIGN_SIGNER): every row passes with check-proxy --signer, and a signing the service made as another person is not handed over', async () => {
    const { rows, log } = await check(
      (port, token) =>
        nginxFpm({
          ESIGN_BASE_URL: `http://127.0.0.1:${port}`,
          ESIGN_ACCESS_TOKEN: token,
          ESIGN_STATE_FILE: join(scratch(), 'state.sqlite'),
          ESIGN_SIGNER: `${GATE_PERSON.code},${GATE_PERSON.country},${GATE_PERSON.phone}`,
        }),
      GATE_PERSON,
    );
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.ok(events(log).some((e) => e.type === 'refused' && e.reason === 'signer-mismatch'));
    const token = 'php-gate-secret';
    const impostor = await startImpostor(token);
    try {
      const env = { ESIGN_ACCESS_TOKEN: token, ESIGN_SIGNER: `${GATE_PERSON.code},${GATE_PERSON.country}`, ESIGN_STATE_FILE: join(scratch(), 'state.sqlite') };
      const honest = await signThrough((await phpServer({ ...env, ESIGN_BASE_URL: impostor.honest })).url);
      assert.equal(honest.json['status'], 'ok', JSON.stringify(honest.json).slice(0, 200));
      const fooled = await phpServer({ ...env, ESIGN_BASE_URL: impostor.url, ESIGN_STATE_FILE: join(scratch(), 'state.sqlite') });
      const refused = await signThrough(fooled.url);
      assert.deepEqual([refused.status, refused.json['proxy_error'], refused.json['file']], [403, 'signer-mismatch', undefined]);
      assert.match(fooled.log(), /a finished mobileSignStatus was signed by another person than the signer: not handed over/);
    } finally {
      await impostor.close();
    }
  });

  it('a person is a country and a code at the far end too, and the signature it reads is the one the service added', async () => {
    const token = 'php-person-secret';
    await countryAndAddedSignatureHold(token, (service) =>
      phpServer({ ESIGN_BASE_URL: service, ESIGN_ACCESS_TOKEN: token, ESIGN_SIGNER: '40504040001,EE', ESIGN_STATE_FILE: join(scratch(), 'state.sqlite') }),
    );
  });

  it('mints its visitor ids (a planted one is replaced) and writes only a keyed digest of the visitor into its events', async () => {
    let php: { url: string; log: () => string } | null = null;
    await visitorIsMintedAndDigested(
      'php-visitor-secret',
      async (service, token) =>
        (php = await phpServer({
          ESIGN_BASE_URL: service,
          ESIGN_ACCESS_TOKEN: token,
          ESIGN_STATE_FILE: join(scratch(), 'state.sqlite'),
          ESIGN_RATE_LIMIT: '100,100,600',
        })),
      async () => {
        const started = () => events(php!.log()).filter((e) => e.type === 'started');
        await until(() => started().length >= 3, 'the three starts in the log');
        return started().map((e) => e.visitor ?? '');
      },
    );
  });

  it('gives a browser a new visitor id with its login, again to a late poll of it, as the Node proxy does', async () => {
    await loginRotatesVisitor((service) =>
      phpServer({ ESIGN_BASE_URL: service, ESIGN_ACCESS_TOKEN: 'php-rotation-secret', ESIGN_STATE_FILE: join(scratch(), 'state.sqlite') }),
    );
  });

  it('says an access token the service refuses in its log once a minute, and as a failed event each time', async () => {
    const sandbox = await startSandbox({ accessToken: 'the-right-token-123' });
    try {
      const php = await phpServer({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: 'a-wrong-token-456', ESIGN_STATE_FILE: join(scratch(), 'state.sqlite') });
      for (let i = 0; i < 3; i++) {
        const answer = await fetch(`${php.url}/smartid/login.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: '40504040001', country: 'EE' }),
        });
        assert.equal(((await answer.json()) as { error_code?: number }).error_code, 40003);
      }
      await until(() => events(php.log()).filter((e) => e.type === 'failed').length >= 3, 'the three failed events in the log');
      // (the one refusal before them is the test's own look at whether the server is up)
      assert.deepEqual(
        events(php.log())
          .filter((e) => e.type !== 'refused')
          .map((e) => [e.type, e.failure]),
        [
          ['failed', 'access-token'],
          ['failed', 'access-token'],
          ['failed', 'access-token'],
        ],
      );
      assert.equal(php.log().match(/refused the access token \(40003\) for smartIdLogin/g)?.length, 1, php.log());
      assert.ok(!php.log().includes('a-wrong-token-456'));
    } finally {
      await sandbox.close();
    }
  });

  it("under php -S: every row passes but the body limit, which PHP's built-in server cannot keep (it reads the whole body first)", async () => {
    const { rows } = await check((port, token) =>
      phpServer({ ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_STATE_FILE: join(scratch(), 'state.sqlite') }),
    );
    assert.equal(rows.length, 32);
    assert.deepEqual(failing(rows), ['body-limit'], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.match(rows.find((row) => row.id === 'body-limit')!.evidence ?? '', /→ 413 after 1024 MB were sent/, 'refused, but only after reading it all');
  });

  it("where nothing can renew a result's lease (proc_open disabled, no PHP CLI), takes it for on_result's whole time limit: a run longer than a lease still runs once, and the log says why once", async () => {
    // a service whose sessions finish at once; on_result takes 10 s, longer than a renewed lease (8 s)
    const service = createServer((req, res) => {
      req.resume();
      const answer = req.url?.includes('/status/')
        ? { status: 'ok', person: { code: '30303039914', country: 'LT' } }
        : { status: 'ok', token: `token-${Math.random().toString(36).slice(2)}`, control_code: '1234' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    servers.push(service);
    const runs: { token: string; at: string }[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        runs.push(JSON.parse(body) as { token: string; at: string });
        res.writeHead(204).end();
      });
    });
    servers.push(hook);
    for (const server of [service, hook]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = {
      ESIGN_ACCESS_TOKEN: 'php-lease-secret',
      ESIGN_BASE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
      ESIGN_CHECK_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
      ESIGN_CHECK_HOOK_MS: '10000',
    };
    const setups = {
      'proc_open disabled': nginxFpm({ ...base, ESIGN_STATE_FILE: join(scratch(), 'state.sqlite') }, 'php_admin_value[disable_functions] = proc_open\n'),
      'no PHP CLI': nginxFpm({ ...base, ESIGN_STATE_FILE: join(scratch(), 'state.sqlite'), ESIGN_PHP_CLI: join(scratch(), 'no-php-here') }),
      'a CLI renewing the lease': nginxFpm({ ...base, ESIGN_STATE_FILE: join(scratch(), 'state.sqlite') }),
    };
    const outcomes = await Promise.all(
      Object.entries(setups).map(async ([name, started]) => {
        const proxy = await started;
        const post = (path: string, cookie = '') =>
          fetch(`${proxy.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
            body: JSON.stringify(path.includes('/status/') ? {} : { code: '30303039914', country: 'LT' }),
          });
        const start = await post('/smartid/login.json');
        const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
        const { token } = (await start.json()) as { token: string };
        // polls as two tabs of the person would, each every 600 ms, until the result comes
        const answers: string[] = [];
        const tab = async () => {
          while (!answers.includes('ok') && answers.length < 60) {
            const answer = (await (await post(`/smartid/status/${token}.json`, cookie)).json()) as { status: string };
            answers.push(answer.status);
            await new Promise((resolve) => setTimeout(resolve, 600));
          }
        };
        await Promise.all([tab(), tab()]);
        return { name, token, answers, log: proxy.log() };
      }),
    );
    for (const { name, token, answers, log } of outcomes) {
      const mine = runs.filter((run) => run.token === token).map((run) => run.at);
      assert.deepEqual(mine, ['start', 'end'], `${name}: on_result ran once, not twice at once`);
      assert.ok(answers.filter((a) => a === 'waiting').length >= 4 && answers.every((a) => a === 'waiting' || a === 'ok'), `${name}: ${answers.join(',')}`);
      const finished = events(log).filter((e) => e.type === 'finished');
      assert.equal(finished.length, 1, `${name}: the session's end said once, though both tabs were told: ${JSON.stringify(finished)}`);
      const said = log.split('\n').filter((line) => line.includes('lease cannot be renewed here'));
      if (name === 'a CLI renewing the lease') assert.deepEqual(said, [], name);
      else {
        assert.equal(said.length, 1, `${name}: said once\n${log.slice(0, 2000)}`);
        assert.match(said[0]!, name === 'no PHP CLI' ? /no PHP command-line binary/ : /proc_open is disabled/);
        assert.match(said[0]!, /held for on_result's whole time limit \(31 s\)/);
      }
    }
  });

  it('behind php-fpm, a slow on_result (3 s, past the 1.5 s a browser here waits for a poll, as request-timeout sets it) loses no login: the poll the browser gave up on still ran it, and a later poll brings the result with the session cookie it set', async () => {
    // PHP runs on_result in the poll that claimed the result: the cookies it sets (a new session id
    // at a login) must leave with an answer, and PHP sets none once its answer is sent
    const service = createServer((req, res) => {
      req.resume();
      const answer = req.url?.includes('/status/')
        ? { status: 'ok', code: '30303039914', country: 'LT', name: 'A', surname: 'B' }
        : { status: 'ok', token: `token-${Math.random().toString(36).slice(2)}`, control_code: '1234' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    servers.push(service);
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const dir = scratch();
    const runs = join(dir, 'runs.txt');
    const host = join(dir, 'host.php');
    writeFileSync(
      host,
      `<?php
declare(strict_types=1);
require ${JSON.stringify(new URL('../../php/src/autoload.php', import.meta.url).pathname)};
if (parse_url((string) $_SERVER['REQUEST_URI'], PHP_URL_PATH) === '/esign/__me') {
    session_start(['read_and_close' => true]);
    echo json_encode($_SESSION['person'] ?? null);
    return;
}
return Esign\\Proxy\\Proxy::serve(new Esign\\Proxy\\Hooks(onResult: function (string $operation, string $token, string $visitor, stdClass $answer): void {
    usleep(3_000_000);
    session_start();
    session_regenerate_id(true);
    $_SESSION['person'] = $answer->code;
    session_write_close();
    file_put_contents(${JSON.stringify(runs)}, "$token\\n", FILE_APPEND);
}));
`,
    );
    const proxy = await nginxFpm(
      {
        ESIGN_ACCESS_TOKEN: 'php-slow-secret',
        ESIGN_BASE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
        ESIGN_STATE_FILE: join(dir, 'state.sqlite'),
      },
      `php_admin_value[session.save_path] = ${dir}\n`,
      host,
    );
    const post = (path: string, cookie: string, signal?: AbortSignal) =>
      fetch(`${proxy.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(path.includes('/status/') ? {} : { code: '30303039914', country: 'LT' }),
        ...(signal ? { signal } : {}),
      });
    const start = await post('/smartid/login.json', '');
    const visitor = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { token } = (await start.json()) as { token: string };
    // as the widget polls: every second, each poll given up after 1.5 s (its request-timeout="1500")
    const answers: string[] = [];
    let cookies: string[] = [];
    while (!answers.includes('ok') && answers.length < 40) {
      const answer = await post(`/smartid/status/${token}.json`, visitor, AbortSignal.timeout(1_500)).then(
        async (response) => ((cookies = response.headers.getSetCookie()), ((await response.json()) as { status: string }).status),
        () => 'given up',
      );
      answers.push(answer);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    assert.equal(answers[0], 'given up', answers.join(','));
    assert.equal(answers.at(-1), 'ok', answers.join(','));
    assert.ok(
      answers.slice(1, -1).every((a) => a === 'waiting'),
      answers.join(','),
    );
    assert.deepEqual(readFileSync(runs, 'utf8').trim().split('\n'), [token], 'on_result ran once');
    const session = cookies.find((line) => line.startsWith('PHPSESSID='))?.split(';')[0];
    assert.ok(session, `the session cookie on_result set comes with the result: ${JSON.stringify(cookies)}`);
    assert.equal(await (await fetch(`${proxy.url}/__me`, { headers: { cookie: session } })).text(), '"30303039914"', 'that cookie is the logged-in session');
    // the limit said to the operator, once: this poll waited for on_result where esign-proxy answers after 2 s
    assert.equal(proxy.log().match(/on_result took [3-9]\.\d s: the poll that ran it waited as long/g)?.length, 1, proxy.log().slice(-2000));
  });

  it("installs by Composer from a path repository: a site's own front controller with its hooks serves the proxy on every row php -S can keep, its own pages untouched", async () => {
    const site = scratch();
    // docs/proxy-php.md's composer.json as a reader copies it, the package's folder where the npm package has it here
    const doc = [...readFileSync('docs/proxy-php.md', 'utf8').matchAll(/```json\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((block) => block.includes('esign-elements/esign-proxy'));
    const asked = JSON.parse(doc!) as { require: Record<string, string>; repositories: { type: string; url: string }[] };
    assert.equal(asked.repositories[0]!.url, 'node_modules/esign-elements/dist/proxies/php');
    writeFileSync(
      join(site, 'composer.json'),
      JSON.stringify({
        name: 'a/site',
        require: asked.require,
        repositories: [{ 'packagist.org': false }, { ...asked.repositories[0], url: new URL('../../php', import.meta.url).pathname }],
      }),
    );
    execFileSync('composer', ['install', '--no-interaction', '--no-progress', '--quiet'], {
      cwd: site,
      env: { ...process.env, COMPOSER_HOME: join(site, '.composer') },
    });
    const results = join(site, 'results.txt');
    writeFileSync(
      join(site, 'index.php'),
      `<?php
declare(strict_types=1);
require __DIR__ . '/vendor/autoload.php';

use Esign\\Proxy\\Hooks;
use Esign\\Proxy\\Proxy;

if (($_SERVER['REQUEST_URI'] ?? '') === '/') {
    echo "the site's own page";
    return true;
}
return Proxy::serve(new Hooks(onResult: function (string $operation, string $token, string $visitor, stdClass $answer): void {
    file_put_contents(${JSON.stringify(results)}, "$operation\\n", FILE_APPEND);
}));
`,
    );
    let own = '';
    const { rows } = await check(async (port, token) => {
      const at = await freePort();
      own = `http://127.0.0.1:${at}/`;
      const { log } = await run(
        'php',
        ['-S', `127.0.0.1:${at}`, join(site, 'index.php')],
        { ESIGN_BASE_URL: `http://127.0.0.1:${port}`, ESIGN_ACCESS_TOKEN: token, ESIGN_STATE_FILE: join(site, 'state.sqlite') },
        at,
      );
      return { url: `http://127.0.0.1:${at}/esign`, log };
    });
    assert.deepEqual(failing(rows), ['body-limit'], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.ok(readFileSync(results, 'utf8').split('\n').includes('mobileLoginStatus'), "the site's own onResult took the results");
    assert.equal(await (await fetch(own)).text(), "the site's own page");
  });

  it('two PHP processes share one state: a session is bound to its visitor through either, and the per-person limit counts starts through both', async () => {
    let forwarded = 0;
    const service = createServer((req, res) => {
      forwarded++;
      const url = req.url ?? '';
      req.resume();
      const answer = url.includes('/status/') ? { status: 'waiting' } : { status: 'ok', token: `token-${forwarded}`, control_code: '1234' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    servers.push(service);
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const env = {
      ESIGN_BASE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
      ESIGN_ACCESS_TOKEN: 'php-shared-secret',
      ESIGN_RATE_LIMIT: '100,2,600',
      ESIGN_STATE_FILE: join(scratch(), 'state.sqlite'),
    };
    const [one, two] = [await phpServer(env), await phpServer(env)];
    const post = (base: string, path: string, body: unknown, cookie = '') =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });

    const started = await post(one.url, '/smartid/login.json', { code: '30303039914', country: 'LT' });
    assert.equal(started.status, 200);
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0]!;
    assert.match(cookie, /^esign-visitor=[\w-]{16,64}$/);
    const { token } = (await started.json()) as { token: string };

    const stranger = await post(two.url, `/smartid/status/${token}.json`, {});
    assert.equal(stranger.status, 404, 'another visitor cannot poll it through the other process');
    assert.equal(((await stranger.json()) as { error_code: number }).error_code, 40402);
    const owner = await post(two.url, `/smartid/status/${token}.json`, {}, cookie);
    assert.equal(owner.status, 200, 'its own visitor can, through the other process');
    assert.equal(((await owner.json()) as { status: string }).status, 'waiting');

    // the person's second start through the second process, then a third through the first
    assert.equal((await post(two.url, '/smartid/login.json', { code: '30303039914', country: 'LT' })).status, 200);
    const third = await post(one.url, '/smartid/login.json', { code: '30303039914', country: 'LT' });
    assert.equal(third.status, 429, 'the third start of one person is refused, whichever process counts it');
    assert.ok(Number(third.headers.get('retry-after')) > 0);
    assert.equal(forwarded, 3, 'two starts and one poll reached the service; nothing refused did');
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from 'esign-sandbox';
import { freePort, scratchDir, startedByThisFile } from './processes.js';
import { untilAnswering } from './wait.js';

// The PHP proxy's state: ESIGN_STATE_FILE, outside the system's temporary folder (refused there, and
// refused unset, unless ESIGN_DEVELOPMENT=1, which keeps it in a 0700 folder of the account's own
// there, its files 0600; a folder of that name open to others is refused). And nothing a login
// leaves in it is usable by whoever reads it: no cookie, visitor id, session token, code or address in clear.

const { children } = startedByThisFile();
const TOKEN = 'state-at-rest-token';
const sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 100 });
after(() => sandbox.close());
const PHP_PROXY = new URL('../../php/proxy.php', import.meta.url).pathname;
const uid = process.getuid?.() ?? 0;

let lastLog = () => '';

async function phpProxy(env: Record<string, string>, script = PHP_PROXY): Promise<string> {
  const port = await freePort();
  const child = spawn('php', ['-S', `127.0.0.1:${port}`, script], {
    env: { ...process.env, ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  await untilAnswering(`http://127.0.0.1:${port}/`, child, () => log);
  lastLog = () => log;
  return `http://127.0.0.1:${port}/esign`;
}

/** A login started through the proxy: what makes it write its state. */
async function startLogin(endpoint: string): Promise<Response> {
  const origin = new URL(endpoint).origin;
  return fetch(`${endpoint}/smartid/login.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ code: '40504040001', country: 'EE' }),
  });
}

function assertPrivate(dir: string): void {
  const folder = join(dir, `esign-proxy-${uid}`);
  assert.equal(statSync(folder).mode & 0o777, 0o700, "the folder is this account's alone");
  const files = readdirSync(folder);
  assert.ok(files.includes('state.sqlite'), `the state is there: ${files.join(', ')}`);
  for (const file of files) assert.equal(statSync(join(folder, file)).mode & 0o077, 0, `${file} readable by this account alone`);
}

describe('the PHP proxy keeps its state where no other account reads it, and nothing in it is usable', () => {
  it("refuses to keep its state in the system's temporary folder, or nowhere said, unless told it is development", async () => {
    const tmp = scratchDir('esign-php-tmp-');
    const settings: Record<string, string>[] = [{ ESIGN_STATE_FILE: '', TMPDIR: tmp }, { ESIGN_STATE_FILE: join(tmp, 'state.sqlite') }];
    for (const env of settings) {
      const refused = await startLogin(await phpProxy(env));
      assert.equal(refused.status, 500);
      assert.equal(((await refused.json()) as { proxy_error: string }).proxy_error, 'misconfigured');
      assert.match(lastLog(), /ESIGN_STATE_FILE/);
      assert.doesNotMatch(lastLog(), new RegExp(TOKEN));
    }
    assert.deepEqual(readdirSync(tmp), [], 'nothing kept there');
  });

  it('in development, by default in a 0700 folder of its own, its files 0600; a folder of that name open to others is refused', async () => {
    const tmp = scratchDir('esign-php-tmp-');
    const started = await startLogin(await phpProxy({ ESIGN_DEVELOPMENT: '1', TMPDIR: tmp }));
    assert.equal(started.status, 200, await started.text());
    assertPrivate(tmp);
    const open = scratchDir('esign-php-open-');
    mkdirSync(join(open, `esign-proxy-${uid}`), { mode: 0o777 });
    spawnSync('chmod', ['0777', join(open, `esign-proxy-${uid}`)]);
    const refused = await startLogin(await phpProxy({ ESIGN_DEVELOPMENT: '1', TMPDIR: open }));
    assert.equal(refused.status, 500);
    assert.equal(((await refused.json()) as { proxy_error: string }).proxy_error, 'misconfigured');
    assert.deepEqual(readdirSync(join(open, `esign-proxy-${uid}`)), [], 'nothing kept there');
  });

  it("after a login into the site's session, the state file holds no cookie, visitor id, session token, code or address in clear; a late poll still gets the session's cookie back", async () => {
    const dir = scratchDir('esign-php-login-');
    const endpoint = await phpProxy(
      { ESIGN_DEVELOPMENT: '1', ESIGN_STATE_FILE: join(dir, 'state.sqlite'), ESIGN_LIMIT_BY_ADDRESS: '1' },
      new URL('../../php/session-recipe.php', import.meta.url).pathname,
    );
    const origin = new URL(endpoint).origin;
    const post = (path: string, body: unknown, cookie = '') =>
      fetch(`${endpoint}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    const start = await post('/smartid/login.json', { code: '40504040001', country: 'EE' });
    const visitor = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const { token } = (await start.json()) as { token: string };
    let finished: Response | null = null;
    for (let i = 0; i < 40 && !finished; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const poll = await post(`/smartid/status/${token}.json`, {}, visitor);
      if (((await poll.clone().json()) as { status: string }).status !== 'waiting') finished = poll;
    }
    assert.equal(((await finished!.json()) as { status: string }).status, 'ok');
    const cookies = finished!.headers.getSetCookie().map((line) => line.split(';')[0]!);
    const session = cookies.find((c) => c.startsWith('PHPSESSID='))!;
    const rotated = cookies.find((c) => c.startsWith('esign-visitor='))!;
    assert.ok(session && rotated, JSON.stringify(cookies));
    // every byte the state keeps (the database and its write-ahead log)
    const kept = readdirSync(dir)
      .map((file) => readFileSync(join(dir, file)).toString('latin1'))
      .join('\n');
    for (const [what, secret] of [
      ["the site's session cookie", session.split('=')[1]!],
      ['the visitor id before the login', visitor.split('=')[1]!],
      ['the visitor id the login gave', rotated.split('=')[1]!],
      ['the personal code', '40504040001'],
      ['the session token', token],
      ['the address', '127.0.0.1'],
    ] as const) {
      assert.ok(!kept.includes(secret), `${what} is in the state file in clear`);
    }
    // sealed, not lost: a late poll of the finished login (its answer lost on the way) gets the cookies again
    await new Promise((resolve) => setTimeout(resolve, 600));
    const late = await post(`/smartid/status/${token}.json`, {}, visitor);
    assert.equal(((await late.json()) as { status: string }).status, 'ok');
    assert.ok(
      late.headers.getSetCookie().some((line) => line.startsWith(`${session};`)),
      'the session cookie again',
    );
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkProxy, startSandbox, type RunningSandbox } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { createApp } from '../../examples/sessions/express-session.js';
import { CookieJar, b64, send, serverPool } from './harness.js';
import { freePort, startedByThisFile } from './processes.js';
import { untilAnswering } from './wait.js';

// The recipes of docs/host-sessions.md, run for real: the verified person into the host's own
// session (express-session, PHP's $_SESSION), and signing only as that person.

const TOKEN = 'host-sessions-token';
const { children } = startedByThisFile();
const serve = serverPool();
const scratch = mkdtempSync(join(tmpdir(), 'esign-sessions-'));
let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 300 });
});
after(async () => {
  await sandbox?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A Smart-ID login of the sandbox's OK person through the host, as the widget makes it: start, then polls until it ends. */
async function logIn(base: string, jar: CookieJar): Promise<Record<string, unknown>> {
  const start = await send(`${base}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
  assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setTimeout(resolve, 600));
    const poll = await send(`${base}/esign/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar });
    if (poll.json.status !== 'waiting') return poll.json;
  }
  return assert.fail('the login did not end');
}

const PDF = { type: 'pdf', pdf: { files: [{ name: 'contract.pdf', content: b64(samplePdf('Recipe')) }] } };
const signAs = (base: string, jar: CookieJar, code: string) => send(`${base}/esign/smartid/sign.json`, 'POST', { code, country: 'EE', ...PDF }, false, { jar });

/** What every recipe must show: the person in the host's session after a login, and signing only as them. */
async function recipeHolds(base: string): Promise<void> {
  const jar = new CookieJar();
  assert.equal((await send(`${base}/me`, 'GET', undefined, false, { jar })).status, 401, 'nobody before the login');
  assert.equal((await signAs(base, jar, '40504040001')).json.proxy_error, 'signer-unknown', 'no signing before the login');
  const done = await logIn(base, jar);
  assert.equal(done.status, 'ok');
  const me = await send(`${base}/me`, 'GET', undefined, false, { jar });
  assert.equal(me.status, 200);
  assert.deepEqual(me.json, { code: '40504040001', name: 'OK', surname: 'TESTNUMBER', country: 'EE' });
  // another browser is nobody
  assert.equal((await send(`${base}/me`, 'GET', undefined, false, { jar: new CookieJar() })).status, 401);
  // signing: as the person logged in only
  const other = await signAs(base, jar, '30303039914');
  assert.deepEqual([other.status, other.json.proxy_error], [403, 'signer-mismatch']);
  // a person is a country and a code: the same digits in Lithuania are somebody else
  const sameDigits = await send(`${base}/esign/smartid/sign.json`, 'POST', { code: '40504040001', country: 'LT', ...PDF }, false, { jar });
  assert.deepEqual([sameDigits.status, sameDigits.json.proxy_error], [403, 'signer-mismatch']);
  assert.equal((await signAs(base, jar, '40504040001')).json.status, 'ok');
}

/**
 * A login whose finishing answer is lost on the way (a phone between networks): the browser never
 * gets that answer's cookies, and polls again. The next answer carries the host's session all the
 * same, without the result being handed over twice.
 */
async function loginSurvivesALostAnswer(base: string): Promise<void> {
  const jar = new CookieJar();
  const start = await send(`${base}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
  assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
  const path = `${base}/esign/smartid/status/${start.json.token}.json`;
  let lost: Awaited<ReturnType<typeof send>> | null = null;
  for (let i = 0; i < 30 && !lost; i++) {
    await new Promise((resolve) => setTimeout(resolve, 600));
    // the browser's cookies go, nothing of the answer is kept
    const poll = await send(path, 'POST', {}, false, { jar: null, headers: { cookie: jar.header(base) } });
    if (poll.json.status !== 'waiting') lost = poll;
  }
  assert.equal(lost?.json.status, 'ok', JSON.stringify(lost?.json));
  assert.equal((await send(`${base}/me`, 'GET', undefined, false, { jar })).status, 401, 'the lost answer gave this browser nothing');
  await new Promise((resolve) => setTimeout(resolve, 600));
  const again = await send(path, 'POST', {}, false, { jar });
  assert.equal(again.json.status, 'ok', JSON.stringify(again.json));
  const me = await send(`${base}/me`, 'GET', undefined, false, { jar });
  assert.equal(me.status, 200, "the next answer carried the host's session");
  assert.equal(me.json.code, '40504040001');
}

/** A process of a recipe, once its port answers. */
async function started(command: string, args: string[], env: Record<string, string>, cwd: string, port: number): Promise<string> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const base = `http://127.0.0.1:${port}`;
  await untilAnswering(`${base}/me`, child, () => `${command}: ${log}`);
  return base;
}

describe('host sessions: the recipes', () => {
  it('Express with express-session: the visitor is the session id, onResult writes the person into a new session, signer reads it', async () => {
    const base = await serve(createApp({ baseUrl: sandbox.url, accessToken: TOKEN, sessionSecret: 'recipe-session-secret' }));
    await recipeHolds(base);
    // (a lost answer at the login is not followed here: the visitor is the session's id, which the
    // login destroys, so the next poll is another visitor's and is told the session was not found)
  });

  it("PHP with $_SESSION: on_result starts the browser's session with a new id, signer reads it", async () => {
    const port = await freePort();
    const sessions = mkdtempSync(join(scratch, 'php-'));
    const base = await started(
      'php',
      ['-d', `session.save_path=${sessions}`, '-d', 'display_errors=stderr', '-S', `127.0.0.1:${port}`, 'session-recipe.php'],
      { ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_STATE_FILE: join(sessions, 'state.sqlite'), ESIGN_DEVELOPMENT: '1' },
      new URL('../../php/', import.meta.url).pathname,
      port,
    );
    await recipeHolds(base);
    await loginSurvivesALostAnswer(base);
  });
});

/**
 * check-proxy against a recipe as it is written: it logs in through the proxy first as a sandbox
 * person (--login), then checks that this person may sign and nobody else may, with every other row.
 */
async function recipePassesCheck(startRecipe: (baseUrl: string, token: string) => Promise<string>, failing: string[] = []): Promise<void> {
  const port = await freePort();
  const token = `recipe-check-${port}`;
  const base = await startRecipe(`http://127.0.0.1:${port}`, token);
  const { rows } = await checkProxy({ proxyUrl: `${base}/esign`, port, accessToken: token, waitMs: 20_000, login: { code: '30303039914', country: 'LT' } });
  assert.deepEqual(
    rows.filter((row) => !row.ok).map((row) => row.id),
    failing,
    JSON.stringify(rows.filter((row) => !row.ok)),
  );
  assert.deepEqual(
    rows.filter((row) => row.skipped).map((row) => row.id),
    ['upstream-timeout', 'result-first', 'site-refused', 'slow-hook', 'fail-closed', 'events', 'state-at-rest'],
    'the signing gate is checked, as the person logged in',
  );
}

describe('host sessions: check-proxy logs in first, and the recipes pass it as written', () => {
  it('Express with express-session', async () => {
    await recipePassesCheck((baseUrl, accessToken) => serve(createApp({ baseUrl, accessToken, sessionSecret: 'recipe-check-secret' })));
  });

  it('PHP with $_SESSION', async () => {
    await recipePassesCheck(
      async (baseUrl, accessToken) => {
        const port = await freePort();
        const sessions = mkdtempSync(join(scratch, 'php-'));
        return started(
          'php',
          ['-d', `session.save_path=${sessions}`, '-d', 'display_errors=stderr', '-S', `127.0.0.1:${port}`, 'session-recipe.php'],
          { ESIGN_BASE_URL: baseUrl, ESIGN_ACCESS_TOKEN: accessToken, ESIGN_STATE_FILE: join(sessions, 'state.sqlite'), ESIGN_DEVELOPMENT: '1' },
          new URL('../../php/', import.meta.url).pathname,
          port,
        );
        // PHP's built-in server reads a whole body before the script runs (php-fpm refuses early)
      },
      ['body-limit'],
    );
  });
});

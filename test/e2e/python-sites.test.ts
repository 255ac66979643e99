import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkProxy, startSandbox, type RunningSandbox } from 'esign-sandbox';
import { esignProxyHarness } from '../node/esign-proxy-harness.js';
import { Browser, interactionUid } from '../node/oidc-harness.js';
import { freePort, scratchDir } from '../node/processes.js';
import { until } from '../node/wait.js';
import { docsNginx, signedDelivery, siteProcesses } from './site-harness.js';

// A Python site has no proxy of its own: it runs esign-proxy beside it and logs in by OpenID Connect
// (authlib), as docs/any-stack.md says. What the retired Python proxy's tests proved is proved here
// for the Python recipes behind esign-proxy, under several workers: check-proxy's rows with the site
// taking the deliveries, fifty logins at once each ending in its own person's session, and a login
// whose finishing answer was lost.

const TOKEN = 'python-sites-token';
const CLIENT_SECRET = 'the-python-sites-client-secret-01';
const SECRET = `whsec_${Buffer.from('the-python-sites-webhook-secret!').toString('base64')}`;
const RECIPES = new URL('../../examples/any-stack/', import.meta.url).pathname;
const { redisOnPort } = esignProxyHarness();
let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 300 });
});
after(() => sandbox?.close());

interface PythonSite {
  name: string;
  /** The site under a server with four workers, on a port. */
  command: (port: number) => [string, string[]];
}

const SITES: PythonSite[] = [
  {
    name: 'fastapi',
    command: (port) => [
      '/usr/bin/python3',
      ['-m', 'uvicorn', 'app:app', '--workers', '4', '--host', '127.0.0.1', '--port', String(port), '--log-level', 'warning'],
    ],
  },
  { name: 'django', command: (port) => ['gunicorn', ['-w', '4', '-b', `127.0.0.1:${port}`, 'recipe:application']] },
];

/** The persons who log in, in turn (the sandbox's Smart-ID persons who are ok), each a country and a code. */
const PERSONS = [
  { code: '40504040001', country: 'EE' },
  { code: '40504040001', country: 'LT' },
  { code: '30303039914', country: 'LT' },
  { code: '050405-10009', country: 'LV' },
  { code: '320000-10003', country: 'LV' },
];

const started = siteProcesses();

/** The webhook deliveries a site took, from its own table: their types by token. */
function taken(db: string): { type: string; token: string }[] {
  const read =
    'import json, sqlite3, sys; print(json.dumps([{"type": t, "token": k} for t, k in sqlite3.connect(sys.argv[1]).execute("SELECT type, token FROM deliveries")]))';
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', read, db], { encoding: 'utf8' })) as { type: string; token: string }[];
}

interface House {
  origin: string;
  /** esign-proxy itself, not through nginx (check-proxy tells its visitors apart by their own addresses). */
  proxyUrl: string;
  db: string;
  proxyLog: () => string;
  /** The site's own address (its webhook), not through nginx. */
  siteUrl: string;
  /** What the site wrote, for a failure's message. */
  siteLog: () => string;
  /** Stops the site's server and starts it again on its port, with the same table. */
  restartSite: () => Promise<void>;
}

/** esign-proxy (the provider, deliveries and the signer question to the site), the site under four workers, nginx in front with docs/any-stack.md's block. */
async function house(site: PythonSite, serviceUrl = sandbox.url, accessToken = TOKEN, env: Record<string, string> = {}): Promise<House> {
  const [sitePort, proxyPort, frontPort] = [await freePort(), await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${frontPort}`;
  const clients = join(scratchDir('esign-py-clients-'), 'clients.json');
  writeFileSync(
    clients,
    JSON.stringify([{ client_id: 'site', client_secret: CLIENT_SECRET, redirect_uris: [`${origin}/callback`], client_name: `A site in ${site.name}` }]),
  );
  const proxy = await started(
    process.execPath,
    [new URL('../../bin/esign-proxy.js', import.meta.url).pathname],
    {
      PORT: String(proxyPort),
      ESIGN_BASE_URL: serviceUrl,
      ESIGN_ACCESS_TOKEN: accessToken,
      ESIGN_WEBHOOK_URL: `http://127.0.0.1:${sitePort}/esign-webhook`,
      ESIGN_WEBHOOK_SECRET: SECRET,
      ESIGN_OIDC_ISSUER: `${origin}/esign/oidc`,
      ESIGN_OIDC_CLIENTS: clients,
      ESIGN_OIDC_SUBJECT_SECRET: 'the-python-sites-subject-secret',
      ESIGN_TRUST_PROXY: '1',
      ...env,
    },
    `http://127.0.0.1:${proxyPort}/healthz`,
  );
  await docsNginx(started, proxyPort, sitePort, frontPort);
  const db = join(scratchDir('esign-py-db-'), 'site.sqlite');
  const [command, args] = site.command(sitePort);
  const startSite = () =>
    started(
      command,
      args,
      {
        PORT: String(sitePort),
        PUBLIC_URL: origin,
        ESIGN_OIDC_ISSUER: `${origin}/esign/oidc`,
        OIDC_CLIENT_ID: 'site',
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        ESIGN_WEBHOOK_SECRET: SECRET,
        SESSION_SECRET: 'the-python-sites-session-secret',
        DJANGO_SECRET_KEY: 'the-python-sites-django-secret-key-0123456789',
        SITE_DB: db,
      },
      `http://127.0.0.1:${sitePort}/`,
      join(RECIPES, site.name),
    );
  let running = await startSite();
  const restartSite = async () => {
    const exited = new Promise((resolve) => running.child.once('exit', resolve));
    running.child.kill('SIGTERM');
    await exited;
    running = await startSite();
  };
  return {
    origin,
    proxyUrl: `http://127.0.0.1:${proxyPort}`,
    db,
    proxyLog: proxy.log,
    siteUrl: `http://127.0.0.1:${sitePort}`,
    siteLog: () => running.log(),
    restartSite,
  };
}

/** One person's login on the provider's page, from the site's Log in to the site's own session; the session token the login had. */
async function logIn(browser: Browser, person: { code: string; country: string }, loseTheAnswer = false, siteLog = () => ''): Promise<string> {
  const asked = await browser.navigate('/login');
  const uid = interactionUid(asked);
  assert.ok(uid, `the provider's page: ${asked.url} ${asked.answer.status} ${asked.answer.status >= 500 ? siteLog().slice(-1500) : ''}`);
  const begin = () =>
    browser.fetch('/esign/smartid/login.json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(person),
    });
  let start = await begin();
  // a node under the whole suite's load may turn a start away for a moment (429 busy, Retry-After):
  // the person is asked to try again, and does (no other refusal is tried again)
  for (let tries = 0; start.status === 429 && tries < 5; tries++) {
    const refusal = (await start.clone().json()) as { proxy_error?: string };
    if (refusal.proxy_error !== 'busy') break;
    await new Promise((resolve) => setTimeout(resolve, Number(start.headers.get('retry-after')) * 1000));
    start = await begin();
  }
  const started = (await start.json()) as { token?: string };
  assert.ok(started.token, `the login started: ${start.status} ${JSON.stringify(started)}`);
  const { token } = started;
  const poll = (lost: boolean) =>
    (lost ? browser.fetchLost.bind(browser) : browser.fetch.bind(browser))(`/esign/smartid/status/${token}.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
  let answer = { status: 'waiting' };
  for (let tries = 0; answer.status === 'waiting' && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    answer = (await (await poll(loseTheAnswer)).json()) as { status: string };
  }
  assert.equal(answer.status, 'ok', JSON.stringify(answer));
  if (loseTheAnswer) {
    // the answer that finished the login never came: the widget asks again, and is answered again
    let again = { status: 'waiting' };
    for (let tries = 0; again.status === 'waiting' && tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      again = (await (await poll(false)).json()) as { status: string };
    }
    assert.equal(again.status, 'ok', 'a later poll answers the same login');
  }
  const continued = await browser.fetch(`/esign/oidc/interaction/${uid}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const { location } = (await continued.json()) as { location?: string };
  assert.equal(continued.status, 200, `continued: ${continued.status}`);
  const home = await browser.navigate(location!);
  assert.equal(
    new URL(home.url).pathname,
    '/',
    `back on the site: ${home.url} ${home.answer.status} ${home.answer.status >= 500 ? siteLog().slice(-3000) : ''}`,
  );
  return token;
}

async function me(browser: Browser): Promise<{ status: number; person: Record<string, string> }> {
  const answer = await browser.fetch('/me');
  return { status: answer.status, person: (await answer.json()) as Record<string, string> };
}

for (const site of SITES) {
  describe(`a Python site (${site.name}, four workers) behind esign-proxy`, () => {
    it('fifty people log in at once, each into a session of their own person; each login is one delivery the site took once', async () => {
      // fifty logins of five persons from one address in a minute: more than the default limits allow
      const { origin, db, siteLog } = await house(site, sandbox.url, TOKEN, { ESIGN_RATE_LIMIT: '20,40,600,200' });
      const logins = Array.from({ length: 50 }, (_, i) => ({ browser: new Browser(origin), person: PERSONS[i % PERSONS.length]! }));
      const tokens = await Promise.all(logins.map(({ browser, person }) => logIn(browser, person, false, siteLog)));
      const sessions = await Promise.all(logins.map(({ browser }) => me(browser)));
      assert.deepEqual(
        sessions.map(({ status, person }) => [status, person['code'], person['country']]),
        logins.map(({ person }) => [200, person.code, person.country]),
      );
      assert.equal(new Set(tokens).size, 50);
      // the deliveries are notifications, sent once the login went on: one per login, each taken once, whichever worker took it
      await until(() => taken(db).filter((d) => d.type === 'login.verified').length >= 50, 'the fifty logins notified', 30_000, 200);
      const deliveries = taken(db).filter((d) => d.type === 'login.verified');
      assert.deepEqual(deliveries.map((d) => d.token).sort(), [...tokens].sort());
      // a browser that did not log in is nobody
      assert.equal((await me(new Browser(origin))).status, 401);
    });

    it('a delivery replayed after the site restarted is taken once: its webhook-id is in a table every start and worker sees', async () => {
      const { db, siteUrl, restartSite } = await house(site);
      const body = JSON.stringify({
        type: 'sign.verified',
        timestamp: new Date().toISOString(),
        data: { kind: 'sign', token: 'a-signing-session-token', result: {} },
      });
      const headers = signedDelivery(body, SECRET, 'msg_restarted000000000000');
      const first = await fetch(`${siteUrl}/esign-webhook`, { method: 'POST', headers, body });
      assert.ok(first.status >= 200 && first.status < 300, `${first.status}`);
      await restartSite();
      const again = await fetch(`${siteUrl}/esign-webhook`, { method: 'POST', headers, body });
      assert.ok(again.status >= 200 && again.status < 300, `${again.status}`);
      assert.deepEqual(taken(db), [{ type: 'sign.verified', token: 'a-signing-session-token' }], 'one row, whichever start took it');
    });

    it("a login whose finishing answer was lost ends in the person's session all the same, delivered once", async () => {
      const { origin, db } = await house(site);
      const browser = new Browser(origin);
      const token = await logIn(browser, PERSONS[3]!, true);
      const { status, person } = await me(browser);
      assert.deepEqual([status, person['code'], person['country']], [200, '050405-10009', 'LV']);
      await until(() => taken(db).some((d) => d.token === token), 'the login notified', 20_000, 200);
      assert.equal(taken(db).filter((d) => d.token === token).length, 1);
    });
  });
}

describe('check-proxy against esign-proxy with a Python site taking its deliveries', () => {
  it('passes every row it can check there; the site took the deliveries of the logins it made', async () => {
    const port = await freePort();
    const token = `python-check-${port}`;
    const redis = await redisOnPort();
    const { proxyUrl, db, proxyLog } = await house(SITES[0]!, `http://127.0.0.1:${port}`, token, { ESIGN_REDIS_URL: redis.url });
    const { rows } = await checkProxy({
      proxyUrl: `${proxyUrl}/esign`,
      port,
      accessToken: token,
      waitMs: 20_000,
      stopState: `kill -STOP ${redis.pid}`,
      startState: `kill -CONT ${redis.pid}`,
    });
    assert.deepEqual(
      rows.filter((row) => !row.ok).map((row) => row.id),
      [],
      JSON.stringify(rows.filter((row) => !row.ok)),
    );
    // no signer question asked (the site's own rows), no result hook of its own to report (the deliveries are the site's)
    assert.deepEqual(
      rows.filter((row) => row.skipped).map((row) => row.id),
      ['signer-gate', 'signer-country', 'upstream-timeout', 'result-first', 'site-refused', 'slow-hook', 'events', 'state-at-rest'],
    );
    await until(() => taken(db).some((d) => d.type === 'login.verified'), 'the site took login deliveries', 20_000, 200);
    const logins = taken(db).filter((d) => d.type === 'login.verified');
    assert.equal(new Set(logins.map((d) => d.token)).size, logins.length, 'each once');
    assert.ok(!proxyLog().includes(token), 'the token in no line');
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { installExample } from './example-flows.js';
import { freePort, scratchDir } from '../node/processes.js';
import { docsNginx, signedDelivery, siteProcesses } from './site-harness.js';
import { httpsRequest, testCa } from './test-ca.js';

// docs/any-stack.md's recipes run as a host runs them: nginx in front with TLS (a CA the test
// makes, which Chromium and each site trust), esign-proxy at /esign/ and the site at /, one origin.
// The login's every step stays on https, and every cookie is Secure. In Chromium: a login by OpenID Connect with the stack's own client (the
// widget on the site's page, or the provider's page) becomes the site's own session, the page greets
// from the server, and signing is gated to that person by the site's answer to the signer question.
// A forged or an old delivery is refused; none makes a session.

const TOKEN = 'any-stack-token';
const CLIENT_SECRET = 'the-any-stack-client-secret-0123';
const SECRET = `whsec_${Buffer.from('the-any-stack-webhook-secret-32b!').toString('base64')}`;
const ca = testCa();
let sandbox: RunningSandbox;
let browser: Browser;
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 300 });
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ca.chromiumArg] });
});
after(async () => {
  await browser?.close();
  await sandbox?.close();
});

const RECIPES = new URL('../../examples/any-stack/', import.meta.url).pathname;

interface Recipe {
  name: string;
  /** The command that serves the site on PORT, from its folder. */
  command: (dir: string) => [string, string[]];
  /** Where an OpenID Connect recipe's person logs in: the widget on the site's own page, or the provider's page after the site's Log in button. */
  loginOn?: 'site' | 'provider';
  /** What the site needs before it starts (its packages, its build), from its folder. */
  prepare?: (dir: string) => Promise<void>;
}

/** A Node site with its own lockfile: installed as the lockfile says, then built by Next.js. */
async function nextSite(dir: string): Promise<void> {
  await installExample(dir);
  const { NODE_OPTIONS: _, ...env } = process.env;
  const built = spawnSync(process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: dir,
    env: { ...env, NEXT_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
    maxBuffer: 32 * 1024 * 1024,
  });
  assert.equal(built.status, 0, `next build: ${built.stdout}\n${built.stderr}`);
}

const recipes: Recipe[] = [
  // built, then run as this test's own child (`go run` would leave the site running as a grandchild);
  // Debian's go-oidc and x/oauth2 from its GOPATH (no module proxy needed)
  {
    name: 'go',
    command: (dir) => {
      const site = join(scratchDir('esign-go-'), 'site');
      return ['sh', ['-c', `GO111MODULE=off GOPATH=/usr/share/gocode go build -o "${site}" "${join(dir, 'main.go')}" && exec "${site}"`]];
    },
  },
  // OmniAuth's openid_connect strategy (Debian's), the provider's page
  { name: 'ruby', loginOn: 'provider', command: (dir) => ['ruby', [join(dir, 'app.rb')]] },
  // Rails 6.1 (Debian's), one file: OmniAuth with Rails' authenticity token, the provider's page
  { name: 'rails', loginOn: 'provider', command: (dir) => ['ruby', [join(dir, 'app.rb')]] },
  { name: 'django', command: (dir) => ['/usr/bin/python3', [join(dir, 'recipe.py')]] },
  // Debian's FastAPI and uvicorn, Starlette's own session, authlib as the OpenID Connect client
  { name: 'fastapi', command: (dir) => ['/usr/bin/python3', [join(dir, 'app.py')]] },
  // the JDK's launcher runs a single source file as it is (no build tool: no Maven here)
  { name: 'java', command: (dir) => ['java', [join(dir, 'Site.java')]] },
  // next-auth v4 in Next.js: esign-proxy as a custom provider by its discovery document, the provider's page
  {
    name: 'next-auth',
    loginOn: 'provider',
    prepare: nextSite,
    command: (dir) => [process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1']],
  },
];

const started = siteProcesses();

/** A delivery signed as esign-proxy signs it, at a given time. */
const delivery = (body: string, at: number, secret = SECRET) => signedDelivery(body, secret, 'msg_forged0000000000000000', at);

/** The person logs in to the site: on the provider's page after the site's Log in, or with the widget on the site's own page; back on the site, greeted. */
async function logInThere(page: Page, origin: string, where: 'provider' | 'site'): Promise<void> {
  if (where === 'provider') {
    // the site's Log in: its client sends the browser to the provider's page (a link, or OmniAuth's form)
    await page.click('#login, a[href="/login"]');
    // by a link or a form, or by a page of the site's own that goes on by script (next-auth's signIn)
    await page
      .waitForFunction(() => location.pathname === '/esign/oidc/auth' && document.querySelector('esign-identify[interaction^="/esign/oidc/interaction/"]'), {
        timeout: 30_000,
      })
      .catch(() => assert.fail(`sent to the provider's page, not ${page.url()}`));
  } else {
    // on the site's own page, the widget given the authorization request the site's client made
    await page.goto(`${origin}/login-here`);
  }
  const input = await page.waitForSelector('esign-identify >>> esign-person-form >>> #code');
  await page.select('esign-identify >>> esign-person-form >>> #country', 'EE');
  await input!.type('40504040001');
  await (await page.waitForSelector('esign-identify >>> [part="submit"]'))!.click();
  const greeted = await page.waitForSelector('#welcome', { timeout: 20_000 });
  assert.equal(await greeted!.evaluate((el) => el.textContent), 'Welcome, OK TESTNUMBER');
  assert.equal(new URL(page.url()).pathname, '/');
}

/**
 * What a page's browser saw over TLS: every Set-Cookie line (from the raw headers) and every URL
 * it asked for.
 */
async function tlsWatch(page: Page): Promise<{ assertAllSecure: (origin: string) => Promise<void> }> {
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  const setCookies: string[] = [];
  const urls: string[] = [];
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    const lines = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'set-cookie')?.[1];
    if (typeof lines === 'string') setCookies.push(...lines.split('\n'));
  });
  cdp.on('Network.requestWillBeSent', (event) => urls.push(event.request.url));
  return {
    assertAllSecure: async (origin) => {
      // the login's last step: where the provider sent the browser once the person was verified
      const continuations = urls.filter((url) => /\/esign\/oidc\/auth\/[A-Za-z0-9_-]+/.test(url));
      assert.ok(continuations.length >= 1, 'a login was continued');
      for (const url of continuations) assert.ok(url.startsWith(`${origin}/esign/oidc/auth/`), `the continuation stays on https: ${url}`);
      const port = new URL(origin).port;
      assert.deepEqual(
        urls.filter((url) => url.startsWith('http:') && url.includes(`:${port}/`)),
        [],
        'no request to the site over plain http',
      );
      const names = setCookies.map((line) => line.split('=')[0]!.trim());
      assert.ok(names.includes('__Host-esign-visitor'), `the visitor cookie is __Host-: ${names.join(', ')}`);
      assert.ok(
        names.includes('__Secure-esign-interaction') && names.includes('__Secure-esign-session'),
        `the provider's cookies are __Secure-: ${names.join(', ')}`,
      );
      for (const name of ['esign-visitor', '_interaction', '_interaction_resume', '_session']) assert.ok(!names.includes(name), `no ${name} cookie`);
      for (const line of setCookies) {
        const attributes = line.split(';').map((part) => part.trim().toLowerCase());
        assert.ok(attributes.includes('secure'), `Secure: ${line.split('=')[0]}`);
        if (line.startsWith('__Host-'))
          assert.ok(attributes.includes('path=/') && !attributes.some((a) => a.startsWith('domain=')), 'a __Host- cookie on / with no Domain');
        if (/^(__Host-esign|__Secure-esign)/.test(line)) assert.ok(attributes.includes('httponly'), `HttpOnly: ${line.split('=')[0]}`);
      }
      const { cookies } = await cdp.send('Network.getAllCookies');
      assert.ok(cookies.length > 0);
      assert.deepEqual(
        cookies.filter((cookie) => !cookie.secure).map((cookie) => cookie.name),
        [],
        'every cookie the browser keeps is Secure',
      );
    },
  };
}

for (const recipe of recipes) {
  describe(`any stack: the ${recipe.name} recipe behind nginx with esign-proxy`, () => {
    it("a login becomes the site's own session, the page greets from the server, and signing is gated to that person; a forged or an old delivery is refused, a replayed one taken without a new session", async () => {
      const sitePort = await freePort();
      const proxyPort = await freePort();
      const frontPort = await freePort();
      const origin = `https://127.0.0.1:${frontPort}`;
      // each recipe is a client of esign-proxy's OpenID Provider: registered in its clients file, the issuer on the site's origin
      const clients = join(scratchDir('esign-oidc-clients-'), 'clients.json');
      writeFileSync(
        clients,
        JSON.stringify([
          {
            client_id: 'site',
            client_secret: CLIENT_SECRET,
            redirect_uris: [`${origin}/callback`, `${origin}/auth/esign/callback`, `${origin}/api/auth/callback/esign`],
            client_name: `A site in ${recipe.name}`,
          },
        ]),
      );
      const oidcProxy = {
        ESIGN_OIDC_ISSUER: `${origin}/esign/oidc`,
        ESIGN_OIDC_CLIENTS: clients,
        ESIGN_OIDC_SUBJECT_SECRET: 'the-any-stack-subject-secret',
        ESIGN_TRUST_PROXY: '1',
        ESIGN_PUBLIC_SCHEME: 'https',
      };
      const oidcSite = {
        PUBLIC_URL: origin,
        NEXTAUTH_URL: origin,
        ESIGN_OIDC_ISSUER: `${origin}/esign/oidc`,
        OIDC_CLIENT_ID: 'site',
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        SESSION_SECRET: 'the-any-stack-session-secret',
        DJANGO_SECRET_KEY: 'the-any-stack-django-secret-key-0123456789',
        SITE_DB: join(scratchDir('esign-site-db-'), 'site.sqlite'),
        SITE_DIR: scratchDir('esign-site-dir-'),
      };
      const proxy = await started(
        process.execPath,
        [new URL('../../bin/esign-proxy.js', import.meta.url).pathname],
        {
          PORT: String(proxyPort),
          ESIGN_BASE_URL: sandbox.url,
          ESIGN_ACCESS_TOKEN: TOKEN,
          ESIGN_WEBHOOK_URL: `http://127.0.0.1:${sitePort}/esign-webhook`,
          ESIGN_SIGNER_URL: `http://127.0.0.1:${sitePort}/esign-signer`,
          ESIGN_WEBHOOK_SECRET: SECRET,
          ...oidcProxy,
        },
        `http://127.0.0.1:${proxyPort}/healthz`,
      );
      assert.equal(await docsNginx(started, proxyPort, sitePort, frontPort, ca), origin);
      await recipe.prepare?.(join(RECIPES, recipe.name));
      const [command, args] = recipe.command(join(RECIPES, recipe.name));
      const site = await started(
        command,
        args,
        { PORT: String(sitePort), ESIGN_WEBHOOK_SECRET: SECRET, GOCACHE: join(scratchDir('esign-gocache-'), 'cache'), ...oidcSite, ...ca.siteEnv },
        `http://127.0.0.1:${sitePort}/`,
        join(RECIPES, recipe.name),
      );
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const seen = await tlsWatch(page);
      try {
        await page.goto(`${origin}/`);
        await page.waitForSelector('#anonymous');
        await logInThere(page, origin, recipe.loginOn === 'provider' ? 'provider' : 'site');
        // the server knows: its own session
        await page.reload();
        const welcome = await page.waitForSelector('#welcome');
        assert.equal(await welcome!.evaluate((el) => el.textContent), 'Welcome, OK TESTNUMBER');
        // signing only as that person: the site answers the signer question from its session
        const pdf = { type: 'pdf', pdf: { files: [{ name: 'contract.pdf', content: Buffer.from(samplePdf('Any stack')).toString('base64') }] } };
        const sign = (body: object) =>
          page.evaluate(async (sent) => {
            const answer = await fetch('/esign/smartid/sign.json', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(sent),
            });
            return { status: answer.status, json: (await answer.json()) as { status: string; proxy_error?: string } };
          }, body);
        const other = await sign({ code: '40504040001', country: 'LT', ...pdf });
        assert.deepEqual([other.status, other.json.proxy_error], [403, 'signer-mismatch'], `${site.log().slice(-1000)}\n${proxy.log().slice(-1500)}`);
        const own = await sign({ code: '40504040001', country: 'EE', ...pdf });
        assert.equal(own.json.status, 'ok', JSON.stringify(own.json));
        // another browser is nobody: its signing is refused as nobody's
        const stranger = await httpsRequest(`${origin}/esign/smartid/sign.json`, ca, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify({ code: '40504040001', country: 'EE', ...pdf }),
        });
        assert.equal((JSON.parse(stranger.body) as { proxy_error?: string }).proxy_error, 'signer-unknown');
        await seen.assertAllSecure(origin);
        // a forged delivery (another secret) and a replayed one (an hour old) are refused by the site
        const body = JSON.stringify({
          type: 'login.verified',
          timestamp: new Date().toISOString(),
          data: { kind: 'login', result: { code: '30303039914', country: 'LT', name: 'MALLORY', surname: 'FORGED' } },
        });
        const forged = await fetch(`http://127.0.0.1:${sitePort}/esign-webhook`, {
          method: 'POST',
          headers: delivery(body, Math.floor(Date.now() / 1000), `whsec_${Buffer.from('not-the-secret-of-this-site-at-all').toString('base64')}`),
          body,
        });
        const replayed = await fetch(`http://127.0.0.1:${sitePort}/esign-webhook`, {
          method: 'POST',
          headers: delivery(body, Math.floor(Date.now() / 1000) - 3600),
          body,
        });
        assert.deepEqual([forged.status >= 400, replayed.status >= 400, forged.headers.getSetCookie(), replayed.headers.getSetCookie()], [true, true, [], []]);
        // the same delivery signed now is taken: the refusals were the forgery and the age, nothing else
        const headers = delivery(body, Math.floor(Date.now() / 1000));
        const fresh = await fetch(`http://127.0.0.1:${sitePort}/esign-webhook`, { method: 'POST', headers, body });
        assert.ok(fresh.status >= 200 && fresh.status < 300, `${fresh.status} ${site.log().slice(-300)}`);
        // a login by OpenID Connect: a delivery logs nobody in
        assert.deepEqual(fresh.headers.getSetCookie(), [], "no delivery makes a session: the login is OpenID Connect's");
        // the very same delivery again (captured on its way and replayed within its five minutes): taken, and nothing made of it
        const replay = await fetch(`http://127.0.0.1:${sitePort}/esign-webhook`, { method: 'POST', headers, body });
        assert.ok(replay.status >= 200 && replay.status < 300, `${replay.status}`);
        assert.deepEqual(replay.headers.getSetCookie(), [], 'no session for a repeated webhook-id');
        if (recipe.loginOn !== 'provider') {
          // the other way in: the provider's page, from the site's Log in link, in a browser of its own
          const other = await browser.createBrowserContext();
          try {
            const second = await other.newPage();
            const secondSeen = await tlsWatch(second);
            await second.goto(`${origin}/`);
            await logInThere(second, origin, 'provider');
            await secondSeen.assertAllSecure(origin);
          } finally {
            await other.close();
          }
        }
      } finally {
        await context.close();
      }
    });
  });
}

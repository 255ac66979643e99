import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { lt } from '../../src/i18n/lt.js';
import { en } from '../../src/i18n/en.js';
import { esignProxyHarness } from '../node/esign-proxy-harness.js';
import { oidcFiles } from '../node/oidc-harness.js';
import { freePort } from '../node/processes.js';
import { docsNginx, siteProcesses } from './site-harness.js';
import { untilAnswering } from '../node/wait.js';

// A person logs in to a site through esign-proxy's OpenID Provider in Chromium: on the provider's
// page (the widget in the language the site asked for, under its strict CSP), on the site's own page
// (the widget given the site's authorization request), and turning back (access_denied). The site
// is examples/any-stack/node-oidc/site.mjs with openid-client; behind docs/any-stack.md's nginx block.

const { esignProxy } = esignProxyHarness();
const start = siteProcesses();
const ACCESS_TOKEN = 'oidc-e2e-token';
let sandbox: RunningSandbox;
let origin: string;
let browser: Browser;
const stops: (() => void)[] = [];
const violations: string[] = [];

before(async () => {
  sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 300 });
  const files = oidcFiles();
  const [frontPort, sitePort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${frontPort}`;
  const clients = JSON.stringify([
    { client_id: 'site', client_secret: 'site-secret-0123456789abcdef-0123', redirect_uris: [`${origin}/callback`], client_name: 'Test Portal' },
  ]);
  writeFileSync(files.clients, clients);
  const proxy = await esignProxy({
    ESIGN_BASE_URL: sandbox.url,
    ESIGN_ACCESS_TOKEN: ACCESS_TOKEN,
    ESIGN_OIDC_ISSUER: `${origin}/esign/oidc`,
    ESIGN_OIDC_CLIENTS: files.clients,
    ESIGN_OIDC_KEYS: files.keys,
    ESIGN_OIDC_SUBJECT_SECRET: 'subject-secret-of-the-e2e-site',
    ESIGN_TRUST_PROXY: '1',
  });
  await docsNginx(start, proxy.port, sitePort, frontPort);
  const site = spawn(process.execPath, ['examples/any-stack/node-oidc/site.mjs'], {
    env: {
      ...process.env,
      ISSUER: `${origin}/esign/oidc`,
      CLIENT_ID: 'site',
      CLIENT_SECRET: 'site-secret-0123456789abcdef-0123',
      PORT: String(sitePort),
      PUBLIC_URL: origin,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  site.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  site.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  stops.push(() => site.kill());
  await untilAnswering(`http://127.0.0.1:${sitePort}/`, site, () => log);
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  for (const stop of stops) stop();
  await sandbox?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy|Trusted Type/i.test(message.text())) violations.push(message.text());
  });
  return page;
}

/** The person types their code and presses the submit button, as on any login form. */
async function logInOn(page: Page, code: string): Promise<void> {
  const input = await page.waitForSelector('esign-identify >>> esign-person-form >>> #code');
  await input!.type(code);
  await (await page.waitForSelector('esign-identify >>> [part="submit"]'))!.click();
}

describe("log in to a site through esign-proxy's OpenID Provider", () => {
  it("on the provider's page: in the language the site asked for, under its CSP, back on the site logged in", async () => {
    const page = await newPage();
    await page.goto(`${origin}/login`);
    // the page is the authorization request's own answer: no redirect before it
    assert.equal(new URL(page.url()).pathname, '/esign/oidc/auth');
    assert.match((await page.$eval('esign-identify', (e) => e.getAttribute('interaction'))) ?? '', /^\/esign\/oidc\/interaction\/[A-Za-z0-9_-]+$/);
    assert.equal(await page.$eval('html', (html) => html.lang), 'lt');
    assert.match(await page.$eval('h1', (h) => h.textContent), /Test Portal/);
    await page.waitForSelector('esign-identify >>> [part="submit"]');
    const submit = await page.$eval('esign-identify >>> [part="submit"]', (button) => button.textContent.trim());
    assert.equal(submit, lt['identify.submit']);
    await logInOn(page, '30303039914');
    await page.waitForSelector('#greeting', { timeout: 20_000 });
    assert.equal(new URL(page.url()).origin + new URL(page.url()).pathname, `${origin}/`);
    assert.match(await page.$eval('#greeting', (p) => p.textContent), /Hello, .+/);
    assert.deepEqual(violations, [], 'no CSP or Trusted Types violation');
    await page.browserContext().close();
  });

  it("on the site's own page: the widget given the authorization request logs in there and goes on to the site", async () => {
    const page = await newPage();
    await page.goto(`${origin}/login-here`);
    await page.waitForSelector('esign-identify >>> [part="submit"]');
    assert.equal(await page.$eval('esign-identify >>> [part="submit"]', (button) => button.textContent.trim()), en['identify.submit']);
    await logInOn(page, '30303039914');
    await page.waitForSelector('#greeting', { timeout: 20_000 });
    assert.match(await page.$eval('#greeting', (p) => p.textContent), /Hello, .+/);
    assert.deepEqual(violations, []);
    await page.browserContext().close();
  });

  it("turning back on the provider's page ends the login as access_denied at the site", async () => {
    const page = await newPage();
    await page.goto(`${origin}/login`);
    await page.waitForSelector('esign-identify >>> [part="submit"]');
    await Promise.all([page.waitForNavigation(), page.click('form.back button')]);
    await page.waitForSelector('#refused');
    assert.equal(await page.$eval('#refused', (p) => p.textContent), 'Not logged in: access_denied');
    await page.browserContext().close();
  });
});

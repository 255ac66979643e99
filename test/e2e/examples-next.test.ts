import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { freePort } from '../node/processes.js';
import { until } from '../node/wait.js';
import { example, installExample, loginAndSign, withBrowser } from './example-flows.js';

// The Next.js example as its developer runs it: next build and next start in its folder.
withBrowser();

describe('examples/next-app (App Router, the proxy as a route handler, server-rendered and hydrated)', () => {
  const ROOT = 'examples/next-app';
  let sandbox: RunningSandbox;
  let next: ChildProcess;
  let url: string;

  before(async () => {
    // Next wants its own NODE_ENV (a test runner's breaks its prerendering) and no loader of ours
    const { NODE_ENV: _, NODE_OPTIONS: __, ...inherited } = process.env;
    const env = { ...inherited, NEXT_TELEMETRY_DISABLED: '1' };
    // as its developer runs it: its own packages, in its folder
    await installExample(ROOT);
    const bin = fileURLToPath(new URL(`../../${ROOT}/node_modules/next/dist/bin/next`, import.meta.url));
    const built = spawnSync(process.execPath, [bin, 'build'], { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
    assert.equal(built.status, 0, `next build: ${built.stdout}\n${built.stderr}`);
    sandbox = await startSandbox({ accessToken: 'next-example-token', answerAfterMs: 600 });
    const port = await freePort();
    next = spawn(process.execPath, [bin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: ROOT,
      env: { ...env, ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: 'next-example-token', ESIGN_PUBLIC_SCHEME: 'http' },
      stdio: 'ignore',
    });
    url = `http://127.0.0.1:${port}/`;
    await until(
      () =>
        fetch(url).then(
          (r) => r.ok,
          () => false,
        ),
      `next start answering at ${url}`,
      20_000,
      100,
    );
  });
  after(async () => {
    next?.kill();
    await sandbox?.close();
  });

  it('renders the elements on the server, and the proxy route keeps the token', async () => {
    const html = await (await fetch(url)).text();
    assert.match(html, /<esign-identify[^>]*>/);
    assert.match(html, /<esign-sign[^>]*>/);
    const answer = await fetch(`${url}esign/smartid/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '40504040001', country: 'LT' }),
    });
    const text = await answer.text();
    assert.equal(answer.status, 200, text);
    assert.match(text, /"status":"ok"/);
    assert.doesNotMatch(text, /next-example-token/);
    // only the proxy's operations pass
    assert.equal(
      (await fetch(`${url}esign/api/document/upload.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
      403,
    );
  });

  it('after hydration, logs in with Smart-ID, greets from the server whom onResult logged in, and signs a PDF as that person only', async () => {
    const cookies = await loginAndSign(url, 'next', 'fixed');
    // the greeting is the server's: in its HTML for that browser's cookie, and for nobody else
    const html = (await (await fetch(url, { headers: { cookie: cookies } })).text()).replace(/<!-- -->/g, '');
    assert.match(html, /<p id="welcome">Welcome, OK TESTNUMBER<\/p>/);
    assert.match(await (await fetch(url)).text(), /<p id="anonymous">Not logged in<\/p>/);
  });

  it('greets nobody on a forged esign-authenticated event', async () => {
    // a browser of its own: no cookie of the login above
    const context = await example.browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle0' });
    await page.evaluate(() => {
      const detail = { person: { name: 'FORGED', surname: 'PERSON', code: '39001010001' } };
      document.querySelector('esign-identify')!.dispatchEvent(new CustomEvent('esign-authenticated', { detail, bubbles: true, composed: true }));
    });
    // the page asked the server again (router.refresh), which knows nobody
    await page.waitForNetworkIdle();
    assert.equal(await page.$eval('#anonymous', (p) => p.textContent), 'Not logged in');
    assert.equal(await page.$('#welcome'), null);
    assert.doesNotMatch(await page.content(), /FORGED/);
    await context.close();
  });
});

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createProxyHandler } from 'esign-elements/proxy';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build, createServer, type ViteDevServer } from 'vite';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { freePort } from '../node/processes.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { until } from '../node/wait.js';

// The framework examples as their developers run them: each its own vite.config (the framework's
// plugin, the esign plugin with the sandbox), the package through its dependency, driven in Chromium
// through a login and a PDF signature.
const EXAMPLES = ['examples/react-vite', 'examples/vue-vite'];

let browser: Browser;
let work: string;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'esign-examples-'));
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

/** An element through the open shadow roots below `host`. */
async function deep(page: Page, host: string, selector: string): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (h, s) => {
      // no named inner functions: the page has no helpers the test's compiler may refer to
      const roots: ParentNode[] = [document.querySelector(h)?.shadowRoot].filter((root): root is ShadowRoot => !!root);
      while (roots.length) {
        const root = roots.shift()!;
        const found = root.querySelector(s);
        if (found) return found;
        for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
      }
      return null;
    },
    { timeout: 20_000 },
    host,
    selector,
  );
  return handle as ElementHandle<Element>;
}

/**
 * The two flows every example offers, as a person does them: a Smart-ID login typed and submitted
 * with the keyboard, then a PDF chosen in the app's own file input and signed with Mobile-ID. The
 * app shows what its event handlers received; no page error or console error on the way.
 */
/**
 * Logs in with Smart-ID and signs a PDF, as a person does, through the example at `url`. The
 * signer is typed in (Mobile-ID, another person), or, where the host signs only as the person
 * logged in, fixed by the page (Smart-ID, the same person). Resolves with the page's cookies.
 */
async function loginAndSign(url: string, fileName: string, signing: 'typed' | 'fixed' = 'typed'): Promise<string> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url, { waitUntil: 'networkidle0' });
  await (await deep(page, 'esign-identify', '#code')).focus();
  await page.keyboard.type('40504040001');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#welcome')?.textContent?.trim() === 'Welcome, OK TESTNUMBER', { timeout: 20_000 });
  const pdf = join(work, `${fileName}.pdf`);
  writeFileSync(pdf, samplePdf(`${fileName} example`));
  await ((await page.$('#pdf')) as ElementHandle<HTMLInputElement>).uploadFile(pdf);
  await deep(page, 'esign-sign', '.file-name');
  // the person sees the document before signing: the preview's engine, PDF.js and its worker work in this host's build
  await page.waitForFunction(
    (title) => document.querySelector('esign-sign')?.shadowRoot?.querySelector('esign-document-preview')?.shadowRoot?.querySelector('.textLayer')?.textContent?.includes(title),
    { timeout: 30_000 },
    `${fileName} example`,
  );
  if (signing === 'typed') {
    (await deep(page, 'esign-sign', 'input[value="mobile"]')).click();
    await (await deep(page, 'esign-sign', '#phone')).focus();
    await page.keyboard.type('+37060000666');
    await (await deep(page, 'esign-sign', '#code')).focus();
    await page.keyboard.type('50001018865');
    await page.keyboard.press('Enter');
  } else {
    await page.waitForFunction(() => document.querySelector('esign-sign')?.shadowRoot?.querySelector('esign-person-form')?.shadowRoot?.querySelector('#code [aria-hidden="true"]')?.textContent === '4050••••001');
    await (await deep(page, 'esign-sign', '[part="submit"]')).click();
  }
  await page.waitForFunction((name) => document.querySelector('#signed')?.textContent?.trim() === `Signed: ${name} (signed).pdf`, { timeout: 20_000 }, fileName);
  assert.deepEqual(errors, []);
  const cookies = (await page.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  await page.close();
  return cookies;
}

for (const ROOT of EXAMPLES) describe(ROOT, () => {
  let server: ViteDevServer;
  let url: string;
  before(async () => {
    server = await createServer({ root: ROOT, configFile: `${ROOT}/vite.config.ts`, logLevel: 'silent', server: { port: 0, host: '127.0.0.1', strictPort: false } });
    await server.listen();
    url = `http://127.0.0.1:${(server.httpServer!.address() as { port: number }).port}/`;
  });
  after(() => server?.close());

  it('builds for production (its type check runs in npm run typecheck)', async () => {
    await build({ root: ROOT, configFile: `${ROOT}/vite.config.ts`, logLevel: 'silent', build: { outDir: join(work, ROOT), emptyOutDir: true } });
    const assets = readdirSync(join(work, ROOT, 'assets'));
    assert.ok(assets.some((file) => /^index-.*\.js$/.test(file)));
    // every language in two files of its own (what every element says, the document elements' words), loaded on demand
    assert.equal(assets.filter((file) => /^(lt|en|lv|et|ru)-(session|documents)-.*\.js$/.test(file)).length, 10);
  });

  it('logs in with Smart-ID and signs a PDF with Mobile-ID, the app receiving the events', async () => {
    await loginAndSign(url, ROOT.split('/')[1]!.replace('-', '_'));
  });
});

describe('examples/next-app (App Router, the proxy as a route handler, server-rendered and hydrated)', () => {
  const ROOT = 'examples/next-app';
  let sandbox: RunningSandbox;
  let next: ChildProcess;
  let url: string;

  before(async () => {
    // Next wants its own NODE_ENV (a test runner's breaks its prerendering) and no loader of ours
    const { NODE_ENV: _, NODE_OPTIONS: __, ...inherited } = process.env;
    const env = { ...inherited, NEXT_TELEMETRY_DISABLED: '1' };
    // as its developer runs it: in its folder
    const bin = fileURLToPath(new URL('../../node_modules/next/dist/bin/next', import.meta.url));
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
    await until(() => fetch(url).then((r) => r.ok, () => false), `next start answering at ${url}`, 20_000, 100);
  });
  after(async () => {
    next?.kill();
    await sandbox?.close();
  });

  it('renders the elements on the server, and the proxy route keeps the token', async () => {
    const html = await (await fetch(url)).text();
    assert.match(html, /<esign-identify[^>]*>/);
    assert.match(html, /<esign-sign[^>]*>/);
    const answer = await fetch(`${url}esign/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '40504040001', country: 'LT' }) });
    const text = await answer.text();
    assert.equal(answer.status, 200, text);
    assert.match(text, /"status":"ok"/);
    assert.doesNotMatch(text, /next-example-token/);
    // only the proxy's operations pass
    assert.equal((await fetch(`${url}esign/api/document/upload.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 403);
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
    const context = await browser.createBrowserContext();
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

describe('examples/angular-app (Angular 20, CUSTOM_ELEMENTS_SCHEMA, zoneless)', () => {
  const ROOT = 'examples/angular-app';
  let sandbox: RunningSandbox;
  let host: HttpServer;
  let url: string;

  before(async () => {
    // as its developer builds it: ng build in its folder (AOT, strict templates), into a folder of the test
    const out = join(work, 'angular');
    const { NODE_OPTIONS: _, ...inherited } = process.env;
    const ng = fileURLToPath(new URL('../../node_modules/@angular/cli/bin/ng.js', import.meta.url));
    const built = spawnSync(process.execPath, [ng, 'build', '--output-path', out], { cwd: ROOT, env: { ...inherited, NG_CLI_ANALYTICS: 'false' }, encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
    assert.equal(built.status, 0, `ng build: ${built.stdout}\n${built.stderr}`);
    // a host server: the built files and the proxy in front of the sandbox
    sandbox = await startSandbox({ accessToken: 'angular-example-token', answerAfterMs: 600 });
    const proxy = createProxyHandler({ baseUrl: sandbox.url, accessToken: 'angular-example-token', prefix: '/esign' });
    const files = join(out, 'browser');
    host = createHttpServer((req, res) => {
      if (req.url?.startsWith('/esign/')) return proxy(req, res);
      const path = new URL(req.url ?? '/', 'http://host').pathname;
      const file = join(files, path === '/' ? 'index.html' : path);
      if (!file.startsWith(files) || !existsSync(file)) return void res.writeHead(404).end();
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.html') ? 'text/html' : 'text/plain';
      res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(host.address() as { port: number }).port}/`;
  });
  after(async () => {
    host?.closeAllConnections();
    await new Promise((resolve) => host?.close(resolve));
    await sandbox?.close();
  });

  it('logs in with Smart-ID and signs a PDF with Mobile-ID, the template bindings receiving the events', async () => {
    await loginAndSign(url, 'angular');
  });
});

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser } from 'puppeteer-core';
import { createProxyHandler } from '../../src/proxy/index.js';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { lt } from '../../src/i18n/lt.js';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; require-trusted-types-for 'script'";
const TAGS = [
  'esign-identify',
  'esign-sign',
  'esign-hash-sign',
  'esign-document-upload',
  'esign-signer-list',
  'esign-validation-report',
  'esign-signing-link',
  'esign-document',
];

const PAGE = `<!doctype html><html lang="lt"><head><meta charset="utf-8"><title>CSP</title>
<script type="module" src="/cdn/esign-elements.js"></script><script type="module" src="/page.js"></script></head>
<body>${TAGS.map((tag) => `<${tag} endpoint="/esign" hash="${'a'.repeat(64)}" document-id="00000000-0000-0000-0000-000000000000"></${tag}>`).join('')}</body></html>`;

const PREVIEW_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CSP preview</title>
<script type="module" src="/cdn/esign-elements.js"></script><script type="module" src="/page.js"></script></head>
<body><esign-document-preview src="/sample.pdf"></esign-document-preview></body></html>`;

// records CSP violations; a script file, since inline scripts are what the policy forbids
const PAGE_SCRIPT = `window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));`;

const EMPTY_PREVIEW_PAGE = `<!doctype html><html lang="lt"><head><meta charset="utf-8"><title>CSP preview</title>
<script type="module" src="/cdn/esign-elements.js"></script><script type="module" src="/page.js"></script></head>
<body><esign-document-preview></esign-document-preview></body></html>`;

/** Fault injection: the preview's viewer answers 503 while set. */
let viewerFails = false;

let sandbox: RunningSandbox;
let server: Server;
let url: string;
let browser: Browser;
before(async () => {
  sandbox = await startSandbox({ accessToken: 'csp-token', answerAfterMs: 300 });
  const proxy = createProxyHandler({ baseUrl: sandbox.url, accessToken: 'csp-token', prefix: '/esign' });
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    const headers = { 'content-security-policy': CSP };
    if (path === '/') res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(PAGE);
    else if (path === '/preview') res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(PREVIEW_PAGE);
    else if (path === '/preview-lt') res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(EMPTY_PREVIEW_PAGE);
    else if (viewerFails && /^\/cdn\/esign-elements-viewer-/.test(path))
      res.writeHead(503, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('unavailable');
    else if (path.split('?')[0] === '/sample.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(samplePdf('Strict policy agreement', 2));
    else if (path === '/page.js') res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(PAGE_SCRIPT);
    else if (/^\/cdn\/esign-elements[\w.-]*\.js$/.test(path)) {
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(readFileSync(`dist${path}`));
    } else proxy(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await sandbox?.close();
});

describe('the script-tag bundle under a strict CSP with Trusted Types', () => {
  it('renders every element in Lithuanian with no policy violation', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String((error as Error).message ?? error)));
    await page.goto(url, { waitUntil: 'networkidle0' });
    await page.waitForFunction((tags: string[]) => tags.every((tag) => document.querySelector(tag)?.shadowRoot?.childElementCount), { timeout: 10000 }, TAGS);
    const rendered = await page.evaluate(
      (tags: string[]) => tags.map((tag) => document.querySelector(tag)!.shadowRoot!.textContent.replace(/\s+/g, ' ').trim().slice(0, 40)),
      TAGS,
    );
    assert.match(rendered[0]!, /Prisijungti su/);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('draws a PDF preview with PDF.js and its worker, text layer included, with no policy violation', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String((error as Error).message ?? error)));
    await page.goto(`${url}preview`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(
      () => document.querySelector('esign-document-preview')?.shadowRoot?.querySelector('.textLayer')?.textContent?.includes('Page 1 of 2'),
      { timeout: 20000 },
    );
    const seen = await page.evaluate(() => {
      const root = document.querySelector('esign-document-preview')!.shadowRoot!;
      const canvas = root.querySelector('canvas')!;
      return {
        text: root.querySelector('.textLayer')!.textContent,
        width: canvas.width,
        workers: performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => /pdf-worker/.test(n)).length,
      };
    });
    assert.match(seen.text, /Strict policy agreement/);
    assert.ok(seen.width > 0, 'the page drawn');
    assert.equal(seen.workers, 1, 'the worker beside the script-tag file');
    assert.deepEqual(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("says in the person's language when the preview cannot be loaded, once per file and never in a loop, and shows the file once it can", async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String((error as Error).message ?? error)));
    viewerFails = true;
    try {
      await page.goto(`${url}preview-lt`, { waitUntil: 'networkidle0' });
      await page.evaluate(() => {
        const el = document.querySelector('esign-document-preview')!;
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        el.addEventListener('esign-error', (e) =>
          seen.push(
            `error ${(e as CustomEvent<{ code: string; retryable: boolean; message: string }>).detail.code} ${(e as CustomEvent<{ retryable: boolean }>).detail.retryable} ${(e as CustomEvent<{ message: string }>).detail.message}`,
          ),
        );
        el.addEventListener('esign-preview-loaded', (e) =>
          seen.push(`loaded ${(e as CustomEvent<{ fileName: string; pages: number }>).detail.fileName} ${(e as CustomEvent<{ pages: number }>).detail.pages}`),
        );
        el.setAttribute('src', '/sample.pdf');
      });
      await page.waitForFunction(() => document.querySelector('esign-document-preview')!.shadowRoot!.querySelector('[part="error"]'), { timeout: 10000 });
      const said = await page.evaluate(() => {
        const error = document.querySelector('esign-document-preview')!.shadowRoot!.querySelector('[part="error"]')!;
        return { role: error.getAttribute('role'), text: error.textContent.replace(/\s+/g, ' ').trim() };
      });
      assert.equal(said.role, 'alert');
      assert.equal(said.text, `${lt['preview.failed']} ${lt['error.network']}`);
      assert.deepEqual(await page.evaluate(() => (window as unknown as { seen: string[] }).seen.map((s) => s.split(' ').slice(0, 3).join(' '))), [
        'error network true',
      ]);

      // the viewer answers again. The next file asks for it again, once (never in a loop); current
      // Chromium keeps a module that failed to load for the page's life (as the HTML standard's module
      // map does), so it is the same failure, said once more
      viewerFails = false;
      await page.evaluate(() => document.querySelector('esign-document-preview')!.setAttribute('src', '/sample.pdf?again'));
      await page.waitForFunction(() => (window as unknown as { seen: string[] }).seen.length === 2, { timeout: 20000 });
      const second = await page.evaluate(() => (window as unknown as { seen: string[] }).seen[1]!.split(' ').slice(0, 2).join(' '));
      assert.ok(['error network', 'loaded sample.pdf'].includes(second), second);
      assert.equal(await page.evaluate(() => (window as unknown as { seen: string[] }).seen.length), 2);
      // a reloaded page shows the file
      await page.reload({ waitUntil: 'networkidle0' });
      await page.evaluate(() => document.querySelector('esign-document-preview')!.setAttribute('src', '/sample.pdf?again'));
      await page.waitForFunction(
        () => document.querySelector('esign-document-preview')!.shadowRoot!.querySelector('.textLayer')?.textContent?.includes('Page 1 of 2'),
        { timeout: 20000 },
      );
      assert.deepEqual(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), []);
      assert.deepEqual(errors, []);
    } finally {
      viewerFails = false;
      await context.close();
    }
  });
});

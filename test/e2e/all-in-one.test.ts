import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { Sandbox } from 'esign-sandbox';
import { pagesInChromium } from './page-server.js';
import { en } from '../../src/i18n/en.js';

// The all-in-one script-tag file on a real page: the login draws from it alone, and another
// element's code is asked for only when that element appears.

const TOKEN = 'all-in-one-test-token';
const sandbox = new Sandbox({ accessToken: TOKEN, answerAfterMs: 0 });

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>All in one</title>
<script type="module" src="/cdn/esign-elements.js"></script><script type="module" src="/page.js"></script></head>
<body><main><esign-identify id="login" endpoint="/esign" channels="smartid"></esign-identify></main></body></html>`;

const PAGE_SCRIPT = `window.signed = [];
document.addEventListener('esign-error', (e) => window.signed.push('error ' + e.detail.code));`;

const env = pagesInChromium(() => ({ sandbox, token: TOKEN, content: (path) => (path === '/page.js' ? PAGE_SCRIPT : path === '/' ? PAGE : undefined) }));

/** A chunk's name without its content hash; the entry and the language parts have none. */
const withoutHash = (file: string) => (/^esign-elements(-(lt|en|lv|et|ru)-\w+)?\.js$/.test(file) ? file : file.replace(/-[\w-]{8}\.js$/, '.js'));

/** The page, and the script-tag files it asks for, by name without their hash. */
async function open(): Promise<{ tab: Page; asked: string[] }> {
  const tab = await env.browser.newPage();
  const asked: string[] = [];
  tab.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/cdn/')) asked.push(withoutHash(path.slice(5)));
  });
  await tab.goto(`${env.url}/`, { waitUntil: 'networkidle0' });
  return { tab, asked };
}

const shadowText = (tab: Page, selector: string) => tab.evaluate((s) => document.querySelector(s)?.shadowRoot?.textContent ?? '', selector);

describe('the all-in-one script-tag file', () => {
  it('draws the login from itself and asks for no element the page does not show', async () => {
    const { tab, asked } = await open();
    assert.ok((await shadowText(tab, '#login')).includes(en['identify.submit']), 'the login is drawn');
    assert.equal(asked[0], 'esign-elements.js');
    // after the form: the session's code (with the caller it shares with the document elements), its control code and status, the page's language
    assert.deepEqual(asked.slice(1).sort(), [
      'esign-elements-control-code.js',
      'esign-elements-en-session.js',
      'esign-elements-proxy-client.js',
      'esign-elements-session-controller.js',
      'esign-elements-status.js',
    ]);
    const defined = await tab.evaluate(() =>
      ['esign-sign', 'esign-document', 'esign-document-upload', 'esign-document-preview'].map((tag) => Boolean(customElements.get(tag))),
    );
    assert.deepEqual(defined, [false, false, false, false]);
    await tab.close();
  });

  it('loads an element when it is added to the page, keeping what the page set on it before its code arrived', async () => {
    const { tab, asked } = await open();
    const before = asked.length;
    await tab.evaluate(() => {
      const upload = document.createElement('esign-document-upload');
      // set while the element is not defined yet: taken over when its code arrives
      (upload as HTMLElement & { endpoint: string; maxSize: number }).endpoint = '/esign';
      (upload as HTMLElement & { maxSize: number }).maxSize = 1234;
      upload.id = 'upload';
      document.querySelector('main')!.append(upload);
    });
    await tab.waitForFunction(() => customElements.get('esign-document-upload') !== undefined);
    await tab.waitForFunction(() => Boolean(document.querySelector('#upload')?.shadowRoot?.querySelector('button')));
    const state = await tab.evaluate(() => {
      const upload = document.querySelector('#upload') as HTMLElement & { endpoint: string; maxSize: number };
      return { endpoint: upload.endpoint, maxSize: upload.maxSize, upgraded: upload instanceof customElements.get('esign-document-upload')! };
    });
    assert.deepEqual(state, { endpoint: '/esign', maxSize: 1234, upgraded: true });
    const added = asked.slice(before);
    assert.ok(added.includes('esign-elements-document-upload.js'), `the element's chunk asked for: ${added.join(', ')}`);
    assert.ok(!added.some((file) => /-(sign|document|signer-list|document-preview)\.js$/.test(file)), `only what the upload needs: ${added.join(', ')}`);
    assert.ok(added.includes('esign-elements-en-documents.js'), 'its words in the page language');
    assert.equal(added.filter((file) => file === 'esign-elements.js').length, 0, 'the all-in-one file is not loaded again');
    assert.deepEqual(await tab.evaluate(() => (window as unknown as { signed: string[] }).signed), [], 'no error event');
    await tab.close();
  });
});

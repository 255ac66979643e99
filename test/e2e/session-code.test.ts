import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { Sandbox } from 'esign-sandbox';
import { pagesInChromium } from './page-server.js';
import { en } from '../../src/i18n/en.js';

// A session element's form is on screen before the code that runs a session (session-controller.ts, the session's controller):
// that code arrives right after the form. These tests hold it back or let it through and look at
// what the person and the page see.

const TOKEN = 'session-code-test-token';
const reached: string[] = [];
const sandbox = new Sandbox({ accessToken: TOKEN, answerAfterMs: 0 });

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Session code</title>
<script type="module" src="/cdn/esign-elements.js"></script><script type="module" src="/page.js"></script></head>
<body><esign-identify id="login" endpoint="/esign" channels="smartid" code="40504040001" country="EE" poll-interval="300"></esign-identify></body></html>`;

const PAGE_SCRIPT = `window.events = [];
for (const type of ['esign-started', 'esign-authenticated', 'esign-error', 'esign-cancelled']) {
  document.addEventListener(type, (e) => window.events.push({ type, code: e.detail.code ?? '', retryable: e.detail.retryable ?? null }));
}`;

const env = pagesInChromium(() => ({
  sandbox,
  token: TOKEN,
  content: (path) => (path === '/page.js' ? PAGE_SCRIPT : path === '/' ? PAGE : undefined),
  onService: (req) => reached.push(`${req.method} ${req.url}`),
}));

interface Seen {
  type: string;
  code: string;
  retryable: boolean | null;
}

/** The login page with the session code held back (its request fails) or let through; the files asked for. */
async function open(holdBack: boolean): Promise<{ tab: Page; asked: string[] }> {
  const tab = await env.browser.newPage();
  const asked: string[] = [];
  await tab.setRequestInterception(true);
  tab.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/cdn/')) asked.push(path.slice(5).replace(/-[\w-]{8}\.js$/, '.js'));
    if (holdBack && path.includes('session-controller')) void request.abort('connectionrefused');
    else void request.continue();
  });
  await tab.goto(`${env.url}/`, { waitUntil: 'load' });
  await tab.waitForFunction(() => Boolean(document.querySelector('#login')?.shadowRoot?.querySelector('button[part="submit"]')));
  return { tab, asked };
}

const events = (tab: Page) => tab.evaluate(() => (window as unknown as { events: Seen[] }).events);

describe('the code that runs a session comes after the form', () => {
  it('is asked for once the form is on screen, before anything is submitted, and then the login runs', async () => {
    const { tab, asked } = await open(false);
    await tab.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('session-controller')));
    assert.deepEqual(
      asked.filter((file) => file.includes('session-controller')),
      ['esign-elements-session-controller.js'],
      'asked for before any submit',
    );
    const before = reached.length;
    await tab.click('pierce/button[part="submit"]');
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-authenticated'), { timeout: 10_000 });
    assert.deepEqual(
      (await events(tab)).map((e) => e.type),
      ['esign-started', 'esign-authenticated'],
    );
    assert.equal(reached.slice(before).filter((line) => line === 'POST /en/smartid/login.json').length, 1);
    assert.equal(asked.filter((file) => file.includes('session-controller')).length, 1, 'asked for once');
    await tab.close();
  });

  it('held back: the submit says so once, sends nothing, and offers Try again with the focus on it', async () => {
    const { tab } = await open(true);
    const before = reached.length;
    await tab.click('pierce/button[part="submit"]');
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.length > 0);
    await tab.waitForFunction(() => document.querySelector('#login')?.shadowRoot?.activeElement?.getAttribute('part') === 'retry');
    assert.deepEqual(await events(tab), [{ type: 'esign-error', code: 'unknown', retryable: true }]);
    assert.deepEqual(reached.slice(before), [], 'nothing reached the service');
    const shown = await tab.evaluate(() => {
      const root = document.querySelector('#login')!.shadowRoot!;
      const status = root.querySelector('esign-status') as HTMLElement & { state: string; message: string; detail: string };
      return { state: status.state, heading: status.message, detail: status.detail, retry: root.querySelector('[part="retry"]')?.textContent?.trim() };
    });
    assert.deepEqual(shown, { state: 'error', heading: en['identify.failed'], detail: en['error.unknown'], retry: en['action.retry'] });
    // Try again brings the form back, the focus on the personal code
    await tab.keyboard.press('Enter');
    await tab.waitForFunction(() => Boolean(document.querySelector('#login')?.shadowRoot?.querySelector('button[part="submit"]')));
    assert.equal((await events(tab)).length, 1, 'no second event');
    await tab.close();
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { Page } from 'puppeteer-core';
import { Sandbox } from 'esign-sandbox';
import { pagesInChromium } from './page-server.js';
import { en } from '../../src/i18n/en.js';
import { TestClock } from '../node/harness.js';

// A phone on a bad network, in Chromium: requests the network swallows (held by the host, never
// answered), the browser offline and back (the DevTools protocol), a page frozen while the person
// confirms in the app. The sandbox's clock says when the person has answered. The element's request
// time limit is 3 s (its attribute), so a swallowed request is given up on soon; what the test waits
// for is what the page did, counted, never a span of time slept out.

const TOKEN = 'bad-network-token';
const clock = new TestClock();
/** Which of the page's next requests the network swallows, by a part of their path. */
const swallow: string[] = [];

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad network</title>
<script type="module" src="/cdn/esign-elements.js"></script><script type="module" src="/page.js"></script></head><body>${body}</body></html>`;

// the page's esign-* events, and what its connection line said, in order
const PAGE_SCRIPT = `window.events = [];
window.said = [];
for (const type of ['esign-started', 'esign-authenticated', 'esign-error']) {
  document.addEventListener(type, (e) => window.events.push({ type, code: e.detail.code ?? '', message: e.detail.message ?? '', retryable: e.detail.retryable ?? null }));
}
// the status polls the page sent: "at once" is counted in polls, not timed (a loaded machine is slow, not wrong)
window.polls = 0;
// the polls sent in the task the browser said it was online in, or in what that task set off before any
// timer of a back-off could fire: the poll the coming online itself sent
window.pollsOnComingOnline = 0;
let comingOnline = false;
window.addEventListener('online', () => {
  comingOnline = true;
  setTimeout(() => (comingOnline = false), 200);
});
const send = window.fetch;
window.fetch = (input, init) => {
  if (String(input instanceof Request ? input.url : input).includes('/status/')) {
    window.polls++;
    if (comingOnline) window.pollsOnComingOnline++;
  }
  return send(input, init);
};
// every text the line shows, as it is drawn: an observer of the element's own shadow root (a line shown
// for a few milliseconds is seen too, where sampling on a busy machine could miss it)
customElements.whenDefined('esign-identify').then(() => {
  const root = document.querySelector('esign-identify')?.shadowRoot;
  if (!root) return;
  const read = () => {
    const text = root.querySelector('[part="connection"]')?.textContent.trim() ?? '';
    if (text && window.said.at(-1) !== text) window.said.push(text);
  };
  new MutationObserver(read).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  read();
});`;

const sandbox = new Sandbox({ accessToken: TOKEN, now: clock.now, answerAfterMs: 6_000 });
const env = pagesInChromium(() => ({
  sandbox,
  token: TOKEN,
  content: (path) =>
    path === '/page.js'
      ? PAGE_SCRIPT
      : path === '/login'
        ? page('<esign-identify endpoint="/esign" channels="smartid" code="40504040001" country="EE" request-timeout="3000"></esign-identify>')
        : undefined,
  hold: (req: IncomingMessage) => {
    const at = swallow.findIndex((part) => req.url?.includes(part));
    if (at < 0) return false;
    swallow.splice(at, 1);
    return true;
  },
}));

interface Seen {
  type: string;
  code: string;
  message: string;
  retryable: boolean | null;
}
const events = (tab: Page) => tab.evaluate(() => (window as unknown as { events: Seen[] }).events);
/** What the connection line said, its clock time (by when to confirm) written as the string's `{time}`. */
const said = (tab: Page) => tab.evaluate(() => (window as unknown as { said: string[] }).said.map((text) => text.replace(/\b\d{2}:\d{2}\b/, '{time}')));
/** Whether the line has said this (a `{time}` in it stands for any clock time). */
const hasSaid = (tab: Page, text: string, timeout: number) =>
  tab.waitForFunction(
    (words) => (window as unknown as { said: string[] }).said.some((s) => s.replace(/\b\d{2}:\d{2}\b/, '{time}') === words),
    { timeout, polling: 50 },
    text,
  );
const outcome = (tab: Page, timeout: number) =>
  tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-authenticated' || e.type === 'esign-error'), {
    timeout,
    polling: 50,
  });

/** The status polls the page has sent so far. */
const polls = (tab: Page) => tab.evaluate(() => (window as unknown as { polls: number }).polls);

async function open(): Promise<Page> {
  const tab = await env.browser.newPage();
  await tab.goto(`${env.url}/login`, { waitUntil: 'load' });
  await tab.waitForFunction(() => customElements.get('esign-identify') !== undefined && (window as unknown as { events?: unknown[] }).events !== undefined);
  return tab;
}

async function start(tab: Page): Promise<void> {
  await tab.evaluate(() => void (document.querySelector('esign-identify') as HTMLElement & { start(): Promise<unknown> }).start().catch(() => undefined));
}

async function lifecycle(tab: Page, state: 'frozen' | 'active'): Promise<void> {
  const session = await tab.createCDPSession();
  await session.send('Page.setWebLifecycleState', { state });
  await session.detach();
}

/** The tab's network switch (the emulation lasts as long as its DevTools session: one per tab, kept). */
async function network(tab: Page): Promise<(off: boolean) => Promise<void>> {
  const session = await tab.createCDPSession();
  await session.send('Network.enable');
  return async (off) =>
    void (await session.send('Network.emulateNetworkConditions', { offline: off, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }));
}

describe('a phone on a bad network', () => {
  it('drops a status poll that is never answered at the request time limit, says so once and that it is back, and ends the login', async () => {
    const tab = await open();
    swallow.push('/smartid/status/');
    await start(tab);
    // the dropped poll was a failure on the way: said once, and then that the connection is back
    await hasSaid(tab, en['session.online'], 30_000);
    assert.equal(swallow.length, 0, 'the held poll was the first');
    assert.deepEqual(await said(tab), [en['session.offline'], en['session.online']]);
    // said as it came, the line goes after a few seconds instead of staying for the rest of the session
    await tab.waitForFunction(() => document.querySelector('esign-identify')?.shadowRoot?.querySelector('[part="connection"]')?.textContent?.trim() === '', {
      timeout: 20_000,
      polling: 100,
    });
    assert.deepEqual(await said(tab), [en['session.offline'], en['session.online']], 'its going is not said');
    clock.advance(6_000); // the person confirmed in the app
    await outcome(tab, 30_000);
    assert.deepEqual(
      (await events(tab)).map((e) => e.type),
      ['esign-started', 'esign-authenticated'],
    );
    await tab.close();
  });

  it('ends a start that is never answered, at the request time limit, in a retryable error that says the phone may show a request; Try again works', async () => {
    const tab = await open();
    swallow.push('/smartid/login.json');
    await start(tab);
    await outcome(tab, 40_000);
    const [failed] = await events(tab);
    assert.deepEqual(failed, { type: 'esign-error', code: 'timeout', message: en['error.start-timeout'], retryable: true });
    // the words on the page, and Try again
    const retry = await tab.evaluateHandle(() => document.querySelector('esign-identify')!.shadowRoot!.querySelector<HTMLButtonElement>('[part="retry"]')!);
    const status = await tab.evaluate(
      () => (document.querySelector('esign-identify')!.shadowRoot!.querySelector('esign-status') as unknown as { detail: string }).detail,
    );
    assert.equal(status, en['error.start-timeout']);
    await (retry as unknown as { click(): Promise<void> }).click();
    await tab.evaluate(() => (document.querySelector('esign-identify')!.shadowRoot!.querySelector('[part="submit"]') as HTMLButtonElement).click());
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.filter((e) => e.type === 'esign-started').length === 1, {
      timeout: 10_000,
    });
    clock.advance(6_000);
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-authenticated'), { timeout: 10_000 });
    assert.deepEqual(
      (await events(tab)).map((e) => e.type),
      ['esign-error', 'esign-started', 'esign-authenticated'],
    );
    await tab.close();
  });

  it('offline for three polls, then online: says the connection is lost once, keeps the timer, and has the result at once on being online (its first poll, not after a back-off)', async () => {
    const tab = await open();
    const offline = await network(tab);
    await start(tab);
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-started'));
    const online = await polls(tab);
    await offline(true);
    clock.advance(6_000); // the person confirmed while the phone had no network
    await hasSaid(tab, en['session.offline'], 30_000);
    // the failed poll and two retries after it, each failing on the way: said once, not on every one
    await tab.waitForFunction((from) => (window as unknown as { polls: number }).polls >= from + 3, { timeout: 40_000, polling: 50 }, online);
    const whileOffline = await said(tab);
    const before = await polls(tab);
    await offline(false);
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-authenticated'), {
      timeout: 20_000,
      polling: 50,
    });
    // the poll the coming online set off brought it (a back-off poll may have left as the network came
    // back): one poll left in what the online event itself set off, not on a back-off's timer
    const after = (await polls(tab)) - before;
    assert.ok(after >= 1 && after <= 2, `${after} polls after coming online`);
    assert.equal(await tab.evaluate(() => (window as unknown as { pollsOnComingOnline: number }).pollsOnComingOnline), 1, 'one poll sent on coming online');
    assert.deepEqual(whileOffline, [en['session.offline']], 'said once, not on every retry');
    assert.deepEqual(
      (await events(tab)).map((e) => e.type),
      ['esign-started', 'esign-authenticated'],
    );
    await tab.close();
  });

  it('has the result at once when a frozen page becomes active again (its first poll, not after the interval), every time (8 of 8)', async () => {
    for (let i = 0; i < 8; i++) {
      const tab = await open();
      // a poll a minute: only the waking can bring the result within the wait below
      await tab.evaluate(() => document.querySelector('esign-identify')!.setAttribute('poll-interval', '60000'));
      await start(tab);
      await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-started'));
      await lifecycle(tab, 'frozen');
      const before = await polls(tab);
      clock.advance(6_000);
      await lifecycle(tab, 'active');
      await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-authenticated'), {
        timeout: 20_000,
        polling: 50,
      });
      // the poll the waking set off brought it (one that was due as the page froze may go first)
      const after = (await polls(tab)) - before;
      assert.ok(after >= 1 && after <= 2, `${after} polls after waking, round ${i + 1}`);
      await tab.close();
    }
  });
});

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { Sandbox } from 'esign-sandbox';
import { pagesInChromium } from './page-server.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { FIREFOX_PATH } from '../../scripts/chromium.js';
import { en } from '../../src/i18n/en.js';
import { TestClock } from '../node/harness.js';
import { until } from '../node/wait.js';

// The person on one phone: the page is frozen while they confirm in the app, or discarded and
// reloaded when they come back. Chromium drives the page lifecycle over the DevTools protocol; the
// sandbox's clock decides when the person has answered.

const TOKEN = 'resume-test-token';
const clock = new TestClock();
/** What reached the service side: starts, polls and removals by path. */
const reached: string[] = [];

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Resume</title>
<script type="module" src="/cdn/esign-elements.js"></script><script type="module" src="/page.js"></script></head><body>${body}</body></html>`;

// every esign-* event of the page, in order, kept across nothing (a reload starts a new list)
const PAGE_SCRIPT = `window.events = [];
for (const type of ['esign-started', 'esign-authenticated', 'esign-signed', 'esign-hash-signed', 'esign-error', 'esign-cancelled']) {
  document.addEventListener(type, (e) => window.events.push({ type, id: e.target.id, token: e.detail.token ?? '', resumed: Boolean(e.detail.resumed), code: e.detail.code ?? '', control: e.detail.controlCode ?? '' }));
}`;

const PAGES: Record<string, string> = {
  '/identify': page('<esign-identify id="login" endpoint="/esign" channels="smartid" code="40504040001" country="EE" poll-interval="300"></esign-identify>'),
  '/slow': page('<esign-identify id="login" endpoint="/esign" channels="smartid" code="40504040001" country="EE" poll-interval="60000"></esign-identify>'),
  '/two': page(
    '<esign-identify endpoint="/esign" channels="smartid" code="40504040001" country="EE" poll-interval="300"></esign-identify>' +
      '<esign-identify endpoint="/esign" channels="smartid" code="30303039914" country="LT" poll-interval="300"></esign-identify>',
  ),
  '/sign': page(
    '<esign-sign id="signer" endpoint="/esign" channels="mobile" phone="+37060000666" code="50001018865" poll-interval="300" no-preview></esign-sign>',
  ),
  '/hash': page(
    `<esign-hash-sign id="hasher" endpoint="/esign" channels="smartid" code="40504040001" country="EE" hash="${'ab'.repeat(32)}" poll-interval="300"></esign-hash-sign>`,
  ),
};

const sandbox = new Sandbox({ accessToken: TOKEN, now: clock.now, answerAfterMs: 5_000 });
const env = pagesInChromium(() => ({
  sandbox,
  token: TOKEN,
  content: (path) => (path === '/page.js' ? PAGE_SCRIPT : PAGES[path]),
  onService: (req) => reached.push(`${req.method} ${req.url}`),
}));

interface Seen {
  type: string;
  id: string;
  token: string;
  resumed: boolean;
  code: string;
  control: string;
}

const events = (tab: Page) => tab.evaluate(() => (window as unknown as { events: Seen[] }).events);
const starts = (path: string) => reached.filter((line) => line === `POST ${path}`).length;

/** The element's status heading and the control code it shows. */
async function shown(tab: Page, selector: string): Promise<{ state: string; heading: string; code: string }> {
  return tab.evaluate((selector) => {
    const root = document.querySelector(selector)!.shadowRoot!;
    const status = root.querySelector('esign-status') as (HTMLElement & { state: string; message: string }) | null;
    const code = root.querySelector('esign-control-code') as (HTMLElement & { code: string }) | null;
    return { state: status?.state ?? '', heading: status?.message ?? '', code: code?.code ?? '' };
  }, selector);
}

async function open(path: string, engine: Browser = env.browser): Promise<Page> {
  const tab = await engine.newPage();
  await tab.goto(`${env.url}${path}`, { waitUntil: 'load' });
  // the all-in-one file defines an element other than the login once it has seen it: a page calls
  // an element's methods after it is defined, as docs/packages.md says
  await tab.waitForFunction(
    () =>
      [...document.querySelectorAll('*')].every((el) => !el.localName.startsWith('esign-') || customElements.get(el.localName) !== undefined) &&
      (window as unknown as { events?: unknown[] }).events !== undefined,
  );
  return tab;
}

async function startIn(tab: Page, selector: string): Promise<Seen> {
  await tab.evaluate(
    (selector) => void (document.querySelector(selector) as HTMLElement & { start(): Promise<unknown> }).start().catch(() => undefined),
    selector,
  );
  await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-started'));
  return (await events(tab)).find((e) => e.type === 'esign-started')!;
}

const kept = (tab: Page) => tab.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('esign-elements:session:')));

async function setLifecycle(tab: Page, state: 'frozen' | 'active'): Promise<void> {
  const session = await tab.createCDPSession();
  await session.send('Page.setWebLifecycleState', { state });
  await session.detach();
}

describe('in Firefox too: a login reloaded while the person confirms follows the same session', () => {
  // Firefox's driver (WebDriver BiDi) can reload a page but not freeze one; WebKit's can neither
  let firefox: Browser;
  before(async () => {
    firefox = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, defaultViewport: null });
  });
  after(() => firefox?.close());

  it('identify: the same control code after the reload, one session, then esign-authenticated', async () => {
    const tab = await open('/identify', firefox);
    const before = starts('/en/smartid/login.json');
    const started = await startIn(tab, '#login');
    assert.equal((await kept(tab)).length, 1);
    await tab.reload({ waitUntil: 'load' });
    await tab.waitForFunction(
      () => (document.querySelector('#login')?.shadowRoot?.querySelector('esign-status') as { state?: string } | null)?.state === 'waiting',
    );
    assert.equal((await shown(tab, '#login')).code, started.control);
    clock.advance(10_000);
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-authenticated'), { timeout: 10_000 });
    const after = await events(tab);
    assert.deepEqual(
      after.map((e) => [e.type, e.resumed]),
      [
        ['esign-started', true],
        ['esign-authenticated', false],
      ],
    );
    assert.equal(after[0]!.token, started.token);
    assert.equal(starts('/en/smartid/login.json') - before, 1, 'one session started in all');
    assert.deepEqual(await kept(tab), []);
    await tab.close();
  });
});

describe('a session survives the page being reloaded while the person confirms', () => {
  for (const [path, selector, startPath, completion] of [
    ['/identify', '#login', '/en/smartid/login.json', 'esign-authenticated'],
    ['/sign', '#signer', '/en/mobile/sign.json', 'esign-signed'],
    ['/hash', '#hasher', '/en/smartid/sign/hash.json', 'esign-hash-signed'],
  ] as const) {
    it(`${selector.slice(1)}: reloaded while waiting, it shows the same control code, follows the same session and ends with ${completion}`, async () => {
      const tab = await open(path);
      if (path === '/sign') {
        await tab.evaluate(
          (pdf) => {
            const el = document.querySelector('#signer') as HTMLElement & { files: File };
            el.files = new File([Uint8Array.from(atob(pdf), (c) => c.charCodeAt(0))], 'contract.pdf', { type: 'application/pdf' });
          },
          Buffer.from(samplePdf('Resume contract')).toString('base64'),
        );
      }
      const before = starts(startPath);
      const started = await startIn(tab, selector);
      assert.equal((await shown(tab, selector)).code, started.control);
      assert.equal((await kept(tab)).length, 1, 'the waiting session is kept in the tab');

      await tab.reload({ waitUntil: 'load' });
      await tab.waitForFunction(
        (selector) => (document.querySelector(selector)?.shadowRoot?.querySelector('esign-status') as { state?: string } | null)?.state === 'waiting',
        {},
        selector,
      );
      const again = await shown(tab, selector);
      assert.equal(again.code, started.control, 'the same control code after the reload');
      assert.match(again.heading, /Waiting/);

      clock.advance(10_000);
      await tab.waitForFunction((type) => (window as unknown as { events: Seen[] }).events.some((e) => e.type === type), { timeout: 10_000 }, completion);
      const after = await events(tab);
      assert.deepEqual(
        after.map((e) => [e.type, e.resumed]),
        [
          ['esign-started', true],
          [completion, false],
        ],
      );
      assert.equal(after[0]!.token, started.token);
      assert.equal(after[0]!.control, started.control);
      assert.equal(starts(startPath) - before, 1, 'one session started in all');
      assert.deepEqual(await kept(tab), [], 'the kept session is gone once it ended');
      assert.equal((await shown(tab, selector)).state, 'success');
      await tab.close();
    });
  }

  it('drops a kept session that can no longer be alive, and says so', async () => {
    // the record is written from another page of the tab: on /identify itself its element, still
    // starting, could find the record before the page is loaded again
    const tab = await open('/two');
    await tab.evaluate(() => {
      sessionStorage.setItem(
        `esign-elements:session:/identify:esign-identify:login`,
        JSON.stringify({
          v: 1,
          kind: 'login',
          channel: 'smartid',
          token: '0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01',
          controlCode: '1234',
          since: Date.now() - 400_000,
          until: Date.now() - 100_000,
          who: '4050••••001',
          subject: '',
        }),
      );
    });
    const polls = () => reached.filter((line) => line.includes('/status/0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01')).length;
    await tab.goto(`${env.url}/identify`, { waitUntil: 'load' });
    await tab.waitForFunction(
      () => (document.querySelector('#login')?.shadowRoot?.querySelector('esign-status') as { state?: string } | null)?.state === 'error',
    );
    const said = await tab.evaluate(() =>
      document.querySelector('#login')!.shadowRoot!.querySelector('esign-status')!.shadowRoot!.textContent.replace(/\s+/g, ' '),
    );
    assert.ok(said.includes(en['status.resume-expired']), said);
    assert.deepEqual(
      (await events(tab)).map((e) => [e.type, e.code]),
      [['esign-error', 'expired']],
    );
    assert.deepEqual(await kept(tab), []);
    assert.equal(polls(), 0, 'nothing was polled for it');
    // the way on: the retry button has the focus and brings the form back
    const focused = await tab.evaluate(() => document.querySelector('#login')!.shadowRoot!.activeElement?.getAttribute('part'));
    assert.equal(focused, 'retry');
    await tab.close();
  });

  it('drops a record of this version whose fields are not of their types (anything on the page may write the storage): no event, no poll, the form at rest', async () => {
    const tab = await open('/two');
    const token = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    await tab.evaluate((token) => {
      sessionStorage.setItem(
        `esign-elements:session:/identify:esign-identify:login`,
        JSON.stringify({
          v: 1,
          kind: 'login',
          channel: 'sms',
          token,
          controlCode: '1234',
          since: Date.now(),
          until: String(Date.now() + 100_000),
          who: '4050••••001',
          subject: '',
        }),
      );
    }, token);
    await tab.goto(`${env.url}/identify`, { waitUntil: 'load' });
    await tab.waitForFunction(() => Boolean(document.querySelector('#login')?.shadowRoot?.querySelector('esign-person-form')));
    // the runtime reads the storage once the form is on screen: its drop is what is waited for
    await tab.waitForFunction(() => !Object.keys(sessionStorage).some((key) => key.startsWith('esign-elements:session:')), { timeout: 5_000 });
    assert.deepEqual(await events(tab), []);
    assert.equal(reached.filter((line) => line.includes(token)).length, 0, 'nothing was polled for it');
    assert.equal(
      await tab.evaluate(() => (document.querySelector('#login')!.shadowRoot!.querySelector('esign-status') as unknown as { state: string }).state),
      'idle',
    );
    await tab.close();
  });

  it('cancels a session after a reload: removed at the service, cancelled event, nothing kept', async () => {
    const tab = await open('/identify');
    const started = await startIn(tab, '#login');
    await tab.reload({ waitUntil: 'load' });
    await tab.waitForFunction(
      () => (document.querySelector('#login')?.shadowRoot?.querySelector('esign-status') as { state?: string } | null)?.state === 'waiting',
    );
    await tab.evaluate(() => (document.querySelector('#login') as HTMLElement & { cancel(): Promise<void> }).cancel());
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-cancelled'));
    assert.ok(reached.includes(`DELETE /en/api/smartid/session/${started.token}`));
    assert.deepEqual(
      (await events(tab)).map((e) => [e.type, e.token]),
      [
        ['esign-started', started.token],
        ['esign-cancelled', started.token],
      ],
    );
    assert.deepEqual(await kept(tab), []);
    await tab.close();
  });

  it('keeps two elements of one page apart, and a second tab starts clean', async () => {
    const tab = await open('/two');
    const started = await startIn(tab, 'esign-identify:first-of-type');
    await tab.reload({ waitUntil: 'load' });
    await tab.waitForFunction(
      () => (document.querySelector('esign-identify')?.shadowRoot?.querySelector('esign-status') as { state?: string } | null)?.state === 'waiting',
    );
    const states = await tab.evaluate(() =>
      [...document.querySelectorAll('esign-identify')].map((el) => (el.shadowRoot!.querySelector('esign-status') as unknown as { state: string }).state),
    );
    assert.deepEqual(states, ['waiting', 'idle']);
    const other = await open('/two');
    const otherStates = await other.evaluate(() =>
      [...document.querySelectorAll('esign-identify')].map((el) => (el.shadowRoot!.querySelector('esign-status') as unknown as { state: string }).state),
    );
    assert.deepEqual(otherStates, ['idle', 'idle']);
    assert.deepEqual(await kept(other), []);
    assert.deepEqual(await events(other), []);
    await other.close();
    clock.advance(10_000);
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-authenticated'));
    assert.deepEqual(
      (await events(tab)).map((e) => [e.type, e.token]),
      [
        ['esign-started', started.token],
        ['esign-authenticated', started.token],
      ],
    );
    await tab.close();
  });
});

describe('back from the app', () => {
  it('polls at once when the frozen page is active again, and tells a person who came back early where to finish', async () => {
    // a poll interval of a minute: only the poll on coming back can bring the result in this test
    const tab = await open('/slow');
    const started = await startIn(tab, '#login');
    const polls = () => reached.filter((line) => line.includes(`/status/${started.token}`)).length;
    // the first poll follows the start at once; the next would come a minute later
    await until(() => polls() > 0, 'a poll', 2_000);
    const first = polls();
    assert.equal(first, 1);

    await setLifecycle(tab, 'frozen');
    await setLifecycle(tab, 'active');
    await tab.waitForFunction(
      (heading, where) => {
        const status = document.querySelector('#login')!.shadowRoot!.querySelector('esign-status') as unknown as { message: string; detail: string };
        // (a brand's non-breaking hyphen read as typed)
        return status.message === heading && status.detail.replace(/\u2011/g, '-') === where;
      },
      { polling: 50 },
      en['status.back'],
      en['status.back.smartid'],
    );
    // the poll the return sent reaches the service on its own time: waited for, then counted once
    await until(() => polls() > first, 'a poll on coming back', 2_000);
    assert.equal(polls(), first + 1, 'one poll on coming back');
    assert.equal((await shown(tab, '#login')).code, started.control, 'the control code is still shown');

    // confirmed in the app meanwhile: the next return brings the result
    await setLifecycle(tab, 'frozen');
    clock.advance(10_000);
    await setLifecycle(tab, 'active');
    // the page's visibility stays hidden after a lifecycle change: no animation frames to wait on
    await tab.waitForFunction(() => (window as unknown as { events: Seen[] }).events.some((e) => e.type === 'esign-authenticated'), {
      timeout: 5_000,
      polling: 50,
    });
    assert.equal(polls(), first + 2);
    assert.deepEqual(
      (await events(tab)).map((e) => e.type),
      ['esign-started', 'esign-authenticated'],
    );
    await tab.close();
  });
});

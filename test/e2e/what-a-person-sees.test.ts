import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer-core';
import { Sandbox } from 'esign-sandbox';
import { pagesInChromium } from './page-server.js';
import { en } from '../../src/i18n/en.js';

// What a person sees on a small screen or at a high zoom, and what a screen reader is given, in
// Chromium as the page lays it out: the control code in view when a session starts, a short
// word when they come back, and field messages described without their icon.

const TOKEN = 'what-a-person-sees-token';
// nobody answers on the phone during these tests: the session waits
const sandbox = new Sandbox({ accessToken: TOKEN, answerAfterMs: 600_000 });

// a page whose login sits below a tall header, as a bank's page does
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Login</title>
<script type="module" src="/cdn/esign-elements.js"></script></head>
<body style="margin:0"><header style="block-size:180px">Bank</header>
<esign-identify id="login" endpoint="/esign" channels="smartid" country="EE" poll-interval="60000"></esign-identify></body></html>`;

const env = pagesInChromium(() => ({ sandbox, token: TOKEN, content: (path) => (path === '/' ? PAGE : undefined) }));

async function open(width: number, height: number): Promise<Page> {
  const tab = await env.browser.newPage();
  await tab.setViewport({ width, height });
  await tab.goto(`${env.url}/`, { waitUntil: 'load' });
  await tab.waitForFunction(() => Boolean(document.querySelector('#login')?.shadowRoot?.querySelector('button[part="submit"]')));
  return tab;
}

/** Where a part of the login is, against the viewport: the top and bottom of its box. */
function placeOf(tab: Page, selector: string): Promise<{ top: number; bottom: number; viewport: number } | null> {
  return tab.evaluate((part) => {
    const found = document.querySelector('#login')!.shadowRoot!.querySelector(part);
    const inner = found?.shadowRoot?.querySelector('[part="code"]') ?? found;
    if (!inner) return null;
    const box = inner.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, viewport: innerHeight };
  }, selector);
}

async function startLogin(tab: Page): Promise<void> {
  await tab.type('pierce/input#code', '40504040001');
  await tab.click('pierce/button[part="submit"]');
  await tab.waitForFunction(() =>
    Boolean(document.querySelector('#login')?.shadowRoot?.querySelector('esign-control-code')?.shadowRoot?.querySelector('[part="code"]')?.textContent?.trim()),
  );
  // the focus moved (the control code) and the page scrolled: what the person sees now
  await tab.waitForFunction(() => document.querySelector('#login')?.shadowRoot?.activeElement?.localName === 'esign-control-code');
}

async function setLifecycle(tab: Page, state: 'frozen' | 'active'): Promise<void> {
  const session = await tab.createCDPSession();
  await session.send('Page.setWebLifecycleState', { state });
  await session.detach();
}

describe('what a person sees', () => {
  for (const [zoom, width, height] of [
    ['400%', 320, 256],
    ['200%', 640, 400],
  ] as const) {
    it(`keeps the control code in view when a session starts, at ${zoom} zoom of a 1280 × 1024 screen (${width} × ${height})`, async () => {
      const tab = await open(width, height);
      await startLogin(tab);
      const code = await placeOf(tab, 'esign-control-code');
      assert.ok(code, 'the control code is shown');
      assert.ok(code.top >= 0 && code.bottom <= code.viewport, `the code's digits in view: ${JSON.stringify(code)}`);
      await tab.close();
    });
  }

  it("tells a person who came back before confirming where to finish in a short line, the code and Cancel still on a phone's screen", async () => {
    const tab = await open(360, 640);
    await startLogin(tab);
    await setLifecycle(tab, 'frozen');
    await setLifecycle(tab, 'active');
    await tab.waitForFunction(
      (heading) => (document.querySelector('#login')!.shadowRoot!.querySelector('esign-status') as unknown as { message: string }).message === heading,
      { polling: 50 },
      en['status.back'],
    );
    const status = await tab.evaluate(() => {
      const element = document.querySelector('#login')!.shadowRoot!.querySelector('esign-status') as unknown as HTMLElement & {
        message: string;
        detail: string;
      };
      // (a brand's non-breaking hyphen read as typed)
      return { message: element.message, detail: element.detail.replace(/\u2011/g, '-') };
    });
    assert.deepEqual(status, { message: en['status.back'], detail: en['status.back.smartid'] });
    assert.ok(!status.message.includes('come back') && !status.detail.includes('come back'), 'nobody who came back is told to come back');
    for (const part of ['esign-control-code', 'esign-status']) {
      const place = await placeOf(tab, part);
      assert.ok(place && place.top >= 0 && place.bottom <= place.viewport, `${part} on the screen: ${JSON.stringify(place)}`);
    }
    const cancel = await tab.evaluate(() => {
      const button = document.querySelector('#login')!.shadowRoot!.querySelector('esign-status')!.shadowRoot!.querySelector('[part="cancel"]')!;
      const box = button.getBoundingClientRect();
      return box.bottom <= innerHeight && box.top >= 0;
    });
    assert.ok(cancel, 'Cancel on the screen');
    await tab.close();
  });

  it("describes a field's message without its icon: the browser's accessible description is the words alone", async () => {
    const tab = await open(1280, 800);
    await tab.click('pierce/button[part="submit"]');
    await tab.waitForFunction(() =>
      Boolean(document.querySelector('#login')?.shadowRoot?.querySelector('esign-person-form')?.shadowRoot?.querySelector('.field-error')?.textContent?.trim()),
    );
    const input = await tab.$('pierce/input#code');
    const node = await tab.accessibility.snapshot({ root: input!, interestingOnly: false });
    assert.ok(node?.description, 'the field has a description');
    assert.ok(node.description.includes(en['form.code.empty']), `its message: ${node.description}`);
    assert.ok(!node.description.includes('!'), `no icon in it: ${node.description}`);
    await tab.close();
  });

  it("in forced colours, shows that it is working (the spinner two-toned), which field is wrong (a doubled border) and what the site set (a dashed frame, never a field's)", async () => {
    const tab = await open(1280, 800);
    // the one country the site offers, read-only: framed like a field at rest, dashed once the fill is gone
    await tab.evaluate(() => document.querySelector('#login')!.setAttribute('countries', 'EE'));
    await tab.waitForSelector('pierce/.readonly-value');
    const frame = () => tab.$eval('pierce/.readonly-value', (value) => getComputedStyle(value).borderTopStyle);
    assert.equal(await frame(), 'solid');
    const cdp = await tab.createCDPSession();
    await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: 'active' }] });
    assert.ok(await tab.evaluate(() => matchMedia('(forced-colors: active)').matches), 'forced colours on');
    assert.equal(await frame(), 'dashed');
    await tab.evaluate(() => document.querySelector('#login')!.removeAttribute('countries'));
    await tab.click('pierce/button[part="submit"]');
    await tab.waitForFunction(() =>
      Boolean(document.querySelector('#login')?.shadowRoot?.querySelector('esign-person-form')?.shadowRoot?.querySelector('.field-error')),
    );
    const invalid = await tab.$eval('pierce/input#code', (input) => ({
      invalid: input.getAttribute('aria-invalid'),
      style: getComputedStyle(input).borderTopStyle,
    }));
    assert.deepEqual(invalid, { invalid: 'true', style: 'double' });
    await tab.type('pierce/input#code', '40504040001');
    await tab.click('pierce/button[part="submit"]');
    await tab.waitForFunction(() =>
      Boolean(document.querySelector('#login')?.shadowRoot?.querySelector('esign-status')?.shadowRoot?.querySelector('.spinner')),
    );
    const ring = await tab.evaluate(() => {
      const spinner = document.querySelector('#login')!.shadowRoot!.querySelector('esign-status')!.shadowRoot!.querySelector('.spinner')!;
      const style = getComputedStyle(spinner);
      return { top: style.borderTopColor, right: style.borderRightColor, turning: style.animationName !== 'none' };
    });
    assert.notEqual(ring.top, ring.right, `the turning part in a colour of its own: ${JSON.stringify(ring)}`);
    assert.ok(ring.turning, 'it turns');
    await tab.close();
  });
});

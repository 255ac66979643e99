import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startDemo, type RunningDemo } from '../../demo/server.js';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let demo: RunningDemo;
let browser: Browser;
before(async () => {
  demo = await startDemo({ port: 0, answerAfterMs: 600 });
  browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await demo?.close();
});

async function openDemo(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(demo.url, { waitUntil: 'networkidle0' });
  await page.waitForFunction(() => customElements.get('esign-identify') !== undefined);
  return page;
}

/** Presses Tab until the focused element (through shadow roots) matches. */
async function tabTo(page: Page, test: string, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const found = await page.evaluate((selectorTest) => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active ? active.matches(selectorTest) : false;
    }, test);
    if (found) return;
  }
  throw new Error(`could not reach ${test} with Tab`);
}

function logText(page: Page): Promise<string> {
  return page.$eval('#log', (el) => el.textContent ?? '');
}

describe('demo page, end to end in Chromium', () => {
  it('logs in with Smart-ID using the keyboard alone', async () => {
    const page = await openDemo();
    await tabTo(page, 'input#code');
    await page.keyboard.type('40504040001');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-authenticated'), { timeout: 15000 });
    const log = await logText(page);
    assert.match(log, /esign-started/);
    assert.match(log, /"name":"OK","surname":"TESTNUMBER","code":"40504040001"/);
    await page.close();
  });

  it('logs in with Mobile-ID: channel by arrow key, phone in national form', async () => {
    const page = await openDemo();
    await tabTo(page, 'input[type=radio][value=smartid]');
    await page.keyboard.press('ArrowRight');
    await tabTo(page, 'input#phone');
    await page.keyboard.type('8 600 00666');
    await page.keyboard.press('Tab');
    await page.keyboard.type('50001018865');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-authenticated'), { timeout: 15000 });
    assert.match(await logText(page), /"channel":"mobile"/);
    await page.close();
  });

  it('shows a refusal in the page language and offers to try again', async () => {
    const page = await openDemo();
    await page.select('#lang', 'lt');
    await tabTo(page, 'input#code');
    await page.keyboard.type('30403039917');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-error'), { timeout: 15000 });
    assert.match(await logText(page), /Atsisakėte telefone/);
    const focused = await page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active?.textContent?.trim();
    });
    assert.equal(focused, 'Bandyti dar kartą');
    await page.close();
  });
});

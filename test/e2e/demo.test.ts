import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { startDemo, type RunningDemo } from '../../demo/server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { until } from '../node/wait.js';

let demo: RunningDemo;
let browser: Browser;
let downloads: string;
/**
 * How long a step may take to happen, made for the whole suite's load on two cores (a signing of
 * two files once took more than Puppeteer's 30 s there): when it happens, never a measure of speed.
 */
const WAIT_MS = 90_000;
before(async () => {
  downloads = mkdtempSync(join(tmpdir(), 'esign-e2e-'));
  demo = await startDemo({ port: 0, answerAfterMs: 600 });
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const cdp = await browser.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
});
after(async () => {
  await browser?.close();
  await demo?.close();
  rmSync(downloads, { recursive: true, force: true });
});

/** An element inside the shadow root of a demo element. */
async function inside(page: Page, host: string, selector: string, drawn = false): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (h, s, d) => {
      // one level deeper: the person form inside the element
      const found =
        document.querySelector(h)?.shadowRoot?.querySelector(s) ??
        document.querySelector(h)?.shadowRoot?.querySelector('esign-person-form')?.shadowRoot?.querySelector(s) ??
        null;
      // what a person clicks must be drawn (an element still loading its parts has no box yet)
      return found && (!d || found.getClientRects().length > 0) ? found : null;
    },
    {},
    host,
    selector,
    drawn,
  );
  return handle as ElementHandle<Element>;
}

/** A download once Chromium has finished it: it puts an empty file of the final name first and writes a .crdownload beside it until it renames that over it. */
async function downloaded(name: string): Promise<Buffer> {
  const path = join(downloads, name);
  const done = () => existsSync(path) && statSync(path).size > 0 && !readdirSync(downloads).some((file) => file.endsWith('.crdownload'));
  await until(done, `${name} downloaded`, WAIT_MS, 50);
  return readFileSync(path);
}

async function openDemo(): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT_MS);
  // a person new to the site: nothing remembered from an earlier test's login (a method, a country)
  await page.evaluateOnNewDocument(() => localStorage.removeItem('esign-elements:remembered'));
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
  it('loads with no failed request (favicon included) and no console error or warning', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    const console: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warn') console.push(message.text());
    });
    await page.goto(demo.url, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => customElements.get('esign-identify') !== undefined);
    // the browser asks for the icon the page names
    await page.waitForNetworkIdle();
    const icon = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href);
    assert.ok(icon, 'the page names an icon');
    assert.equal((await fetch(icon)).status, 200);
    assert.deepEqual(failed, []);
    assert.deepEqual(console, [], "nothing in the console, not even Lit's dev-mode warning");
    await page.close();
  });

  it('speaks the five languages: the switch turns the page, its elements and the identities table, and the address keeps it', async () => {
    const page = await openDemo();
    const seen = () =>
      page.evaluate(() => ({
        lang: document.documentElement.lang,
        title: document.title,
        heading: document.querySelector('#ids-title')!.textContent,
        outcome: [...document.querySelectorAll('#identities td')].map((td) => td.textContent).find((text) => /^40401/.test(text ?? '')),
        submit: document.querySelector('esign-identify')!.shadowRoot!.querySelector('[part="submit"]')?.textContent?.trim(),
        untranslated: [...document.querySelectorAll('[data-t]')].filter((el) => !el.textContent?.trim()).length,
      }));
    const expected = {
      lt: { heading: 'Bandomosios tapatybės', outcome: '40401: ne Mobile-ID klientas', submit: 'Tęsti' },
      lv: { heading: 'Testa identitātes', outcome: '40401: nav Mobile-ID klients', submit: 'Turpināt' },
      et: { heading: 'Testisikud', outcome: '40401: ei ole Mobile-ID klient', submit: 'Jätka' },
      ru: { heading: 'Тестовые личности', outcome: '40401: не клиент Mobile-ID', submit: 'Продолжить' },
      en: { heading: 'Test identities', outcome: '40401: not a Mobile-ID client', submit: 'Continue' },
    };
    assert.deepEqual((await seen()).lang, 'en', 'English for an English browser');
    for (const [lang, words] of Object.entries(expected)) {
      await page.select('#lang', lang);
      await page.waitForFunction(
        (submit) => document.querySelector('esign-identify')!.shadowRoot!.querySelector('[part="submit"]')?.textContent?.trim() === submit,
        {},
        words.submit,
      );
      const now = await seen();
      assert.deepEqual({ heading: now.heading, outcome: now.outcome, submit: now.submit }, words, lang);
      assert.equal(now.lang, lang);
      assert.equal(now.untranslated, 0);
      assert.equal(new URL(page.url()).searchParams.get('lang'), lang);
    }
    await page.goto(`${demo.url}?lang=lv`, { waitUntil: 'networkidle0' });
    await page.waitForFunction(() => document.documentElement.lang === 'lv');
    assert.equal(await page.$eval('#lang', (el) => (el as HTMLSelectElement).value), 'lv');
    assert.equal(await page.title(), 'esign-elements demonstrācija');
    await page.close();
  });

  it('logs in with Smart-ID using the keyboard alone', async () => {
    const page = await openDemo();
    await tabTo(page, 'input#code');
    await page.keyboard.type('40504040001');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-authenticated'), { timeout: WAIT_MS });
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
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-authenticated'), { timeout: WAIT_MS });
    assert.match(await logText(page), /"channel":"mobile"/);
    await page.close();
  });

  it('shows a refusal in the page language and offers to try again', async () => {
    const page = await openDemo();
    await page.select('#lang', 'lt');
    await tabTo(page, 'input#code');
    await page.keyboard.type('30403039917');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-error'), { timeout: WAIT_MS });
    // a Smart-ID refusal: declined, or another code chosen in the app
    assert.match(await logText(page), /Smart.ID programėlėje nepatvirtinta/);
    const focused = await page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active?.textContent?.trim();
    });
    assert.equal(focused, 'Bandyti dar kartą');
    await page.close();
  });

  it('signs a PDF with Smart-ID (visible, last page) and downloads it', async () => {
    const page = await openDemo();
    await page.click('#sample');
    await (await inside(page, '#sign', 'input#code')).focus();
    await page.keyboard.type('40504040001');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-signed'), { timeout: WAIT_MS });
    assert.match(await logText(page), /"name":"sample-agreement \(signed\).pdf","type":"application\/pdf"/);
    await (await inside(page, '#sign', '[part="download"]', true)).click();
    const pdf = await downloaded('sample-agreement (signed).pdf');
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.match(pdf.toString('latin1'), /\/SubFilter \/ETSI\.CAdES\.detached/);
    await page.close();
  });

  it('signs two files as an ASiC-E container with Mobile-ID and downloads it', async () => {
    const page = await openDemo();
    const dir = mkdtempSync(join(tmpdir(), 'esign-e2e-files-'));
    const contract = join(dir, 'contract.pdf');
    const annex = join(dir, 'annex.txt');
    writeFileSync(contract, samplePdf('Contract'));
    writeFileSync(annex, 'Annex 1');
    await page.select('#sign-options select[name=type]', 'asice');
    const input = (await inside(page, '#sign', 'input[type=file]')) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(contract, annex);
    // both files listed before the method is chosen: the list drawn late moves the form down, and a click by position would miss
    await page.waitForFunction(() => ['contract.pdf', 'annex.txt'].every((name) => document.querySelector('#sign')?.shadowRoot?.textContent?.includes(name)), {
      timeout: WAIT_MS,
    });
    // the method chosen from the keyboard, as a person without a mouse would (no position to miss)
    await (await inside(page, '#sign', 'input[value=mobile]', true)).focus();
    await page.keyboard.press('Space');
    await (await inside(page, '#sign', 'input#phone')).focus();
    await page.keyboard.type('+372 0000 0766');
    await page.keyboard.press('Tab');
    await page.keyboard.type('60001019906');
    // what was typed is in the fields before the form is sent (a loaded machine draws late)
    await page.waitForFunction(
      () => {
        const form = document.querySelector('#sign')?.shadowRoot?.querySelector('esign-person-form')?.shadowRoot;
        return (
          form?.querySelector<HTMLInputElement>('#phone')?.value.replace(/\s/g, '') === '+37200000766' &&
          form.querySelector<HTMLInputElement>('#code')?.value === '60001019906'
        );
      },
      { timeout: WAIT_MS },
    );
    await page.keyboard.press('Enter');
    await page
      .waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-signed'), { timeout: WAIT_MS })
      .catch(async (error: unknown) => {
        // what the person saw, for the one who reads the failure
        const seen = await page.evaluate(
          `(function walk(node) { let text = ''; for (const child of node.childNodes) { if (child.nodeType === 3) text += child.textContent; else if (child.nodeType === 1) { text += ' ' + walk(child); if (child.shadowRoot) text += walk(child.shadowRoot); } } return text; })(document.querySelector('#sign')).replace(/\\s+/g, ' ')`,
        );
        throw new Error(`no esign-signed: the log says ${(await logText(page)).slice(-600)}; the card says ${String(seen).slice(0, 600)}`, { cause: error });
      });
    await (await inside(page, '#sign', '[part="download"]', true)).click();
    const zip = await downloaded('contract (signed).asice');
    assert.equal(zip.subarray(30, 38).toString(), 'mimetype');
    assert.ok(zip.includes(Buffer.from('annex.txt')));
    rmSync(dir, { recursive: true, force: true });
    await page.close();
  });

  it('signs a hash with Smart-ID', async () => {
    const page = await openDemo();
    await (await inside(page, '#hash-sign', 'input#code')).focus();
    await page.keyboard.type('30303039914');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('esign-hash-signed'), { timeout: WAIT_MS });
    assert.match(await logText(page), /"hashAlgorithm":"SHA256"/);
    await page.close();
  });
});

/**
 * `npm run screenshots [-- --browser chromium|firefox|webkit] [--lang lt,en] [--only identify]`: every
 * element in each of its states, at 360 px and 1280 px, light and dark, reached for real on the
 * demo's stage page (demo/stage.ts) against the proxy and sandbox. WebKit is Debian's WebKitGTK
 * MiniBrowser through WebKitWebDriver (its screenshots are of the viewport). Written to
 * `screenshots/<browser>/<element>-<state>-<lang>-<scheme>-<width>.png` (not committed): look at them.
 * `npm run screenshots -- --readme`: only the README's two pictures, a login and a document being
 * signed, written to docs/images/ (committed: run it when the elements' look changes).
 * `npm run screenshots -- --zoom`: the states whose point is 400% zoom (a screen of 1280 × 1024 laid
 * out as 320 × 256: an error, the connection lost), the viewport as the person sees it.
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startDemo } from '../demo/server.js';
import { remote } from 'webdriverio';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FIREFOX_PATH } from './chromium.js';
import { WEBKIT_CAPABILITIES, startWebkitDriver } from './webkit.mjs';

const STATES: Record<string, string[]> = {
  identify: ['idle', 'invalid', 'waiting', 'offline', 'error', 'no-account', 'success'],
  sign: ['empty', 'idle', 'invalid', 'sending', 'waiting', 'error', 'damaged', 'success', 'signer'],
  'hash-sign': ['idle', 'subject', 'waiting', 'signer', 'wrong-hash'],
  'document-upload': ['idle', 'sending', 'done'],
  document: ['loaded', 'missing'],
  'validation-report': ['idle', 'signed'],
};

const { values } = parseArgs({
  options: {
    browser: { type: 'string', default: 'chromium' },
    lang: { type: 'string', default: 'lt,en' },
    only: { type: 'string' },
    readme: { type: 'boolean', default: false },
    zoom: { type: 'boolean', default: false },
  },
});

/** The README's pictures: the element, its state and the file, in English, light, at a phone's width. */
const README_PICTURES = [
  { element: 'identify', state: 'idle', width: 360, file: 'docs/images/login.png' },
  { element: 'sign', state: 'waiting', width: 360, file: 'docs/images/signing.png' },
];
const languages = values.lang.split(',');
const elements = Object.keys(STATES).filter((name) => !values.only || values.only.split(',').includes(name));

/** Opens a stage page at a width and saves what it shows. */
type Shoot = (url: string, width: number, scheme: string, path: string, height?: number, viewportOnly?: boolean) => Promise<void>;

async function puppeteerShooter(): Promise<{ shoot: Shoot; close: () => Promise<void> }> {
  const browser: Browser =
    values.browser === 'firefox'
      ? await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true })
      : await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const shoot: Shoot = async (url, width, scheme, path, height = 800, viewportOnly = false) => {
    const page = await browser.newPage();
    // Firefox ESR's BiDi sets the viewport but not the screen orientation, nor media features: the
    // stage page sets its own color-scheme from the address, which is what the elements follow
    await page.setViewport({ width, height }).catch((error: unknown) => {
      if (!/setScreenOrientationOverride/.test(String(error))) throw error;
    });
    if (values.browser !== 'firefox') await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    // a document on its way up, on a slow uplink (256 KB/s): its progress on screen
    if (url.includes('state=sending') && values.browser !== 'firefox')
      await page.emulateNetworkConditions({ upload: 256 * 1024, download: 10 * 1024 * 1024, latency: 20 });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset['ready'] === 'true', { timeout: 60_000 });
    await page.screenshot({ path, fullPage: !viewportOnly });
    await page.close();
  };
  return { shoot, close: () => browser.close() };
}

async function webkitShooter(): Promise<{ shoot: Shoot; close: () => Promise<void> }> {
  const driver = await startWebkitDriver();
  const browser = await remote({ hostname: '127.0.0.1', port: driver.port, path: '/', logLevel: 'error', capabilities: WEBKIT_CAPABILITIES });
  const shoot: Shoot = async (url, width, _scheme, path) => {
    await browser.setWindowSize(width, 800);
    await browser.url(url);
    await browser.waitUntil(() => browser.execute(() => document.body.dataset['ready'] === 'true'), { timeout: 60_000 });
    await browser.saveScreenshot(path);
  };
  return {
    shoot,
    close: async () => {
      await browser.deleteSession();
      driver.stop();
    },
  };
}

const demo = await startDemo({ port: 0, answerAfterMs: 800, rateLimit: false });
let shooter: { shoot: Shoot; close: () => Promise<void> } | undefined;
try {
  shooter = values.browser === 'webkit' ? await webkitShooter() : await puppeteerShooter();
  if (values.readme) {
    mkdirSync('docs/images', { recursive: true });
    // a short viewport: the whole page is taken, as tall as what it shows
    for (const { element, state, width, file } of README_PICTURES) {
      await shooter.shoot(`${demo.url}stage.html?element=${element}&state=${state}&lang=en&scheme=light`, width, 'light', file, 100);
    }
    console.log(`${README_PICTURES.length} pictures in docs/images/`);
    elements.length = 0;
  }
  const out = `screenshots/${values.browser}`;
  mkdirSync(out, { recursive: true });
  let count = 0;
  if (values.zoom) {
    // what the person sees after the change, at 400%: where the page scrolled to, not the whole page
    for (const state of ['error', 'offline']) {
      for (const lang of languages) {
        await shooter.shoot(
          `${demo.url}stage.html?element=identify&state=${state}&lang=${lang}&scheme=light&tall=1`,
          320,
          'light',
          `${out}/identify-${state}-${lang}-light-320x256.png`,
          256,
          true,
        );
        count++;
      }
    }
    elements.length = 0;
  }
  for (const element of elements) {
    for (const state of STATES[element]!) {
      for (const lang of languages) {
        for (const scheme of ['light', 'dark']) {
          for (const width of [360, 1280]) {
            // the stage page sets the scheme itself, so engines without media emulation show it too
            const url = `${demo.url}stage.html?element=${element}&state=${state}&lang=${lang}&scheme=${scheme}`;
            await shooter.shoot(url, width, scheme, `${out}/${element}-${state}-${lang}-${scheme}-${width}.png`);
            count++;
          }
        }
      }
    }
  }
  if (count) console.log(`${count} screenshots in ${out}/`);
} finally {
  await shooter?.close();
  await demo.close();
}

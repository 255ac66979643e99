/**
 * `npm run screenshots [-- --browser chromium|firefox] [--lang lt,en] [--only identify]`: every
 * element in each of its states, at 360 px and 1280 px, light and dark, reached for real on the
 * demo's stage page (demo/stage.ts) against the proxy and sandbox. Written to
 * `screenshots/<browser>/<element>-<state>-<lang>-<scheme>-<width>.png` (not committed): look at them.
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startDemo } from '../demo/server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FIREFOX_PATH } from './chromium.js';

const STATES: Record<string, string[]> = {
  identify: ['idle', 'invalid', 'waiting', 'error', 'success'],
  sign: ['empty', 'idle', 'invalid', 'waiting', 'error', 'success'],
  'hash-sign': ['idle'],
  'document-upload': ['idle', 'done'],
  document: ['loaded', 'missing'],
  'validation-report': ['idle'],
};

const { values } = parseArgs({
  options: {
    browser: { type: 'string', default: 'chromium' },
    lang: { type: 'string', default: 'lt,en' },
    only: { type: 'string' },
  },
});
const languages = values.lang!.split(',');
const elements = Object.keys(STATES).filter((name) => !values.only || values.only.split(',').includes(name));

const demo = await startDemo({ port: 0, answerAfterMs: 800, rateLimit: false });
let browser: Browser | undefined;
try {
  browser =
    values.browser === 'firefox'
      ? await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true })
      : await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const out = `screenshots/${values.browser}`;
  mkdirSync(out, { recursive: true });
  let count = 0;
  for (const element of elements) {
    for (const state of STATES[element]!) {
      for (const lang of languages) {
        for (const scheme of ['light', 'dark']) {
          for (const width of [360, 1280]) {
            const page = await browser.newPage();
            await page.setViewport({ width, height: 800 });
            await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
            await page.goto(`${demo.url}stage.html?element=${element}&state=${state}&lang=${lang}&scheme=${scheme}`, { waitUntil: 'load' });
            await page.waitForFunction(() => document.body.dataset['ready'] === 'true', { timeout: 60_000 });
            await page.screenshot({ path: `${out}/${element}-${state}-${lang}-${scheme}-${width}.png`, fullPage: true });
            await page.close();
            count++;
          }
        }
      }
    }
  }
  console.log(`${count} screenshots in ${out}/`);
} finally {
  await browser?.close();
  await demo.close();
}

// Screenshots of a page in headless Chromium: node --import tsx scripts/screenshot.ts <url> <out.png> [width] [scheme] [script] [selector]
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

const [url, out, width = '1200', scheme = 'light', script = '', selector = ''] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: screenshot.ts <url> <out.png> [width] [scheme] [script] [selector]');
  process.exit(2);
}
const browser = await puppeteer.launch({
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: Number(width), height: 900 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  await page.goto(url, { waitUntil: 'networkidle0' });
  if (script) await page.evaluate(script);
  await new Promise((r) => setTimeout(r, 400));
  if (selector) await (await page.$(selector))!.screenshot({ path: out });
  else await page.screenshot({ path: out, fullPage: true });
} finally {
  await browser.close();
}

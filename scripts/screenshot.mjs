// Screenshots of a page in headless Chromium: node scripts/screenshot.mjs <url> <out.png> [width] [scheme] [script] [selector]
import puppeteer from 'puppeteer-core';

const [url, out, width = '1200', scheme = 'light', script = '', selector = ''] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: Number(width), height: 900 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
  await page.goto(url, { waitUntil: 'networkidle0' });
  if (script) await page.evaluate(script);
  await new Promise((r) => setTimeout(r, 400));
  if (selector) await (await page.$(selector)).screenshot({ path: out });
  else await page.screenshot({ path: out, fullPage: true });
} finally {
  await browser.close();
}

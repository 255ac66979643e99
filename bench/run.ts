import { mkdirSync, writeFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { createServer } from 'vite';
import { holdingTable, measureSizes, sizeTable, whatItHolds } from './sizes.js';
import { measureProxyThroughput, throughputTable } from './proxy-throughput.js';
import { measureSlowPhone, slowPhoneTable } from './slow-phone.js';

/** `npm run bench`: sizes against their budgets, encoding and rendering in Chromium. */
const rows = await measureSizes();
console.log(sizeTable(rows));
// where the bytes of the budgeted files are, to find them by what the bundle holds
const holdings = [await whatItHolds('identify'), await whatItHolds(null)];
for (const holding of holdings) console.log(`\n${holdingTable(holding)}`);

const proxy = await measureProxyThroughput();
console.log(`\n${throughputTable(proxy)}`);

/** Runs a bench page in Chromium and returns what its function returns. */
async function inChromium<T>(pageName: string, fn: string): Promise<T> {
  const server = await createServer({ root: 'bench', configFile: false, logLevel: 'silent', server: { port: 0, host: '127.0.0.1', fs: { allow: ['..'] } } });
  await server.listen();
  const address = server.httpServer?.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/${pageName}`, { waitUntil: 'networkidle0' });
    await page.waitForFunction((name) => name in window, {}, fn);
    return (await page.evaluate((name) => (window as unknown as Record<string, () => Promise<unknown>>)[name]!(), fn)) as T;
  } finally {
    await browser.close();
    await server.close();
  }
}

type Measure = { ms: number; longestTaskMs: number };
const encoding = await inChromium<Record<string, { widget: Measure; native: Measure }>>('encode.html', 'runEncodeBench');
console.log('\n| encode in Chromium | widget: time | widget: longest main-thread block | native FileReader (one call): time | native: longest block |');
console.log('|---|---:|---:|---:|---:|');
for (const [size, { widget, native }] of Object.entries(encoding)) {
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(`| ${size} | ${ms(widget.ms)} | ${ms(widget.longestTaskMs)} | ${ms(native.ms)} | ${ms(native.longestTaskMs)} |`);
}

const list = await inChromium<{ signers: number; renderMs: number; toPaintMs: number }>('list.html', 'runListBench');
console.log(`\nFirst render of ${list.signers} signers in Chromium: ${Math.round(list.renderMs)} ms to rendered, ${Math.round(list.toPaintMs)} ms to painted`);

mkdirSync('bench', { recursive: true });
const preview = await inChromium<{ cold10: number; warm10: number; warm100: number }>('preview.html', 'runPreviewBench');
console.log('\n| PDF preview in Chromium: file given to first page drawn with its text layer | time |\n|---|---:|');
console.log(
  `| 10 pages, PDF.js still to load | ${Math.round(preview.cold10)} ms |\n| 10 pages | ${Math.round(preview.warm10)} ms |\n| 100 pages | ${Math.round(preview.warm100)} ms |`,
);

const slowPhone = await measureSlowPhone();
console.log(`\n${slowPhoneTable(slowPhone)}`);

writeFileSync(
  'bench/results.json',
  `${JSON.stringify({ measuredAt: new Date().toISOString(), sizes: rows, holdings, proxy, encoding, signerList: list, preview, slowPhone }, null, 2)}\n`,
);
if (rows.some((row) => row.budget !== undefined && row.gzip > row.budget)) process.exitCode = 1;

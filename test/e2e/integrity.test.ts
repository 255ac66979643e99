import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FIREFOX_PATH } from '../../scripts/chromium.js';
import { en } from '../../src/i18n/en.js';
import { listen } from '../node/harness.js';
import { lt } from '../../src/i18n/lt.js';

// The script-tag files loaded from another origin (a CDN) with Subresource Integrity: the entry
// file pinned by its script tag, the chunks it loads later by an import map, both from
// dist/cdn/integrity.json. A file changed on the way is refused by the browser. The page names the
// entry file alone, as the README shows: the form's words are in it, the rest of the language's
// words come once the form is drawn, fetched once.

const CDN_DIR = 'dist/cdn';
const integrity = JSON.parse(readFileSync(`${CDN_DIR}/integrity.json`, 'utf8')) as Record<string, string>;

/** Files the CDN serves altered while named here. */
const tampered = new Set<string>();
const served: string[] = [];
let cdn: Server;
let site: Server;
let cdnUrl: string;
let siteUrl: string;

function page(): string {
  const importMap = { integrity: Object.fromEntries(Object.entries(integrity).map(([file, digest]) => [`${cdnUrl}${file}`, digest])) };
  return `<!doctype html><html lang="lt"><head><meta charset="utf-8"><title>SRI</title>
<script type="importmap">${JSON.stringify(importMap)}</script>
<script type="module" src="${cdnUrl}esign-identify.js" integrity="${integrity['esign-identify.js']}" crossorigin="anonymous" onerror="window.entryRefused = true"></script>
</head><body><esign-identify endpoint="/esign"></esign-identify></body></html>`;
}

before(async () => {
  cdn = createServer((req, res) => {
    const file = (req.url ?? '/').slice(1);
    if (!/^[\w.-]+\.js$/.test(file) || !(file in integrity)) {
      res.writeHead(404).end();
      return;
    }
    served.push(file);
    const code = readFileSync(`${CDN_DIR}/${file}`, 'utf8');
    res
      .writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*', 'cache-control': 'no-store' })
      .end(tampered.has(file) ? `${code}\n;globalThis.tampered = true;` : code);
  });
  cdnUrl = `${await listen(cdn)}/`;
  site = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(page()));
  siteUrl = `${await listen(site)}/`;
});
after(async () => {
  for (const server of [cdn, site]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

describe('dist/cdn/integrity.json', () => {
  it('holds the sha384 digest of every script-tag file as built', () => {
    const files = readdirSync(CDN_DIR)
      .filter((name) => name.endsWith('.js'))
      .sort();
    assert.deepEqual(Object.keys(integrity).sort(), files);
    for (const file of files) {
      assert.equal(
        integrity[file],
        `sha384-${createHash('sha384')
          .update(readFileSync(`${CDN_DIR}/${file}`))
          .digest('base64')}`,
        file,
      );
    }
  });
});

for (const [name, launch] of [
  ['Chromium', () => puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })],
  ['Firefox', () => puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true })],
] as const) {
  describe(`script-tag files from a CDN with Subresource Integrity (${name})`, () => {
    let browser: Browser;
    before(async () => {
      browser = await launch();
    });
    after(() => browser?.close());

    /**
     * Opens the page; resolves with what the element says at rest, the message an empty submit
     * shows (a word of the session part, which comes after the form) and the console's warnings.
     */
    async function open(): Promise<{ defined: boolean; text: string; message: string; warnings: string[]; ranTampered: boolean; entryRefused: boolean }> {
      const tab = await browser.newPage();
      const warnings: string[] = [];
      tab.on('console', (message) => {
        if (message.type() === 'warn') warnings.push(message.text());
      });
      served.length = 0;
      await tab.goto(siteUrl, { waitUntil: 'load' });
      // the element's words, or the entry file refused
      await tab.waitForFunction(
        (words: string[]) => {
          const text = document.querySelector('esign-identify')?.shadowRoot?.textContent ?? '';
          return words.some((word) => text.includes(word)) || (globalThis as { entryRefused?: boolean }).entryRefused === true;
        },
        { timeout: 15_000 },
        [lt['identify.submit'], en['identify.submit']],
      );
      const result = await tab.evaluate(() => ({
        defined: Boolean(customElements.get('esign-identify')),
        text: document.querySelector('esign-identify')?.shadowRoot?.textContent ?? '',
        ranTampered: Boolean((globalThis as { tampered?: boolean }).tampered),
        entryRefused: Boolean((globalThis as { entryRefused?: boolean }).entryRefused),
      }));
      let message = '';
      if (result.defined) {
        await tab.click('pierce/button[part="submit"]');
        const error = await tab.waitForSelector('pierce/[part="error"]', { timeout: 15_000 });
        message = (await error!.evaluate((node) => node.textContent ?? '')).trim();
      }
      await tab.close();
      return { ...result, message, warnings };
    }

    it('loads the element with the Lithuanian words of its form, and the rest of them once, when every file is as built', async () => {
      tampered.clear();
      const { defined, text, message, warnings, ranTampered, entryRefused } = await open();
      assert.ok(defined);
      assert.equal(entryRefused, false);
      assert.ok(text.includes(lt['identify.submit']), text);
      assert.equal(message, lt['form.code.empty']);
      assert.deepEqual(warnings, []);
      assert.equal(ranTampered, false);
      assert.equal(served.filter((file) => file === 'esign-elements-lt-session.js').length, 1, 'the language part came from the CDN, once');
    });

    it('refuses a language part changed on the way: the form keeps the words of its pinned file, the rest is said in English, once warned', async () => {
      const part = 'esign-elements-lt-session.js';
      assert.ok(part in integrity);
      tampered.clear();
      tampered.add(part);
      const { defined, text, message, warnings, ranTampered } = await open();
      assert.ok(defined);
      assert.equal(ranTampered, false, 'the changed file did not run');
      assert.ok(text.includes(lt['identify.submit']), text);
      assert.equal(message, en['form.code.empty']);
      assert.equal(warnings.filter((warning) => warning.includes('the lt strings could not be loaded')).length, 1, warnings.join('\n'));
    });

    it('refuses an entry file changed on the way: nothing of it runs', async () => {
      tampered.clear();
      tampered.add('esign-identify.js');
      const { defined, text, ranTampered, entryRefused } = await open();
      assert.equal(entryRefused, true, 'the browser refused the entry file');
      assert.equal(defined, false);
      assert.equal(text, '');
      assert.equal(ranTampered, false);
    });
  });
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';

// Documents with hostile names, opened on the sandbox's invitation and temporary-link pages in
// Chromium: nothing of the name may run, and the name is shown and used as plain text.

const TOKEN = 'hostile-names-token';
let sandbox: RunningSandbox;
let browser: Browser;

before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 300, widgetDir: fileURLToPath(new URL('../../dist/cdn/', import.meta.url)) });
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await sandbox?.close();
});

const PAYLOAD = 'window.__pwned=(window.__pwned||0)+1';
const NAMES = [
  `a</script><script>${PAYLOAD}</script>.pdf`,
  `"><img src=x onerror="${PAYLOAD}">.pdf`,
  `'><svg onload=${PAYLOAD}>.pdf`,
  `\u2028\u2029${'${'}${PAYLOAD}}\`.pdf`,
  `javascript:${PAYLOAD}//.pdf`,
  `<!--<script>${PAYLOAD}</script>-->.pdf`,
  `ä\u202eﬁdp.exe.pdf`,
];

async function api(path: string, body: object): Promise<Record<string, any>> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, access_token: TOKEN }),
  });
  return (await response.json()) as Record<string, any>;
}

describe('sandbox signing pages with hostile file names, in Chromium', () => {
  for (const name of NAMES) {
    it(`shows ${JSON.stringify(name)} as text on both pages and runs none of it`, async () => {
      const upload = await api('/api/document/upload.json', {
        access: 'private',
        file: { filename: name, content: Buffer.from(samplePdf('Hostile')).toString('base64') },
        signers: [{ name: `<b onmouseover=${PAYLOAD}>Ona`, surname: 'Tester', email: 'ona@example.test' }],
      });
      assert.equal(upload['status'], 'ok', JSON.stringify(upload));
      const link = await api('/api/document/generate-temporary-signing-link.json', {
        document_id: upload['document'].uuid,
        callback_url: 'http://127.0.0.1:9/cb',
      });
      for (const url of [upload['signers'][0].invitationUrl as string, link['temporary_signing_link'] as string]) {
        const page = await browser.newPage();
        const dialogs: string[] = [];
        const failed: string[] = [];
        page.on('response', (answer) => {
          if (answer.status() >= 400) failed.push(`${answer.status()} ${new URL(answer.url()).pathname}`);
        });
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        // a person in Vilnius: the link's deadline in their own time, not in UTC
        await page.emulateTimezone('Europe/Vilnius');
        const response = await page.goto(url, { waitUntil: 'networkidle0' });
        assert.match(response!.headers()['content-security-policy'] ?? '', /script-src 'self'/);
        // the page's own script ran: the element holds the document under its name
        await page.waitForFunction(() => (document.querySelector('esign-sign') as unknown as { files?: unknown })?.files instanceof File, { timeout: 10_000 });
        const seen = await page.evaluate(() => ({
          pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
          title: document.title,
          heading: document.querySelector('h1')?.textContent ?? '',
          scripts: [...document.scripts].map((s) => s.src || s.textContent),
          fileName: (document.querySelector('esign-sign') as unknown as { files: File }).files.name,
          images: document.images.length,
        }));
        assert.equal(seen.pwned, 0, 'a script of the name ran');
        assert.deepEqual(dialogs, []);
        assert.equal(seen.images, 0);
        assert.ok(seen.heading.includes(name), `the heading shows the name as text: ${seen.heading}`);
        assert.ok(seen.title.includes(name));
        assert.equal(seen.fileName, name);
        assert.deepEqual(
          seen.scripts.map((s) => new URL(s).pathname),
          ['/assets/signing-page.js'],
        );
        assert.deepEqual(failed, [], 'no request failed, the icon included');
        if (url.includes('/link/')) {
          const deadline = await page.$eval('time[data-local]', (time) => ({ text: time.textContent ?? '', at: time.dateTime }));
          const vilnius = new Date(deadline.at).toLocaleString('en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/Vilnius' });
          assert.ok(deadline.text.includes(vilnius) && !deadline.text.includes('UTC'), `the deadline in the person's time: ${deadline.text}`);
        }
        await page.close();
      }
    });
  }
});

describe('sandbox signing pages with a name of 200 characters, in Chromium', () => {
  const longName = `${'Sutartis-su-labai-ilgu-pavadinimu-'.repeat(6).slice(0, 196)}.pdf`;

  for (const width of [320, 360, 1280]) {
    it(`${width} px: the title, the introduction and the widget stay within the page`, async () => {
      assert.equal(longName.length, 200);
      const upload = await api('/api/document/upload.json', {
        access: 'private',
        file: { filename: longName, content: Buffer.from(samplePdf('Long')).toString('base64') },
        signers: [{ name: 'Ona', surname: 'Tester', email: 'ona@example.test' }],
      });
      const link = await api('/api/document/generate-temporary-signing-link.json', {
        document_id: upload['document'].uuid,
        callback_url: 'http://127.0.0.1:9/cb',
      });
      for (const url of [upload['signers'][0].invitationUrl as string, link['temporary_signing_link'] as string]) {
        const page = await browser.newPage();
        await page.setViewport({ width, height: 800 });
        await page.goto(url, { waitUntil: 'networkidle0' });
        await page.waitForFunction(() => (document.querySelector('esign-sign') as unknown as { files?: unknown })?.files instanceof File, { timeout: 10_000 });
        // the element lists the file once its words are there
        await page.waitForFunction(() => document.querySelector('esign-sign')?.shadowRoot?.querySelector('.file-name') !== null, { timeout: 10_000 });
        const seen = await page.evaluate(() => {
          const sign = document.querySelector('esign-sign')!;
          const row = sign.shadowRoot!.querySelector('.file-name')!;
          return {
            page: document.documentElement.scrollWidth,
            view: window.innerWidth,
            heading: document.querySelector('h1')!.getBoundingClientRect().right,
            intro: Math.max(...[...document.querySelectorAll('main p')].map((p) => p.getBoundingClientRect().right)),
            row: row.getBoundingClientRect().right,
            sign: sign.getBoundingClientRect().right,
            said: row.getAttribute('title'),
          };
        });
        assert.ok(seen.page <= seen.view, `nothing widens the page (${seen.page} > ${seen.view}) at ${url}`);
        assert.ok(seen.heading <= seen.view && seen.intro <= seen.view, 'the title and the introduction wrap within the page');
        assert.ok(seen.row <= seen.sign, 'the file row stays inside the element');
        assert.equal(seen.said, longName, 'the whole name is there to read');
        // the title shortened in the middle on the page, whole in the tab and for a screen reader
        const heading = (await page.evaluate(
          `(() => { const h = document.querySelector('h1'); return { shown: h.querySelector('[aria-hidden="true"]').textContent, title: h.querySelector('[title]').getAttribute('title'), tab: document.title, lines: Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)) }; })()`,
        )) as { shown: string; title: string; tab: string; lines: number };
        assert.match(heading.shown, /^Sutartis-su-labai-ilgu-pavadinimu-Sutart.*…/);
        assert.ok(heading.shown.endsWith('gu-pav.pdf'), heading.shown);
        assert.equal(heading.title, longName);
        assert.ok(heading.tab.includes(longName));
        await page.close();
      }
    });
  }
});

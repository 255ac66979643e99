import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { startDemo, type RunningDemo } from '../../demo/server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { until } from '../node/wait.js';

let demo: RunningDemo;
let browser: Browser;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esign-e2e-docs-'));
  demo = await startDemo({ port: 0, answerAfterMs: 600 });
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await demo?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Functions passed to the page are serialised; tsx would wrap named inner functions in a helper
// the page lacks, so these walk the shadow roots with a plain stack instead.

/** The first element matching a selector anywhere in the page, through shadow roots. */
async function deep(page: Page, selector: string, text?: string): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (s: string, t: string) => {
      const roots: (Document | ShadowRoot)[] = [document];
      while (roots.length) {
        const root = roots.shift()!;
        for (const el of root.querySelectorAll(s)) if (!t || el.textContent?.trim() === t) return el;
        for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
      }
      return null;
    },
    { timeout: 15000 },
    selector,
    text ?? '',
  );
  return handle as ElementHandle<Element>;
}

async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  await (await deep(page, selector)).focus();
  await page.keyboard.type(value);
}

function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    let text = '';
    const stack: Node[] = [document.body];
    while (stack.length) {
      const node = stack.pop()!;
      if (node.nodeType === Node.TEXT_NODE) text += ` ${node.textContent} `;
      const children = [...node.childNodes];
      if (node instanceof Element && node.shadowRoot) children.unshift(...node.shadowRoot.childNodes);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
    return text.replace(/\s+/g, ' ');
  });
}

async function untilText(page: Page, text: string): Promise<void> {
  await until(async () => (await pageText(page)).includes(text), `the page saying "${text}"`, 15_000, 50);
}

/** Uploads a file on the demo page with signers named NAME TESTNUMBER, through the upload form as a person fills it. */
async function uploadWithSigners(page: Page, fileName: string, bytes: Uint8Array, names: string[]): Promise<void> {
  const path = join(dir, fileName);
  writeFileSync(path, bytes);
  const fileInput = (await deep(page, 'esign-document-upload')).evaluateHandle((el) => el.shadowRoot!.querySelector('input[type=file]')!);
  await ((await fileInput) as ElementHandle<HTMLInputElement>).uploadFile(path);
  for (const [i, name] of names.entries()) {
    if (i > 0) await (await deep(page, '[part="add-signer"]')).click();
    await typeInto(page, `#signer-${i}-name`, name);
    await typeInto(page, `#signer-${i}-surname`, 'TESTNUMBER');
    await typeInto(page, `#signer-${i}-email`, `${name.toLowerCase()}@example.test`);
  }
  await page.keyboard.press('Enter');
  await untilText(page, 'The document is uploaded.');
}

describe('documents on the demo page, end to end in Chromium', () => {
  it('uploads, signs through an invitation, invites, validates, links, removes a temporary signer and the document', async () => {
    const page = await browser.newPage();
    await page.goto(demo.url, { waitUntil: 'networkidle0' });
    // upload with two signers
    await uploadWithSigners(page, 'contract.pdf', samplePdf('Contract', 2), ['ANNA', 'BEN']);
    const invitation = await (await deep(page, 'a.url')).evaluate((a) => (a as HTMLAnchorElement).href);
    // the link opens on the demo's own address (the sandbox's pages are served there)
    assert.equal(new URL(invitation).origin, new URL(demo.url).origin);
    assert.match(new URL(invitation).pathname, /^\/sign\/[A-Za-z0-9-]+$/);

    // the invited person signs on the sandbox's page
    const signing = await browser.newPage();
    await signing.goto(invitation, { waitUntil: 'networkidle0' });
    await untilText(signing, 'contract.pdf');
    // the heading's file name keeps its extension on its line (never "contract." / "pdf")
    assert.equal(
      await signing.$eval('h1', (h) => [...h.querySelectorAll('span')].find((s) => s.textContent === 'contract.pdf')?.style.whiteSpace ?? ''),
      'nowrap',
    );
    assert.equal(await signing.$eval('#intro', (p) => (p as HTMLElement).hidden), false);
    await typeInto(signing, 'input#code', '40504040001');
    const signed = signing.evaluate(
      () => new Promise((resolve) => document.querySelector('esign-sign')!.addEventListener('esign-signed', () => resolve(true))),
    );
    await signing.keyboard.press('Enter');
    assert.equal(await signed, true);
    // a copy of the signed document for the person who signed it
    await signing.waitForFunction(() => !(document.getElementById('copy') as HTMLAnchorElement).hidden);
    // signed: the invitation to sign is no longer shown
    assert.equal(await signing.$eval('#intro', (p) => (p as HTMLElement).hidden), true);
    const copy = await signing.$eval('#copy', (a) => ({
      href: (a as HTMLAnchorElement).href,
      name: (a as HTMLAnchorElement).download,
      shown: (a as HTMLElement).getClientRects().length > 0,
    }));
    assert.match(copy.href, /^blob:/);
    assert.equal(copy.name, 'contract (signed).pdf', 'named in the page language');
    assert.ok(copy.shown, 'the copy link is on the page');
    await signing.close();

    // the list shows it
    await (await deep(page, '[part="refresh"]')).click();
    await untilText(page, 'Signed');
    // invite a third signer
    await (await deep(page, '[part="invite"]')).click();
    await typeInto(page, '#invite-name', 'CARL');
    await typeInto(page, '#invite-surname', 'TESTNUMBER');
    await typeInto(page, '#invite-email', 'carl@example.test');
    await page.keyboard.press('Enter');
    await untilText(page, 'CARL TESTNUMBER is invited.');
    // validate
    await (await deep(page, '[part="validate"]')).click();
    await untilText(page, '1 of 1 signature is valid.');
    await untilText(page, 'ANNA');
    // a temporary link with a temporary signer
    await (await deep(page, 'button', 'Add a signer')).click();
    await typeInto(page, '#s0-name', 'EVA');
    await typeInto(page, '#s0-surname', 'TESTNUMBER');
    await typeInto(page, '#s0-code', '40504040001');
    await (await deep(page, 'button', 'Create the link')).click();
    await untilText(page, 'The signing link is ready.');
    const link = await (await deep(page, '[part="link"]')).evaluate((a) => (a as HTMLAnchorElement).href);
    assert.match(link, /\/link\//);
    assert.equal(new URL(link).origin, new URL(demo.url).origin);
    // remove the temporary signer
    await (await deep(page, '[part="refresh"]')).click();
    await untilText(page, 'EVA TESTNUMBER');
    await (await deep(page, 'button', 'Remove EVA TESTNUMBER')).click();
    await (await deep(page, '[part="confirm"]')).click();
    await untilText(page, 'EVA TESTNUMBER is removed.');
    // remove the document
    await (await deep(page, '[part="remove"]')).click();
    await (await deep(page, '[part="confirm"]')).click();
    await untilText(page, 'The document is removed.');
    const log = await page.$eval('#log', (el) => el.textContent ?? '');
    for (const event of [
      'esign-document-uploaded',
      'esign-signer-invited',
      'esign-validated',
      'esign-signing-link-created',
      'esign-signer-removed',
      'esign-document-removed',
    ]) {
      assert.match(log, new RegExp(event));
    }
    await page.close();
  });

  it('two signers each see the document on their invitation page and sign; the state turns signed and the download has two valid signatures', async () => {
    const page = await browser.newPage();
    await page.goto(demo.url, { waitUntil: 'networkidle0' });
    await uploadWithSigners(page, 'lease.pdf', samplePdf('Lease of the flat', 3), ['ANNA', 'OK']);
    const invitations = await (
      await deep(page, 'esign-document-upload')
    ).evaluate((el) => [...el.shadowRoot!.querySelectorAll<HTMLAnchorElement>('a.url')].map((a) => a.href));
    assert.equal(invitations.length, 2);
    await untilText(page, 'Saved, not signed yet');

    for (const [invitation, code] of [
      [invitations[0]!, '40504040001'],
      [invitations[1]!, '30303039914'],
    ] as const) {
      const signing = await browser.newPage();
      await signing.goto(invitation, { waitUntil: 'networkidle0' });
      // the document is shown before the signing form is used: its first page, words included
      await signing.waitForFunction(
        () => {
          const preview = document.querySelector('esign-sign')?.shadowRoot?.querySelector('esign-document-preview')?.shadowRoot;
          return preview?.querySelector('.textLayer')?.textContent?.includes('Lease of the flat') && (preview.querySelector('canvas')?.width ?? 0) > 0;
        },
        { timeout: 20000 },
      );
      assert.match(await pageText(signing), /Page 1 of 3/);
      await typeInto(signing, 'input#code', code);
      const signed = signing.evaluate(
        () => new Promise((resolve) => document.querySelector('esign-sign')!.addEventListener('esign-signed', () => resolve(true))),
      );
      await signing.keyboard.press('Enter');
      assert.equal(await signed, true);
      await signing.close();
    }

    await (await deep(page, '[part="signers-refresh"], [part="refresh"]')).click();
    await untilText(page, 'Signed by everyone');
    const downloads = mkdtempSync(join(dir, 'downloads-'));
    await (await page.createCDPSession()).send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await (await deep(page, '[part="download"]', 'Download the signed file')).click();
    // Chromium puts an empty file of the final name first, and a .crdownload beside it until it is done
    const done = () => {
      const files = readdirSync(downloads);
      const file = files.find((name) => !name.endsWith('.crdownload'));
      return file && !files.some((name) => name.endsWith('.crdownload')) && statSync(join(downloads, file)).size > 0 ? file : undefined;
    };
    await until(() => done() !== undefined, 'the signed file downloaded', 10_000, 50);
    const saved = join(downloads, done()!);
    // named as a signed file is everywhere
    assert.match(saved, /lease_signed\.pdf$/);
    const report = spawnSync('pdfsig', [saved], { encoding: 'utf8' }).stdout;
    assert.equal((report.match(/Signature is Valid/g) ?? []).length, 2, report);
    assert.match(report, /ANNA|TESTNUMBER/);
    await page.close();
  });
});

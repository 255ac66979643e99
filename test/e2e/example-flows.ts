import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';

// What the framework examples' suites share (one file per framework, so that their builds run side
// by side): a Chromium and a scratch folder per file, and the flows a person goes through.

let opened: Browser | null = null;
/** The file's scratch folder, and its Chromium (opened by `withBrowser()`). */
export const example = {
  work: '',
  get browser(): Browser {
    if (!opened) throw new Error('withBrowser() opens Chromium before the tests');
    return opened;
  },
};

/** Opens Chromium and a scratch folder before the file's tests, and closes both after them. */
export function withBrowser(): void {
  before(async () => {
    example.work = mkdtempSync(join(tmpdir(), 'esign-examples-'));
    opened = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await opened?.close();
    rmSync(example.work, { recursive: true, force: true });
  });
}

/**
 * An example with packages of its own (Next.js, Angular: outside the root's workspaces, so that the
 * root's install stays light) installed as its developer installs it, `npm ci` in its folder, unless
 * its folder holds what its lockfile names already. A test file's other work goes on meanwhile.
 */
export async function installExample(root: string): Promise<void> {
  const digest = createHash('sha256')
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex');
  const marker = join(root, 'node_modules', '.installed-lockfile');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === digest) return;
  // no loader of the test runner's in npm's own Node
  const { NODE_OPTIONS: _, ...env } = process.env;
  const output: string[] = [];
  const status = await new Promise<number | null>((resolve, reject) => {
    const npm = spawn('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    npm.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    npm.on('error', reject);
    npm.on('close', resolve);
  });
  assert.equal(status, 0, `npm ci in ${root}: ${output.join('')}`);
  writeFileSync(marker, digest);
}

/** An element through the open shadow roots below `host`. */
export async function deep(page: Page, host: string, selector: string): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (h, s) => {
      // no named inner functions: the page has no helpers the test's compiler may refer to
      const roots: ParentNode[] = [document.querySelector(h)?.shadowRoot].filter((root): root is ShadowRoot => !!root);
      while (roots.length) {
        const root = roots.shift()!;
        const found = root.querySelector(s);
        if (found) return found;
        for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
      }
      return null;
    },
    { timeout: 20_000 },
    host,
    selector,
  );
  return handle as ElementHandle<Element>;
}

/**
 * The two flows every example offers, as a person does them: a Smart-ID login typed and submitted
 * with the keyboard, then a PDF chosen in the app's own file input and signed with Mobile-ID. The
 * app shows what its event handlers received; no page error or console error on the way.
 */
/**
 * Logs in with Smart-ID and signs a PDF, as a person does, through the example at `url`. The
 * signer is typed in (Mobile-ID, another person), or, where the host signs only as the person
 * logged in, fixed by the page (Smart-ID, the same person). Resolves with the page's cookies.
 */
export async function loginAndSign(url: string, fileName: string, signing: 'typed' | 'fixed' = 'typed'): Promise<string> {
  const page = await example.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url, { waitUntil: 'networkidle0' });
  await (await deep(page, 'esign-identify', '#code')).focus();
  await page.keyboard.type('40504040001');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#welcome')?.textContent?.trim() === 'Welcome, OK TESTNUMBER', { timeout: 20_000 });
  const pdf = join(example.work, `${fileName}.pdf`);
  writeFileSync(pdf, samplePdf(`${fileName} example`));
  await ((await page.$('#pdf')) as ElementHandle<HTMLInputElement>).uploadFile(pdf);
  await deep(page, 'esign-sign', '.file-name');
  // the person sees the document before signing: the preview's engine, PDF.js and its worker work in this host's build
  await page.waitForFunction(
    (title) =>
      document
        .querySelector('esign-sign')
        ?.shadowRoot?.querySelector('esign-document-preview')
        ?.shadowRoot?.querySelector('.textLayer')
        ?.textContent?.includes(title),
    { timeout: 30_000 },
    `${fileName} example`,
  );
  if (signing === 'typed') {
    await (await deep(page, 'esign-sign', 'input[value="mobile"]')).click();
    await (await deep(page, 'esign-sign', '#phone')).focus();
    await page.keyboard.type('+37060000666');
    await (await deep(page, 'esign-sign', '#code')).focus();
    await page.keyboard.type('50001018865');
    await page.keyboard.press('Enter');
  } else {
    await page.waitForFunction(
      () =>
        document.querySelector('esign-sign')?.shadowRoot?.querySelector('esign-person-form')?.shadowRoot?.querySelector('#code [aria-hidden="true"]')
          ?.textContent === '4050••••001',
    );
    await (await deep(page, 'esign-sign', '[part="submit"]')).click();
  }
  await page.waitForFunction(
    (name) => document.querySelector('#signed')?.textContent?.trim() === `Signed: ${name} (signed).pdf`,
    { timeout: 20_000 },
    fileName,
  );
  assert.deepEqual(errors, []);
  const cookies = (await page.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  await page.close();
  return cookies;
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { startHost, type RunningHost } from '../../examples/host-express/server.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';

// The Express host example in Chromium: its server session comes from the proxy's onResult, and a
// page that forges the browser event logs nobody in.

const TOKEN = 'host-example-token';
let sandbox: RunningSandbox;
let host: RunningHost;
let browser: Browser;
/** The host's log: the proxy's events as pino's JSON lines. */
const logLines: Record<string, unknown>[] = [];

before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 600, widgetDir: fileURLToPath(new URL('../../dist/cdn/', import.meta.url)) });
  const { pino } = await import('pino');
  host = await startHost({
    baseUrl: sandbox.url,
    accessToken: TOKEN,
    port: 0,
    logger: pino({ base: null }, { write: (line: string) => void logLines.push(JSON.parse(line)) }),
  });
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await host?.close();
  await sandbox?.close();
});

async function inside(page: Page, hostTag: string, selector: string): Promise<ElementHandle<Element>> {
  return (await page.waitForFunction(
    (h, s) => {
      const root = document.querySelector(h)?.shadowRoot;
      return root?.querySelector(s) ?? root?.querySelector('esign-person-form')?.shadowRoot?.querySelector(s) ?? null;
    },
    {},
    hostTag,
    selector,
  )) as ElementHandle<Element>;
}

async function serverState(page: Page, expected: string): Promise<string> {
  await page.waitForFunction((state) => document.querySelector('#server')?.getAttribute('data-state') === state, { timeout: 15_000 }, expected);
  return page.$eval('#server', (el) => el.textContent ?? '');
}

async function open(path: string, context = browser.defaultBrowserContext()): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${host.url}${path}`, { waitUntil: 'networkidle0' });
  return page;
}

describe('host example (Express), end to end in Chromium', () => {
  it('logs in with Smart-ID: the server session comes from onResult', async () => {
    const page = await open('/login');
    assert.match(await serverState(page, 'anonymous'), /not logged you in/);
    const code = await inside(page, 'esign-identify', 'input#code');
    await code.type('30303039914');
    await page.keyboard.press('Enter');
    const text = await serverState(page, 'logged-in');
    assert.match(text, /Logged in on the server as .+ \(LT\)/);
    // the host's log has the start and the end of the session, the person masked, nothing secret
    const session = logLines.filter((line) => line['operation'] === 'smartIdLogin' || line['operation'] === 'smartIdLoginStatus');
    assert.deepEqual(
      session.map((line) => [line['msg'], line['level']]),
      [
        ['esign-proxy started', 30],
        ['esign-proxy finished', 30],
      ],
    );
    assert.deepEqual(session[1]!['person'], { code: '3030••••914' });
    assert.ok(!JSON.stringify(logLines).includes('30303039914') && !JSON.stringify(logLines).includes(TOKEN));
    const me = await page.evaluate(async () => (await fetch('/me')).json());
    assert.equal(me.account.code, '30303039914');
    const hostSessions = [...host.sessions.values()].filter((s) => s.account?.code === '30303039914');
    assert.equal(hostSessions.length, 1, 'exactly one server-side session was logged in');
    await page.close();
  });

  it('a forged esign-authenticated event logs nobody in', async () => {
    const context = await browser.createBrowserContext();
    const page = await open('/login', context);
    await serverState(page, 'anonymous');
    const before = [...host.sessions.values()].filter((s) => s.account).length;
    const fired = await page.evaluate(() => {
      const forged = {
        person: { name: 'MALLORY', surname: 'FORGED', code: '39001010708', country: 'LT' },
        token: '00000000-0000-0000-0000-000000000000',
        channel: 'smartid',
      };
      const el = document.querySelector('esign-identify')!;
      return el.dispatchEvent(new CustomEvent('esign-authenticated', { detail: forged, bubbles: true, composed: true }));
    });
    assert.equal(fired, true);
    // the page asked its server again and the server still says no
    await page.waitForResponse((response) => response.url().endsWith('/me'));
    assert.match(await serverState(page, 'anonymous'), /not logged you in/);
    const me = await page.evaluate(async () => {
      const response = await fetch('/me');
      return { status: response.status, body: await response.json() };
    });
    assert.deepEqual(me, { status: 401, body: { loggedIn: false, files: [] } });
    // and asking the proxy for someone else's session is no way in either
    const poll = await page.evaluate(async () =>
      (
        await fetch('/esign/smartid/status/00000000-0000-0000-0000-000000000000.json', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).json(),
    );
    assert.equal(poll.error_code, 40402);
    assert.equal([...host.sessions.values()].filter((s) => s.account).length, before);
    await context.close();
  });

  it('stores the signed file on the server from onResult', async () => {
    const context = await browser.createBrowserContext();
    const page = await open('/sign', context);
    await serverState(page, 'anonymous');
    const pdf = [...samplePdf('Host example contract')];
    await page.evaluate((bytes) => {
      const el = document.querySelector('esign-sign') as HTMLElement & { files: unknown };
      el.files = new File([new Uint8Array(bytes)], 'contract.pdf', { type: 'application/pdf' });
    }, pdf);
    const code = await inside(page, 'esign-sign', 'input#code');
    await code.type('40504040001');
    const country = await inside(page, 'esign-sign', 'select#country');
    await country.select('EE');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#server a') !== null, { timeout: 20_000 });
    const listed = await page.$eval('#server', (el) => el.textContent ?? '');
    assert.match(listed, /contract_signed\.pdf \(\d+ bytes, signed by OK TESTNUMBER\)/);
    const stored = await page.evaluate(async () => {
      const response = await fetch('/files/0');
      const bytes = new Uint8Array(await response.arrayBuffer());
      return {
        size: bytes.length,
        head: new TextDecoder().decode(bytes.slice(0, 5)),
        hasSignature: new TextDecoder('latin1').decode(bytes).includes('/ByteRange'),
      };
    });
    assert.equal(stored.head, '%PDF-');
    assert.ok(stored.size > pdf.length);
    assert.equal(stored.hasSignature, true);
    await context.close();
  });
});

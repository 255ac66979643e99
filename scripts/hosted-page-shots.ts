/**
 * `npm run screenshots:hosted [-- --lang lv,en] [--only first,waiting]`: esign-proxy's hosted login
 * page (after `npm run build`) in each of its states, at 360 px and 1280 px, light and dark, in
 * Chromium, reached for real: the built esign-proxy as an OpenID Provider on the sandbox, a site of
 * this script's own (its logo, its home, its callback) and a look file. Written to
 * `screenshots/hosted/<state>-<lang>-<width>-<scheme>.png` (not committed): look at them.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import puppeteer, { type Page } from 'puppeteer-core';
import { startSandbox } from 'esign-sandbox';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

const STATES = ['first', 'mobile', 'waiting', 'noname', 'ended', 'unknown-client', 'bad-redirect'] as const;
const { values } = parseArgs({ options: { lang: { type: 'string', default: 'lt,lv,et,ru,en' }, only: { type: 'string' } } });
const languages = values.lang.split(',');
const states = STATES.filter((state) => !values.only || values.only.split(',').includes(state));

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const ACCESS_TOKEN = 'hosted-page-shots';
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 300 });
const sitePort = await freePort();
const site = `http://127.0.0.1:${sitePort}`;
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="168" height="40" viewBox="0 0 168 40"><rect width="40" height="40" rx="8" fill="#0b6e3c"/><path d="M11 29V11h9.5c4 0 6.3 2 6.3 4.9 0 2-1.1 3.4-2.9 4 2.3.5 3.7 2.1 3.7 4.4 0 3.3-2.5 5.7-6.8 5.7z" fill="#fff"/><text x="50" y="26" font-family="Georgia, serif" font-size="17" fill="#0b6e3c">Baltijas Banka</text></svg>';
const siteServer = createServer((req, res) => {
  if (req.url === '/logo.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO);
  res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>site</title><p>the site</p>');
}).listen(sitePort, '127.0.0.1');

const dir = mkdtempSync(join(tmpdir(), 'esign-hosted-shots-'));
const callback = `${site}/callback`;
writeFileSync(
  join(dir, 'clients.json'),
  JSON.stringify([
    {
      client_id: 'bank',
      client_secret: 'bank-secret-0123456789abcdef-0123',
      redirect_uris: [callback],
      client_name: 'Baltijas Banka',
      logo_uri: `${site}/logo.svg`,
      client_uri: `${site}/`,
    },
    { client_id: 'portal-7f3a', client_secret: 'portal-secret-0123456789abcdef-01', redirect_uris: [callback] },
  ]),
);
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
writeFileSync(
  join(dir, 'keys.json'),
  JSON.stringify({ keys: [{ ...(privateKey.export({ format: 'jwk' }) as object), alg: 'RS256', use: 'sig', kid: 'shots' }] }),
);
writeFileSync(join(dir, 'look.css'), ':root { --esign-color-accent: light-dark(#0b6e3c, #6fd39a); --esign-font-family: Georgia, serif; }\n');
const port = await freePort();
const issuer = `http://127.0.0.1:${port}/esign/oidc`;
const proxy = spawn(process.execPath, ['bin/esign-proxy.js'], {
  env: {
    ...process.env,
    PORT: String(port),
    ESIGN_BASE_URL: sandbox.url,
    ESIGN_ACCESS_TOKEN: ACCESS_TOKEN,
    ESIGN_OIDC_ISSUER: issuer,
    ESIGN_OIDC_CLIENTS: join(dir, 'clients.json'),
    ESIGN_OIDC_KEYS: join(dir, 'keys.json'),
    ESIGN_OIDC_STYLESHEET: join(dir, 'look.css'),
    ESIGN_OIDC_SUBJECT_SECRET: 'subject-secret-of-the-shots',
    ESIGN_RATE_LIMIT: '1000,1000,600,1000',
  },
  stdio: ['ignore', 'ignore', 'pipe'],
});
await new Promise<void>((resolve) => proxy.stderr.on('data', (chunk: Buffer) => String(chunk).includes('listening on') && resolve()));

const authorization = (client: string, language: string, extra: Record<string, string> = {}) =>
  `${issuer}/auth?${new URLSearchParams({
    client_id: client,
    redirect_uri: callback,
    response_type: 'code',
    scope: 'openid',
    ui_locales: language,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...extra,
  }).toString()}`;

/** Each state reached as a person reaches it. */
const reach: Record<(typeof STATES)[number], (page: Page, language: string) => Promise<void>> = {
  first: async (page, language) => {
    await page.goto(authorization('bank', language));
    await page.waitForSelector('esign-identify >>> esign-person-form >>> #code');
  },
  mobile: async (page, language) => {
    await page.goto(authorization('bank', `${language}-LT`));
    await (await page.waitForSelector('esign-identify >>> input[value="mobile"]'))!.click();
    await page.waitForSelector('esign-identify >>> esign-person-form >>> #phone');
  },
  waiting: async (page, language) => {
    await page.goto(authorization('bank', `${language}-LT`));
    await (await page.waitForSelector('esign-identify >>> esign-person-form >>> #code'))!.type('39001010607');
    await page.click('esign-identify >>> [part="submit"]');
    await page.waitForFunction("document.querySelector('esign-identify')?.shadowRoot?.querySelector('esign-control-code')", { timeout: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 600));
  },
  noname: async (page, language) => {
    await page.goto(authorization('portal-7f3a', language));
    await page.waitForSelector('esign-identify >>> esign-person-form >>> #code');
  },
  ended: async (page, language) => {
    await page.setExtraHTTPHeaders({ 'accept-language': language });
    await page.goto(authorization('bank', language));
    await page.waitForSelector('esign-identify');
    await page.goto(`${issuer}/interaction/an-ended-login`);
  },
  'unknown-client': async (page, language) => {
    await page.setExtraHTTPHeaders({ 'accept-language': language });
    await page.goto(`${site}/`);
    await page.goto(authorization('no-such-client', language));
  },
  'bad-redirect': async (page, language) => {
    await page.goto(authorization('bank', language, { redirect_uri: 'http://127.0.0.1:9/elsewhere' }));
  },
};

const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
mkdirSync('screenshots/hosted', { recursive: true });
try {
  for (const state of states)
    for (const language of languages)
      for (const width of [360, 1280])
        for (const scheme of ['light', 'dark']) {
          const context = await browser.createBrowserContext();
          const page = await context.newPage();
          await page.setViewport({ width, height: 780 });
          await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
          await reach[state](page, language).catch(async (error: unknown) => {
            await page.screenshot({ path: `screenshots/hosted/FAILED-${state}-${language}-${width}-${scheme}.png`, fullPage: true });
            throw error;
          });
          const path = `screenshots/hosted/${state}-${language}-${width}-${scheme}.png`;
          await page.screenshot({ path, fullPage: true });
          console.log(path);
          await context.close();
        }
} finally {
  await browser.close();
  proxy.kill();
  siteServer.close();
  await sandbox.close();
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { esignProxyHarness } from '../node/esign-proxy-harness.js';
import { oidcFiles } from '../node/oidc-harness.js';
import { freePort, scratchDir, startedByThisFile } from '../node/processes.js';
import { untilAnswering } from '../node/wait.js';

// A site with no login code: docs/any-stack.md's Apache block as a reader copies it, mod_auth_openidc
// asking esign-proxy's OpenID Provider for a login before anything under /private/. In Chromium the
// person logs in on the provider's page and reaches the private page; Apache's own info hook shows
// the claims it took from the ID token.

const { esignProxy } = esignProxyHarness();
const { children } = startedByThisFile();
const TOKEN = 'apache-oidc-token';
const CLIENT_SECRET = 'the-client-secret-of-clients.json-32-chars';
let sandbox: RunningSandbox;
let browser: Browser;
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 300 });
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
  await sandbox?.close();
});

/** The doc's ```apache block, its example addresses put where this test has them. */
function apacheBlock(origin: string, proxyPort: number): string {
  const block = /```apache\n([\s\S]*?)```/.exec(readFileSync(new URL('../../docs/any-stack.md', import.meta.url), 'utf8'))?.[1];
  assert.ok(block && block.includes('127.0.0.1:8787') && block.includes('https://site.example'), "the doc's block names the addresses it says");
  return block.replaceAll('127.0.0.1:8787', `127.0.0.1:${proxyPort}`).replaceAll('https://site.example', origin);
}

const MODULES = ['mpm_event', 'authz_core', 'authn_core', 'authz_user', 'proxy', 'proxy_http', 'headers', 'dir', 'mime', 'auth_openidc'];

describe('a site behind Apache with mod_auth_openidc and no login code', () => {
  it("asks for a login before /private/, the person logs in on the provider's page, and Apache knows them by the ID token", async () => {
    const [port, proxyPort] = [await freePort(), await freePort()];
    const origin = `http://127.0.0.1:${port}`;
    const files = oidcFiles();
    writeFileSync(
      files.clients,
      JSON.stringify([{ client_id: 'site', client_secret: CLIENT_SECRET, redirect_uris: [`${origin}/private/callback`], client_name: 'A site behind Apache' }]),
    );
    await esignProxy({
      PORT: String(proxyPort),
      ESIGN_BASE_URL: sandbox.url,
      ESIGN_ACCESS_TOKEN: TOKEN,
      ESIGN_OIDC_ISSUER: `${origin}/esign/oidc`,
      ESIGN_OIDC_CLIENTS: files.clients,
      ESIGN_OIDC_KEYS: files.keys,
      ESIGN_OIDC_SUBJECT_SECRET: 'the-apache-subject-secret',
      ESIGN_TRUST_PROXY: '1',
    });
    const dir = scratchDir('esign-apache-');
    mkdirSync(join(dir, 'htdocs/private'), { recursive: true });
    writeFileSync(
      join(dir, 'htdocs/private/index.html'),
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Private</title></head><body><p id="private">Only for a person logged in</p></body></html>',
    );
    writeFileSync(
      join(dir, 'httpd.conf'),
      `ServerRoot "${dir}"
${MODULES.map((name) => `LoadModule ${name}_module /usr/lib/apache2/modules/mod_${name}.so`).join('\n')}
Listen 127.0.0.1:${port}
ServerName 127.0.0.1
PidFile ${dir}/httpd.pid
ErrorLog ${dir}/error.log
LogLevel warn
TypesConfig /etc/mime.types
DocumentRoot "${dir}/htdocs"
DirectoryIndex index.html
<Directory "${dir}/htdocs">
  Require all granted
</Directory>
<VirtualHost 127.0.0.1:${port}>
${apacheBlock(origin, proxyPort)}
</VirtualHost>
`,
    );
    const apache = spawn('/usr/sbin/apache2', ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, APACHE_RUN_DIR: dir, APACHE_LOCK_DIR: dir },
    });
    children.push(apache);
    let log = '';
    apache.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    await untilAnswering(`${origin}/esign/healthz`, apache, () => `${log}${readFileSafe(join(dir, 'error.log'))}`);
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/private/`);
      assert.match(new URL(page.url()).pathname, /^\/esign\/oidc\/auth$/, "sent to the provider's page");
      assert.match((await page.$eval('esign-identify', (e) => e.getAttribute('interaction'))) ?? '', /^\/esign\/oidc\/interaction\/[A-Za-z0-9_-]+$/);
      assert.match(await page.$eval('h1', (h) => h.textContent), /A site behind Apache/);
      const input = await page.waitForSelector('esign-identify >>> esign-person-form >>> #code');
      await page.select('esign-identify >>> esign-person-form >>> #country', 'EE');
      await input!.type('40504040001');
      await (await page.waitForSelector('esign-identify >>> [part="submit"]'))!.click();
      await page.waitForSelector('#private', { timeout: 20_000 }).catch((error: unknown) => {
        throw new Error(`${String(error)}: ${page.url()} ${readFileSafe(join(dir, 'error.log')).slice(-1500)}`);
      });
      assert.equal(new URL(page.url()).pathname, '/private/');
      const info = await page.evaluate(async () => (await fetch('/private/callback?info=json')).json() as Promise<{ id_token?: Record<string, unknown> }>);
      assert.equal(info.id_token?.['nin'], '40504040001');
      assert.equal(info.id_token?.['nin_issuing_country'], 'EE');
      assert.equal(info.id_token?.['name'], 'OK TESTNUMBER');
      // another browser is nobody: sent to log in
      // (node:http: fetch says Sec-Fetch-Mode: cors, which mod_auth_openidc answers 401 as a script's call)
      const stranger = await new Promise<{ status: number; location: string }>((resolve, reject) =>
        get(
          `${origin}/private/`,
          { headers: { accept: 'text/html' } },
          (answer) => (answer.resume(), resolve({ status: answer.statusCode ?? 0, location: answer.headers.location ?? '' })),
        ).on('error', reject),
      );
      assert.equal(stranger.status, 302);
      assert.match(stranger.location, new RegExp(`^${origin}/esign/oidc/auth\\?`));
    } finally {
      await context.close();
      apache.kill('SIGTERM');
    }
  });
});

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

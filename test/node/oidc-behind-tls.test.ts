import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from 'esign-sandbox';
import { readSettings, SettingError } from '../../src/server/settings.js';
import { esignProxyHarness } from './esign-proxy-harness.js';
import { Browser, freePort, oidcFiles, SITE } from './oidc-harness.js';

// esign-proxy as an OpenID Provider where a real site runs it: TLS ends in nginx, and esign-proxy
// serves plain http behind it. ESIGN_PUBLIC_SCHEME says so once, for the proxy and the provider:
// every URL the provider gives is https, no header of the request turns it to http, and every cookie
// is Secure (the visitor's __Host-, the provider's __Secure-). An https issuer with nothing saying
// how TLS reaches the server is refused at start. (test/e2e/any-stack.test.ts runs it behind a real
// TLS nginx in Chromium.)

const { esignProxy } = esignProxyHarness();
const ACCESS_TOKEN = 'oidc-tls-sandbox-token';
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 50 });
after(() => sandbox.close());
const files = oidcFiles();

const base = (issuer: string, extra: Record<string, string> = {}) => ({
  ESIGN_BASE_URL: sandbox.url,
  ESIGN_ACCESS_TOKEN: ACCESS_TOKEN,
  ESIGN_OIDC_ISSUER: issuer,
  ESIGN_OIDC_CLIENTS: files.clients,
  ESIGN_OIDC_KEYS: files.keys,
  ESIGN_OIDC_SUBJECT_SECRET: 'subject-secret-of-the-tls-site',
  ...extra,
});

const refusal = (env: Record<string, string>) => {
  try {
    readSettings([], env);
  } catch (error) {
    assert.ok(error instanceof SettingError, String(error));
    return error.message;
  }
  return 'started';
};

/** The attributes of a Set-Cookie line, lower-cased, by the cookie's name. */
const cookiesOf = (answer: Response) =>
  new Map(
    answer.headers.getSetCookie().map((line) => {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      return [pair.split('=')[0]!, attributes.map((a) => a.toLowerCase())] as const;
    }),
  );

describe('esign-proxy as an OpenID Provider behind a TLS front', () => {
  it('refuses at start an https issuer without ESIGN_PUBLIC_SCHEME=https, and an http issuer with it, each naming the setting', () => {
    assert.match(refusal(base('https://site.example/esign/oidc')), /ESIGN_OIDC_ISSUER .* is https:\/\/.*set ESIGN_PUBLIC_SCHEME \(--public-scheme\) to https/);
    assert.match(refusal(base('https://site.example/esign/oidc', { ESIGN_PUBLIC_SCHEME: 'http' })), /set ESIGN_PUBLIC_SCHEME/);
    assert.match(refusal(base('http://127.0.0.1:8787/esign/oidc', { ESIGN_PUBLIC_SCHEME: 'https' })), /is http:\/\/ and ESIGN_PUBLIC_SCHEME .* is https/);
    assert.equal(refusal(base('https://site.example/esign/oidc', { ESIGN_PUBLIC_SCHEME: 'https' })), 'started');
    assert.equal(refusal(base('http://127.0.0.1:8787/esign/oidc')), 'started');
  });

  it("every URL it gives is https whatever X-Forwarded-Proto says; each cookie Secure, the visitor __Host-, the provider's __Secure-; the login ends at the site with a code", async () => {
    const port = await freePort();
    const origin = `https://127.0.0.1:${port}`;
    const proxy = await esignProxy({ PORT: String(port), ...base(`${origin}/esign/oidc`, { ESIGN_PUBLIC_SCHEME: 'https' }) });
    // as nginx reaches it: plain http on loopback, the browser's Host, and a scheme header a browser might forge
    for (const proto of [undefined, 'http']) {
      const discovery = await fetch(`${proxy.url}/esign/oidc/.well-known/openid-configuration`, { headers: proto ? { 'x-forwarded-proto': proto } : {} });
      const metadata = (await discovery.json()) as Record<string, unknown>;
      const endpoints = Object.entries(metadata).filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri' || name === 'issuer');
      assert.ok(endpoints.length >= 5);
      for (const [name, value] of endpoints) assert.ok(String(value).startsWith(`${origin}/esign/oidc`), `${name} is ${String(value)}`);
    }
    const browser = new Browser(origin, proxy.url);
    const asked = new URL(`${origin}/esign/oidc/auth`);
    asked.search = new URLSearchParams({
      client_id: 'bank',
      redirect_uri: SITE,
      response_type: 'code',
      scope: 'openid',
      state: 'state-of-the-tls-test',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const authorization = await browser.fetch(asked.href, { headers: { 'x-forwarded-proto': 'http' } });
    // the login page is the authorization request's own answer, naming the interaction's address
    assert.equal(authorization.status, 200);
    assert.equal(authorization.headers.get('location'), null);
    assert.match(authorization.headers.get('content-location') ?? '', /^\/esign\/oidc\/interaction\/[A-Za-z0-9_-]+$/);
    assert.match(await authorization.text(), /<esign-identify endpoint="(\/esign\/oidc\/interaction\/[A-Za-z0-9_-]+)" [^>]*interaction="\1"/);
    const started = cookiesOf(authorization);
    assert.deepEqual([...started.keys()].sort(), [
      '__Secure-esign-interaction',
      '__Secure-esign-interaction.sig',
      '__Secure-esign-page',
      '__Secure-esign-resume',
      '__Secure-esign-resume.sig',
    ]);
    for (const [name, attributes] of started) assert.ok(attributes.includes('secure') && attributes.includes('httponly'), `${name}: ${attributes.join('; ')}`);
    const uid = authorization.headers.get('content-location')!.split('/').pop()!;
    // and at that address, where the language switch goes, the same login's page
    const page = await browser.fetch(`/esign/oidc/interaction/${uid}?lang=et`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html lang="et">/);
    // the widget's login through the proxy: its visitor cookie is the __Host- one, Secure
    const start = await browser.fetch('/esign/smartid/login.json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '40504040001', country: 'EE' }),
    });
    assert.equal(start.status, 200);
    const visitor = cookiesOf(start);
    assert.deepEqual([...visitor.keys()], ['__Host-esign-visitor']);
    assert.ok(visitor.get('__Host-esign-visitor')!.includes('secure') && visitor.get('__Host-esign-visitor')!.includes('path=/'));
    const { token } = (await start.json()) as { token: string };
    let status = 'waiting';
    for (let polls = 0; status === 'waiting' && polls < 200; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const poll = await browser.fetch(`/esign/smartid/status/${token}.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      status = ((await poll.json()) as { status: string }).status;
    }
    assert.equal(status, 'ok');
    // a page of the plain-http origin cannot continue it
    const plain = await fetch(`${proxy.url}/esign/oidc/interaction/${uid}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ token }),
    });
    assert.equal(plain.status, 403);
    const continued = await browser.fetch(`/esign/oidc/interaction/${uid}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'http' },
      body: JSON.stringify({ token }),
    });
    const { location } = (await continued.json()) as { location: string };
    assert.equal(location, `${origin}/esign/oidc/auth/${uid}`);
    const back = await browser.fetch(location);
    assert.equal(back.status, 303);
    const code = new URL(back.headers.get('location') ?? '').searchParams.get('code');
    assert.ok(code && back.headers.get('location')!.startsWith(`${SITE}?`), back.headers.get('location') ?? '');
    const session = cookiesOf(back);
    assert.ok(session.has('__Secure-esign-session'), [...session.keys()].join(', '));
    for (const [name, attributes] of session) assert.ok(attributes.includes('secure'), `${name}: ${attributes.join('; ')}`);
    assert.ok(!proxy.stderr().includes(token), 'the session token in no line');
    // the page's own way: the login through its interaction, whose poll continues it, behind the same front
    const again = await browser.fetch(asked.href.replace('state-of-the-tls-test', 'state-of-the-second-login'), { headers: { 'x-forwarded-proto': 'http' } });
    const secondUid = again.headers.get('content-location')!.split('/').pop()!;
    const throughToken = await browser.smartIdLogin('40504040001', 'EE', `/esign/oidc/interaction/${secondUid}`);
    assert.ok(throughToken);
    const onward = await browser.fetch(`/esign/oidc/auth/${secondUid}`, { headers: { 'x-forwarded-proto': 'http' } });
    assert.equal(onward.status, 303);
    const second = new URL(onward.headers.get('location') ?? '');
    assert.equal(`${second.origin}${second.pathname}`, SITE);
    assert.equal(second.searchParams.get('state'), 'state-of-the-second-login');
    assert.ok(second.searchParams.get('code'));
  });
});

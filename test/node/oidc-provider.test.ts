import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { startSandbox } from 'esign-sandbox';
import { esignProxyHarness, type RunningProxy } from './esign-proxy-harness.js';
import { Browser, client, freePort, oidcFiles, relyingParty, SITE, OTHER_SITE, type Relying } from './oidc-harness.js';

// esign-proxy as an OpenID Provider: a person logs in through the widget on the provider's page, and
// the site's certified client (openid-client) gets an ID token with the person as the brokers name
// them. Each refusal the standard asks for is tried: a code twice, a wrong verifier, another
// client's code, an unregistered redirect URI, an expired code, a tampered ID token, a login of
// another browser, a restart between the login and the redemption, two nodes on one Redis.

const { esignProxy, redisOnPort } = esignProxyHarness();
const ACCESS_TOKEN = 'oidc-sandbox-token';
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 100 });
after(() => sandbox.close());
const files = oidcFiles();

async function provider(env: Record<string, string> = {}, port?: number): Promise<{ proxy: RunningProxy; issuer: string }> {
  const at = port ?? (await freePort());
  const issuer = `http://127.0.0.1:${at}/esign/oidc`;
  const proxy = await esignProxy({ PORT: String(at), ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: ACCESS_TOKEN, ESIGN_OIDC_ISSUER: issuer, ESIGN_OIDC_CLIENTS: files.clients, ESIGN_OIDC_KEYS: files.keys, ESIGN_OIDC_SUBJECT_SECRET: 'subject-secret-of-the-test-site', ESIGN_VISITOR_SECRET: 'visitor-secret-of-the-test-site', ...env });
  return { proxy, issuer };
}

/** The person logs in on the provider's page: the authorization request followed, the login, its continuation; the callback URL. */
async function logIn(browser: Browser, asked: URL, person = { code: '40504040001', country: 'EE' }): Promise<string> {
  const { answer, url } = await browser.navigate(asked.href);
  assert.equal(answer.status, 200, `the login page: ${url}`);
  const uid = /\/interaction\/([^/]+)$/.exec(new URL(url).pathname)?.[1];
  assert.ok(uid, `an interaction page: ${url}`);
  const token = await browser.smartIdLogin(person.code, person.country);
  const continued = await browser.fetch(`/esign/oidc/interaction/${uid}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  const body = (await continued.json()) as { location?: string };
  assert.equal(continued.status, 200, JSON.stringify(body));
  const back = await browser.navigate(body.location!);
  assert.equal(new URL(back.url).origin + new URL(back.url).pathname, SITE, 'sent to the site\'s redirect URI');
  return back.url;
}

const errorOf = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return (error as { error?: string }).error ?? (error as Error).message;
  }
  return 'no error';
};

describe('esign-proxy as an OpenID Provider', () => {
  it('logs a person in by the authorization code flow with PKCE: discovery, the page in the asked language, the ID token with the brokers\' claims', async () => {
    const { proxy, issuer } = await provider();
    const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(metadata['issuer'], issuer);
    assert.deepEqual(metadata['response_types_supported'], ['code']);
    assert.deepEqual(metadata['code_challenge_methods_supported'], ['S256']);
    assert.ok(!(metadata['response_types_supported'] as string[]).includes('none'));
    assert.ok((metadata['scopes_supported'] as string[]).includes('nin'));
    const site = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef');
    const asked = await site.request({ ui_locales: 'lv en' });
    const browser = new Browser(proxy.url);
    const first = await browser.navigate(asked.url.href);
    const page = await first.answer.text();
    assert.match(page, /<html lang="lv">/);
    assert.match(page, /<esign-identify endpoint="\/esign" lang="lv" interaction="\/esign\/oidc\/interaction\/[^"]+">/);
    assert.match(page, /Test Bank/);
    const csp = first.answer.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /require-trusted-types-for 'script'/);
    assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:9/);
    const callback = await logIn(browser, asked.url);
    const tokens = await site.redeem(callback, asked);
    const claims = tokens.claims()!;
    assert.equal(claims.iss, issuer);
    assert.equal(claims.aud, 'bank');
    assert.equal(claims.nonce, asked.nonce);
    assert.equal(claims['nin'], '40504040001');
    assert.equal(claims['nin_type'], 'CIVIL');
    assert.equal(claims['nin_issuing_country'], 'EE');
    assert.equal(claims['given_name'], 'OK');
    assert.equal(claims['family_name'], 'TESTNUMBER');
    assert.equal(claims['name'], 'OK TESTNUMBER');
    assert.equal(claims['birthdate'], '1905-04-04');
    assert.equal(claims['idp'], 'smart-id');
    assert.deepEqual(claims['amr'], ['swk', 'pin', 'mfa']);
    assert.equal(typeof claims.auth_time, 'number');
    assert.match(claims.sub, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!claims.sub.includes('40504040001'));
    const info = await client.fetchUserInfo(site.config, tokens.access_token, claims.sub);
    assert.equal(info['nin'], '40504040001');
    assert.ok(!proxy.stderr().includes('40504040001') && !proxy.stdout().includes('40504040001'), 'the code in no line');
  });
});

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from 'esign-sandbox';
import { esignProxyHarness, redisReader } from './esign-proxy-harness.js';
import {
  Browser,
  interactionUid,
  client,
  freePort,
  oidcFiles,
  providerSettings,
  relyingParty,
  SITE,
  type AuthorizationRequest,
  type Relying,
} from './oidc-harness.js';

// Whoever reads esign-proxy's Redis learns nothing and can do nothing: a person logs in on the
// provider's page and in the page of the site (the widget first, the authorization after), and at
// each step (a login verified and not yet continued, a code issued, tokens issued) every key and
// value of Redis is read. Nothing of the person, no cookie's value, no code or access token is
// there; and everything read, tried as a code, an access token, a refresh token, a visitor cookie
// and a session token to continue a login with (even with the victim's session token itself),
// gets nothing. The victim's own login still goes on after each attack.

const { esignProxy, redisOnPort } = esignProxyHarness();
const ACCESS_TOKEN = 'oidc-at-rest-sandbox-token';
const BANK_SECRET = 'bank-secret-0123456789abcdef-0123';
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 50 });
after(() => sandbox.close());
const files = oidcFiles();
const redis = await redisOnPort();
const reader = await redisReader(redis.url);

/** Every key of Redis with its value, as text. */
async function readAll(): Promise<{ key: string; value: string }[]> {
  const all: { key: string; value: string }[] = [];
  for (const key of await reader.keys('*')) {
    const type = await reader.type(key);
    const value =
      type === 'string'
        ? ((await reader.get(key)) ?? '')
        : type === 'hash'
          ? JSON.stringify(await reader.hGetAll(key))
          : type === 'set'
            ? JSON.stringify(await reader.sMembers(key))
            : type === 'zset'
              ? JSON.stringify(await reader.zRange(key, 0, -1))
              : type === 'list'
                ? JSON.stringify(await reader.lRange(key, 0, -1))
                : type;
    all.push({ key, value });
  }
  return all;
}

/** What a reader could try: every part of every key and value that could be a credential. */
function fragments(read: { key: string; value: string }[]): string[] {
  const found = new Set<string>();
  for (const { key, value } of read) {
    for (const part of [...key.split(':'), ...value.split(/[^A-Za-z0-9._~-]+/)]) if (part.length >= 8 && part.length <= 200) found.add(part);
  }
  return [...found];
}

interface Victim {
  browser: Browser;
  token: string;
  secrets: () => string[];
}

async function attack(origin: string, bank: Relying, read: { key: string; value: string }[], victim: Victim, asked: AuthorizationRequest): Promise<string[]> {
  const tries = fragments(read);
  assert.ok(tries.length > 0);
  const won: string[] = [];
  const basic = `Basic ${Buffer.from(`bank:${BANK_SECRET}`).toString('base64')}`;
  for (const fragment of tries) {
    // as a code (with the client's own secret and the victim's verifier: the worst case), a refresh token, an access token
    const code = await fetch(`${origin}/esign/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: fragment, redirect_uri: SITE, code_verifier: asked.verifier }),
    });
    if (code.status === 200) won.push(`code ${fragment}`);
    const refresh = await fetch(`${origin}/esign/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: fragment }),
    });
    if (refresh.status === 200) won.push(`refresh ${fragment}`);
    const me = await fetch(`${origin}/esign/oidc/me`, { headers: { authorization: `Bearer ${fragment}` } });
    if (me.status === 200) won.push(`access token ${fragment}`);
  }
  // a login of the attacker's own, continued with what was read: as the visitor cookie, as the session token (and the victim's token itself)
  const visitors = [undefined, ...tries.filter((fragment) => /^[A-Za-z0-9_-]{46}$/.test(fragment))];
  for (const visitor of visitors) {
    const attacker = new Browser(origin);
    const own = await bank.request();
    const uid = interactionUid(await attacker.navigate(own.url.href));
    assert.ok(uid, 'an interaction page');
    if (visitor) attacker.setCookie('esign-visitor', visitor);
    for (const token of [victim.token, ...tries]) {
      const continued = await attacker.fetch(`/esign/oidc/interaction/${uid}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      if (continued.status === 200) won.push(`continued with visitor ${visitor ?? 'its own'} and token ${token}`);
    }
  }
  return won;
}

/** Nothing of the person and none of the victim's credentials in what was read. */
function assertNothingOf(read: { key: string; value: string }[], secrets: string[], moment: string): void {
  const text = read.map(({ key, value }) => `${key} ${value}`).join('\n');
  for (const secret of ['40504040001', '0504040001', 'TESTNUMBER', ...secrets])
    assert.ok(!text.includes(secret), `${moment}: ${secret.slice(0, 6)}… is in Redis`);
}

describe("esign-proxy's Redis gives nothing away", () => {
  for (const where of ['the provider page', 'the site page'] as const) {
    it(`a login on ${where}: nothing read from Redis, during or after, names the person or redeems, refreshes or continues anything`, async () => {
      const port = await freePort();
      const issuer = `http://127.0.0.1:${port}/esign/oidc`;
      const proxy = await esignProxy({
        ...providerSettings(port, { url: sandbox.url, accessToken: ACCESS_TOKEN }, files, 'subject-secret-of-the-at-rest-site'),
        ESIGN_REDIS_URL: redis.url,
        ESIGN_REDIS_PREFIX: `at-rest-${port}:`,
      });
      const bank = await relyingParty(issuer, 'bank', BANK_SECRET);
      const browser = new Browser(proxy.url);
      const asked = await bank.request();
      let uid: string | undefined;
      const openInteraction = async () => {
        uid = interactionUid(await browser.navigate(asked.url.href));
        assert.ok(uid, 'an interaction page');
      };
      // the provider's page: the authorization first; the site's page: the widget's login first, the authorization after
      if (where === 'the provider page') await openInteraction();
      const token = await browser.smartIdLogin('40504040001', 'EE');
      if (where === 'the site page') await openInteraction();
      const victim: Victim = { browser, token, secrets: () => [token, ...browser.cookieValues()] };
      // a verified login, not yet continued
      const verified = await readAll();
      assert.ok(
        verified.some(({ key }) => key.includes(':oidc:login:')),
        'the verified login is kept there',
      );
      assertNothingOf(verified, victim.secrets(), 'a login not yet continued');
      assert.deepEqual(await attack(proxy.url, bank, verified, victim, asked), []);
      const continued = await browser.fetch(`/esign/oidc/interaction/${uid}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      assert.equal(continued.status, 200, 'the victim continues after the attack');
      const back = await browser.navigate(((await continued.json()) as { location: string }).location);
      const code = new URL(back.url).searchParams.get('code')!;
      assert.ok(code, back.url);
      // a code issued, not yet redeemed
      const issued = await readAll();
      assertNothingOf(issued, [...victim.secrets(), code], 'a code issued');
      assert.deepEqual(await attack(proxy.url, bank, issued, victim, asked), []);
      const tokens = await bank.redeem(back.url, asked);
      assert.equal(tokens.claims()!['nin'], '40504040001', 'the victim redeems after the attack');
      // tokens issued: the access token works for its holder alone
      const redeemed = await readAll();
      assertNothingOf(redeemed, [...victim.secrets(), code, tokens.access_token, tokens.id_token!], 'tokens issued');
      assert.deepEqual(await attack(proxy.url, bank, redeemed, victim, asked), []);
      const info = await client.fetchUserInfo(bank.config, tokens.access_token, tokens.claims()!.sub);
      assert.equal(info['nin'], '40504040001', "the holder's access token still answers");
    });
  }
});

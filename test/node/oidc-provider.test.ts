import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { startSandbox } from 'esign-sandbox';
import { esignProxyHarness, type RunningProxy } from './esign-proxy-harness.js';
import { Browser, interactionUid, client, freePort, oidcFiles, relyingParty, SITE, OTHER_SITE } from './oidc-harness.js';

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
  const proxy = await esignProxy({
    PORT: String(at),
    ESIGN_BASE_URL: sandbox.url,
    ESIGN_ACCESS_TOKEN: ACCESS_TOKEN,
    ESIGN_OIDC_ISSUER: issuer,
    ESIGN_OIDC_CLIENTS: files.clients,
    ESIGN_OIDC_KEYS: files.keys,
    ESIGN_OIDC_SUBJECT_SECRET: 'subject-secret-of-the-test-site',
    ESIGN_VISITOR_SECRET: 'visitor-secret-of-the-test-site',
    ...env,
  });
  return { proxy, issuer };
}

/** The person logs in on the provider's page as its widget does: the authorization request, the login through its interaction, on to the site; the callback URL. */
async function logIn(browser: Browser, asked: URL, person = { code: '40504040001', country: 'EE' }): Promise<string> {
  const { answer, url } = await browser.navigate(asked.href);
  assert.equal(answer.status, 200, `the login page: ${url}`);
  const uid = interactionUid({ answer, url });
  assert.ok(uid, `an interaction page: ${url}`);
  assert.match(
    await answer.text(),
    new RegExp(`<esign-identify endpoint="/esign/oidc/interaction/${uid}" `),
    'the widget sends its login through the interaction',
  );
  await browser.smartIdLogin(person.code, person.country, `/esign/oidc/interaction/${uid}`);
  // the poll that found the login verified continued the interaction: the page goes on at once
  const back = await browser.navigate(`/esign/oidc/auth/${uid}`);
  assert.equal(
    new URL(back.url).origin + new URL(back.url).pathname,
    SITE,
    `sent to the site's redirect URI: ${back.answer.status} ${await back.answer.text()}`,
  );
  return back.url;
}

/** Polls a session as the widget does until it is no longer waiting (a poll sooner than the proxy's floor is told to wait); the last answer. */
async function pollUntilDone(browser: Browser, path: string): Promise<Record<string, unknown>> {
  let answer: Record<string, unknown> = { status: 'waiting' };
  for (let polls = 0; answer['status'] === 'waiting' && polls < 100; polls++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const poll = await browser.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    answer = (await poll.json()) as Record<string, unknown>;
  }
  return answer;
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
  it("logs a person in by the authorization code flow with PKCE: discovery, the page in the asked language, the ID token with the brokers' claims", async () => {
    const { proxy, issuer } = await provider();
    const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    assert.equal(metadata['issuer'], issuer);
    assert.deepEqual(metadata['response_types_supported'], ['code']);
    assert.deepEqual(metadata['code_challenge_methods_supported'], ['S256']);
    assert.ok(!JSON.stringify(metadata['response_types_supported']).includes('none'));
    assert.ok((metadata['scopes_supported'] as string[]).includes('nin'));
    const site = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const asked = await site.request({ ui_locales: 'lv en' });
    const browser = new Browser(proxy.url);
    const first = await browser.navigate(asked.url.href);
    const page = await first.answer.text();
    assert.match(page, /<html lang="lv">/);
    assert.match(page, /<esign-identify endpoint="(\/esign\/oidc\/interaction\/[^"]+)" lang="lv" interaction="\1" message="Test Bank" site-name="Test Bank">/);
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

  it("refuses a code used twice, a wrong code_verifier, another client's code, and a code past its lifetime; a code redeemed late within it is good", async () => {
    const { proxy, issuer } = await provider();
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const shop = await relyingParty(issuer, 'shop', 'shop-secret-0123456789abcdef-0123', OTHER_SITE);
    const browser = new Browser(proxy.url);
    const once = await bank.request();
    const callback = await logIn(browser, once.url);
    const first = await bank.redeem(callback, once);
    assert.equal((await client.fetchUserInfo(bank.config, first.access_token, first.claims()!.sub)).sub, first.claims()!.sub, 'its access token answers');
    assert.equal(await errorOf(bank.redeem(callback, once)), 'invalid_grant', 'a code used twice');
    // and what its first redemption gave is revoked: its access token answers nothing more
    await assert.rejects(client.fetchUserInfo(bank.config, first.access_token, first.claims()!.sub), 'the access token of a code used twice is revoked');
    // two redemptions of one code at the same moment (two nodes, say): one gets tokens, the other invalid_grant
    const racing = await bank.request();
    const racingCode = new URL(await logIn(browser, racing.url)).searchParams.get('code')!;
    const redeem = () =>
      fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('bank:bank-secret-0123456789abcdef-0123').toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: racingCode, redirect_uri: SITE, code_verifier: racing.verifier }),
      });
    const raced = await Promise.all([redeem(), redeem(), redeem()]);
    assert.deepEqual(raced.map((answer) => answer.status).sort(), [200, 400, 400], 'one redemption of three at once');
    // and, the code having been used more than once, the one that came first is revoked too (RFC 6749, 4.1.2)
    const winner = (await raced.find((answer) => answer.status === 200)!.json()) as { access_token: string };
    await assert.rejects(client.fetchUserInfo(bank.config, winner.access_token, client.skipSubjectCheck), 'a code raced is revoked, its winner too');
    const wrong = await bank.request();
    const wrongCallback = await logIn(browser, wrong.url);
    assert.equal(await errorOf(bank.redeem(wrongCallback, { ...wrong, verifier: client.randomPKCECodeVerifier() })), 'invalid_grant', 'a wrong verifier');
    // (the code stays the holder's: a wrong verifier proves nothing, and spends nothing)
    await bank.redeem(wrongCallback, wrong);
    const stolen = await bank.request();
    const stolenCallback = await logIn(browser, stolen.url);
    const code = new URL(stolenCallback).searchParams.get('code')!;
    const asShop = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('shop:shop-secret-0123456789abcdef-0123').toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: OTHER_SITE, code_verifier: stolen.verifier }),
    });
    assert.equal(asShop.status, 400);
    assert.equal(((await asShop.json()) as { error: string }).error, 'invalid_grant', "another client's code");
    void shop;
    // a code's lifetime (ESIGN_OIDC_CODE_LIFETIME; 60 s unless set), here 4 s: good late within it, refused past it
    const short = await provider({ ESIGN_OIDC_CODE_LIFETIME: '4' });
    const shortBank = await relyingParty(short.issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const shortBrowser = new Browser(short.proxy.url);
    const late = await shortBank.request();
    const lateCallback = await logIn(shortBrowser, late.url);
    const lateAt = Date.now();
    const slow = await shortBank.request();
    const slowCallback = await logIn(shortBrowser, slow.url);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const slowTokens = await shortBank.redeem(slowCallback, slow);
    assert.equal(slowTokens.claims()!['nin'], '40504040001', 'a relying party that redeems a second late');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lateAt + 4_500 - Date.now())));
    assert.equal(await errorOf(shortBank.redeem(lateCallback, late)), 'invalid_grant', 'a code past its lifetime');
  });

  it('never sends the browser to an unregistered redirect URI, and asks a public client for PKCE', async () => {
    const { proxy, issuer } = await provider();
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const browser = new Browser(proxy.url);
    const asked = await bank.request({ redirect_uri: 'https://attacker.example/steal' });
    const answer = await browser.fetch(asked.url.href);
    assert.equal(answer.status, 400);
    assert.equal(answer.headers.get('location'), null, 'no redirect anywhere');
    const page = await answer.text();
    assert.match(page, /redirect_uri/);
    assert.ok(!page.includes('attacker.example'), 'the page does not offer the address either');
    const spa = await relyingParty(issuer, 'spa', undefined);
    const noPkce = (await spa.request()).url;
    noPkce.searchParams.delete('code_challenge');
    noPkce.searchParams.delete('code_challenge_method');
    const refused = await browser.fetch(noPkce.href);
    const location = new URL(refused.headers.get('location')!);
    assert.equal(location.origin + location.pathname, SITE);
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    const plain = (await spa.request({ code_challenge_method: 'plain' })).url;
    const plainRefused = new URL((await browser.fetch(plain.href)).headers.get('location')!);
    assert.equal(plainRefused.searchParams.get('error'), 'invalid_request', 'S256 only');
    const publicLogin = await spa.request();
    const tokens = await spa.redeem(await logIn(browser, publicLogin.url), publicLogin);
    assert.equal(tokens.claims()!.aud, 'spa', 'a public client with PKCE logs in');
  });

  it('an ID token is signed with the published keys: one changed by a byte is refused', async () => {
    const { proxy, issuer } = await provider();
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const asked = await bank.request();
    const tokens = await bank.redeem(await logIn(new Browser(proxy.url), asked.url), asked);
    const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    const { payload } = await jwtVerify(tokens.id_token!, keys, { issuer, audience: 'bank' });
    assert.equal(payload['nin'], '40504040001');
    const [head, body, signature] = tokens.id_token!.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, nin: '30303039914' })).toString('base64url')}.${signature}`;
    await assert.rejects(jwtVerify(tampered, keys, { issuer, audience: 'bank' }), /signature verification failed/);
  });

  it('continues only a login this browser made, once; every authorization asks the person again; access_denied when the person turns back', async () => {
    const { proxy, issuer } = await provider();
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const victim = new Browser(proxy.url);
    const attacker = new Browser(proxy.url);
    const asked = await bank.request();
    const own = await attacker.navigate(asked.url.href);
    const uid = interactionUid(own)!;
    const token = await victim.smartIdLogin('40504040001', 'EE');
    // the attacker is a visitor of the proxy too (a login of their own), and has the victim's session token
    await attacker.smartIdLogin('30303039914', 'LT');
    const stolen = await attacker.fetch(`/esign/oidc/interaction/${uid}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    assert.equal(stolen.status, 404, "another browser's login is not this browser's");
    const crossSite = await fetch(`${proxy.url}/esign/oidc/interaction/${uid}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ token }),
    });
    assert.equal(crossSite.status, 403);
    // the victim's own login continues once
    const mine = await bank.request();
    const page = await victim.navigate(mine.url.href);
    const myUid = interactionUid(page)!;
    const post = () =>
      victim.fetch(`/esign/oidc/interaction/${myUid}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
    const [first, second] = await Promise.all([post(), post()]);
    assert.deepEqual([first.status, second.status].sort(), [200, 404], 'two continuations at once: one');
    // a second authorization right after asks the person again; prompt=none is refused
    const again = await victim.navigate((await bank.request()).url.href);
    assert.equal(again.answer.status, 200);
    assert.ok(interactionUid(again) && interactionUid(again) !== myUid, 'the login page again, of a new interaction');
    const silent = await victim.navigate((await bank.request({ prompt: 'none' })).url.href);
    assert.equal(new URL(silent.url).searchParams.get('error'), 'login_required');
    // turning back: access_denied to the site
    const back = await bank.request();
    const backPage = await victim.navigate(back.url.href);
    const backUid = interactionUid(backPage)!;
    const ended = await victim.navigate(`/esign/oidc/interaction/${backUid}/abort`, { method: 'POST' });
    const denied = new URL(ended.url);
    assert.equal(denied.origin + denied.pathname, SITE);
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    assert.equal(denied.searchParams.get('state'), back.state);
  });

  it("the page's login goes through its interaction: the poll that finds it verified continues it, for this browser alone, once", async () => {
    const { proxy, issuer } = await provider();
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const victim = new Browser(proxy.url);
    const attacker = new Browser(proxy.url);
    const mine = await bank.request();
    const victimUid = interactionUid(await victim.navigate(mine.url.href))!;
    const theirs = await bank.request();
    const attackerUid = interactionUid(await attacker.navigate(theirs.url.href))!;
    const via = (uid: string) => `/esign/oidc/interaction/${uid}`;
    const start = await victim.fetch(`${via(victimUid)}/smartid/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '40504040001', country: 'EE' }),
    });
    const { token } = (await start.json()) as { token: string };
    // the attacker, with the victim's session token, polls it through their own interaction: not theirs
    await attacker.smartIdLogin('30303039914', 'LT');
    const stolen = await attacker.fetch(`${via(attackerUid)}/smartid/status/${token}.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    // as if there were no such session (not-your-session is the service's own not-found)
    assert.equal(stolen.status, 404);
    assert.equal(((await stolen.json()) as { status?: string }).status, 'error');
    // the victim's polls end the login, and their interaction with it
    const answer = await pollUntilDone(victim, `${via(victimUid)}/smartid/status/${token}.json`);
    assert.equal(answer['status'], 'ok');
    // nothing was kept for a page to continue: another interaction of the victim's gets nothing by that token
    const otherUid = interactionUid(await victim.navigate((await bank.request()).url.href))!;
    const again = await victim.fetch(`${via(otherUid)}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    assert.equal(again.status, 404, 'no verified login kept');
    // a widget of before, on the page, asks to continue after its poll: where to go, once more
    const asked = await victim.fetch(`${via(victimUid)}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    assert.equal(asked.status, 200);
    assert.equal(((await asked.json()) as { location: string }).location, `${issuer}/auth/${victimUid}`);
    // the attacker's interaction was never continued: its next step asks for a login again
    const attackerNext = await attacker.navigate(`/esign/oidc/auth/${attackerUid}`);
    assert.notEqual(new URL(attackerNext.url).origin + new URL(attackerNext.url).pathname, SITE);
    assert.equal(attackerNext.answer.status, 200);
    assert.match(await attackerNext.answer.text(), /<esign-identify /);
    // the victim's goes on to the site with a code of the victim
    const back = await victim.navigate(`/esign/oidc/auth/${victimUid}`);
    assert.equal(new URL(back.url).origin + new URL(back.url).pathname, SITE);
    const claims = (await bank.redeem(back.url, mine)).claims()!;
    assert.equal(claims['nin'], '40504040001');
    assert.equal(claims['nin_issuing_country'], 'EE');
  });

  it('a Mobile-ID login through the interaction, in English as the widget of a page not in Lithuanian sends it, ends at the site', async () => {
    const { proxy, issuer } = await provider();
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const browser = new Browser(proxy.url);
    const asked = await bank.request();
    const uid = interactionUid(await browser.navigate(asked.url.href))!;
    const via = `/esign/oidc/interaction/${uid}/en`;
    const start = await browser.fetch(`${via}/mobile/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+37060000666', code: '50001018865', language: 'ENG' }),
    });
    assert.equal(start.status, 200);
    const { token } = (await start.json()) as { token: string };
    const answer = await pollUntilDone(browser, `${via}/mobile/status/${token}.json`);
    assert.equal(answer['status'], 'ok');
    const back = await browser.navigate(`/esign/oidc/auth/${uid}`);
    assert.equal(new URL(back.url).origin + new URL(back.url).pathname, SITE);
    const tokens = await bank.redeem(back.url, asked);
    const claims = tokens.claims()!;
    assert.deepEqual([claims['nin'], claims['nin_issuing_country'], claims['idp']], ['50001018865', 'LT', 'mobile-id']);
    assert.deepEqual(claims['amr'], ['hwk', 'pin', 'mfa']);
  });

  it('a login through an interaction this browser does not hold is refused before any phone is asked; one whose interaction goes during it ends site-refused', async () => {
    const { proxy, issuer } = await provider();
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const holder = new Browser(proxy.url);
    const asked = await bank.request();
    const uid = interactionUid(await holder.navigate(asked.url.href))!;
    const via = `/esign/oidc/interaction/${uid}`;
    const startThrough = (browser: Browser) =>
      browser.fetch(`${via}/smartid/login.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: '30303039914', country: 'LT' }),
      });
    // another browser starts a login through the holder's interaction (it knows the address, not the cookie)
    const startsBefore = proxy
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"type":"started"')).length;
    const stranger = await startThrough(new Browser(proxy.url));
    assert.equal(stranger.status, 404);
    assert.deepEqual(await stranger.json(), { status: 'error', error_code: 40402, message: 'This login has ended: start it again from the site' });
    assert.equal(
      proxy
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"type":"started"')).length,
      startsBefore,
      'no session started',
    );
    // the holder starts; its polls come from a browser with the same visitor but no longer the interaction's cookie
    const start = await startThrough(holder);
    assert.equal(start.status, 200);
    const { token } = (await start.json()) as { token: string };
    const cookieless = new Browser(proxy.url);
    cookieless.setCookie('esign-visitor', holder.cookie('esign-visitor')!);
    const answer = await pollUntilDone(cookieless, `${via}/smartid/status/${token}.json`);
    assert.deepEqual([answer['status'], answer['proxy_error'], answer['site_status']], ['error', 'site-refused', 410]);
    // and so for every later poll, the holder's own too: the session has ended
    const later = await pollUntilDone(holder, `${via}/smartid/status/${token}.json`);
    assert.deepEqual([later['status'], later['proxy_error']], ['error', 'site-refused']);
    // the holder's interaction is untouched: its next step asks for the login, no code for the site
    const next = await holder.navigate(`/esign/oidc/auth/${uid}`);
    assert.notEqual(new URL(next.url).origin + new URL(next.url).pathname, SITE);
    assert.match(await next.answer.text(), /<esign-identify /);
    // only a login's own requests go through an interaction
    const signing = await holder.fetch(`/esign/oidc/interaction/${uid}/smartid/sign.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '40504040001', country: 'EE' }),
    });
    assert.equal(signing.status, 404);
  });

  it('sub is one person: the same at every login, another for the same digits in another country; nin only with its scope', async () => {
    const { proxy, issuer } = await provider();
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const browser = new Browser(proxy.url);
    const subOf = async (country: string, scope = 'openid profile nin') => {
      const asked = await bank.request({ scope });
      return (await bank.redeem(await logIn(browser, asked.url, { code: '40504040001', country }), asked)).claims()!;
    };
    const ee = await subOf('EE');
    const eeAgain = await subOf('EE', 'openid profile');
    const lt = await subOf('LT');
    assert.equal(ee.sub, eeAgain.sub);
    assert.notEqual(ee.sub, lt.sub);
    assert.equal(lt['nin_issuing_country'], 'LT');
    assert.equal(eeAgain['nin'], undefined, 'no nin without its scope');
    assert.equal(eeAgain['given_name'], 'OK');
  });

  it('with Redis: a code made on one node is redeemed on another and after a restart; nothing of the person is readable in the store', async () => {
    const redis = await redisOnPort();
    const env = { ESIGN_REDIS_URL: redis.url };
    const port = await freePort();
    const first = await provider(env, port);
    const second = await provider(env);
    const issuer = first.issuer;
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const browser = new Browser(first.proxy.url);
    const asked = await bank.request();
    const callback = await logIn(browser, asked.url);
    // the same issuer, its token endpoint answered by the second node
    const code = new URL(callback).searchParams.get('code')!;
    const onSecond = await fetch(`${second.proxy.url}/esign/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('bank:bank-secret-0123456789abcdef-0123').toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: SITE, code_verifier: asked.verifier }),
    });
    assert.equal(onSecond.status, 200, await onSecond.clone().text());
    const restartAsked = await bank.request();
    const restartCallback = await logIn(browser, restartAsked.url);
    first.proxy.child.kill('SIGTERM');
    await new Promise((resolve) => first.proxy.child.once('exit', resolve));
    await provider(env, port);
    const tokens = await bank.redeem(restartCallback, restartAsked);
    assert.equal(tokens.claims()!['nin'], '40504040001', 'redeemed after a restart');
    const { createClient } = await import('redis');
    const reader = createClient({ url: redis.url });
    await reader.connect();
    try {
      const keys = await reader.keys('*');
      assert.ok(
        keys.some((key) => key.includes('oidc:')),
        'the provider keeps its state there',
      );
      for (const key of keys) {
        const type = await reader.type(key);
        const value = type === 'string' ? ((await reader.get(key)) ?? '') : JSON.stringify(type === 'hash' ? await reader.hGetAll(key) : '');
        assert.ok(!`${key} ${value}`.includes('40504040001') && !value.includes('TESTNUMBER'), `nothing of the person in ${key}`);
      }
    } finally {
      await reader.quit();
    }
  });

  it('refuses at start a delivery URL with a user and password, and never says the password', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('./esign-proxy-harness.js');
    const child = spawn(process.execPath, [BIN], {
      env: {
        ...process.env,
        PORT: String(await freePort()),
        ESIGN_BASE_URL: sandbox.url,
        ESIGN_ACCESS_TOKEN: ACCESS_TOKEN,
        ESIGN_WEBHOOK_URL: 'https://site:hunter2-secret@127.0.0.1:9/hook',
        ESIGN_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /ESIGN_WEBHOOK_URL \(--webhook-url\) carries a user or password/);
    assert.ok(!stderr.includes('hunter2'), 'the password in no line');
  });

  it("the login page takes the site's look: ESIGN_OIDC_STYLESHEET linked from the page and served under the issuer (style-src self)", async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const look = join(files.dir, 'look.css');
    writeFileSync(look, 'esign-identify { --esign-color-accent: #7a1f5c; }\nesign-identify::part(submit) { border-radius: 0; }\n');
    const { proxy, issuer } = await provider({ ESIGN_OIDC_STYLESHEET: look });
    const bank = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const { answer } = await new Browser(proxy.url).navigate((await bank.request()).url.href);
    const page = await answer.text();
    assert.match(page, /<link rel="stylesheet" href="\/esign\/oidc\/page.css">\n<link rel="stylesheet" href="\/esign\/oidc\/look.css">/);
    const css = await fetch(`${issuer}/look.css`);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.equal(await css.text(), 'esign-identify { --esign-color-accent: #7a1f5c; }\nesign-identify::part(submit) { border-radius: 0; }\n');
    assert.match(answer.headers.get('content-security-policy') ?? '', /style-src 'self'/);
    // without the setting there is no look to link, and none served
    const { proxy: plain, issuer: plainIssuer } = await provider();
    const plainBank = await relyingParty(plainIssuer, 'bank', 'bank-secret-0123456789abcdef-0123');
    const plainPage = await (await new Browser(plain.url).navigate((await plainBank.request()).url.href)).answer.text();
    assert.doesNotMatch(plainPage, /look\.css/);
    assert.equal((await fetch(`${plainIssuer}/look.css`)).status, 404);
  });

  it("docs/any-stack.md's setup as a reader copies it: the key its one-liner makes and its clients example start a provider that publishes the public key alone", async () => {
    const { execSync } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const doc = (await import('node:fs')).readFileSync(new URL('../../docs/any-stack.md', import.meta.url), 'utf8');
    const oneLiner = /Make one with Node: `([^`]+)`/.exec(doc)?.[1];
    const example = /`(\[\{"client_id": "portal"[^`]+)`/.exec(doc)?.[1];
    assert.ok(oneLiner?.endsWith('> oidc-keys.json') && example, 'the doc says how to make the key, and a client');
    // the settings of its command block are esign-proxy's own, each
    const { SETTINGS } = await import('../../src/server/setting-declarations.js');
    const block = /## Logging a person in: OpenID Connect[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const named = [...block.matchAll(/\b(ESIGN_[A-Z_]+)=/g)].map((m) => m[1]);
    assert.deepEqual(named, ['ESIGN_PUBLIC_SCHEME', 'ESIGN_OIDC_ISSUER', 'ESIGN_OIDC_CLIENTS', 'ESIGN_OIDC_KEYS', 'ESIGN_OIDC_SUBJECT_SECRET']);
    for (const name of named)
      assert.ok(
        Object.values(SETTINGS).some((setting) => setting.env === name),
        `${name} is a setting`,
      );
    execSync(oneLiner!, { cwd: files.dir, shell: '/bin/sh' });
    writeFileSync(join(files.dir, 'portal-clients.json'), example.replace('"…"', '"portal-secret-0123456789abcdef-0123"'));
    const { issuer } = await provider({ ESIGN_OIDC_KEYS: join(files.dir, 'oidc-keys.json'), ESIGN_OIDC_CLIENTS: join(files.dir, 'portal-clients.json') });
    const { keys } = (await (await fetch(`${issuer}/jwks`)).json()) as { keys: Record<string, unknown>[] };
    assert.equal(keys.length, 1);
    assert.deepEqual([keys[0]!['kty'], keys[0]!['alg'], keys[0]!['kid']], ['RSA', 'RS256', '1']);
    assert.ok(!('d' in keys[0]!) && !('p' in keys[0]!), 'the public part alone');
    const portal = await relyingParty(issuer, 'portal', 'portal-secret-0123456789abcdef-0123', 'https://site.example/callback');
    assert.equal((await portal.request()).url.searchParams.get('client_id'), 'portal');
  });
});

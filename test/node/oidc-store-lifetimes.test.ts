import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from 'esign-sandbox';
import { esignProxyHarness, redisReader } from './esign-proxy-harness.js';
import { Browser, client, freePort, oidcFiles, providerSettings, relyingParty } from './oidc-harness.js';

// What a login leaves in esign-proxy's Redis lives as long as something reads it, no longer: a
// code's used-mark as long as the code, the grant and the person's claims kept with it for the code's
// time and then the access token's (userinfo), nothing for an hour, and nothing that is never read
// again (a session, a list of a grant's tokens, the claims apart). Read over a real login, on a real
// redis-server.

const { esignProxy, redisOnPort } = esignProxyHarness();
const ACCESS_TOKEN = 'oidc-lifetimes-sandbox-token';
const BANK_SECRET = 'bank-secret-0123456789abcdef-0123';
const CODE_LIFETIME_S = 30;
const TOKEN_LIFETIME_S = 600;
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 50 });
after(() => sandbox.close());
const files = oidcFiles();
const redis = await redisOnPort();
const reader = await redisReader(redis.url);

/** Every key of this site with the seconds it has left (rounded up). */
async function lifetimes(prefix: string): Promise<Map<string, number>> {
  const left = new Map<string, number>();
  for (const key of await reader.keys(`${prefix}*`)) {
    const ms = await reader.pTTL(key);
    // -2: gone since it was listed (a poll's 500 ms mark); -1: kept for ever, which fails below
    if (ms !== -2) left.set(key.slice(prefix.length), ms === -1 ? -1 : Math.max(1, Math.ceil(ms / 1000)));
  }
  return left;
}

const family = (key: string) => key.replace(/:[A-Za-z0-9_-]{32}(?=:|$)/g, ':<name>');

describe("esign-proxy's Redis: each entry of a login as long as it is read", () => {
  it('after a login redeemed: the code mark no longer than the code, the grant with its claims the code and the token, every key expiring within the token', async () => {
    const port = await freePort();
    const prefix = `lifetimes-${port}:`;
    const proxy = await esignProxy({
      ...providerSettings(port, { url: sandbox.url, accessToken: ACCESS_TOKEN }, files, 'subject-secret-of-the-lifetimes-site'),
      ESIGN_REDIS_URL: redis.url,
      ESIGN_REDIS_PREFIX: prefix,
      ESIGN_OIDC_CODE_LIFETIME: String(CODE_LIFETIME_S),
    });
    const bank = await relyingParty(`http://127.0.0.1:${port}/esign/oidc`, 'bank', BANK_SECRET);
    const asked = await bank.request();
    const { back } = await new Browser(proxy.url).loginOnPage(asked.url, '40504040001');
    const tokens = await bank.redeem(back, asked);
    const info = await client.fetchUserInfo(bank.config, tokens.access_token, tokens.claims()!.sub);
    assert.equal(info['nin'], '40504040001', 'userinfo reads the claims');

    const left = await lifetimes(prefix);
    const byFamily = new Map<string, number>();
    for (const [key, seconds] of left) byFamily.set(family(key), Math.max(byFamily.get(family(key)) ?? 0, seconds));
    const families = [...byFamily.keys()];
    assert.deepEqual(
      families.filter((name) => /:oidc:(Session|grant-members|account)/.test(`:${name}`)),
      [],
      `no session, no list of a grant's tokens and no claims apart from the grant are kept: ${families.join(', ')}`,
    );
    assert.ok(families.includes('oidc:Grant:<name>') && families.includes('oidc:AccessToken:<name>'), families.join(', '));
    const marks = [...byFamily].filter(([name]) => name.endsWith(':consumed'));
    assert.ok(marks.length, `the code's used-mark is there: ${[...byFamily.keys()].join(', ')}`);
    for (const [name, seconds] of marks) assert.ok(seconds <= CODE_LIFETIME_S, `${name} lives ${seconds} s, the code ${CODE_LIFETIME_S} s`);
    const grant = byFamily.get('oidc:Grant:<name>');
    assert.ok(grant !== undefined && grant > TOKEN_LIFETIME_S && grant <= CODE_LIFETIME_S + TOKEN_LIFETIME_S, `the grant and its claims live ${grant} s`);
    for (const [name, seconds] of byFamily) {
      assert.ok(seconds > 0, `${name} expires`);
      assert.ok(seconds <= CODE_LIFETIME_S + TOKEN_LIFETIME_S, `${name} lives ${seconds} s, past anything that reads it`);
    }
  });
});

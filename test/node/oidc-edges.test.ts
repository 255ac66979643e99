import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { startSandbox } from 'esign-sandbox';
import { readSettings, SettingError } from '../../src/server/settings.js';
import { esignProxyHarness, type RunningProxy } from './esign-proxy-harness.js';
import { freePort, oidcFiles, providerSettings, SITE } from './oidc-harness.js';
import { until } from './wait.js';

// The provider's edges: a client secret a script could guess is refused at start; failed client
// authentications at the token endpoint are limited per address and per client (429 with
// Retry-After, said once in the log); every refused token request is a line naming the client and
// the reason; a login's last step without its cookie is a 400 page, not a 500 and a stack trace;
// every line the server writes is JSON, the library's runtime notice included.

const { esignProxy } = esignProxyHarness();
const ACCESS_TOKEN = 'oidc-edges-sandbox-token';
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 50 });
after(() => sandbox.close());
const files = oidcFiles();

async function provider(env: Record<string, string> = {}): Promise<RunningProxy> {
  const port = await freePort();
  return esignProxy({ ...providerSettings(port, { url: sandbox.url, accessToken: ACCESS_TOKEN }, files, 'subject-secret-of-the-edges-site'), ...env });
}

const tokenRequest = (proxy: RunningProxy, secret: string, headers: Record<string, string> = {}) =>
  fetch(`${proxy.url}/esign/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`bank:${secret}`).toString('base64')}`,
      ...headers,
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: SITE }),
  });

const codes = (proxy: RunningProxy, code: string) => proxy.lines().filter((line) => line['code'] === code);

/** Every line of stderr is one JSON object: no stack trace, no library text of its own. */
function assertAllJson(proxy: RunningProxy): void {
  for (const line of proxy.stderr().split('\n').filter(Boolean)) assert.doesNotThrow(() => JSON.parse(line) as unknown, `not JSON: ${line}`);
}

describe("the OpenID Provider's edges", () => {
  it('refuses at start a client secret under 32 characters, and a public client with a secret, naming the client', () => {
    const refusal = (clients: unknown[]) => {
      const path = `${files.dir}/edge-clients-${Math.random().toString(36).slice(2)}.json`;
      writeFileSync(path, JSON.stringify(clients));
      try {
        readSettings([], {
          ESIGN_BASE_URL: sandbox.url,
          ESIGN_ACCESS_TOKEN: ACCESS_TOKEN,
          ESIGN_OIDC_ISSUER: 'http://127.0.0.1:8787/esign/oidc',
          ESIGN_OIDC_CLIENTS: path,
        });
      } catch (error) {
        assert.ok(error instanceof SettingError);
        return error.message;
      }
      return 'started';
    };
    assert.match(refusal([{ client_id: 'tiny', client_secret: 'x', redirect_uris: [SITE] }]), /client "tiny" needs a client_secret of 32 characters or more/);
    assert.match(refusal([{ client_id: 'short', client_secret: 'a'.repeat(31), redirect_uris: [SITE] }]), /client "short" needs a client_secret of 32/);
    assert.match(refusal([{ client_id: 'none', redirect_uris: [SITE] }]), /client "none" needs a client_secret/);
    assert.match(
      refusal([{ client_id: 'spa', token_endpoint_auth_method: 'none', client_secret: 'a'.repeat(40), redirect_uris: [SITE] }]),
      /client "spa" is public .* and has a client_secret/,
    );
    assert.equal(refusal([{ client_id: 'ok', client_secret: 'a'.repeat(32), redirect_uris: [SITE] }]), 'started');
    assert.equal(refusal([{ client_id: 'spa', token_endpoint_auth_method: 'none', redirect_uris: [SITE] }]), 'started');
  });

  it('ten failed client authentications from one address: its token requests are refused 429 with Retry-After, the right secret too; each failure a line naming the client and the reason', async () => {
    // nginx in front, untrusted: every request comes from this machine, an address nobody's failures may close
    const untrusted = await provider();
    const fromFront: number[] = [];
    for (let i = 0; i < 11; i++) fromFront.push((await tokenRequest(untrusted, `wrong-secret-number-${i}-0123456789abcdef`)).status);
    assert.deepEqual(fromFront, Array<number>(11).fill(401));
    assert.deepEqual(codes(untrusted, 'oidc-client-auth-limit'), []);
    const proxy = await provider({ ESIGN_TRUST_PROXY: '1' });
    const from = { 'x-forwarded-for': '192.0.2.44' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await tokenRequest(proxy, `wrong-secret-number-${i}-0123456789abcdef`, from)).status);
    assert.deepEqual(statuses, [...Array<number>(9).fill(401), 429, 429, 429]);
    assert.equal(
      (await tokenRequest(proxy, 'wrong-secret-0123456789abcdef-0123', { 'x-forwarded-for': '192.0.2.45' })).status,
      401,
      'another address is heard',
    );
    const right = await tokenRequest(proxy, 'bank-secret-0123456789abcdef-0123', from);
    assert.equal(right.status, 429);
    const wait = Number(right.headers.get('retry-after'));
    assert.ok(wait > 500 && wait <= 600, `Retry-After ${wait}`);
    assert.match(((await right.json()) as { error_description: string }).error_description, /too many failed client authentications from this address/);
    const limited = codes(proxy, 'oidc-client-auth-limit');
    assert.deepEqual(
      limited.map((line) => line['scope']),
      ['address'],
      'said once',
    );
    const refused = codes(proxy, 'oidc-grant-refused');
    assert.equal(refused.length, 11, 'each failure that reached the library, a line');
    for (const line of refused) assert.deepEqual([line['client'], line['reason']], ['bank', 'invalid_client']);
    assert.ok(!proxy.stderr().includes('wrong-secret'), 'no secret in a line');
    assertAllJson(proxy);
  });

  it('a hundred failures for one client from a hundred addresses: that client is refused 429 from any address; another client is not', async () => {
    const proxy = await provider({ ESIGN_TRUST_PROXY: '1' });
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++)
      statuses.push((await tokenRequest(proxy, 'wrong-secret-0123456789abcdef-0123', { 'x-forwarded-for': `203.0.113.${i}` })).status);
    assert.deepEqual(statuses.slice(0, 99), Array<number>(99).fill(401));
    assert.deepEqual(statuses.slice(99), [429, 429]);
    const fresh = await tokenRequest(proxy, 'wrong-secret-0123456789abcdef-0123', { 'x-forwarded-for': '198.51.100.7' });
    assert.equal(fresh.status, 429);
    assert.match(((await fresh.json()) as { error_description: string }).error_description, /from this client/);
    const shop = await fetch(`${proxy.url}/esign/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('shop:shop-secret-0123456789abcdef-0123').toString('base64')}`,
        'x-forwarded-for': '198.51.100.7',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'no-such-code', redirect_uri: SITE }),
    });
    assert.equal(shop.status, 400, 'another client is heard: its code is refused invalid_grant');
    assert.equal(((await shop.json()) as { error: string }).error, 'invalid_grant');
    assert.deepEqual(
      codes(proxy, 'oidc-client-auth-limit').map((line) => [line['scope'], line['client']]),
      [['client', 'bank']],
    );
    const grant = codes(proxy, 'oidc-grant-refused').at(-1)!;
    assert.deepEqual([grant['client'], grant['reason']], ['shop', 'invalid_grant']);
  });

  it("a login's last step without its cookie is a 400 page and one JSON line; every line of the server is JSON, the runtime notice too", async () => {
    const proxy = await provider();
    const answer = await fetch(`${proxy.url}/esign/oidc/auth/xyz?client_id=bank`);
    assert.equal(answer.status, 400);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await answer.text(), /<html lang="en">/);
    await until(() => codes(proxy, 'oidc-resume-without-cookie').length === 1, 'the line', 5_000, 20);
    const old = (process.release.lts ?? '') < 'Jod';
    assert.equal(codes(proxy, 'oidc-unsupported-runtime').length, old ? 1 : 0, `on ${process.version}`);
    assert.equal(codes(proxy, 'oidc-library').length, 0, 'no library text of its own');
    assertAllJson(proxy);
  });
});

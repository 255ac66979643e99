import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import { startSandbox } from 'esign-sandbox';
import { seal, unseal } from '../../src/proxy/sealed.js';
import { storeName } from '../../src/server/oidc/store-adapter.js';
import { esignProxyHarness, redisReader } from './esign-proxy-harness.js';
import { Browser, client, freePort, oidcFiles, providerSettings, relyingParty, type AuthorizationRequest, type Relying } from './oidc-harness.js';

// What a login asks of esign-proxy's Redis, read on a real redis-server with MONITOR (how many in
// all is a benchmark's figure, npm run bench:oidc, since the polls vary): the
// person's claims are kept with the grant (no entry of their own to write and read), and the
// grant comes with the interaction at the authorization's resumption, so the resumption does not
// read it again; userinfo reads its grant once. A grant written by a node of before (no claims
// with it, the claims apart) is still redeemed; a grant whose claims are another person's is not.

const { esignProxy, redisOnPort } = esignProxyHarness();
const ACCESS_TOKEN = 'oidc-commands-sandbox-token';
const VISITOR_SECRET = 'visitor-secret-of-the-commands-test-0123456789';
const BANK_SECRET = 'bank-secret-0123456789abcdef-0123';
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 50 });
after(() => sandbox.close());
const files = oidcFiles();
const redis = await redisOnPort();
const reader = await redisReader(redis.url);

interface Command {
  name: string;
  /** The key without the site's prefix, a digested name as `<name>`. */
  family: string;
}

/** The commands Redis is sent under a prefix while `watched` runs, in order. */
async function commandsOf(prefix: string, watched: () => Promise<void>): Promise<Command[]> {
  const monitor = createClient({ url: redis.url });
  monitor.on('error', () => undefined);
  await monitor.connect();
  const seen: Command[] = [];
  await monitor.monitor((line: string) => {
    const words = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] ?? '');
    const [name, key] = words;
    if (name && key?.startsWith(prefix))
      seen.push({ name: name.toUpperCase(), family: key.slice(prefix.length).replace(/:[A-Za-z0-9_-]{32}(?=:|$)/g, ':<name>') });
  });
  try {
    await watched();
    // MONITOR's lines come after the commands' answers: the last one is in once a marker is
    await reader.get(`${prefix}marker`);
    const deadline = Date.now() + 5000;
    while (!seen.some((command) => command.family === 'marker') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(
      seen.some((command) => command.family === 'marker'),
      'the marker was seen',
    );
  } finally {
    await monitor.disconnect().catch(() => undefined);
  }
  return seen.filter((command) => command.family !== 'marker');
}

const count = (commands: Command[], name: string, family: string) => commands.filter((command) => command.name === name && command.family === family).length;

interface Site {
  prefix: string;
  origin: string;
  bank: Relying;
}

async function site(name: string): Promise<Site> {
  const port = await freePort();
  const prefix = `${name}-${port}:`;
  const proxy = await esignProxy({
    ...providerSettings(port, { url: sandbox.url, accessToken: ACCESS_TOKEN }, files, `subject-secret-of-${name}`),
    ESIGN_VISITOR_SECRET: VISITOR_SECRET,
    ESIGN_REDIS_URL: redis.url,
    ESIGN_REDIS_PREFIX: prefix,
  });
  return { prefix, origin: proxy.url, bank: await relyingParty(`http://127.0.0.1:${port}/esign/oidc`, 'bank', BANK_SECRET) };
}

/** A person's login on the provider's page, up to the code on the way back to the site. */
async function loginToCode({ origin }: Site, bank: Relying, code: string): Promise<{ back: string; asked: AuthorizationRequest }> {
  const asked = await bank.request();
  return { back: (await new Browser(origin).loginOnPage(asked.url, code)).back, asked };
}

/** The one grant of a site's Redis, its record opened, and a way to write it back changed. */
async function theGrant(prefix: string) {
  const keys = await reader.keys(`${prefix}oidc:Grant:*`);
  assert.equal(keys.length, 1, keys.join(', '));
  const key = keys[0]!;
  const text = unseal(VISITOR_SECRET, (await reader.get(key)) ?? '');
  assert.ok(text !== null, 'the grant opens with the secret');
  const record = JSON.parse(text) as Record<string, unknown>;
  const rewrite = async (changed: Record<string, unknown>) => {
    const ttl = await reader.pTTL(key);
    await reader.set(key, seal(VISITOR_SECRET, JSON.stringify(changed)), { PX: ttl });
  };
  return { record, rewrite };
}

describe("esign-proxy's Redis commands of a login", () => {
  it('a login: the claims kept with the grant, the grant read once at the resumption (from the interaction) and once at the token; userinfo reads it once', async () => {
    const one = await site('commands');
    let tokens: Awaited<ReturnType<Relying['redeem']>> | undefined;
    const login = await commandsOf(one.prefix, async () => {
      const { back, asked } = await loginToCode(one, one.bank, '40504040001');
      tokens = await one.bank.redeem(back, asked);
    });
    assert.ok(tokens);
    assert.equal(tokens.claims()?.['nin'], '40504040001', "the ID token has the person's claims");
    const families = login.map((command) => `${command.name} ${command.family}`);
    assert.deepEqual(
      login.filter((command) => command.family.startsWith('oidc:account')),
      [],
      `no entry of the claims of their own: ${families.join(', ')}`,
    );
    assert.equal(count(login, 'SET', 'oidc:Grant:<name>'), 1, families.join(', '));
    assert.equal(count(login, 'GET', 'oidc:Grant:<name>'), 1, `the grant read by the token request alone: ${families.join(', ')}`);
    assert.equal(count(login, 'GET', 'oidc:Interaction:<name>'), 2, `the interaction read by its continuation and by the resumption: ${families.join(', ')}`);
    assert.equal(count(login, 'GET', 'oidc:AuthorizationCode:<name>'), 1, families.join(', '));

    const access = tokens.access_token;
    let info: Record<string, unknown> = {};
    const userinfo = await commandsOf(one.prefix, async () => {
      info = await client.fetchUserInfo(one.bank.config, access, tokens!.claims()!.sub);
    });
    assert.equal(info['nin'], '40504040001', 'userinfo reads the claims with the grant');
    assert.deepEqual(
      userinfo.map((command) => `${command.name} ${command.family}`),
      ['GET oidc:AccessToken:<name>', 'GET oidc:Grant:<name>'],
      'userinfo: its token, then its grant once (the account before the grant, the grant not read again after)',
    );
  });

  it('a grant of a node of before, its claims apart, is redeemed with them; a grant with no claims, or the claims of another person, is not', async () => {
    const old = await site('commands-before');
    const { back, asked } = await loginToCode(old, old.bank, '40504040001');
    const { record, rewrite } = await theGrant(old.prefix);
    const carried = record['esign:carried'] as { data?: { sub?: string; person?: unknown } } | undefined;
    const sub = carried?.data?.sub;
    assert.ok(sub && carried?.data?.person, 'the grant carries the person and their sub');
    // as a node of before left it: the library's grant alone, the claims under a name of their own
    const { 'esign:carried': _carried, ...libraryGrant } = record;
    await rewrite(libraryGrant);
    await reader.set(`${old.prefix}oidc:account:${storeName(VISITOR_SECRET, 'account', sub)}`, seal(VISITOR_SECRET, JSON.stringify(carried.data?.person)), {
      PX: 60_000,
    });
    const tokens = await old.bank.redeem(back, asked);
    assert.equal(tokens.claims()?.sub, sub);
    assert.equal(tokens.claims()?.['nin'], '40504040001', 'the claims read apart, as a node of before kept them');

    const variants: [string, (record: Record<string, unknown>) => Record<string, unknown>][] = [
      ['no claims with the grant and none apart', ({ 'esign:carried': _gone, ...grant }) => grant],
      ['the claims of another person with the grant', (grant) => ({ ...grant, 'esign:carried': { data: { ...carried.data, sub: `${sub}-another` } } })],
    ];
    for (const [what, change] of variants) {
      const other = await site('commands-refused');
      const login = await loginToCode(other, other.bank, '40504040001');
      const grant = await theGrant(other.prefix);
      await grant.rewrite(change(grant.record));
      await assert.rejects(other.bank.redeem(login.back, login.asked), (error: unknown) => {
        assert.equal((error as { error?: unknown }).error, 'invalid_grant', what);
        return true;
      });
    }
  });
});

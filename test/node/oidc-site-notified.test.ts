import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from 'esign-sandbox';
import { esignProxyHarness } from './esign-proxy-harness.js';
import { Browser, freePort, oidcFiles, providerSettings, relyingParty } from './oidc-harness.js';
import { until } from './wait.js';

// A login by OpenID Connect ends on the provider alone: the site's webhook hears of it after, as a
// notification, and whatever the site does (down, slow, or refusing with a 4xx as Rails' CSRF
// check would) the person goes on to the site with a code its client redeems; the operator reads
// what the webhook did in the log.

const { esignProxy } = esignProxyHarness();
const ACCESS_TOKEN = 'oidc-notified-sandbox-token';
const SECRET = `whsec_${Buffer.from('the-notified-site-webhook-secret!').toString('base64')}`;
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 50 });
const servers: Server[] = [];
after(async () => {
  for (const server of servers) (server.closeAllConnections(), server.close());
  await sandbox.close();
});
const files = oidcFiles();

/** The site's webhook: each delivery counted as it comes; answered with `status` once `gate` resolves. */
async function webhook(status: number, gate: Promise<void> = Promise.resolve()): Promise<{ url: string; received: () => number; answered: () => number }> {
  let received = 0;
  let answered = 0;
  const server = createServer((req, res) => {
    received++;
    req.resume();
    req.on('end', () => void gate.then(() => (answered++, res.writeHead(status).end())));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/esign-webhook`, received: () => received, answered: () => answered };
}

async function loginThrough(webhookUrl: string, during?: () => Promise<void>) {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}/esign/oidc`;
  const proxy = await esignProxy({
    ...providerSettings(port, { url: sandbox.url, accessToken: ACCESS_TOKEN }, files, 'subject-secret-of-the-notified-site'),
    ESIGN_WEBHOOK_URL: webhookUrl,
    ESIGN_WEBHOOK_SECRET: SECRET,
  });
  const site = await relyingParty(issuer, 'bank', 'bank-secret-0123456789abcdef-0123');
  const asked = await site.request();
  const { back, token } = await new Browser(proxy.url).loginOnPage(asked.url, '40504040001', during);
  const tokens = await site.redeem(back, asked);
  assert.equal(tokens.claims()?.['nin'], '40504040001');
  const finished = proxy
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; outcome?: string })
    .filter((event) => event.type === 'finished');
  assert.deepEqual(
    finished.map((event) => event.outcome),
    ['ok'],
    'the login finished once, well',
  );
  return { proxy, token };
}

const messages = (proxy: { lines: () => Record<string, unknown>[] }) => proxy.lines().map((line) => String(line['msg']));

describe('an OpenID Connect login never waits on the site', () => {
  it('the site down: the login goes on; the log says the webhook could not be reached and that it is tried again', async () => {
    const { proxy, token } = await loginThrough(`http://127.0.0.1:${await freePort()}/esign-webhook`);
    await until(() => messages(proxy).some((msg) => /did not take the delivery \(ECONNREFUSED\): trying again/.test(msg)), 'the failed try said', 10_000, 50);
    assert.ok(!proxy.stderr().includes(token), 'the session token in no line');
  });

  it('the site slow: the login went on while the site still held its answer; the notification is taken after', async () => {
    let release = () => undefined as void;
    const site = await webhook(
      204,
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    const { proxy } = await loginThrough(site.url, async () => {
      // the poll answered ok: the site has the notification, and has not answered it
      await until(() => site.received() === 1, 'the notification sent', 10_000, 20);
      assert.equal(site.answered(), 0);
    });
    assert.deepEqual([site.received(), site.answered()], [1, 0], 'the login ended before the site answered');
    release();
    await until(() => messages(proxy).includes('the webhook took the delivery'), 'the notification taken', 10_000, 20);
    assert.equal(site.received(), 1, 'sent once');
  });

  it('the site answers 422 (a framework refusing a POST it did not expect): the login goes on; the refusal is a log line, not sent again', async () => {
    const site = await webhook(422);
    const { proxy } = await loginThrough(site.url);
    await until(() => messages(proxy).includes('the webhook refused the delivery: HTTP 422'), 'the refusal said', 10_000, 20);
    assert.equal(site.received(), 1);
    assert.ok(!messages(proxy).some((msg) => msg.includes('site-refused')));
  });
});

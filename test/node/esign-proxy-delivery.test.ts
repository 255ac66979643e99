import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { errorFromResponse } from '../../src/client/error-from-response.js';
import { STATUS_POLL_SLOW_AFTER, STATUS_POLL_TIMEOUT } from '../../src/protocol/time-limits.js';
import { DELIVERY_SCHEMA } from '../../src/server/delivery-schema.js';
import { browserOf, esignProxyHarness, peakMemory, type Delivery } from './esign-proxy-harness.js';
import { until } from './wait.js';

// esign-proxy's delivery of a verified result to the host's site, as the widget polls for it: no
// result lost (a slow site, an answer lost on the way), none repeated, the site's refusal said at
// once, what the site answers never read whole and never passed to a browser (a delivery logs
// nobody in: that is the OpenID Connect login's), and every delivery as its JSON Schema says.

const TOKEN = 'delivery-sandbox-token';
const SECRET = `whsec_${Buffer.from('a-test-webhook-secret-of-32-bytes!!').toString('base64')}`;
const { esignProxy, hostServer } = esignProxyHarness();
let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 200 });
});
after(async () => {
  await sandbox?.close();
});

const LOGIN = { code: '40504040001', country: 'EE' };
const pdf = { type: 'pdf', pdf: { files: [{ name: 'contract.pdf', content: Buffer.from(samplePdf('Delivery')).toString('base64') }] } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a session as the widget does: one at a time, a second apart, each dropped after the widget's own limit. */
async function pollAsTheWidget(browser: ReturnType<typeof browserOf>, path: string, most = 40) {
  const seen: string[] = [];
  for (let i = 0; i < most; i++) {
    const answer = await browser.post(path, {}, AbortSignal.timeout(STATUS_POLL_TIMEOUT)).catch(() => null);
    if (!answer) {
      seen.push('dropped');
      continue;
    }
    seen.push(String(answer.json['status']));
    if (answer.json['status'] !== 'waiting') return { seen, last: answer };
    await sleep(1_000);
  }
  return { seen, last: null };
}

const validate = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(DELIVERY_SCHEMA);
})();

function assertSchema(delivery: Delivery | undefined): void {
  assert.ok(delivery?.verified, 'a verified delivery');
  assert.ok(validate(delivery.verified), `${delivery.body.slice(0, 200)}: ${JSON.stringify(validate.errors)}`);
}

describe('esign-proxy: no login lost, none repeated', () => {
  it('a site that takes 12 s: every poll answers within the widget\'s limit, "ok" only once the site took it; no cookie goes to the site or comes back from it', async () => {
    const site = await hostServer(SECRET, () => ({ status: 204, cookie: 'site-session=logged-in-id; Path=/; HttpOnly; SameSite=Lax', delayMs: 12_000 }));
    const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_WEBHOOK_URL: site.url, ESIGN_WEBHOOK_SECRET: SECRET });
    const browser = browserOf(`${proxy.url}/esign`, 'site-session=anonymous-id; other=1');
    const start = await browser.post('/smartid/login.json', LOGIN);
    const { seen, last } = await pollAsTheWidget(browser, `/smartid/status/${String(start.json['token'])}.json`);
    assert.ok(last, `the login ended: ${seen.join(',')}`);
    assert.equal(last.json['status'], 'ok', seen.join(','));
    assert.ok(!seen.includes('dropped'), `no poll outlasted the widget's ${STATUS_POLL_TIMEOUT} ms: ${seen.join(',')}`);
    assert.equal(site.deliveries.length, 1, 'delivered once');
    assert.ok(last.at >= site.deliveries[0]!.answeredAt!, 'the browser got the result only after the site answered');
    assert.deepEqual(
      last.set.filter((line) => line.startsWith('site-session=')),
      [],
      "the site's answer never reaches a browser",
    );
    assert.doesNotMatch(browser.jar.cookie, /site-session=logged-in-id/);
    // a delivery is a fact: none of the browser's cookies go along
    assert.equal(site.deliveries[0]!.headers['cookie'], undefined);
    assertSchema(site.deliveries[0]);
    await until(() => proxy.stdout().includes('"finished"'), 'the finished event');
    await sleep(300);
    const finished = proxy
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; outcome?: string })
      .filter((e) => e.type === 'finished');
    assert.deepEqual(
      finished.map((e) => e.outcome),
      ['ok'],
      'one finished event',
    );
  });

  it("the answer that carried the result lost on the way: the next poll has the result, without a second delivery, and never the site's cookie", async () => {
    const site = await hostServer(SECRET, () => ({ status: 204, cookie: 'site-session=logged-in-id; Path=/; HttpOnly', delayMs: 300 }));
    const proxy = await esignProxy({
      ESIGN_BASE_URL: sandbox.url,
      ESIGN_ACCESS_TOKEN: TOKEN,
      ESIGN_WEBHOOK_URL: site.url,
      ESIGN_WEBHOOK_SECRET: SECRET,
      ESIGN_FORWARD_COOKIES: 'site-session',
    });
    const browser = browserOf(`${proxy.url}/esign`, 'site-session=anonymous-id; other=1');
    const start = await browser.post('/smartid/login.json', LOGIN);
    const path = `/smartid/status/${String(start.json['token'])}.json`;
    // polls until the one that delivers: that poll's answer is dropped unread, as a phone that loses its network does
    for (let i = 0; i < 20 && !site.deliveries.length; i++) {
      const lost = new AbortController();
      const poll = fetch(`${proxy.url}/esign${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: browser.jar.cookie },
        body: '{}',
        signal: lost.signal,
      }).catch(() => null);
      // the poll answered (waiting), or the delivery began (its answer is then the one to lose), whichever comes first
      let settled = false;
      void poll.then(() => (settled = true));
      await until(() => settled || site.deliveries.length > 0, 'the poll answered or the delivery began', 20_000, 10);
      if (site.deliveries.length) {
        await until(() => site.deliveries[0]!.answeredAt !== undefined, "the site's answer");
        lost.abort();
      } else {
        const answer = await poll;
        assert.equal(((await answer?.json()) as { status: string } | undefined)?.status, 'waiting');
        await sleep(700); // the next poll a moment later, as the widget polls
      }
    }
    assert.equal(site.deliveries.length, 1);
    assert.doesNotMatch(browser.jar.cookie, /logged-in-id/, 'the lost answer gave this browser nothing');
    await sleep(600);
    const again = await browser.post(path, {});
    assert.equal(again.json['status'], 'ok');
    assert.deepEqual(
      again.set.filter((line) => line.startsWith('site-session=')),
      [],
      `nothing of the site's answer: ${JSON.stringify(again.set)}`,
    );
    assert.ok(
      again.set.some((line) => /^(__Host-)?esign-visitor=/.test(line)),
      "the proxy's new visitor id of the login",
    );
    assert.equal(site.deliveries.length, 1, 'not delivered again');
    assert.equal(site.deliveries[0]!.headers['cookie'], undefined, 'no cookie of the browser went along');
    // a poll of another browser gets nothing of it
    const stranger = await browserOf(`${proxy.url}/esign`).post(path, {});
    assert.equal(stranger.status, 404);
    assert.deepEqual(
      stranger.set.filter((line) => line.startsWith('site-session=')),
      [],
    );
  });

  it('a site that refuses the result (4xx) ends the session at once with site-refused, said by its status in the log, never delivered again', async () => {
    const site = await hostServer(SECRET, () => ({ status: 409 }));
    const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_WEBHOOK_URL: site.url, ESIGN_WEBHOOK_SECRET: SECRET });
    const browser = browserOf(`${proxy.url}/esign`, 'site-session=anonymous-id');
    const start = await browser.post('/smartid/login.json', LOGIN);
    const path = `/smartid/status/${String(start.json['token'])}.json`;
    const { seen, last } = await pollAsTheWidget(browser, path);
    assert.ok(last, seen.join(','));
    assert.deepEqual([last.status, last.json['proxy_error'], last.json['status']], [409, 'site-refused', 'error']);
    // what the person reads: the widget's own code for it, which offers no way that brings it back
    const error = errorFromResponse(last.json as never, last.status);
    assert.deepEqual([error.code, error.retryable], ['site-refused', false]);
    await sleep(600);
    const later = await browser.post(path, {});
    assert.deepEqual([later.status, later.json['proxy_error']], [409, 'site-refused']);
    assert.equal(site.deliveries.length, 1, 'a refusal is not tried again');
    const line = proxy.lines().find((l) => typeof l['msg'] === 'string' && l['msg'].includes('site-refused'));
    assert.ok(line, proxy.stderr());
    assert.deepEqual([line['level'], line['code']], ['error', 'HTTP 409']);
    const events = proxy
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; outcome?: string });
    assert.ok(events.some((e) => e.type === 'finished' && e.outcome === 'site-refused'));
  });

  it('a site that answers 503 and then takes it: tried again with the same webhook-id, the browser waiting meanwhile', async () => {
    const site = await hostServer(SECRET, (attempt) => (attempt === 1 ? { status: 503 } : { status: 204 }));
    const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_WEBHOOK_URL: site.url, ESIGN_WEBHOOK_SECRET: SECRET });
    const browser = browserOf(`${proxy.url}/esign`, 'site-session=a');
    const start = await browser.post('/smartid/login.json', LOGIN);
    const { last } = await pollAsTheWidget(browser, `/smartid/status/${String(start.json['token'])}.json`);
    assert.equal(last?.json['status'], 'ok');
    assert.equal(site.deliveries.length, 2);
    const webhookId = site.deliveries[0]!.headers['webhook-id'];
    assert.equal(webhookId, site.deliveries[1]!.headers['webhook-id']);
    // the try that failed and the outcome: lines for the operator, with the webhook-id and the request id of the poll that handed it over
    await until(() => proxy.lines().some((line) => line['msg'] === 'the webhook took the delivery'), "the outcome's line");
    const lines = proxy.lines().filter((line) => line['webhookId'] === webhookId);
    assert.deepEqual(
      lines.map((line) => [line['level'], line['msg'], line['attempt'] ?? line['attempts']]),
      [
        ['warn', 'the webhook did not take the delivery (HTTP 503): trying again', 1],
        ['info', 'the webhook took the delivery', 2],
      ],
    );
    assert.ok(
      lines.every((line) => typeof line['requestId'] === 'string' && line['requestId'] === lines[0]!['requestId'] && line['type'] === 'login.verified'),
      JSON.stringify(lines),
    );
  });
});

describe('esign-proxy: a shutdown with a delivery on its way', () => {
  /** A login whose delivery the site is taking now (the poll that started it already answered "waiting"). */
  async function deliveryUnderWay(env: Record<string, string>) {
    const site = await hostServer(SECRET, () => ({ status: 204, delayMs: 4_000 }));
    const proxy = await esignProxy({
      ESIGN_BASE_URL: sandbox.url,
      ESIGN_ACCESS_TOKEN: TOKEN,
      ESIGN_WEBHOOK_URL: site.url,
      ESIGN_WEBHOOK_SECRET: SECRET,
      ...env,
    });
    const browser = browserOf(`${proxy.url}/esign`);
    const start = await browser.post('/smartid/login.json', LOGIN);
    const path = `/smartid/status/${String(start.json['token'])}.json`;
    for (let i = 0; i < 20 && !site.deliveries.length; i++) {
      await browser.post(path, {});
      await sleep(300);
    }
    assert.equal(site.deliveries.length, 1, 'the delivery is on its way');
    const exited = new Promise<number>((resolve) => proxy.child.once('exit', () => resolve(Date.now())));
    proxy.child.kill('SIGTERM');
    return { site, proxy, exitedAt: await exited, webhookId: site.deliveries[0]!.headers['webhook-id'] };
  }

  it('SIGTERM lets a delivery on its way finish before the proxy stops', async () => {
    const { site, proxy, exitedAt, webhookId } = await deliveryUnderWay({});
    assert.ok(site.deliveries[0]!.answeredAt !== undefined && exitedAt >= site.deliveries[0]!.answeredAt, 'stopped only after the site answered');
    const lines = proxy.lines().filter((line) => line['webhookId'] === webhookId);
    assert.deepEqual(
      lines.map((line) => line['msg']),
      ['the webhook took the delivery'],
    );
  });

  it('a shutdown whose time runs out first says which delivery it cut (the next poll tries again)', async () => {
    const { proxy, webhookId } = await deliveryUnderWay({ ESIGN_SHUTDOWN_MS: '500' });
    const cut = proxy.lines().filter((line) => line['webhookId'] === webhookId);
    assert.deepEqual(
      cut.map((line) => [line['level'], line['msg']]),
      [['warn', "a delivery was cut by the shutdown: its session's next poll tries again (to any node)"]],
    );
  });
});

describe('esign-proxy: a site that cannot be reached', () => {
  it('is said in a line that names its URL and the cause, and the browser is told the site could not take the result', async () => {
    const { freePort } = await import('./processes.js');
    const closed = `http://127.0.0.1:${await freePort()}/esign-webhook`;
    const proxy = await esignProxy({
      ESIGN_BASE_URL: sandbox.url,
      ESIGN_ACCESS_TOKEN: TOKEN,
      ESIGN_WEBHOOK_URL: closed,
      ESIGN_WEBHOOK_SECRET: SECRET,
      ESIGN_RESULT_TIMEOUT_MS: '1500',
    });
    const browser = browserOf(`${proxy.url}/esign`, 'site-session=a');
    const start = await browser.post('/smartid/login.json', LOGIN);
    const { last, seen } = await pollAsTheWidget(browser, `/smartid/status/${String(start.json['token'])}.json`);
    assert.deepEqual([last?.status, last?.json['proxy_error']], [500, 'host-error'], seen.join(','));
    const line = proxy.lines().find((l) => l['code'] === 'ECONNREFUSED');
    assert.ok(line, proxy.stderr());
    assert.deepEqual([line['level'], line['url']], ['error', closed]);
  });
});

describe('esign-proxy: the deliveries whole, named and safe', () => {
  it("a signing names the signer the site said is signed in, a hash signing without a gate the start's person; every delivery and the signer question as the schema says", async () => {
    const site = await hostServer(SECRET, () => ({ status: 204 }));
    // the signer URL answers the person signed in
    const signerSite = await hostServer(SECRET, () => ({ status: 200, json: LOGIN }));
    const asked = signerSite.deliveries;
    const gated = await esignProxy({
      ESIGN_BASE_URL: sandbox.url,
      ESIGN_ACCESS_TOKEN: TOKEN,
      ESIGN_WEBHOOK_URL: site.url,
      ESIGN_SIGNER_URL: signerSite.url,
      ESIGN_WEBHOOK_SECRET: SECRET,
    });
    const browser = browserOf(`${gated.url}/esign`, 'site-session=signed-in');
    const sign = await browser.post('/smartid/sign.json', { ...LOGIN, ...pdf });
    assert.equal(sign.json['status'], 'ok', JSON.stringify(sign.json));
    const signed = await pollAsTheWidget(browser, `/smartid/sign/status/${String(sign.json['token'])}.json`);
    assert.equal(signed.last?.json['status'], 'ok', signed.seen.join(','));
    const ungated = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_WEBHOOK_URL: site.url, ESIGN_WEBHOOK_SECRET: SECRET });
    const other = browserOf(`${ungated.url}/esign`);
    const hash = await other.post('/smartid/sign/hash.json', { code: '30303039914', country: 'LT', hash: 'ab'.repeat(32), hash_algorithm: 'SHA256' });
    assert.equal(hash.json['status'], 'ok', JSON.stringify(hash.json));
    const hashed = await pollAsTheWidget(other, `/smartid/sign/hash/status/${String(hash.json['token'])}.json`);
    assert.equal(hashed.last?.json['status'], 'ok', hashed.seen.join(','));
    const byType = (type: string) => site.deliveries.find((d) => d.verified?.['type'] === type);
    const data = (type: string) => (byType(type)!.verified as { data: { signer?: unknown } }).data;
    assert.deepEqual(data('sign.verified').signer, { country: 'EE', code: '40504040001', from: 'site' });
    assert.deepEqual(data('hash.verified').signer, { country: 'LT', code: '30303039914', from: 'start' });
    assertSchema(byType('sign.verified'));
    assertSchema(byType('hash.verified'));
    assert.equal(asked.length, 1);
    assertSchema(asked[0]);
    assert.equal(asked[0]!.headers['cookie'], 'site-session=signed-in', "the site's cookie, not the proxy's");
    // the schema is the one the package ships
    assert.deepEqual(
      JSON.parse(readFileSync(new URL('../../dist/webhook-delivery.schema.json', import.meta.url), 'utf8')),
      JSON.parse(JSON.stringify(DELIVERY_SCHEMA)),
    );
    // and it refuses what is not a delivery
    assert.equal(
      validate({
        type: 'login.verified',
        timestamp: new Date().toISOString(),
        data: { kind: 'login', operation: 'smartIdLoginStatus', token: 't', visitor: 'esign-visitor=abc', result: {} },
      }),
      false,
    );
  });

  it("a browser without the site's cookies is nobody: the signer URL is not asked", async () => {
    let asked = 0;
    const signerSite = await hostServer(SECRET, () => ((asked += 1), { status: 200 }));
    const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_SIGNER_URL: signerSite.url, ESIGN_WEBHOOK_SECRET: SECRET });
    const refused = await browserOf(`${proxy.url}/esign`).post('/smartid/sign.json', { ...LOGIN, ...pdf });
    assert.deepEqual([refused.status, refused.json['proxy_error']], [403, 'signer-unknown']);
    assert.equal(asked, 0);
  });

  it('what the site answers is never held whole: a 192 MB answer of the webhook is dropped unread, one of the signer URL fails closed at 64 KB', async () => {
    const big = 192 * 1024 * 1024;
    const site = await hostServer(SECRET, () => ({ status: 200, bodyBytes: big }));
    const signerSite = await hostServer(SECRET, () => ({ status: 200, bodyBytes: big }));
    const proxy = await esignProxy({
      ESIGN_BASE_URL: sandbox.url,
      ESIGN_ACCESS_TOKEN: TOKEN,
      ESIGN_WEBHOOK_URL: site.url,
      ESIGN_SIGNER_URL: signerSite.url,
      ESIGN_WEBHOOK_SECRET: SECRET,
    });
    const before = peakMemory(proxy.child.pid!, (path) => readFileSync(path, 'utf8'));
    const browser = browserOf(`${proxy.url}/esign`, 'site-session=a');
    const start = await browser.post('/smartid/login.json', LOGIN);
    const { last } = await pollAsTheWidget(browser, `/smartid/status/${String(start.json['token'])}.json`);
    assert.equal(last?.json['status'], 'ok');
    const sign = await browser.post('/smartid/sign.json', { ...LOGIN, ...pdf });
    assert.deepEqual([sign.status, sign.json['proxy_error']], [500, 'host-error'], "an answer over the bound is the site's failure: no signing");
    await until(() => site.deliveries[0]?.answeredAt !== undefined && signerSite.deliveries[0]?.answeredAt !== undefined, 'both answers ended');
    assert.ok(site.deliveries[0]!.written < big / 4, `the webhook's answer was dropped: ${site.deliveries[0]!.written} bytes went out`);
    assert.ok(signerSite.deliveries[0]!.written < big / 4, `the signer's answer was dropped: ${signerSite.deliveries[0]!.written} bytes went out`);
    const grew = peakMemory(proxy.child.pid!, (path) => readFileSync(path, 'utf8')) - before;
    assert.ok(grew < 48 * 1024 * 1024, `the proxy grew by ${Math.round(grew / 1024 / 1024)} MB`);
    assert.ok(
      proxy.lines().some((l) => String(l['msg']).includes('signer') && String(l['msg']).includes('65536 bytes')),
      proxy.stderr(),
    );
  });
});

describe('esign-proxy: the widget and the proxy agree on time', () => {
  it('the proxy answers a poll before the widget says the connection is lost', async () => {
    const { DEFAULT_RESULT_WAIT } = await import('../../src/protocol/proxy-rules.js');
    assert.ok(DEFAULT_RESULT_WAIT + 1_000 <= STATUS_POLL_SLOW_AFTER && STATUS_POLL_SLOW_AFTER < STATUS_POLL_TIMEOUT);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { request as httpRequest, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProxyHandler, type ProxyOptions } from '../../src/proxy/index.js';
import type { ProxyAnswer } from '../../src/proxy/errors.js';
import { newExchange } from '../../src/proxy/steps/exchange.js';
import { origin } from '../../src/proxy/steps/origin.js';
import { createSetup } from '../../src/proxy/steps/setup.js';
import { ACCESS_TOKEN, countingService, incomingRequest, send, serverPool } from './harness.js';

// The proxy answers its own pages only: the Origin and Sec-Fetch-Site rules, first as the step
// alone, then over real HTTP (plain, behind TLS ended in front, and over TLS itself).

const serve = serverPool();
const START = '/smartid/login.json';
const SMART_OK = { code: '40504040001', country: 'EE' };

function proxy(baseUrl: string, options: Partial<ProxyOptions> = {}): Promise<string> {
  return serve(createProxyHandler({ baseUrl, accessToken: ACCESS_TOKEN, ...options }));
}

const kindOf = (answer: ProxyAnswer | void) => (answer ? { status: answer.status, kind: answer.kind } : undefined);

describe('proxy origin: the step alone', () => {
  it('refuses another site; lets the same origin and a request with no Origin go on', async () => {
    const setup = createSetup({ baseUrl: 'http://127.0.0.1:1', accessToken: ACCESS_TOKEN });
    const x = (headers: Record<string, string>) => newExchange(incomingRequest({ url: START, headers }), START, null);
    assert.deepEqual(kindOf(await origin(x({ origin: 'https://elsewhere.example' }), setup)), { status: 403, kind: 'cross-site' });
    assert.deepEqual(kindOf(await origin(x({ 'sec-fetch-site': 'cross-site' }), setup)), { status: 403, kind: 'cross-site' });
    assert.equal(await origin(x({ origin: 'http://127.0.0.1:1' }), setup), undefined);
    assert.equal(await origin(x({}), setup), undefined);
  });
});

describe('proxy origin: over HTTP', () => {
  it("refuses another site's Origin and Sec-Fetch-Site: cross-site with 403, and lets the own origin and listed ones through", async () => {
    let forwarded = 0;
    const upstream = await serve((req, res) => {
      forwarded++;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","token":"t-1","control_code":"1234"}');
    });
    const proxy = await serve(createProxyHandler({ baseUrl: upstream, accessToken: ACCESS_TOKEN, rateLimit: false, allowedOrigins: ['https://app.example'] }));
    const host = new URL(proxy).host;
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: `http://${host}.evil.example` },
      { 'sec-fetch-site': 'cross-site' },
      { origin: `http://${host}`, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refused) {
      const answer = await send(`${proxy}/smartid/login.json`, 'POST', SMART_OK, false, { headers });
      assert.equal(answer.status, 403, JSON.stringify(headers));
      assert.equal(answer.json.proxy_error, 'cross-site');
    }
    assert.equal(forwarded, 0);
    const allowed: Record<string, string>[] = [
      { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
      { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' },
      {},
    ];
    for (const headers of allowed) {
      const answer = await send(`${proxy}/smartid/login.json`, 'POST', SMART_OK, false, { headers });
      assert.equal(answer.json.status, 'ok', JSON.stringify(headers));
    }
    assert.equal(forwarded, 3);
  });
});

describe("proxy origin: the page's scheme is part of it", () => {
  let dir = '';
  let tls: { key: Buffer; cert: Buffer };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'esign-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=bank.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A start with this Host and Origin; resolves with the status. */
  function start(url: string, host: string, origin: string, secure: boolean): Promise<number> {
    const target = new URL(url);
    const request = secure ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        {
          hostname: target.hostname,
          port: target.port,
          path: '/smartid/login.json',
          method: 'POST',
          headers: { host, origin, 'content-type': 'application/json' },
          ...(secure ? { ca: tls.cert, servername: 'bank.test' } : {}),
        },
        (res: IncomingMessage) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ code: '40504040001', country: 'EE' }));
    });
  }

  it('refuses an http:// Origin of its own host name when served over https, and takes the https:// one', async () => {
    const service = await countingService(serve);
    const server = createHttpsServer(tls, createProxyHandler({ baseUrl: service.url, accessToken: ACCESS_TOKEN, rateLimit: false }) as RequestListener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const host = `bank.test:${new URL(url).port}`;
      assert.equal(await start(url, host, `http://${host}`, true), 403);
      assert.equal(service.seen.length, 0);
      assert.equal(await start(url, host, `https://${host}`, true), 200);
      assert.equal(service.seen.length, 1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('behind TLS ended in front (plain http here): https pages only, unless the host says its pages are http; loopback takes both', async () => {
    const service = await countingService(serve);
    const url = await proxy(service.url, { rateLimit: false });
    const host = `bank.test:${new URL(url).port}`;
    assert.equal(await start(url, host, `http://${host}`, false), 403);
    assert.equal(await start(url, host, `https://${host}`, false), 200);
    const plainHost = await proxy(service.url, { rateLimit: false, publicScheme: 'http' });
    const plain = `bank.test:${new URL(plainHost).port}`;
    assert.equal(await start(plainHost, plain, `http://${plain}`, false), 200);
    assert.equal(await start(plainHost, plain, `https://${plain}`, false), 403);
    const loopback = new URL(url).host;
    assert.equal(await start(url, loopback, `http://${loopback}`, false), 200);
    assert.equal(service.seen.length, 3);
  });
});

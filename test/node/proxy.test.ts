import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { OPERATIONS, OPERATION_IDS, buildPath } from '../../src/protocol/operations.js';
import { createFetchProxyHandler, createProxyHandler } from '../../src/proxy/index.js';
import { ACCESS_TOKEN, listen, recordResponse, send, startStack, type Stack } from './harness.js';

let stack: Stack;
const servers: Server[] = [];
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  return listen(server);
}

const ID = '00000000-0000-0000-0000-000000000000';

/** A request with a path sent exactly as written (fetch would normalise it). */
function rawRequest(base: string, method: string, path: string, body = '{}'): Promise<{ status: number; json: any }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          assert.ok(!text.includes(ACCESS_TOKEN));
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('proxy: allowed operations', () => {
  // what the sandbox answers for a path that is none of its operations, in each language: an
  // operation of the protocol the sandbox lacks must not pass for a forwarded answer
  const notAnOperation = new Map<string, unknown>();
  before(async () => {
    for (const locale of ['lt', 'en'] as const) {
      const answer = await send(`${stack.sandboxUrl}${locale === 'en' ? '/en' : ''}/no-such/operation.json`, 'POST', { access_token: ACCESS_TOKEN });
      assert.equal(answer.status, 404);
      notAnOperation.set(locale, answer.json.message);
    }
  });
  for (const id of OPERATION_IDS) {
    const locales = OPERATIONS[id].localized ? (['lt', 'en'] as const) : (['lt'] as const);
    for (const locale of locales) {
      it(`passes ${id} (${locale}) to the service and its answer back`, async () => {
        const path = buildPath(id, { token: ID, sessionId: ID, documentId: ID }, locale);
        const get = OPERATIONS[id].method === 'GET';
        const answer = await send(`${stack.proxyUrl}${path}`, OPERATIONS[id].method, get ? undefined : {});
        assert.equal(answer.json.status, 'error');
        assert.equal(answer.json.proxy_error, undefined, 'the answer came from the sandbox, not the proxy');
        assert.notEqual(
          answer.json.message,
          notAnOperation.get(locale),
          `the sandbox answered ${id} (${locale}) as no operation of its own: its route is missing`,
        );
        assert.notEqual(answer.json.error_code, 40003, 'the proxy added the right token');
        assert.equal(answer.headers.get('cache-control'), 'no-store');
      });
    }
  }
  it('the sandbox itself answers every operation of the protocol, in each of its languages', async () => {
    for (const id of OPERATION_IDS) {
      for (const locale of OPERATIONS[id].localized ? (['lt', 'en'] as const) : (['lt'] as const)) {
        const path = buildPath(id, { token: ID, sessionId: ID, documentId: ID }, locale);
        const get = OPERATIONS[id].method === 'GET';
        const answer = await send(
          `${stack.sandboxUrl}${path}${get ? `?access_token=${ACCESS_TOKEN}` : ''}`,
          OPERATIONS[id].method,
          get ? undefined : { access_token: ACCESS_TOKEN },
        );
        assert.notEqual(answer.json.message, notAnOperation.get(locale), `the sandbox has no route for ${id} (${locale})`);
        assert.notEqual(answer.json.error_code, 40003, `${id} (${locale}) took the access token`);
      }
    }
  });
  it('replaces an access_token sent by the browser', async () => {
    const answer = await send(`${stack.proxyUrl}/smartid/login.json`, 'POST', { access_token: 'from-the-browser', code: '40504040001', country: 'EE' });
    assert.equal(answer.json.status, 'ok');
  });
  it('passes the service status code through', async () => {
    const answer = await send(`${stack.proxyUrl}/mobile/status/${ID}.json`, 'POST', {});
    assert.equal(answer.status, 404);
    assert.equal(answer.json.error_code, 40402);
  });
});

describe('proxy: refusals', () => {
  const refused: [string, string][] = [
    ['GET', '/smartid/login.json'],
    ['PUT', '/smartid/login.json'],
    ['DELETE', '/smartid/login.json'],
    ['POST', '/api/mobile/session/' + ID],
    ['POST', '/smartid/login.json?debug=1'],
    ['POST', '/smartid/login.json#x'],
    ['POST', '//smartid/login.json'],
    ['POST', '/smartid//login.json'],
    ['POST', '/en/en/smartid/login.json'],
    ['POST', '/lt/smartid/login.json'],
    ['POST', '/en/api/document/generate-temporary-signing-link.json'],
    ['POST', `/mobile/status/..%2F..%2Fapi%2Fdocument%2Fupload.json`],
    ['POST', `/mobile/status/%2e%2e/x.json`],
    ['POST', `/mobile/status/../../smartid/login.json`],
    ['POST', `/mobile/status/a.b.json`],
    ['POST', `/api/document/${ID}/signers.json/../../upload.json`],
    ['POST', '/admin'],
    ['POST', '/'],
  ];
  for (const [method, path] of refused) {
    it(`answers 404 JSON to ${method} ${path}`, async () => {
      const answer = await rawRequest(stack.proxyUrl, method, path);
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.json, { status: 'error', message: 'Not an operation of the service', proxy_error: 'operation-not-allowed' });
    });
  }
  it('answers 400 JSON to malformed JSON and to a non-object body', async () => {
    for (const body of ['{"a":', '[1,2]', '"text"', '']) {
      const answer = await send(`${stack.proxyUrl}/smartid/login.json`, 'POST', body, true);
      assert.equal(answer.status, 400);
      assert.equal(answer.json.proxy_error, 'malformed-json');
    }
  });
});

describe('proxy: limits, host decisions and upstream failures', () => {
  it('answers 413 JSON to an oversized body', async () => {
    const url = await serve(createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, bodyLimit: 1024 }));
    const answer = await send(`${url}/smartid/login.json`, 'POST', { code: 'x'.repeat(2048) });
    assert.equal(answer.status, 413);
    assert.equal(answer.json.proxy_error, 'request-too-large');
  });
  it('answers 403 JSON when the host denies, and lets the host see the operation without the token', async () => {
    const seen: string[] = [];
    const url = await serve(
      createProxyHandler({
        baseUrl: stack.sandboxUrl,
        accessToken: ACCESS_TOKEN,
        operations: 'all',
        authorize: (request, operation) => {
          seen.push(`${operation.id}:${'access_token' in request.body}`);
          return operation.id !== 'removeDocument';
        },
      }),
    );
    const denied = await send(`${url}/api/document/${ID}/remove.json`, 'DELETE', { access_token: 'x' });
    assert.equal(denied.status, 403);
    assert.equal(denied.json.proxy_error, 'forbidden');
    const allowed = await send(`${url}/api/document/${ID}/signers.json`, 'POST', {});
    assert.equal(allowed.json.message, 'Document was not found');
    assert.deepEqual(seen, ['removeDocument:false', 'listSigners:false']);
  });
  it('answers 502 JSON when the service is down', async () => {
    const downServer = createServer();
    const downUrl = await listen(downServer);
    downServer.close();
    const url = await serve(createProxyHandler({ baseUrl: downUrl, accessToken: ACCESS_TOKEN }));
    const answer = await send(`${url}/smartid/login.json`, 'POST', {});
    assert.equal(answer.status, 502);
    assert.equal(answer.json.proxy_error, 'upstream-unreachable');
  });
  /**
   * A service whose server closes a kept-alive connection just as the proxy sends on it (its idle
   * time ran out): the second request on a connection is closed unread. Counts what it read.
   */
  async function closingService(): Promise<{ url: string; read: string[]; closedUnread: () => number }> {
    const read: string[] = [];
    let closed = 0;
    const requestsOn = new WeakMap<object, number>();
    const url = await serve((req, res) => {
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      if (count > 1) {
        closed++;
        return void req.socket.destroy();
      }
      req.resume();
      req.on('end', () => {
        read.push(req.url ?? '');
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 'ok', token: `t${read.length}`, control_code: '1234', signers: [] }));
      });
    });
    return { url, read, closedUnread: () => closed };
  }
  it('sends a read again, once, on a new connection when the kept-alive one it set out on was closed', async () => {
    const service = await closingService();
    const url = await serve(createProxyHandler({ baseUrl: service.url, accessToken: ACCESS_TOKEN, operations: 'all', authorize: () => true }));
    const first = await send(`${url}/api/document/${ID}/signers.json`, 'POST', {});
    const second = await send(`${url}/api/document/${ID}/signers.json`, 'POST', {});
    assert.equal(first.status, 200);
    assert.equal(second.status, 200, JSON.stringify(second.json));
    assert.equal(service.closedUnread(), 1, "the second set out on the first one's connection");
    assert.deepEqual(service.read, [`/api/document/${ID}/signers.json`, `/api/document/${ID}/signers.json`], 'each read once by the service');
  });
  it('never sends a start twice: one whose connection was closed answers 502, and the service saw it once', async () => {
    const service = await closingService();
    const url = await serve(createProxyHandler({ baseUrl: service.url, accessToken: ACCESS_TOKEN }));
    const first = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' });
    const second = await send(`${url}/smartid/login.json`, 'POST', { code: '30303039914', country: 'LT' });
    assert.equal(first.status, 200);
    assert.equal(second.status, 502);
    assert.equal(second.json.proxy_error, 'upstream-unreachable');
    assert.equal(service.closedUnread(), 1);
    assert.deepEqual(service.read, ['/smartid/login.json']);
  });
  it('answers 504 JSON when the service is too slow', async () => {
    const slowUrl = await serve(() => undefined);
    const url = await serve(createProxyHandler({ baseUrl: slowUrl, accessToken: ACCESS_TOKEN, upstreamTimeout: 200 }));
    const answer = await send(`${url}/smartid/login.json`, 'POST', {});
    assert.equal(answer.status, 504);
    assert.equal(answer.json.proxy_error, 'upstream-timeout');
  });
  it('answers 502 JSON when the service answers with an HTML page', async () => {
    const htmlUrl = await serve((_, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'));
    const url = await serve(createProxyHandler({ baseUrl: htmlUrl, accessToken: ACCESS_TOKEN }));
    const answer = await send(`${url}/smartid/login.json`, 'POST', {});
    assert.equal(answer.status, 502);
    assert.equal(answer.json.proxy_error, 'upstream-invalid');
  });
  it('never hands back a token that a service echoed', async () => {
    const echoUrl = await serve((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', echo: JSON.parse(text) })));
    });
    const url = await serve(createProxyHandler({ baseUrl: echoUrl, accessToken: ACCESS_TOKEN }));
    const answer = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001' });
    assert.equal(answer.json.echo.access_token, '[redacted]');
  });
  it('mounts under a prefix and hands other paths to next()', async () => {
    const handler = createProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, prefix: '/esign' });
    const url = await serve((req, res) => handler(req, res, () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"next":true}')));
    assert.deepEqual((await send(`${url}/other`, 'POST', {})).json, { next: true });
    assert.equal((await send(`${url}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' })).json.status, 'ok');
    assert.equal((await send(`${url}/esign/nope`, 'POST', {})).status, 404);
  });
});

describe('proxy: fetch-style handler', () => {
  it('serves the same contract as (Request) => Promise<Response>', async () => {
    const handler = createFetchProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, prefix: '/api-esign' });
    // a minimal bridge from node:http to the fetch handler, as a fetch-based server would do
    const url = await serve(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const response = await handler(
        new Request(`http://127.0.0.1${req.url}`, {
          method: req.method ?? 'GET',
          headers: req.headers as Record<string, string>,
          ...(req.method === 'GET' ? {} : { body: Buffer.concat(chunks) }),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
    });
    const ok = await send(`${url}/api-esign/en/smartid/login.json`, 'POST', { access_token: 'browser', code: '40504040001', country: 'EE' });
    assert.equal(ok.json.status, 'ok');
    assert.equal((await send(`${url}/api-esign/smartid/login.json?x=1`, 'POST', {})).status, 404);
    assert.equal((await send(`${url}/api-esign/smartid/login.json`, 'POST', '{', true)).status, 400);
    const small = createFetchProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, bodyLimit: 10 });
    const tooLarge = await recordResponse(
      'fetch handler 413',
      await small(
        new Request('http://127.0.0.1/smartid/login.json', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: 'x'.repeat(100) }),
        }),
      ),
    );
    assert.equal(tooLarge.status, 413);
    const denied = createFetchProxyHandler({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, authorize: () => false });
    assert.equal(
      (
        await recordResponse(
          'fetch handler 403',
          await denied(new Request('http://127.0.0.1/smartid/login.json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })),
        )
      ).status,
      403,
    );
  });
});

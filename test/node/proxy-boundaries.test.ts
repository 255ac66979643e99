import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { createFetchProxyHandler, createProxyHandler, type ProxyOptions } from '../../src/proxy/index.js';
import { recordResponse, send, serverPool } from './harness.js';

// Each hole a fuzz run found in the first proxy, kept closed by a test.

const serve = serverPool();

interface Seen {
  path: string;
  body: string;
}

/** A service side that records what reached it and answers as told. */
async function hostileService(
  answer: (seen: Seen, req: IncomingMessage, res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const url = await serve((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const item = { path: req.url ?? '', body };
      seen.push(item);
      answer(item, req, res);
    });
  });
  return { url, seen };
}

const json = (res: import('node:http').ServerResponse, text: string, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(text);

function proxy(baseUrl: string, accessToken: string, options: Partial<ProxyOptions> = {}): Promise<string> {
  return serve(createProxyHandler({ baseUrl, accessToken, rateLimit: false, ...options }));
}

const LOGIN = { code: '40504040001', country: 'EE' };

describe('proxy boundaries: the token never reaches the browser', () => {
  it("redacts the token however the service's JSON escapes it, in values and keys", async () => {
    const token = 'SECRET-TOKEN-value/1';
    const escapes = [
      'SECRET\\u002dTOKEN-value/1',
      '\\u0053ECRET-TOKEN-value\\/1',
      'SECRET-TOKEN-value\\/1',
      '\\u0053\\u0045\\u0043\\u0052\\u0045\\u0054-TOKEN-value/1',
    ];
    for (const spelled of escapes) {
      const service = await hostileService((_, __, res) =>
        json(res, `{"status":"ok","token":"t","control_code":"1","echo":"x ${spelled} y","${spelled}":1,"list":["${spelled}"]}`),
      );
      const url = await proxy(service.url, token);
      const response = await fetch(`${url}/smartid/login.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(LOGIN),
      });
      const text = await response.text();
      const parsed = JSON.parse(text) as Record<string, unknown>;
      assert.ok(!JSON.stringify(parsed).includes(token), `parsed answer holds the token (${spelled})`);
      assert.ok(!text.includes(token));
      assert.equal(parsed['echo'], 'x [redacted] y');
      assert.deepEqual(parsed['list'], ['[redacted]']);
      assert.equal(parsed['[redacted]'], 1);
    }
  });

  it('leaves answers intact with short and ordinary-looking tokens, and still redacts them glued to other text', async () => {
    const answer = '{"status":"ok","token":"11111111-2222-3333-4444-555555555555","control_code":"0421","message":"Invited to sign"}';
    for (const token of ['abcdefgh', '12345678', 'secret-1', 'sandbox-access-token', 'Invited!']) {
      const service = await hostileService((_, __, res) => json(res, answer));
      const url = await proxy(service.url, token);
      const got = await send(`${url}/smartid/login.json`, 'POST', LOGIN);
      assert.deepEqual(got.json, JSON.parse(answer), token);
      const glued = await hostileService((_, __, res) => json(res, `{"status":"error","message":"bad token x${token}y"}`));
      const url2 = await proxy(glued.url, token);
      assert.equal((await send(`${url2}/smartid/login.json`, 'POST', LOGIN)).json.message, 'bad token x[redacted]y');
    }
    for (const token of ['s', 'ok', 'status', '1234567']) {
      assert.throws(() => createProxyHandler({ baseUrl: 'http://127.0.0.1:9', accessToken: token }), /at least 8 characters/);
    }
  });

  it('keeps a large answer byte for byte when it cannot hold the token', async () => {
    const file = 'QUJD'.repeat(2_000_000);
    const text = `{"status":"ok","signature_id":"S1","file":{"name":"a_signed.pdf","content":"${file}","digest":"ab"},"person":{"name":"A","surname":"B"}}`;
    const service = await hostileService((_, __, res) => json(res, text));
    const url = await proxy(service.url, 'a-secret-token');
    const response = await fetch(`${url}/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(LOGIN) });
    assert.equal(await response.text(), text);
  });
});

describe('proxy boundaries: redirects are never followed', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`answers a ${status} from the service side with 502 and sends nothing to the Location`, async () => {
      const elsewhere = await hostileService((_, __, res) => json(res, '{"status":"ok","stolen":true}'));
      const service = await hostileService((_, __, res) => res.writeHead(status, { location: `${elsewhere.url}/collect` }).end());
      const url = await proxy(service.url, 'redirect-secret');
      const answer = await send(`${url}/smartid/login.json`, 'POST', LOGIN);
      assert.equal(answer.status, 502);
      assert.equal(answer.json.proxy_error, 'upstream-redirect');
      assert.equal(elsewhere.seen.length, 0);
      assert.equal(service.seen.length, 1);
    });
  }
  it('does not follow with a custom fetch either', async () => {
    const elsewhere = await hostileService((_, __, res) => json(res, '{"status":"ok"}'));
    const service = await hostileService((_, __, res) => res.writeHead(307, { location: `${elsewhere.url}/x` }).end());
    const url = await proxy(service.url, 'redirect-secret', { fetch: (input, init) => fetch(input, init) });
    const answer = await send(`${url}/smartid/login.json`, 'POST', LOGIN);
    assert.equal(answer.json.proxy_error, 'upstream-redirect');
    assert.equal(elsewhere.seen.length, 0);
  });
});

describe("proxy boundaries: only the operation's own fields go up", () => {
  it('drops browser-sent tokens in any spelling, nested ones and unknown fields', async () => {
    const service = await hostileService((_, __, res) => json(res, '{"status":"ok","token":"t","control_code":"1"}'));
    const url = await proxy(service.url, 'the-real-token');
    await send(`${url}/smartid/sign.json`, 'POST', {
      ...LOGIN,
      type: 'pdf',
      access_token: 'from-browser',
      ACCESS_TOKEN: 'x',
      accessToken: 'x',
      'access-token': 'x',
      'access_token ': 'x',
      token: 'repeated-url-param',
      pdf: { files: [{ name: 'a.pdf', content: 'QUJD', access_token: 'nested' }], access_token: 'nested' },
      extra: { deep: [1, 2, 3] },
    });
    const sent = JSON.parse(service.seen[0]!.body) as Record<string, unknown>;
    assert.deepEqual(sent, {
      code: '40504040001',
      country: 'EE',
      type: 'pdf',
      pdf: { files: [{ name: 'a.pdf', content: 'QUJD' }] },
      access_token: 'the-real-token',
    });
  });

  it('refuses a known field of the wrong type with 400 naming it, and forwards nothing', async () => {
    const service = await hostileService((_, __, res) => json(res, '{"status":"ok"}'));
    const url = await proxy(service.url, 'tok-secret', { operations: 'all', authorize: () => true });
    const cases: [string, object, string][] = [
      ['/smartid/login.json', { code: 1, country: 'EE' }, 'code'],
      ['/smartid/login.json', { code: '1', country: 'EE', peps: 'yes' }, 'peps'],
      ['/mobile/sign.json', { type: 'pdf', pdf: { files: [{ name: ['a'], content: 'x' }] } }, 'pdf.files.0.name'],
      ['/mobile/sign.json', { type: 'pdf', pdf: { files: 'x' } }, 'pdf.files'],
      ['/api/document/upload.json', { access: 'private', file: null, signers: [] }, 'file'],
      ['/api/document/generate-temporary-signing-link.json', { document_id: 'd', callback_url: 'https://x', expire_after: 1.5 }, 'expire_after'],
      ['/api/document/generate-temporary-signing-link.json', { document_id: 'd', callback_url: 'https://x', signers: [null] }, 'signers.0'],
    ];
    for (const [path, body, field] of cases) {
      const answer = await send(`${url}${path}`, 'POST', body);
      assert.equal(answer.status, 400, path);
      assert.equal(answer.json.proxy_error, 'invalid-field');
      assert.equal(answer.json.field, field);
    }
    assert.equal(service.seen.length, 0);
  });

  it('refuses a body nested 50,000 deep with 400, not as an unreachable service', async () => {
    const service = await hostileService((_, __, res) => json(res, '{"status":"ok"}'));
    const url = await proxy(service.url, 'tok-secret');
    // a signing start, which may carry megabytes (a login's body is limited to a few kilobytes)
    const deep = `{"code":"40504040001","country":"EE","message":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    const answer = await send(`${url}/smartid/sign.json`, 'POST', deep, true);
    assert.equal(answer.status, 400);
    assert.equal(service.seen.length, 0);
    const unknownDeep = `{"code":"40504040001","country":"EE","x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    assert.equal((await send(`${url}/smartid/sign.json`, 'POST', unknownDeep, true)).json.status, 'ok');
  });
});

describe('proxy boundaries: limits that hold', () => {
  it('stops reading after 413 and closes the connection (no gigabytes read into a refused request)', async () => {
    const service = await hostileService((_, __, res) => json(res, '{"status":"ok"}'));
    const url = new URL(await proxy(service.url, 'tok-secret', { bodyLimit: 64 * 1024 }));
    // a client that streams without end and without a length
    const result = await new Promise<{ status: number; sent: number }>((resolve) => {
      let sent = 0;
      let status = 0;
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/smartid/login.json',
        headers: { 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.resume();
      });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 2 * 1024 ** 3) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
      };
      req.on('close', () => resolve({ status, sent }));
      req.on('error', () => undefined);
      pump();
    });
    assert.equal(result.status, 413);
    assert.ok(result.sent < 64 * 1024 * 1024, `the client could push ${result.sent} bytes`);
    assert.equal(service.seen.length, 0);
  });

  it('answers 408 to a body dripped slower than its deadline and frees the connection', async () => {
    const service = await hostileService((_, __, res) => json(res, '{"status":"ok"}'));
    const url = new URL(await proxy(service.url, 'tok-secret', { bodyTimeoutMs: 300, bodyTimeoutPerMbMs: 0 }));
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.write('POST /smartid/login.json HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{');
      const drip = setInterval(() => {
        if (socket.destroyed) clearInterval(drip);
        else socket.write(' ');
      }, 100);
      socket.on('close', () => clearInterval(drip));
    });
    assert.match(text, /^HTTP\/1\.1 408/);
    assert.match(text, /"proxy_error":"body-timeout"/);
    assert.equal(service.seen.length, 0);
  });

  it("caps the service's answer", async () => {
    const service = await hostileService((_, __, res) => json(res, `{"status":"ok","x":"${'a'.repeat(3 * 1024 * 1024)}"}`));
    const url = await proxy(service.url, 'tok-secret', { answerLimit: 1024 * 1024 });
    const answer = await send(`${url}/smartid/login.json`, 'POST', LOGIN);
    assert.equal(answer.status, 502);
    assert.equal(answer.json.proxy_error, 'upstream-too-large');
    const streamed = await hostileService((_, __, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"ok","x":"');
      res.end(`${'a'.repeat(3 * 1024 * 1024)}"}`);
    });
    const url2 = await proxy(streamed.url, 'tok-secret', { answerLimit: 1024 * 1024 });
    assert.equal((await send(`${url2}/smartid/login.json`, 'POST', LOGIN)).json.proxy_error, 'upstream-too-large');
  });

  it('answers 502 to a service status outside 200–599 in both handlers', async () => {
    const service = await hostileService((_, __, res) => {
      res.statusCode = 600;
      res.setHeader('content-type', 'application/json');
      res.end('{"status":"ok"}');
    });
    const url = await proxy(service.url, 'tok-secret');
    assert.equal((await send(`${url}/smartid/login.json`, 'POST', LOGIN)).status, 502);
    const handler = createFetchProxyHandler({ baseUrl: service.url, accessToken: 'tok-secret', rateLimit: false });
    const response = await recordResponse(
      'fetch handler, status 600',
      await handler(
        new Request('http://127.0.0.1/smartid/login.json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(LOGIN) }),
      ),
    );
    assert.equal(response.status, 502);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { createProxyHandler, type ProxyEvent } from '../../src/proxy/index.js';
import { ACCESS_TOKEN, CookieJar, eventsDelivered, send, serverPool, stackOfThisFile, until } from './harness.js';

// Where a host goes wrong, the proxy says so: mounted at the site's root, and an access token the
// service refuses. Over HTTP, the sandbox behind.

const stack = stackOfThisFile();
const serve = serverPool();

describe("proxy: mounted at the site's root without prefix", () => {
  it("leaves the site's own pages to its routes, forwards the service's operations, and says once how to scope it", async () => {
    const logs: string[] = [];
    const levels: string[] = [];
    const app = express();
    app.use(
      createProxyHandler({
        baseUrl: stack().sandboxUrl,
        accessToken: ACCESS_TOKEN,
        rateLimit: false,
        log: (line, { level }) => {
          logs.push(line);
          levels.push(level);
        },
      }),
    );
    app.get('/login', (_req, res) => void res.type('html').send("<h1>the host's login page</h1>"));
    app.post('/account/save', (_req, res) => void res.json({ saved: true }));
    const url = await serve(app);
    const page = await fetch(`${url}/login`);
    assert.deepEqual([page.status, await page.text()], [200, "<h1>the host's login page</h1>"]);
    assert.deepEqual((await send(`${url}/account/save`, 'POST', {}, false, { jar: new CookieJar() })).json, { saved: true });
    // an operation in disguise is no operation: it reaches the host's routes (none here), never the service
    const disguised = await send(`${url}/smartid/login.json?access_token=x`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: new CookieJar() });
    assert.equal(disguised.status, 404);
    assert.equal(disguised.json.proxy_error, undefined, "Express's own 404, not the proxy's");
    const start = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: new CookieJar() });
    assert.equal(start.json.status, 'ok');
    assert.equal(logs.length, 1, logs.join('\n'));
    assert.match(logs[0]!, /mounted at the site's root without `prefix`.*prefix: '\/esign'/);
    assert.deepEqual(levels, ['warn'], 'a setup to fix, said as a warning by the proxy itself');
  });

  it('still refuses what is no operation when the framework mounted it on a path of its own, or when it has a prefix', async () => {
    const logs: string[] = [];
    const app = express();
    app.use('/esign', createProxyHandler({ baseUrl: stack().sandboxUrl, accessToken: ACCESS_TOKEN, log: (line) => logs.push(line) }));
    app.use(createProxyHandler({ baseUrl: stack().sandboxUrl, accessToken: ACCESS_TOKEN, prefix: '/prefixed', log: (line) => logs.push(line) }));
    app.use((_req, res) => void res.status(404).json({ fellThrough: true }));
    const url = await serve(app);
    for (const path of ['/esign/login', '/prefixed/login']) {
      const refused = await send(`${url}${path}`, 'GET', undefined, false, { jar: new CookieJar() });
      assert.deepEqual([refused.status, refused.json.proxy_error], [404, 'operation-not-allowed'], path);
    }
    assert.deepEqual((await send(`${url}/elsewhere`, 'GET', undefined, false, { jar: new CookieJar() })).json, { fellThrough: true });
    assert.deepEqual(logs, []);
  });
});

describe('proxy: an access token the service refuses', () => {
  it("says so in the log at most once a minute, never the token, and as a failed event each time; the browser gets the service's answer", async () => {
    const logs: string[] = [];
    const events: ProxyEvent[] = [];
    const wrongToken = 'not-the-token-0123';
    const url = await serve(
      createProxyHandler({
        baseUrl: stack().sandboxUrl,
        accessToken: wrongToken,
        rateLimit: false,
        log: (line) => logs.push(line),
        onEvent: (event) => void events.push(event),
      }),
    );
    for (let i = 0; i < 3; i++) {
      const answer = await send(`${url}/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: new CookieJar() });
      assert.equal(answer.json.error_code, 40003);
    }
    assert.equal(logs.length, 1, logs.join('\n'));
    assert.match(logs[0]!, /the service refused the access token \(40003\) for smartIdLogin: check accessToken/);
    assert.ok(!logs[0]!.includes(wrongToken));
    await eventsDelivered();
    assert.deepEqual(
      events.map((e) => [e.type, e.type === 'failed' ? e.failure : null]),
      [
        ['failed', 'access-token'],
        ['failed', 'access-token'],
        ['failed', 'access-token'],
      ],
    );
  });
});

describe('proxy: a session removed while a poll of it was on its way', () => {
  it('stays removed: the poll that ends after the removal does not bind it again', async () => {
    const TOKEN = '0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01';
    const statusPolls: (() => void)[] = [];
    let forwardedPolls = 0;
    const service = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        const answer = (body: object) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.method === 'DELETE') return answer({ status: 'ok' });
        if (!req.url!.includes('/status/')) return answer({ status: 'ok', token: TOKEN, control_code: '1234' });
        forwardedPolls++;
        // held until the test lets it go: by then the session is gone at the service
        statusPolls.push(() => answer({ status: 'error', message: 'Session for given token was not found', error_code: 40402 }));
      });
    });
    const url = await serve(createProxyHandler({ baseUrl: service, accessToken: ACCESS_TOKEN, rateLimit: false, minPollIntervalMs: 0 }));
    const jar = new CookieJar();
    assert.equal((await send(`${url}/mobile/login.json`, 'POST', { phone: '+37060000666', code: '50001018865' }, false, { jar })).json.token, TOKEN);
    const onItsWay = send(`${url}/mobile/status/${TOKEN}.json`, 'POST', {}, false, { jar });
    await until(() => statusPolls.length > 0, 'the poll at the service');
    assert.equal((await send(`${url}/api/mobile/session/${TOKEN}`, 'DELETE', {}, false, { jar })).json.status, 'ok');
    statusPolls.shift()!();
    assert.equal((await onItsWay).json.error_code, 40402);
    const after = await send(`${url}/mobile/status/${TOKEN}.json`, 'POST', {}, false, { jar });
    assert.deepEqual([after.status, after.json.error_code], [404, 40402]);
    assert.equal(forwardedPolls, 1, 'the poll after the removal was not forwarded: the proxy knows the session no more');
  });
});

describe('proxy: setup mistakes said once in the log, where a new host looks', () => {
  it('express-session with saveUninitialized: false: a poll comes with another session than its start; refused, and the log says why, once', async () => {
    const session = (await import('express-session')).default;
    const logs: string[] = [];
    const app = express();
    app.use(session({ secret: 'mistake-secret', resave: false, saveUninitialized: false }));
    app.use(
      createProxyHandler({
        baseUrl: stack().sandboxUrl,
        accessToken: ACCESS_TOKEN,
        prefix: '/esign',
        rateLimit: false,
        visitor: (request) => (request.raw as express.Request).sessionID,
        log: (line) => logs.push(line),
      }),
    );
    const url = await serve(app);
    const jar = new CookieJar();
    const start = await send(`${url}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar });
    assert.equal(start.json.status, 'ok');
    assert.equal(jar.header(url), '', 'an unsaved session sets no cookie: every request is another session');
    for (let i = 0; i < 3; i++) {
      const poll = await send(`${url}/esign/smartid/status/${start.json.token}.json`, 'POST', {}, false, { jar });
      assert.deepEqual([poll.status, poll.json.error_code], [404, 40402]);
    }
    assert.equal(logs.length, 1, logs.join('\n'));
    assert.match(logs[0]!, /a poll came from another visitor than the start of its session.*saveUninitialized: true/);
  });

  it("a body parser in front: the log says once where to mount the proxy and what limit to set; a parser's own 413 page is what the browser then gets for a large file", async () => {
    const logs: string[] = [];
    const app = express();
    app.use(express.json());
    app.use(createProxyHandler({ baseUrl: stack().sandboxUrl, accessToken: ACCESS_TOKEN, prefix: '/esign', rateLimit: false, log: (line) => logs.push(line) }));
    // the parser's refusal as Express's own error page, without its stack on the test's output
    app.use(
      (error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
        void res
          .status(error.status ?? 500)
          .type('html')
          .send('<pre>PayloadTooLargeError: request entity too large</pre>'),
    );
    const url = await serve(app);
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await send(`${url}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, { jar: new CookieJar() })).json.status,
        'ok',
      );
    assert.equal(logs.length, 1, logs.join('\n'));
    assert.match(logs[0]!, /a body parsed by another middleware reached the proxy.*mount the proxy before your body parsers.*limit: '80mb'/);
    // a 475 KB file: refused by express.json()'s 100 kb default, as an HTML page the proxy never sees
    const large = await fetch(`${url}/esign/smartid/sign.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '40504040001', country: 'EE', type: 'pdf', pdf: { files: [{ name: 'a.pdf', content: 'A'.repeat(475 * 1024) }] } }),
    });
    assert.equal(large.status, 413);
    assert.match(large.headers.get('content-type') ?? '', /html/);
  });

  it('behind a reverse proxy that does not pass the Host on: the first cross-site refusal is said with the Origin and the Host it saw, once', async () => {
    const logs: string[] = [];
    const events: ProxyEvent[] = [];
    const proxyUrl = await serve(
      createProxyHandler({
        baseUrl: stack().sandboxUrl,
        accessToken: ACCESS_TOKEN,
        prefix: '/esign',
        rateLimit: false,
        log: (line) => logs.push(line),
        onEvent: (event) => void events.push(event),
      }),
    );
    // what nginx sends without proxy_set_header Host: its upstream's address as the Host, the page's origin as it was
    for (let i = 0; i < 2; i++) {
      const refused = await send(`${proxyUrl}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' }, false, {
        jar: new CookieJar(),
        headers: { origin: 'https://bank.example', 'sec-fetch-site': 'same-origin' },
      });
      assert.deepEqual([refused.status, refused.json.proxy_error], [403, 'cross-site']);
    }
    await eventsDelivered();
    assert.equal(events.filter((e) => e.type === 'refused' && e.reason === 'cross-site').length, 2, 'each refusal is an event');
    assert.equal(logs.length, 1, logs.join('\n'));
    assert.match(
      logs[0]!,
      /refused a request as cross-site: Origin "https:\/\/bank\.example", Sec-Fetch-Site "same-origin", Host "127\.0\.0\.1:\d+", over http/,
    );
    assert.match(logs[0]!, /proxy_set_header Host \$http_host/);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { createProxyHandler, type ProxyEvent, type ProxyOptions, type ProxyResult, type ProxySigner } from '../../src/proxy/index.js';
import { newestSignerCodes } from '../../src/proxy/signed-by.js';
import { ACCESS_TOKEN, CookieJar, eventsDelivered, b64, send, serverPool, stackOfThisFile } from './harness.js';

// `signer`: signing only as the person signed in to the host's site, at the start and, in depth,
// at the end (the signed file's newest signature must name them). Over HTTP, the sandbox behind.

const stack = stackOfThisFile();
const serve = serverPool();

const PDF = { files: [{ name: 'contract.pdf', content: b64(samplePdf('Signer')) }] };
const ASICE = { files: [{ name: 'terms.txt', content: b64('The terms.') }] };
const HASH = 'ab'.repeat(32);
const SMART = { code: '30303039914', country: 'LT' };
const MOBILE = { phone: '+37060000666', code: '50001018865' };
const SMART_OTHER = { code: '40504040001', country: 'LT' };
const MOBILE_OTHER = { phone: '+37268000769', code: '60001017869' };

/** A service in front of the sandbox that counts what reaches it and may change what a start asks for. */
async function serviceSide(change?: (path: string, body: Record<string, unknown>) => Record<string, unknown>) {
  const reached: string[] = [];
  const url = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      reached.push(req.url ?? '');
      let body = Buffer.concat(chunks).toString('utf8');
      if (change && body) body = JSON.stringify(change(req.url ?? '', JSON.parse(body) as Record<string, unknown>));
      const answer = await fetch(`${stack().sandboxUrl}${req.url}`, { method: req.method!, headers: { 'content-type': 'application/json' }, ...(body ? { body } : {}) });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  return { url, reached };
}

async function gatedProxy(baseUrl: string, who: ProxySigner | null | (() => never), options: Partial<ProxyOptions> = {}) {
  const events: ProxyEvent[] = [];
  const results: ProxyResult[] = [];
  const logs: string[] = [];
  const url = await serve(
    createProxyHandler({
      baseUrl,
      accessToken: ACCESS_TOKEN,
      minPollIntervalMs: 0,
      signer: typeof who === 'function' ? who : () => who,
      onEvent: (event) => void events.push(event),
      onResult: (result) => void results.push(result),
      log: (line) => logs.push(line),
      ...options,
    }) as RequestListener,
  );
  return { url, events, results, logs };
}


const SIGNING_STARTS: [path: string, body: Record<string, unknown>][] = [
  ['/smartid/sign.json', { ...SMART_OTHER, type: 'pdf', pdf: PDF }],
  ['/mobile/sign.json', { ...MOBILE_OTHER, type: 'pdf', pdf: PDF }],
  ['/smartid/sign/hash.json', { ...SMART_OTHER, hash: HASH, hash_algorithm: 'SHA256' }],
  ['/mobile/sign/hash.json', { ...MOBILE_OTHER, hash: HASH, hash_algorithm: 'SHA256', country: 'EE' }],
];

describe('proxy: signer, at the start', () => {
  it('refuses every signing start for another person (both channels, files and hashes, both locales) before anything is counted, stored or forwarded', async () => {
    const service = await serviceSide();
    const proxy = await gatedProxy(service.url, { code: SMART.code }, { rateLimit: { perVisitor: { limit: 1, windowMs: 600_000 }, perPerson: { limit: 1, windowMs: 600_000 } } });
    const jar = new CookieJar();
    for (const locale of ['', '/en']) {
      for (const [path, body] of SIGNING_STARTS) {
        const refused = await send(`${proxy.url}${locale}${path}`, 'POST', body, false, { jar });
        assert.equal(refused.status, 403, `${locale}${path}`);
        assert.deepEqual(refused.json, { status: 'error', message: 'Signing is allowed only as the person signed in to this site', proxy_error: 'signer-mismatch' });
      }
    }
    assert.deepEqual(service.reached, [], 'nothing forwarded');
    await eventsDelivered();
    assert.equal(proxy.events.length, 8);
    assert.ok(proxy.events.every((e) => e.type === 'refused' && e.reason === 'signer-mismatch' && e.status === 403));
    // nothing counted: the one start the visitor and the person are allowed still goes through
    const own = await send(`${proxy.url}/smartid/sign.json`, 'POST', { ...SMART, type: 'pdf', pdf: PDF }, false, { jar });
    assert.equal(own.json.status, 'ok');
    assert.deepEqual(service.reached, ['/smartid/sign.json']);
  });

  it('compares codes in their canonical form, and a country or phone the host gives', async () => {
    const service = await serviceSide();
    const lv = await gatedProxy(service.url, { code: '050405-10009', country: 'LV' }, { rateLimit: false });
    const sign = (url: string, body: Record<string, unknown>, path = '/smartid/sign.json') => send(`${url}${path}`, 'POST', { type: 'pdf', pdf: PDF, ...body }, false, { jar: new CookieJar() });
    assert.equal((await sign(lv.url, { code: '05040510009', country: 'LV' })).json.status, 'ok', 'without its hyphen');
    assert.equal((await sign(lv.url, { code: '050405-10009', country: 'LV' })).json.status, 'ok', 'with it');
    assert.equal((await sign(lv.url, { code: '050405-10009', country: 'EE' })).json.proxy_error, 'signer-mismatch', 'another country');
    const phone = await gatedProxy(service.url, { code: MOBILE.code, phone: '+370 600 00666' }, { rateLimit: false });
    assert.equal((await sign(phone.url, MOBILE, '/mobile/sign.json')).json.status, 'ok', 'the phone in another spelling');
    assert.equal((await sign(phone.url, { ...MOBILE, phone: '+37060000667' }, '/mobile/sign.json')).json.proxy_error, 'signer-mismatch', 'another phone');
    assert.deepEqual(service.reached, ['/smartid/sign.json', '/smartid/sign.json', '/mobile/sign.json']);
  });

  it('refuses signing when nobody is signed in (signer-unknown), answers 500 when the hook fails, and leaves logins alone', async () => {
    const service = await serviceSide();
    const nobody = await gatedProxy(service.url, null);
    const unknown = await send(`${nobody.url}/mobile/sign/hash.json`, 'POST', { ...MOBILE, hash: HASH, hash_algorithm: 'SHA256', country: 'LT' }, false, { jar: new CookieJar() });
    assert.equal(unknown.status, 403);
    assert.deepEqual(unknown.json, { status: 'error', message: 'Nobody is signed in to this site to sign as', proxy_error: 'signer-unknown' });
    // a login is how a person signs in: never gated
    assert.equal((await send(`${nobody.url}/smartid/login.json`, 'POST', SMART_OTHER, false, { jar: new CookieJar() })).json.status, 'ok');
    const failing = await gatedProxy(service.url, () => {
      throw new Error('session store down');
    });
    const failed = await send(`${failing.url}/smartid/sign.json`, 'POST', { ...SMART, type: 'pdf', pdf: PDF }, false, { jar: new CookieJar() });
    assert.deepEqual([failed.status, failed.json.proxy_error], [500, 'host-error']);
    const odd = await gatedProxy(service.url, { code: '' } as ProxySigner);
    assert.equal((await send(`${odd.url}/smartid/sign.json`, 'POST', { ...SMART, type: 'pdf', pdf: PDF }, false, { jar: new CookieJar() })).status, 500);
    assert.deepEqual(service.reached, ['/smartid/login.json']);
    await eventsDelivered();
    assert.deepEqual(nobody.events.map((e) => [e.type, e.type === 'refused' ? e.reason : null]), [['refused', 'signer-unknown'], ['started', null]]);
    assert.deepEqual(failing.events.map((e) => [e.type, e.type === 'host-error' ? e.hook : null]), [['host-error', 'signer']]);
    assert.match(failing.logs.join('\n'), /signer\(\) failed for smartIdSign: Error: session store down/);
    assert.match(odd.logs.join('\n'), /signer\(\) returned neither null nor \{ code \}/);
  });
});

describe('proxy: signer, in depth at the end', () => {
  async function signAndFinish(proxyUrl: string, path: string, statusPath: string, body: Record<string, unknown>) {
    const jar = new CookieJar();
    const start = await send(`${proxyUrl}${path}`, 'POST', body, false, { jar });
    assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
    stack().clock.advance(60_000);
    return send(`${proxyUrl}${statusPath}${start.json.token}.json`, 'POST', {}, false, { jar });
  }

  it('hands over a signing whose file the signed-in person signed (a PDF, an ASiC-E container)', async () => {
    const service = await serviceSide();
    const proxy = await gatedProxy(service.url, { code: SMART.code, country: 'LT' }, { rateLimit: false });
    const pdf = await signAndFinish(proxy.url, '/smartid/sign.json', '/smartid/sign/status/', { ...SMART, type: 'pdf', pdf: PDF });
    assert.equal(pdf.json.status, 'ok');
    const mobile = await gatedProxy(service.url, { code: MOBILE.code }, { rateLimit: false });
    const asice = await signAndFinish(mobile.url, '/en/mobile/sign.json', '/en/mobile/sign/status/', { ...MOBILE, type: 'asice', asice: ASICE });
    assert.equal(asice.json.status, 'ok');
    assert.deepEqual([...proxy.results, ...mobile.results].map((r) => [r.kind, r.operation]), [['sign', 'smartIdSignStatus'], ['sign', 'mobileSignStatus']]);
  });

  it('hands neither onResult nor the browser a signing the service made as another person, and says so in the log and the events', async () => {
    // a hostile or mistaken service side: it signs as someone else than the start asked for
    const service = await serviceSide((path, body) => (/\/smartid\/sign\.json$/.test(path) ? { ...body, ...SMART_OTHER } : /\/mobile\/sign\.json$/.test(path) ? { ...body, ...MOBILE_OTHER } : body));
    const smart = await gatedProxy(service.url, { code: SMART.code }, { rateLimit: false });
    const pdf = await signAndFinish(smart.url, '/smartid/sign.json', '/smartid/sign/status/', { ...SMART, type: 'pdf', pdf: PDF });
    assert.equal(pdf.status, 403);
    assert.equal(pdf.json.proxy_error, 'signer-mismatch');
    assert.equal(pdf.json.file, undefined, 'no file reaches the browser');
    const mobile = await gatedProxy(service.url, { code: MOBILE.code }, { rateLimit: false });
    const asice = await signAndFinish(mobile.url, '/mobile/sign.json', '/mobile/sign/status/', { ...MOBILE, type: 'asice', asice: ASICE });
    assert.deepEqual([asice.status, asice.json.proxy_error], [403, 'signer-mismatch']);
    assert.deepEqual([...smart.results, ...mobile.results], [], 'onResult never ran');
    assert.match(smart.logs.join('\n'), /a finished smartIdSignStatus was signed by another person than the signer: not handed over/);
    assert.match(mobile.logs.join('\n'), /a finished mobileSignStatus was signed by another person than the signer/);
    await eventsDelivered();
    for (const events of [smart.events, mobile.events]) {
      assert.deepEqual(events.map((e) => [e.type, e.type === 'refused' ? e.reason : null]), [['started', null], ['refused', 'signer-mismatch']]);
    }
  });

  it('reads the newest signature of a file signed twice, by two people', async () => {
    const direct = (path: string, body: Record<string, unknown>) => send(`${stack().sandboxUrl}${path}`, 'POST', { ...body, access_token: ACCESS_TOKEN }, false, { jar: null });
    async function signed(body: Record<string, unknown>): Promise<string> {
      const start = await direct('/smartid/sign.json', body);
      stack().clock.advance(60_000);
      const done = await direct(`/smartid/sign/status/${start.json.token}.json`, {});
      return done.json.file.content as string;
    }
    const once = await signed({ ...SMART, type: 'pdf', pdf: PDF });
    assert.deepEqual(newestSignerCodes(Buffer.from(once, 'base64')), [SMART.code]);
    const twice = await signed({ ...SMART_OTHER, type: 'pdf', pdf: { files: [{ name: 'contract.pdf', content: once }] } });
    assert.deepEqual(newestSignerCodes(Buffer.from(twice, 'base64')), [SMART_OTHER.code]);
    const container = await signed({ code: '050405-10009', country: 'LV', type: 'asice', asice: ASICE });
    assert.deepEqual(newestSignerCodes(Buffer.from(container, 'base64')), ['05040510009']);
    const again = await signed({ ...SMART, type: 'asice', asice: { files: [{ name: 'terms_signed.asice', content: container }] } });
    assert.deepEqual(newestSignerCodes(Buffer.from(again, 'base64')), [SMART.code]);
    assert.equal(newestSignerCodes(Buffer.from('not a signed file')), null);
  });
});

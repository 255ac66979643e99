import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { createProxyHandler, type ProxyEvent, type ProxyOptions, type ProxyResult, type ProxySigner } from '../../src/proxy/index.js';
import { addedSignature, uploadPrint } from '../../src/proxy/signed-by.js';
import { ACCESS_TOKEN, CookieJar, eventsDelivered, b64, send, serverPool, stackOfThisFile } from './harness.js';

// `signer`: signing only as the person signed in to the host's site, a country and a code, at the
// start and, in depth, at the end (the one signature the service added must name them). Over HTTP,
// the sandbox behind.

const stack = stackOfThisFile();
const serve = serverPool();

const PDF = { files: [{ name: 'contract.pdf', content: b64(samplePdf('Signer')) }] };
const ASICE = { files: [{ name: 'terms.txt', content: b64('The terms.') }] };
const HASH = 'ab'.repeat(32);
const SMART = { code: '30303039914', country: 'LT' } as const;
const MOBILE = { phone: '+37060000666', code: '50001018865' };
const MOBILE_SIGNER = { ...MOBILE, country: 'LT' } as const;
const SMART_OTHER = { code: '40504040001', country: 'LT' } as const;
const MOBILE_OTHER = { phone: '+37268000769', code: '60001017869' };
/** The sandbox's OK person exists in Estonia and in Lithuania: two people with the same digits. */
const ESTONIAN = { code: '40504040001', country: 'EE' } as const;

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
      const answer = await fetch(`${stack().sandboxUrl}${req.url}`, {
        method: req.method!,
        headers: { 'content-type': 'application/json' },
        ...(body ? { body } : {}),
      });
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
    }),
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
    const proxy = await gatedProxy(service.url, SMART, {
      rateLimit: { perVisitor: { limit: 1, windowMs: 600_000 }, perPerson: { limit: 1, windowMs: 600_000 } },
    });
    const jar = new CookieJar();
    for (const locale of ['', '/en']) {
      for (const [path, body] of SIGNING_STARTS) {
        const refused = await send(`${proxy.url}${locale}${path}`, 'POST', body, false, { jar });
        assert.equal(refused.status, 403, `${locale}${path}`);
        assert.deepEqual(refused.json, {
          status: 'error',
          message: 'Signing is allowed only as the person signed in to this site',
          proxy_error: 'signer-mismatch',
        });
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
    const sign = (url: string, body: Record<string, unknown>, path = '/smartid/sign.json') =>
      send(`${url}${path}`, 'POST', { type: 'pdf', pdf: PDF, ...body }, false, { jar: new CookieJar() });
    assert.equal((await sign(lv.url, { code: '05040510009', country: 'LV' })).json.status, 'ok', 'without its hyphen');
    assert.equal((await sign(lv.url, { code: '050405-10009', country: 'LV' })).json.status, 'ok', 'with it');
    assert.equal((await sign(lv.url, { code: '050405-10009', country: 'EE' })).json.proxy_error, 'signer-mismatch', 'another country');
    const phone = await gatedProxy(service.url, { ...MOBILE_SIGNER, phone: '+370 600 00666' }, { rateLimit: false });
    assert.equal((await sign(phone.url, MOBILE, '/mobile/sign.json')).json.status, 'ok', 'the phone in another spelling');
    assert.equal((await sign(phone.url, { ...MOBILE, phone: '+37060000667' }, '/mobile/sign.json')).json.proxy_error, 'signer-mismatch', 'another phone');
    assert.deepEqual(service.reached, ['/smartid/sign.json', '/smartid/sign.json', '/mobile/sign.json']);
  });

  it('a person is a country and a code: the same digits in another country, or a Mobile-ID phone of another country, are refused unforwarded', async () => {
    const service = await serviceSide();
    const proxy = await gatedProxy(service.url, ESTONIAN, { rateLimit: false });
    const jar = new CookieJar();
    const refusals: [string, Record<string, unknown>][] = [
      ['/smartid/sign.json', { ...ESTONIAN, country: 'LT', type: 'pdf', pdf: PDF }],
      ['/smartid/sign/hash.json', { ...ESTONIAN, country: 'LT', hash: HASH, hash_algorithm: 'SHA256' }],
      // Mobile-ID's file signing names its country by the phone alone
      ['/mobile/sign.json', { code: ESTONIAN.code, phone: '+37060000666', type: 'pdf', pdf: PDF }],
      // a hash start whose country field and phone disagree names nobody
      ['/mobile/sign/hash.json', { code: ESTONIAN.code, phone: '+37060000666', country: 'EE', hash: HASH, hash_algorithm: 'SHA256' }],
      ['/mobile/sign/hash.json', { code: ESTONIAN.code, phone: '+37268000769', country: 'LT', hash: HASH, hash_algorithm: 'SHA256' }],
    ];
    for (const [path, body] of refusals) {
      const refused = await send(`${proxy.url}${path}`, 'POST', body, false, { jar });
      assert.deepEqual([refused.status, refused.json.proxy_error], [403, 'signer-mismatch'], `${path} ${JSON.stringify(body).slice(0, 80)}`);
    }
    assert.deepEqual(service.reached, [], 'nothing forwarded');
    const own = await send(`${proxy.url}/smartid/sign.json`, 'POST', { ...ESTONIAN, type: 'pdf', pdf: PDF }, false, { jar });
    assert.equal(own.json.status, 'ok');
    const ownMobile = await send(
      `${proxy.url}/mobile/sign/hash.json`,
      'POST',
      { code: ESTONIAN.code, phone: '+37268000769', country: 'EE', hash: HASH, hash_algorithm: 'SHA256' },
      false,
      { jar },
    );
    assert.equal(ownMobile.json.status, 'ok');
    assert.deepEqual(service.reached, ['/smartid/sign.json', '/mobile/sign/hash.json']);
    await eventsDelivered();
    assert.deepEqual(
      proxy.events.map((e) => (e.type === 'refused' ? e.reason : e.type)),
      [...refusals.map(() => 'signer-mismatch'), 'started', 'started'],
    );
  });

  it('a signer() without a country is a configuration error said in the log, never a comparison of digits alone', async () => {
    const service = await serviceSide();
    const proxy = await gatedProxy(service.url, { code: ESTONIAN.code } as ProxySigner);
    const answer = await send(`${proxy.url}/smartid/sign.json`, 'POST', { ...ESTONIAN, type: 'pdf', pdf: PDF }, false, { jar: new CookieJar() });
    assert.deepEqual([answer.status, answer.json.proxy_error], [500, 'host-error']);
    assert.deepEqual(service.reached, []);
    assert.match(proxy.logs.join('\n'), /signer\(\) returned a person without a country \(LT, LV or EE\)/);
    await eventsDelivered();
    assert.deepEqual(
      proxy.events.map((e) => [e.type, e.type === 'host-error' ? e.hook : null]),
      [['host-error', 'signer']],
    );
  });

  it('refuses signing when nobody is signed in (signer-unknown), answers 500 when the hook fails, and leaves logins alone', async () => {
    const service = await serviceSide();
    const nobody = await gatedProxy(service.url, null);
    const unknown = await send(`${nobody.url}/mobile/sign/hash.json`, 'POST', { ...MOBILE, hash: HASH, hash_algorithm: 'SHA256', country: 'LT' }, false, {
      jar: new CookieJar(),
    });
    assert.equal(unknown.status, 403);
    assert.deepEqual(unknown.json, { status: 'error', message: 'Nobody is signed in to this site to sign as', proxy_error: 'signer-unknown' });
    // a login is how a person signs in: never gated
    assert.equal((await send(`${nobody.url}/smartid/login.json`, 'POST', SMART_OTHER, false, { jar: new CookieJar() })).json.status, 'ok');
    const failing = await gatedProxy(service.url, () => {
      throw new Error('session store down');
    });
    const failed = await send(`${failing.url}/smartid/sign.json`, 'POST', { ...SMART, type: 'pdf', pdf: PDF }, false, { jar: new CookieJar() });
    assert.deepEqual([failed.status, failed.json.proxy_error], [500, 'host-error']);
    const odd = await gatedProxy(service.url, { code: '', country: 'LT' });
    assert.equal((await send(`${odd.url}/smartid/sign.json`, 'POST', { ...SMART, type: 'pdf', pdf: PDF }, false, { jar: new CookieJar() })).status, 500);
    assert.deepEqual(service.reached, ['/smartid/login.json']);
    await eventsDelivered();
    assert.deepEqual(
      nobody.events.map((e) => [e.type, e.type === 'refused' ? e.reason : null]),
      [
        ['refused', 'signer-unknown'],
        ['started', null],
      ],
    );
    assert.deepEqual(
      failing.events.map((e) => [e.type, e.type === 'host-error' ? e.hook : null]),
      [['host-error', 'signer']],
    );
    assert.match(failing.logs.join('\n'), /signer\(\) failed for smartIdSign: Error: session store down/);
    assert.match(odd.logs.join('\n'), /signer\(\) returned a person without a code/);
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
    const proxy = await gatedProxy(service.url, SMART, { rateLimit: false });
    const pdf = await signAndFinish(proxy.url, '/smartid/sign.json', '/smartid/sign/status/', { ...SMART, type: 'pdf', pdf: PDF });
    assert.equal(pdf.json.status, 'ok');
    const mobile = await gatedProxy(service.url, MOBILE_SIGNER, { rateLimit: false });
    const asice = await signAndFinish(mobile.url, '/en/mobile/sign.json', '/en/mobile/sign/status/', { ...MOBILE, type: 'asice', asice: ASICE });
    assert.equal(asice.json.status, 'ok');
    assert.deepEqual(
      [...proxy.results, ...mobile.results].map((r) => [r.kind, r.operation]),
      [
        ['sign', 'smartIdSignStatus'],
        ['sign', 'mobileSignStatus'],
      ],
    );
  });

  it('hands neither onResult nor the browser a signing the service made as another person, and says so in the log and the events', async () => {
    // a hostile or mistaken service side: it signs as someone else than the start asked for
    const service = await serviceSide((path, body) =>
      /\/smartid\/sign\.json$/.test(path) ? { ...body, ...SMART_OTHER } : /\/mobile\/sign\.json$/.test(path) ? { ...body, ...MOBILE_OTHER } : body,
    );
    const smart = await gatedProxy(service.url, SMART, { rateLimit: false });
    const pdf = await signAndFinish(smart.url, '/smartid/sign.json', '/smartid/sign/status/', { ...SMART, type: 'pdf', pdf: PDF });
    assert.equal(pdf.status, 403);
    assert.equal(pdf.json.proxy_error, 'signer-mismatch');
    assert.equal(pdf.json.file, undefined, 'no file reaches the browser');
    const mobile = await gatedProxy(service.url, MOBILE_SIGNER, { rateLimit: false });
    const asice = await signAndFinish(mobile.url, '/mobile/sign.json', '/mobile/sign/status/', { ...MOBILE, type: 'asice', asice: ASICE });
    assert.deepEqual([asice.status, asice.json.proxy_error], [403, 'signer-mismatch']);
    assert.deepEqual([...smart.results, ...mobile.results], [], 'onResult never ran');
    assert.match(smart.logs.join('\n'), /a finished smartIdSignStatus was signed by another person than the signer: not handed over/);
    assert.match(mobile.logs.join('\n'), /a finished mobileSignStatus was signed by another person than the signer/);
    await eventsDelivered();
    for (const events of [smart.events, mobile.events]) {
      assert.deepEqual(
        events.map((e) => [e.type, e.type === 'refused' ? e.reason : null]),
        [
          ['started', null],
          ['refused', 'signer-mismatch'],
        ],
      );
    }
  });

  it("refuses a signing the service made for the same digits in another country: the certificate's country counts", async () => {
    // a service side that signs as the Lithuanian person with the Estonian person's digits
    const service = await serviceSide((path, body) => (/\/smartid\/sign\.json$/.test(path) ? { ...body, country: 'LT' } : body));
    const proxy = await gatedProxy(service.url, ESTONIAN, { rateLimit: false });
    const signed = await signAndFinish(proxy.url, '/smartid/sign.json', '/smartid/sign/status/', { ...ESTONIAN, type: 'pdf', pdf: PDF });
    assert.deepEqual([signed.status, signed.json.proxy_error, signed.json.file], [403, 'signer-mismatch', undefined]);
    assert.deepEqual(proxy.results, []);
    assert.match(proxy.logs.join('\n'), /a finished smartIdSignStatus was signed by another person than the signer: not handed over/);
  });

  it('reads only the signature added in this session: a planted high-numbered entry decides nothing, either way', async () => {
    const signerOf = (person: { code: string; country: string }) =>
      serviceSide((path, body) => (/\/smartid\/sign\.json$/.test(path) ? { ...body, ...person } : body));
    // a container the signed-in person signed once, its signature renamed to signatures9.xml
    const own = await directlySigned({ ...SMART, type: 'asice', asice: ASICE });
    const planted = renamed(own, 'META-INF/signatures0.xml', 'META-INF/signatures9.xml');
    const upload = (content: Buffer) => ({ type: 'asice', asice: { files: [{ name: 'terms.asice', content: content.toString('base64') }] } });
    // the service signs as someone else: the planted entry must not pass for the new signature
    const hostile = await signerOf(SMART_OTHER);
    const gated = await gatedProxy(hostile.url, SMART, { rateLimit: false });
    const fooled = await signAndFinish(gated.url, '/smartid/sign.json', '/smartid/sign/status/', { ...SMART, ...upload(planted) });
    assert.deepEqual([fooled.status, fooled.json.proxy_error], [403, 'signer-mismatch']);
    // an honest upload that holds somebody else's signatures9.xml: the person's own signing is theirs
    const theirs = renamed(await directlySigned({ ...SMART_OTHER, type: 'asice', asice: ASICE }), 'META-INF/signatures0.xml', 'META-INF/signatures9.xml');
    const honest = await gatedProxy((await serviceSide()).url, SMART, { rateLimit: false });
    const signed = await signAndFinish(honest.url, '/smartid/sign.json', '/smartid/sign/status/', { ...SMART, ...upload(theirs) });
    assert.equal(signed.json.status, 'ok', JSON.stringify(signed.json).slice(0, 200));
    assert.deepEqual([gated.results.length, honest.results.length], [0, 1]);
  });

  it('refuses a PDF the service signed that does not begin with the uploaded one (another document signed)', async () => {
    const swapped = await serviceSide((path, body) =>
      /\/smartid\/sign\.json$/.test(path) ? { ...body, pdf: { files: [{ name: 'other.pdf', content: b64(samplePdf('Another document')) }] } } : body,
    );
    const proxy = await gatedProxy(swapped.url, SMART, { rateLimit: false });
    const signed = await signAndFinish(proxy.url, '/smartid/sign.json', '/smartid/sign/status/', { ...SMART, type: 'pdf', pdf: PDF });
    assert.deepEqual([signed.status, signed.json.proxy_error], [403, 'signer-mismatch']);
    assert.match(proxy.logs.join('\n'), /a finished smartIdSignStatus is not handed over: the signed file does not begin with the uploaded file/);
  });

  it('names the person of the one signature added: to a PDF signed twice, to a container, and nothing for an earlier entry changed', async () => {
    const pdfUpload = Buffer.from(PDF.files[0]!.content, 'base64');
    const once = await directlySigned({ ...SMART, type: 'pdf', pdf: PDF });
    assert.deepEqual(addedSignature(uploadPrint('pdf', [{ name: 'a.pdf', content: pdfUpload }])!, once), { persons: [{ country: 'LT', code: SMART.code }] });
    const twice = await directlySigned({ ...ESTONIAN, type: 'pdf', pdf: { files: [{ name: 'contract.pdf', content: once.toString('base64') }] } });
    assert.deepEqual(addedSignature(uploadPrint('pdf', [{ name: 'a.pdf', content: once }])!, twice), { persons: [{ country: 'EE', code: ESTONIAN.code }] });
    assert.deepEqual(addedSignature(uploadPrint('pdf', [{ name: 'a.pdf', content: pdfUpload }])!, twice), { problem: 'has more than one new signature' });
    const container = await directlySigned({ code: '050405-10009', country: 'LV', type: 'asice', asice: ASICE });
    const loose = uploadPrint(
      'container',
      ASICE.files.map((f) => ({ name: f.name, content: Buffer.from(f.content, 'base64') })),
    )!;
    assert.deepEqual(addedSignature(loose, container), { persons: [{ country: 'LV', code: '05040510009' }] });
    const again = await directlySigned({ ...SMART, type: 'asice', asice: { files: [{ name: 'terms_signed.asice', content: container.toString('base64') }] } });
    const before = uploadPrint('container', [{ name: 'terms_signed.asice', content: container }])!;
    assert.deepEqual(Object.keys(before.type === 'container' ? before.entries : {}), ['META-INF/signatures0.xml']);
    assert.deepEqual(addedSignature(before, again), { persons: [{ country: 'LT', code: SMART.code }] });
    // the earlier signature changed on the way: nobody is named
    const changed = { type: 'container' as const, entries: { 'META-INF/signatures0.xml': 'not-its-digest' } };
    assert.deepEqual(addedSignature(changed, again), { problem: 'changed or dropped a signature it already had' });
    assert.deepEqual(addedSignature(before, container), { problem: 'has no new signature' });
    assert.deepEqual(addedSignature(before, Buffer.from('not a signed file')), { problem: 'changed or dropped a signature it already had' });
  });
});

/** A file the sandbox signed when asked directly (no proxy): its bytes. */
async function directlySigned(body: Record<string, unknown>): Promise<Buffer> {
  const direct = (path: string, sent: Record<string, unknown>) =>
    send(`${stack().sandboxUrl}${path}`, 'POST', { ...sent, access_token: ACCESS_TOKEN }, false, { jar: null });
  const start = await direct('/smartid/sign.json', body);
  assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
  stack().clock.advance(60_000);
  const done = await direct(`/smartid/sign/status/${start.json.token}.json`, {});
  return Buffer.from(done.json.file.content as string, 'base64');
}

/** A ZIP with one entry renamed to a name of the same length (the local header and the central directory). */
function renamed(zip: Buffer, from: string, to: string): Buffer {
  assert.equal(from.length, to.length);
  const text = zip.toString('latin1');
  assert.equal(text.split(from).length, 3, 'the name once in its local header, once in the central directory');
  return Buffer.from(text.split(from).join(to), 'latin1');
}

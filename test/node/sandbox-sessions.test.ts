import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createHash, createPublicKey, verify } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { PERSONAS } from 'esign-sandbox';
import { mobileIdControlCode, smartIdControlCode } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { ACCESS_TOKEN, b64, send, startStack, type Stack } from './harness.js';

let stack: Stack;
before(async () => {
  stack = await startStack({ answerAfterMs: 3000, slowAnswerAfterMs: 60_000 });
});
after(() => stack.close());

// the service's own behaviour, asked directly with the access token: the proxy in front refuses some
// of these inputs itself (their shapes), and answers quick polls without asking (its poll floor)
const post = (path: string, body: object = {}) => send(`${stack.sandboxUrl}${path}`, 'POST', { access_token: ACCESS_TOKEN, ...body });
const sandboxPost = (path: string, body: object) => send(`${stack.sandboxUrl}${path}`, 'POST', body);

function certificateOf(value: string): X509Certificate {
  const inner = Buffer.from(value, 'base64').toString('utf8');
  assert.match(inner, /^MII/);
  return new X509Certificate(Buffer.from(inner, 'base64'));
}

async function finish(kind: string, channel: 'mobile' | 'smartid', token: string, locale = '') {
  const path =
    kind === 'login'
      ? `${locale}/${channel}/status/${token}.json`
      : kind === 'sign'
        ? `${locale}/${channel}/sign/status/${token}.json`
        : channel === 'mobile'
          ? `${locale}/mobile/sign-hash/status/${token}.json`
          : `${locale}/smartid/sign/hash/status/${token}.json`;
  const waiting = await post(path);
  assert.deepEqual(waiting.json, { status: 'waiting' });
  stack.clock.advance(3000);
  return post(path);
}

describe('sandbox: access token', () => {
  it('answers 40003 to a wrong token, in both locales', async () => {
    const lt = await sandboxPost('/smartid/login.json', { access_token: 'wrong', code: '40504040001', country: 'EE' });
    assert.equal(lt.json.error_code, 40003);
    assert.equal(lt.json.message, 'Neteisingas prieigos raktas');
    const en = await sandboxPost('/en/smartid/login.json', { code: '40504040001', country: 'EE' });
    assert.equal(en.json.error_code, 40003);
    assert.equal(en.json.message, 'Access token is invalid');
  });
  it('answers document operations with status and message only', async () => {
    const answer = await sandboxPost('/api/document/00000000-0000-0000-0000-000000000000/signers.json', { access_token: 'x' });
    assert.equal(answer.json.status, 'error');
    assert.equal(answer.json.error_code, undefined);
  });
});

describe('sandbox: mobile identities', () => {
  for (const persona of PERSONAS.filter((p) => p.channel === 'mobile' && !p.slow)) {
    it(`${persona.phone} ${persona.code} ends in ${persona.outcome} (login)`, async () => {
      const start = await post('/en/mobile/login.json', { phone: persona.phone, code: persona.code, peps: true, sanctions: true });
      assert.equal(start.json.status, 'ok');
      assert.match(start.json.control_code, /^\d{4}$/);
      assert.match(start.json.token, /^[0-9a-f-]{36}$/);
      const result = await finish('login', 'mobile', start.json.token, '/en');
      if (persona.outcome === 'ok') {
        assert.equal(start.json.certificate.subject.serial_number, `PNO${persona.countries[0]}-${persona.code}`);
        assert.equal(result.json.status, 'ok');
        assert.equal(result.json.name, persona.givenName);
        assert.equal(result.json.surname, persona.surname);
        assert.equal(result.json.code, persona.code);
        assert.equal(result.json.country, persona.countries[0]);
        const cert = certificateOf(result.json.certificate.value);
        assert.match(cert.subject, new RegExp(`serialNumber=PNO${persona.countries[0]}-${persona.code}`));
        assert.match(cert.issuer, /SANDBOX TEST issuing CA/);
        assert.equal(result.json.peps_data.length, persona.screening === 'pep' ? 1 : 0);
        assert.equal(result.json.sanctions_data.length, persona.screening === 'sanctions' ? 1 : 0);
      } else {
        assert.equal(result.json.status, 'error');
        assert.equal(result.json.error_code, persona.outcome);
        assert.ok(result.json.message.length > 0);
      }
    });
  }
  it('gives a well-formed pair not in the table 40401 at the status poll', async () => {
    const start = await post('/mobile/login.json', { phone: '+37060000000', code: '50001018865' });
    assert.equal(start.json.status, 'ok');
    const result = await finish('login', 'mobile', start.json.token);
    assert.equal(result.json.error_code, 40401);
  });
  it('keeps the slow identity waiting until about a minute has passed', async () => {
    const start = await post('/mobile/login.json', { phone: '+37060000607', code: '39001010607' });
    stack.clock.advance(30_000);
    assert.equal((await post(`/mobile/status/${start.json.token}.json`)).json.status, 'waiting');
    stack.clock.advance(30_000);
    assert.equal((await post(`/mobile/status/${start.json.token}.json`)).json.status, 'ok');
  });
  it('sends screening data only when asked', async () => {
    const start = await post('/mobile/login.json', { phone: '+37060000708', code: '39001010708' });
    const result = await finish('login', 'mobile', start.json.token);
    assert.deepEqual(result.json.peps_data, []);
  });
});

describe('sandbox: smart identities', () => {
  for (const persona of PERSONAS.filter((p) => p.channel === 'smartid' && !p.slow)) {
    for (const country of persona.countries) {
      it(`${persona.code} ${country} ends in ${persona.outcome} (login) and ${persona.signOutcome ?? persona.outcome} (sign)`, async () => {
        const start = await post('/smartid/login.json', { code: persona.code, country });
        assert.equal(start.json.status, 'ok');
        assert.equal(start.json.certificate, undefined);
        const login = await finish('login', 'smartid', start.json.token);
        if (persona.outcome === 'ok') {
          assert.equal(login.json.status, 'ok');
          assert.equal(login.json.certificate.subject.serial_number, `PNO${country}-${persona.code}`);
        } else assert.equal(login.json.error_code, persona.outcome);
        const sign = await post('/smartid/sign.json', {
          type: 'pdf',
          code: persona.code,
          country,
          pdf: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] },
        });
        const signed = await finish('sign', 'smartid', sign.json.token);
        const expected = persona.signOutcome ?? persona.outcome;
        if (expected === 'ok') assert.equal(signed.json.status, 'ok');
        else assert.equal(signed.json.error_code, expected);
      });
    }
  }
  it('refuses an unknown well-formed code with 40401 at the start', async () => {
    const answer = await post('/smartid/login.json', { code: '39001010002'.slice(0, 10) + '0', country: 'LT' });
    assert.equal(answer.json.status, 'error');
    assert.ok([40401, 40005].includes(answer.json.error_code));
    const known = await post('/smartid/login.json', { code: '50001018865', country: 'LT' });
    assert.equal(known.json.error_code, 40401);
  });
});

describe('sandbox: input checks', () => {
  const mobileLogin = { phone: '+37060000666', code: '50001018865' };
  const cases: [string, string, object, number, string?][] = [
    ['phone format', '/mobile/login.json', { ...mobileLogin, phone: '860000666' }, 40004],
    ['phone country', '/mobile/login.json', { ...mobileLogin, phone: '+37160000666' }, 40004],
    ['personal code check digit', '/mobile/login.json', { ...mobileLogin, code: '50001018866' }, 40005],
    ['LV code birth date', '/smartid/login.json', { code: '320000-1000', country: 'LV' }, 40005],
    ['message_format', '/mobile/login.json', { ...mobileLogin, message_format: 'UTF-8' }, 40001, 'message_format'],
    ['GSM-7 message over 40', '/mobile/login.json', { ...mobileLogin, message: 'x'.repeat(41) }, 40001, 'message'],
    ['UCS-2 message over 20', '/mobile/login.json', { ...mobileLogin, message: 'ž'.repeat(21), message_format: 'UCS-2' }, 40001, 'message'],
    ['non-GSM-7 text as GSM-7', '/mobile/login.json', { ...mobileLogin, message: 'Ačiū' }, 40001, 'message'],
    ['country', '/smartid/login.json', { code: '40504040001', country: 'FI' }, 40001, 'country'],
    ['type', '/smartid/sign.json', { code: '40504040001', country: 'EE', type: 'docx' }, 40001, 'type'],
    [
      'signature_position',
      '/smartid/sign.json',
      { code: '40504040001', country: 'EE', type: 'pdf', signature_position: 'middle', pdf: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] } },
      40001,
      'signature_position',
    ],
    [
      'signature_page',
      '/smartid/sign.json',
      { code: '40504040001', country: 'EE', type: 'pdf', signature_page: 'page_2', pdf: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] } },
      40001,
      'signature_page',
    ],
    [
      'certificate_level',
      '/smartid/sign.json',
      { code: '40504040001', country: 'EE', type: 'pdf', certificate_level: 'ADVANCED', pdf: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] } },
      40001,
      'certificate_level',
    ],
    ['missing file object', '/smartid/sign.json', { code: '40504040001', country: 'EE', type: 'pdf' }, 40001, 'pdf'],
    [
      'corrupted pdf',
      '/smartid/sign.json',
      { code: '40504040001', country: 'EE', type: 'pdf', pdf: { files: [{ name: 'a.pdf', content: b64('hello') }] } },
      40022,
    ],
    [
      'hash_algorithm',
      '/smartid/sign/hash.json',
      { code: '40504040001', country: 'EE', hash: 'ab'.repeat(32), hash_algorithm: 'MD5' },
      40001,
      'hash_algorithm',
    ],
    ['hash length', '/smartid/sign/hash.json', { code: '40504040001', country: 'EE', hash: 'ab'.repeat(32), hash_algorithm: 'SHA512' }, 40001, 'hash'],
    ['hash country LV', '/smartid/sign/hash.json', { code: '050405-10009', country: 'LV', hash: 'ab'.repeat(32), hash_algorithm: 'SHA256' }, 40001, 'country'],
    [
      'smart hash message not ASCII',
      '/smartid/sign/hash.json',
      { code: '40504040001', country: 'EE', hash: 'ab'.repeat(32), hash_algorithm: 'SHA256', message: 'Ačiū' },
      40001,
      'message',
    ],
  ];
  for (const [name, path, body, code, field] of cases) {
    it(`answers ${code} for ${name}, in both locales`, async () => {
      const lt = await post(path, body);
      const en = await post(`/en${path}`, body);
      for (const answer of [lt, en]) {
        assert.equal(answer.json.status, 'error');
        assert.equal(answer.json.error_code, code);
        if (field) assert.match(answer.json.message, new RegExp(`^Invalid parameter \\[${field}\\]: `));
      }
      if (code !== 40022) assert.notEqual(lt.json.message, en.json.message);
    });
  }
  it('accepts 40 GSM-7 characters and 20 UCS-2 ones', async () => {
    assert.equal((await post('/mobile/login.json', { ...mobileLogin, message: 'x'.repeat(40) })).json.status, 'ok');
    assert.equal((await post('/mobile/login.json', { ...mobileLogin, message: 'ž'.repeat(20), message_format: 'UCS-2' })).json.status, 'ok');
  });
});

describe('sandbox: session tokens', () => {
  it('answers 40402 for an unknown token, another channel, another operation and a removed session', async () => {
    assert.equal((await post('/mobile/status/00000000-0000-0000-0000-000000000000.json')).json.error_code, 40402);
    const start = await post('/mobile/login.json', { phone: '+37060000666', code: '50001018865' });
    const token = start.json.token;
    assert.equal((await post(`/smartid/status/${token}.json`)).json.error_code, 40402);
    assert.equal((await post(`/mobile/sign/status/${token}.json`)).json.error_code, 40402);
    assert.equal((await post(`/en/mobile/status/00000000-0000-0000-0000-000000000001.json`)).json.message, 'Session for given token was not found');
    const removed = await send(`${stack.sandboxUrl}/api/mobile/session/${token}`, 'DELETE', { access_token: ACCESS_TOKEN });
    assert.deepEqual(removed.json, { status: 'ok' });
    assert.equal((await post(`/mobile/status/${token}.json`)).json.error_code, 40402);
    const again = await send(`${stack.sandboxUrl}/en/api/mobile/session/${token}`, 'DELETE', { access_token: ACCESS_TOKEN });
    assert.deepEqual(again.json, { status: 'error', message: 'Request number is invalid' });
  });
  it('removes smart sessions too', async () => {
    const start = await post('/smartid/login.json', { code: '40504040001', country: 'LT' });
    assert.deepEqual((await send(`${stack.sandboxUrl}/api/smartid/session/${start.json.token}`, 'DELETE', { access_token: ACCESS_TOKEN })).json, {
      status: 'ok',
    });
    assert.equal((await post(`/smartid/status/${start.json.token}.json`)).json.error_code, 40402);
  });
});

describe('sandbox: hash signing', () => {
  const digest = createHash('sha256').update('esign-elements').digest();
  it('mobile: control code from the hash, a raw r||s ECDSA signature that verifies with the login certificate', async () => {
    const login = await post('/mobile/login.json', { phone: '+37200000766', code: '60001019906' });
    const cert = certificateOf(login.json.certificate.value);
    const start = await post('/mobile/sign/hash.json', {
      phone: '+37200000766',
      code: '60001019906',
      hash: digest.toString('hex'),
      hash_algorithm: 'SHA256',
      country: 'EE',
    });
    assert.equal(start.json.control_code, mobileIdControlCode(digest));
    const result = await finish('hash', 'mobile', start.json.token);
    const signature = Buffer.from(result.json.signature_value, 'base64');
    assert.equal(signature.length, 64);
    const jwk = cert.publicKey.export({ format: 'jwk' });
    const publicKey = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]);
    assert.ok(p256.verify(signature, digest, publicKey, { prehash: false }));
    const other = Buffer.from(digest);
    other[0] = (other[0] as number) ^ 1;
    assert.ok(!p256.verify(signature, other, publicKey, { prehash: false }));
  });
  it('smart: an RSA signature over SHA512 that verifies with the login certificate', async () => {
    const data = Buffer.from('document bytes');
    const hash = createHash('sha512').update(data).digest();
    const loginStart = await post('/smartid/login.json', { code: '40504040001', country: 'EE' });
    const login = await finish('login', 'smartid', loginStart.json.token);
    const cert = certificateOf(login.json.certificate.value);
    const start = await post('/en/smartid/sign/hash.json', {
      code: '40504040001',
      country: 'EE',
      hash: hash.toString('hex'),
      hash_algorithm: 'SHA512',
      message: 'Sign it',
    });
    assert.equal(start.json.control_code, smartIdControlCode(hash));
    const result = await finish('hash', 'smartid', start.json.token, '/en');
    assert.ok(
      verify('sha512', data, createPublicKey(cert.publicKey.export({ format: 'pem', type: 'spki' })), Buffer.from(result.json.signature_value, 'base64')),
    );
  });
});

describe('sandbox: file signing', () => {
  it('returns a pdf named _signed with a PAdES signature appended as an incremental update', async () => {
    const input = samplePdf('Contract', 2);
    const start = await post('/mobile/sign.json', {
      type: 'pdf',
      phone: '+37060000666',
      code: '50001018865',
      signature_position: 'left_top',
      signature_page: 'first_page',
      pdf: { files: [{ name: 'contract.pdf', content: b64(input) }] },
    });
    assert.equal(start.json.control_code, mobileIdControlCode(createHash('sha256').update(input).digest()));
    const result = await finish('sign', 'mobile', start.json.token);
    assert.equal(result.json.file.name, 'contract_signed.pdf');
    const out = Buffer.from(result.json.file.content, 'base64');
    assert.ok(out.subarray(0, input.length).equals(Buffer.from(input)), 'an incremental update keeps the original bytes');
    assert.ok(out.length > input.length);
    assert.match(out.toString('latin1'), /\/SubFilter \/ETSI\.CAdES\.detached/);
    assert.equal(result.json.file.digest, createHash('sha1').update(out).digest('hex'));
    assert.deepEqual(result.json.person, { name: 'ADAM', surname: 'TESTNUMBER' });
    assert.equal(typeof result.json.signature_id, 'string');
  });
  it('wraps loose files into an ASiC-E container with a XAdES signature', async () => {
    const start = await post('/smartid/sign.json', {
      type: 'asice',
      code: '30303039914',
      country: 'LT',
      asice: {
        files: [
          { name: 'a.pdf', content: b64(samplePdf()) },
          { name: 'b.txt', content: b64('hello') },
        ],
      },
    });
    const result = await finish('sign', 'smartid', start.json.token);
    assert.equal(result.json.file.name, 'a_signed.asice');
    const zip = Buffer.from(result.json.file.content, 'base64');
    assert.equal(zip.subarray(30, 38).toString(), 'mimetype');
    assert.ok(zip.includes(Buffer.from('application/vnd.etsi.asic-e+zip')));
    assert.ok(zip.includes(Buffer.from('META-INF/signatures0.xml')));
  });
});

describe('sandbox: large files', () => {
  it('signs a 12 MB file wrapped into a container', async () => {
    const big = Buffer.alloc(12 * 1024 * 1024, 7);
    const start = await post('/smartid/sign.json', {
      type: 'asice',
      code: '40504040001',
      country: 'EE',
      asice: { files: [{ name: 'big.bin', content: b64(big) }] },
    });
    assert.equal(start.json.status, 'ok');
    const result = await finish('sign', 'smartid', start.json.token);
    assert.equal(result.json.file.name, 'big_signed.asice');
  });
});

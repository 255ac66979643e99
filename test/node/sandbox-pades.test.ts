import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { b64, send, startStack, type Stack } from './harness.js';

let stack: Stack;
let other: Stack;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esign-pades-'));
  stack = await startStack({ answerAfterMs: 1000 });
  other = await startStack({ answerAfterMs: 1000 });
});
after(async () => {
  await stack.close();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Signs a PDF through the proxy and sandbox; returns the signed bytes. */
async function sign(on: Stack, pdf: Uint8Array, body: Record<string, unknown>): Promise<Buffer> {
  const channel = 'phone' in body ? 'mobile' : 'smartid';
  const start = await send(`${on.proxyUrl}/${channel}/sign.json`, 'POST', {
    type: 'pdf',
    pdf: { files: [{ name: 'contract.pdf', content: b64(pdf) }] },
    ...body,
  });
  assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
  on.clock.advance(1000);
  const done = await send(`${on.proxyUrl}/${channel}/sign/status/${start.json.token}.json`, 'POST', {});
  assert.equal(done.json.status, 'ok', JSON.stringify(done.json));
  return Buffer.from(done.json.file.content, 'base64');
}

async function validate(on: Stack, pdf: Uint8Array) {
  const up = await send(`${on.proxyUrl}/api/document/upload.json`, 'POST', {
    access: 'private',
    file: { filename: 'signed.pdf', content: b64(pdf) },
    signers: [],
  });
  const report = await send(`${on.proxyUrl}/api/v2/document/${up.json.document.uuid}/validation.json`, 'POST', {});
  return report.json.data.simpleReport as {
    signaturesCount: number;
    validSignaturesCount: number;
    jaxbModel: { signatureOrTimestamp: Record<string, unknown>[] };
  };
}

function pdfsig(pdf: Uint8Array): string {
  const file = join(dir, `check-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
}

/**
 * The CMS DER of a /Contents value without the zeros that pad it, by its own length: a signature
 * may itself end in zero bytes, which trimming trailing zeros would cut (one run in a few hundred).
 */
function withoutPadding(contents: Buffer): Buffer {
  const first = contents[1]!;
  if (first < 0x80) return contents.subarray(0, 2 + first);
  const size = first & 0x7f;
  const length = contents.subarray(2, 2 + size).reduce((total, byte) => total * 256 + byte, 0);
  return contents.subarray(0, 2 + size + length);
}

/** Checks every signature with `openssl cms -verify` against the sandbox's CAs. */
function opensslVerify(pdf: Buffer): boolean[] {
  const text = pdf.toString('latin1');
  const results: boolean[] = [];
  for (const found of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const [a, b, c, d] = found.slice(1).map(Number) as [number, number, number, number];
    const content = join(dir, 'content.bin');
    const signature = join(dir, 'signature.der');
    writeFileSync(content, Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]));
    writeFileSync(signature, withoutPadding(Buffer.from(text.slice(b + 1, c - 1), 'hex')));
    const run = spawnSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        signature,
        '-content',
        content,
        '-CAfile',
        join(dir, 'ca.pem'),
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { encoding: 'utf8' },
    );
    results.push(run.status === 0 && /Verification successful/.test(run.stderr));
  }
  return results;
}

describe('sandbox: PAdES signatures, checked with pdfsig and openssl', () => {
  before(async () => {
    const { root, issuing } = await stack.sandbox.pki.authorities;
    const pem = (der: Uint8Array) =>
      `-----BEGIN CERTIFICATE-----\n${Buffer.from(der)
        .toString('base64')
        .replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
    writeFileSync(join(dir, 'ca.pem'), pem(root.der) + pem(issuing.der));
  });

  it('a document signed twice (Mobile-ID ECDSA, visible; Smart-ID RSA, invisible) shows two valid signatures', async () => {
    const once = await sign(stack, samplePdf('Contract', 2), {
      phone: '+37200000766',
      code: '60001019906',
      signature_position: 'left_top',
      signature_page: 'first_page',
    });
    const twice = await sign(stack, once, { code: '40504040001', country: 'EE' });
    assert.ok(twice.subarray(0, once.length).equals(once), 'the second signature is an incremental update');
    const report = pdfsig(twice);
    assert.equal((report.match(/Signature is Valid/g) ?? []).length, 2, report);
    assert.match(report, /ETSI\.CAdES\.detached/);
    assert.deepEqual(opensslVerify(twice), [true, true]);
    const simple = await validate(stack, twice);
    assert.equal(simple.signaturesCount, 2);
    assert.equal(simple.validSignaturesCount, 2);
    assert.deepEqual(
      simple.jaxbModel.signatureOrTimestamp.map((s) => s['signedBy']),
      ["MARY ÄNN O'CONNEŽ-ŠUSLIK TESTNUMBER", 'OK TESTNUMBER'],
    );
  });

  it('a changed byte is caught by pdfsig, openssl and the sandbox (HASH_FAILURE)', async () => {
    const signed = await sign(stack, samplePdf('Contract'), { code: '30303039914', country: 'LT' });
    const changed = Buffer.from(signed);
    const at = changed.indexOf('Contract');
    changed[at] = 'K'.charCodeAt(0);
    assert.doesNotMatch(pdfsig(changed), /Signature is Valid/);
    assert.deepEqual(opensslVerify(changed), [false]);
    const simple = await validate(stack, changed);
    assert.equal(simple.validSignaturesCount, 0);
    assert.equal(simple.jaxbModel.signatureOrTimestamp[0]!['subIndication'], 'HASH_FAILURE');
  });

  it('a changed signature value is SIG_CRYPTO_FAILURE; another CA is NO_CERTIFICATE_CHAIN_FOUND', async () => {
    const signed = await sign(stack, samplePdf('Contract'), { code: '30303039914', country: 'LT' });
    const text = signed.toString('latin1');
    const [, , c] = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)/.exec(text)!.slice(1).map(Number);
    const hex = text.slice(0, c! - 1).replace(/(00)+$/, '');
    // the last bytes of the CMS are the signature value: change one of them
    const broken = Buffer.from(signed);
    const at = hex.length - 4;
    broken[at] = broken[at] === 0x61 ? 0x62 : 0x61;
    const crypto = await validate(stack, broken);
    assert.equal(crypto.jaxbModel.signatureOrTimestamp[0]!['subIndication'], 'SIG_CRYPTO_FAILURE');
    const foreign = await sign(other, samplePdf('Contract'), { code: '30303039914', country: 'LT' });
    const chain = await validate(stack, foreign);
    assert.equal(chain.jaxbModel.signatureOrTimestamp[0]!['indication'], 'INDETERMINATE');
    assert.equal(chain.jaxbModel.signatureOrTimestamp[0]!['subIndication'], 'NO_CERTIFICATE_CHAIN_FOUND');
  });

  it('signs a PDF whose pages sit in object streams', async () => {
    const plain = join(dir, 'plain.pdf');
    const packed = join(dir, 'packed.pdf');
    writeFileSync(plain, samplePdf('Packed', 3));
    execFileSync('qpdf', ['--object-streams=generate', plain, packed]);
    const input = readFileSync(packed);
    assert.match(input.toString('latin1'), /\/ObjStm/);
    const signed = await sign(stack, input, { code: '40504040001', country: 'LT', signature_position: 'right_bottom' });
    assert.match(pdfsig(signed), /Signature is Valid/);
    assert.equal((await validate(stack, signed)).validSignaturesCount, 1);
  });
});

describe('sandbox: the test PKI in a data directory', () => {
  it('keeps CAs and certificates across a restart, so earlier signatures still validate', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'esign-pki-'));
    try {
      const first = await startStack({ answerAfterMs: 1000, dataDir });
      const login = async (on: Stack) =>
        (await send(`${on.proxyUrl}/mobile/login.json`, 'POST', { phone: '+37060000666', code: '50001018865' })).json.certificate.value;
      const before = await login(first);
      const signed = await sign(first, samplePdf('Kept'), { phone: '+37060000666', code: '50001018865' });
      await first.close();
      const second = await startStack({ answerAfterMs: 1000, dataDir });
      try {
        assert.equal(await login(second), before);
        const simple = await validate(second, signed);
        assert.equal(simple.validSignaturesCount, 1, JSON.stringify(simple.jaxbModel?.signatureOrTimestamp ?? simple).slice(0, 600));
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

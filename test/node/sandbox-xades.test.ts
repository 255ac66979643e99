import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { b64, send, startStack, type Stack } from './harness.js';

let stack: Stack;
let dir: string;
let run = 0;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esign-xades-'));
  stack = await startStack({ answerAfterMs: 1000 });
  const { root, issuing } = await stack.sandbox.pki.authorities;
  const pem = (der: Uint8Array) =>
    `-----BEGIN CERTIFICATE-----\n${Buffer.from(der)
      .toString('base64')
      .replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
  writeFileSync(join(dir, 'root.pem'), pem(root.der));
  writeFileSync(join(dir, 'issuing.pem'), pem(issuing.der));
});
after(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sign(type: string, files: { name: string; bytes: Uint8Array }[], person: Record<string, string>): Promise<Buffer> {
  const channel = 'phone' in person ? 'mobile' : 'smartid';
  const start = await send(`${stack.proxyUrl}/${channel}/sign.json`, 'POST', {
    type,
    [type]: { files: files.map((f) => ({ name: f.name, content: b64(f.bytes) })) },
    ...person,
  });
  assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
  stack.clock.advance(1000);
  const done = await send(`${stack.proxyUrl}/${channel}/sign/status/${start.json.token}.json`, 'POST', {});
  assert.equal(done.json.status, 'ok', JSON.stringify(done.json));
  return Buffer.from(done.json.file.content, 'base64');
}

/** Extracts a container and lists it with `unzip -l` (names in order). */
function extract(container: Buffer): { root: string; names: string[] } {
  const root = join(dir, `c${run++}`);
  mkdirSync(root);
  writeFileSync(join(root, '..', `c${run}.zip`), container);
  const listing = spawnSync('unzip', ['-l', join(root, '..', `c${run}.zip`)], { encoding: 'utf8' }).stdout;
  spawnSync('unzip', ['-q', join(root, '..', `c${run}.zip`), '-d', root]);
  const names = listing
    .split('\n')
    .map((line) => /^\s*\d+\s+\S+\s+\S+\s+(.+)$/.exec(line)?.[1])
    .filter((name): name is string => Boolean(name) && name !== 'Name');
  return { root, names };
}

/** Verifies a signatures file with xmlsec1, run in the container's root so relative URIs resolve. */
function xmlsec(root: string, signaturePath: string): boolean {
  const result = spawnSync(
    'xmlsec1',
    [
      '--verify',
      '--trusted-pem',
      join(dir, 'root.pem'),
      '--untrusted-pem',
      join(dir, 'issuing.pem'),
      '--id-attr:Id',
      'http://uri.etsi.org/01903/v1.3.2#:SignedProperties',
      signaturePath,
    ],
    { encoding: 'utf8', cwd: root },
  );
  if (process.env['DEBUG_XMLSEC']) console.log(result.stdout + result.stderr);
  return result.status === 0 && /^OK/m.test(result.stdout + result.stderr);
}

async function validate(container: Buffer, filename: string) {
  const up = await send(`${stack.proxyUrl}/api/document/upload.json`, 'POST', { access: 'private', file: { filename, content: b64(container) }, signers: [] });
  const report = await send(`${stack.proxyUrl}/api/v2/document/${up.json.document.uuid}/validation.json`, 'POST', {});
  return report.json.data.simpleReport as {
    signaturesCount: number;
    validSignaturesCount: number;
    jaxbModel: { signatureOrTimestamp: Record<string, unknown>[] };
  };
}

describe('sandbox: XAdES in ASiC-E, BDOC and ADOC, checked with xmlsec1 and unzip', () => {
  const files = [
    { name: 'contract.pdf', bytes: samplePdf('Contract') },
    { name: 'annex 1.txt', bytes: new TextEncoder().encode('Annex: prices') },
  ];

  it('ASiC-E: the layout, a signature over every file, a second signature that keeps the first', async () => {
    const once = await sign('asice', files, { phone: '+37200000766', code: '60001019906' });
    const first = extract(once);
    assert.deepEqual(first.names, ['mimetype', 'contract.pdf', 'annex 1.txt', 'META-INF/manifest.xml', 'META-INF/signatures0.xml']);
    assert.equal(readFileSync(join(first.root, 'mimetype'), 'utf8'), 'application/vnd.etsi.asic-e+zip');
    assert.equal(once.readUInt16LE(8), 0, 'mimetype is stored uncompressed');
    const signature = readFileSync(join(first.root, 'META-INF/signatures0.xml'), 'utf8');
    assert.match(signature, /<asic:XAdESSignatures/);
    assert.match(signature, /URI="annex%201\.txt"/);
    assert.match(signature, /SigningCertificateV2/);
    assert.ok(xmlsec(first.root, 'META-INF/signatures0.xml'));

    const twice = await sign('asice', [{ name: 'contract_signed.asice', bytes: once }], { code: '40504040001', country: 'EE' });
    const second = extract(twice);
    assert.ok(second.names.includes('META-INF/signatures1.xml'));
    assert.ok(xmlsec(second.root, 'META-INF/signatures0.xml'));
    assert.ok(xmlsec(second.root, 'META-INF/signatures1.xml'));
    const simple = await validate(twice, 'contract_signed.asice');
    assert.equal(simple.signaturesCount, 2);
    assert.equal(simple.validSignaturesCount, 2);
    assert.deepEqual(
      simple.jaxbModel.signatureOrTimestamp.map((s) => s['signedBy']),
      ["MARY ÄNN O'CONNEŽ-ŠUSLIK TESTNUMBER", 'OK TESTNUMBER'],
    );
  });

  it('a changed byte in a signed file is caught by xmlsec1 and the sandbox (HASH_FAILURE)', async () => {
    const signed = await sign('bdoc', files, { code: '30303039914', country: 'LT' });
    const { root, names } = extract(signed);
    assert.equal(names[0], 'mimetype');
    writeFileSync(join(root, 'annex 1.txt'), 'Annex: other prices');
    assert.equal(xmlsec(root, 'META-INF/signatures0.xml'), false);
    const zip = spawnSync('zip', ['-q', '-r', '-X', join(dir, 'changed.bdoc'), 'mimetype', '.'], { cwd: root });
    assert.equal(zip.status, 0);
    const simple = await validate(readFileSync(join(dir, 'changed.bdoc')), 'changed.bdoc');
    assert.equal(simple.validSignaturesCount, 0);
    assert.equal(simple.jaxbModel.signatureOrTimestamp[0]!['subIndication'], 'HASH_FAILURE');
  });

  it('a changed signature value is SIG_CRYPTO_FAILURE; a container of another sandbox is NO_CERTIFICATE_CHAIN_FOUND', async () => {
    const signed = await sign('asice', files, { code: '30303039914', country: 'LT' });
    const { root } = extract(signed);
    const path = join(root, 'META-INF/signatures0.xml');
    const xml = readFileSync(path, 'utf8');
    const value = /<ds:SignatureValue>([^<]+)</.exec(xml)![1]!;
    const flipped = `${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    writeFileSync(path, xml.replace(value, flipped));
    assert.equal(xmlsec(root, 'META-INF/signatures0.xml'), false);
    assert.equal(spawnSync('zip', ['-q', '-r', '-X', join(dir, 'flipped.asice'), 'mimetype', '.'], { cwd: root }).status, 0);
    const crypto = await validate(readFileSync(join(dir, 'flipped.asice')), 'flipped.asice');
    assert.equal(crypto.jaxbModel.signatureOrTimestamp[0]!['subIndication'], 'SIG_CRYPTO_FAILURE');

    const other = await startStack({ answerAfterMs: 1000 });
    try {
      const start = await send(`${other.proxyUrl}/smartid/sign.json`, 'POST', {
        type: 'asice',
        code: '30303039914',
        country: 'LT',
        asice: { files: [{ name: 'a.txt', content: b64('a') }] },
      });
      other.clock.advance(1000);
      const foreign = await send(`${other.proxyUrl}/smartid/sign/status/${start.json.token}.json`, 'POST', {});
      const chain = await validate(Buffer.from(foreign.json.file.content, 'base64'), 'foreign.asice');
      assert.equal(chain.jaxbModel.signatureOrTimestamp[0]!['indication'], 'INDETERMINATE');
      assert.equal(chain.jaxbModel.signatureOrTimestamp[0]!['subIndication'], 'NO_CERTIFICATE_CHAIN_FOUND');
    } finally {
      await other.close();
    }
  });

  it('ADOC: mimetype, metadata, relations and a signature over the main document and metadata', async () => {
    const signed = await sign('adoc', files, { phone: '+37060000666', code: '50001018865' });
    const { root, names } = extract(signed);
    assert.equal(names[0], 'mimetype');
    assert.equal(readFileSync(join(root, 'mimetype'), 'utf8'), 'application/vnd.lt.archyvai.adoc-2008');
    for (const name of [
      'contract.pdf',
      'metadata/unsignableMetadata0.xml',
      'metadata/signableMetadata0.xml',
      'metadata/signableMetadata1.xml',
      'META-INF/relations.xml',
      'META-INF/manifest.xml',
      'META-INF/signatures/signatures0.xml',
    ]) {
      assert.ok(names.includes(name), `${name} is in the container`);
    }
    assert.match(readFileSync(join(root, 'metadata/unsignableMetadata0.xml'), 'utf8'), /<standardVersion>ADOC-V1\.0<\/standardVersion>/);
    assert.match(readFileSync(join(root, 'META-INF/relations.xml'), 'utf8'), /type="content\/main" full-path="contract\.pdf"/);
    assert.match(readFileSync(join(root, 'META-INF/manifest.xml'), 'utf8'), /#signatures-folder/);
    const signature = readFileSync(join(root, 'META-INF/signatures/signatures0.xml'), 'utf8');
    assert.match(signature, /<document-signatures xmlns="urn:oasis:names:tc:opendocument:xmlns:digitalsignature:1\.0"/);
    assert.ok(xmlsec(root, 'META-INF/signatures/signatures0.xml'));
    const simple = await validate(signed, 'contract_signed.adoc');
    assert.equal(simple.validSignaturesCount, 1);
  });
});

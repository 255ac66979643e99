import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { ACCESS_TOKEN, b64, send, startStack, type Stack } from './harness.js';
import { EsignClient, buildPath } from '../../src/client/index.js';

// The three document operations beyond the interface, through the proxy: the document's state as
// its signers sign, the stored file downloaded, and a file validated without being stored.

let stack: Stack;
before(async () => {
  stack = await startStack({ answerAfterMs: 1000 });
});
after(async () => {
  await stack.close();
});

const proxy = (path: string, method = 'POST', body: unknown = {}) => send(`${stack.proxyUrl}${path}`, method, method === 'GET' ? undefined : body);

/** Signs the stored document on an invitation page, as the invited person does. */
async function signOnInvitationPage(invitationUrl: string, code: string): Promise<void> {
  const page = new URL(invitationUrl).pathname;
  const document = Buffer.from(await (await fetch(`${stack.sandboxUrl}${page}/document`)).arrayBuffer());
  const start = await send(
    `${stack.sandboxUrl}${page}/esign/smartid/sign.json`,
    'POST',
    { type: 'pdf', code, country: 'EE', pdf: { files: [{ name: 'contract.pdf', content: b64(document) }] } },
    false,
    { jar: null },
  );
  assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
  stack.clock.advance(1000);
  const done = await send(`${stack.sandboxUrl}${page}/esign/smartid/sign/status/${start.json.token}.json`, 'POST', {}, false, { jar: null });
  assert.equal(done.json.status, 'ok');
}

async function download(uuid: string): Promise<{ status: number; type: string | null; disposition: string | null; bytes: Buffer }> {
  const response = await fetch(`${stack.proxyUrl}/api/document/${uuid}/download.json`);
  const bytes = Buffer.from(await response.arrayBuffer());
  assert.ok(!bytes.includes(ACCESS_TOKEN));
  assert.ok(!JSON.stringify([...response.headers]).includes(ACCESS_TOKEN));
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), bytes };
}

describe('document state, download and file validation through the proxy', () => {
  it('follows the signers (saved, signing, signed) and downloads the signed file, byte for byte', async () => {
    const upload = await proxy('/api/document/upload.json', 'POST', {
      access: 'private',
      file: { filename: 'Sutartis ž.pdf', content: b64(samplePdf('Two signers')) },
      signers: [
        { name: 'OK', surname: 'TESTNUMBER', email: 'ok@example.test' },
        { name: 'OK', surname: 'TESTNUMBER', email: 'second@example.test' },
      ],
    });
    const uuid = upload.json.document.uuid as string;
    const state = async () => (await proxy(`/api/document/${uuid}/check-status.json`, 'GET')).json;
    assert.deepEqual(await state(), { status: 'ok', data: { status: 'ok', document_status: 'saved' } });
    await signOnInvitationPage(upload.json.signers[0].invitationUrl, '40504040001');
    assert.equal((await state()).data.document_status, 'signing');
    await signOnInvitationPage(upload.json.signers[1].invitationUrl, '40504040001');
    assert.equal((await state()).data.document_status, 'signed');

    const file = await download(uuid);
    assert.equal(file.status, 200);
    assert.equal(file.type, 'application/pdf');
    // named as a signed file is named wherever it is offered (as esign-sign's download)
    assert.equal(file.disposition, `attachment; filename="Sutartis __signed.pdf"; filename*=UTF-8''${encodeURIComponent('Sutartis ž_signed.pdf')}`);
    const direct = Buffer.from(await (await fetch(`${stack.sandboxUrl}/api/document/${uuid}/download.json?access_token=${ACCESS_TOKEN}`)).arrayBuffer());
    assert.ok(file.bytes.equals(direct), 'the same bytes as the service holds');
    assert.equal((file.bytes.toString('latin1').match(/\/ByteRange/g) ?? []).length, 2, 'two signatures');

    // and a file validated without storing it: the signed one passes, a changed copy fails
    const valid = await proxy('/api/v2/document/validation.json', 'POST', { file: { filename: 'signed.pdf', content: b64(file.bytes) } });
    assert.equal(valid.json.data.simpleReport.validSignaturesCount, 2);
    const tampered = Buffer.from(file.bytes);
    const at = tampered.indexOf('Two signers');
    tampered[at] = 'X'.charCodeAt(0);
    const invalid = await proxy('/api/v2/document/validation.json', 'POST', { file: { filename: 'signed.pdf', content: b64(tampered) } });
    assert.equal(invalid.json.data.simpleReport.validSignaturesCount, 0);
    assert.equal(invalid.json.data.simpleReport.jaxbModel.signatureOrTimestamp[0].indication, 'TOTAL_FAILED');
  });

  it('answers a missing document as JSON, and refuses a query from the browser', async () => {
    const missing = '00000000-0000-4000-8000-00000000dead';
    const status = await proxy(`/api/document/${missing}/check-status.json`, 'GET');
    assert.deepEqual(status.json, { status: 'error', message: 'Document was not found' });
    const file = await fetch(`${stack.proxyUrl}/api/document/${missing}/download.json`);
    assert.equal(file.headers.get('content-type'), 'application/json');
    assert.equal(((await file.json()) as { message: string }).message, 'Document was not found');
    const withToken = await fetch(`${stack.proxyUrl}/api/document/${missing}/download.json?access_token=guess`);
    assert.equal(withToken.status, 404);
    assert.equal(((await withToken.json()) as { proxy_error: string }).proxy_error, 'operation-not-allowed');
  });

  it('answers the three the same under /en (as the official client calls them): the sandbox, the proxy and the client by its locale', async () => {
    const upload = await proxy('/api/document/upload.json', 'POST', {
      access: 'private',
      file: { filename: 'Locale.pdf', content: b64(samplePdf('Both locales')) },
      signers: [{ name: 'OK', surname: 'TESTNUMBER', email: 'ok@example.test' }],
    });
    const uuid = upload.json.document.uuid as string;
    await signOnInvitationPage(upload.json.signers[0].invitationUrl, '40504040001');

    for (const base of [stack.sandboxUrl, stack.proxyUrl]) {
      const query = base === stack.sandboxUrl ? `?access_token=${ACCESS_TOKEN}` : '';
      const lt = await (await fetch(`${base}/api/document/${uuid}/check-status.json${query}`)).json();
      const en = await (await fetch(`${base}/en/api/document/${uuid}/check-status.json${query}`)).json();
      assert.deepEqual(en, lt, base);
      assert.deepEqual(en, { status: 'ok', data: { status: 'ok', document_status: 'signed' } });
      const file = Buffer.from(await (await fetch(`${base}/api/document/${uuid}/download.json${query}`)).arrayBuffer());
      const fileEn = await fetch(`${base}/en/api/document/${uuid}/download.json${query}`);
      assert.equal(fileEn.headers.get('content-type'), 'application/pdf');
      assert.ok(Buffer.from(await fileEn.arrayBuffer()).equals(file), `the same bytes under /en (${base})`);
    }
    const file = Buffer.from(await (await fetch(`${stack.proxyUrl}/api/document/${uuid}/download.json`)).arrayBuffer());
    const body = { file: { filename: 'signed.pdf', content: b64(file) } };
    const validLt = await proxy('/api/v2/document/validation.json', 'POST', body);
    const validEn = await proxy('/en/api/v2/document/validation.json', 'POST', body);
    assert.equal(validEn.status, 200);
    assert.equal(validEn.json.data.simpleReport.validSignaturesCount, 1);
    assert.equal(validLt.json.data.simpleReport.validSignaturesCount, 1);

    // the client asks by its locale, and gets the same
    assert.equal(buildPath('checkDocumentStatus', { documentId: uuid }, 'en'), `/en/api/document/${uuid}/check-status.json`);
    assert.equal(buildPath('downloadDocument', { documentId: uuid }, 'en'), `/en/api/document/${uuid}/download.json`);
    assert.equal(buildPath('validateFile', {}, 'en'), '/en/api/v2/document/validation.json');
    assert.equal(buildPath('validateFile', {}, 'lt'), '/api/v2/document/validation.json');
    const asked: string[] = [];
    const client = new EsignClient({
      endpoint: stack.proxyUrl,
      lang: 'en',
      fetch: (input, init) => (asked.push(new URL(String(input)).pathname), fetch(input, init)),
    });
    const state = await client.checkDocumentStatus(uuid);
    assert.equal(state.data.document_status, 'signed');
    const downloaded = await client.downloadDocument(uuid);
    assert.ok(Buffer.from(await downloaded.arrayBuffer()).equals(file));
    const at = new URL(stack.proxyUrl).pathname.replace(/\/$/, '');
    assert.deepEqual(asked, [`${at}/en/api/document/${uuid}/check-status.json`, `${at}/en/api/document/${uuid}/download.json`]);
  });
});

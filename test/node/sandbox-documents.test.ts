import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { b64, getPage, send, startStack, type Stack } from './harness.js';

let stack: Stack;
let list: Stack;
let dataDir: string;
before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'esign-sandbox-test-'));
  stack = await startStack({ minuteMs: 60_000, dataDir });
  list = await startStack({ linkResponseForm: 'list' });
});
after(async () => {
  await stack.close();
  await list.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: object = {}, on = stack) => send(`${on.proxyUrl}${path}`, 'POST', body);
const signer = (name: string, extra: object = {}) => ({ name, surname: 'TESTNUMBER', email: `${name.toLowerCase()}@example.test`, ...extra });

async function upload(on = stack, filename = 'contract.pdf') {
  const answer = await post(
    '/api/document/upload.json',
    {
      access: 'private',
      file: { filename, content: b64(samplePdf('Contract')), callbackUrl: 'https://host.example/callback' },
      signers: [signer('ANNA'), signer('BEN', { noEmail: true, successUrl: 'https://host.example/done' })],
    },
    on,
  );
  assert.equal(answer.json.status, 'ok');
  return answer.json.document.uuid as string;
}

describe('sandbox: documents', () => {
  it('uploads with signers and invitation URLs that open a page', async () => {
    const answer = await post('/en/api/document/upload.json', {
      access: 'public',
      file: { filename: 'a.asice', content: b64('PK\u0003\u0004') },
      signers: [signer('ANNA'), signer('BEN', { noEmail: true })],
    });
    assert.equal(answer.json.status, 'ok');
    assert.match(answer.json.document.uuid, /^[0-9a-f-]{36}$/);
    assert.equal(answer.json.signers[0].name, 'ANNA');
    assert.match(answer.json.signers[0].invitationUrl, /^http:\/\/127\.0\.0\.1:\d+\/sign\//);
    assert.equal(answer.json.signers[1].invitationUrl, null);
    const page = await getPage(answer.json.signers[0].invitationUrl);
    assert.equal(page.status, 200);
    assert.match(page.text, /ANNA TESTNUMBER/);
  });
  it('refuses other file types with error_code 0 and the service wording', async () => {
    const answer = await post('/api/document/upload.json', { access: 'private', file: { filename: 'notes.docx', content: b64('x') }, signers: [] });
    assert.deepEqual(answer.json, { status: 'error', message: 'Invalid file type. Allowed file types: pdf, adoc, asice, bdoc', error_code: 0 });
  });
  it('checks access, signer fields and e-mail', async () => {
    const access = await post('/en/api/document/upload.json', { access: 'open', file: { filename: 'a.pdf', content: b64('x') }, signers: [] });
    assert.equal(access.json.message, 'Invalid parameter [access]: Access must be private or public');
    assert.equal(access.json.error_code, 40001);
    const email = await post('/en/api/document/upload.json', {
      access: 'private',
      file: { filename: 'a.pdf', content: b64('x') },
      signers: [signer('A', { email: 'nope' })],
    });
    assert.match(email.json.message, /^Invalid parameter \[signers\.0\.email\]/);
  });
  it('invites, lists, validates and removes; then the document is gone', async () => {
    const uuid = await upload();
    const invited = await post(`/api/document/${uuid}/invite-signer.json`, { signer: signer('CARL') });
    assert.equal(invited.json.status, 'ok');
    assert.equal(invited.json.message, 'Pakviesta pasirašyti');
    assert.equal(invited.json.signers.length, 1);
    assert.equal((await post(`/en/api/document/${uuid}/invite-signer.json`, { signer: signer('DAN') })).json.message, 'Invited to sign');
    const signers = await post(`/api/document/${uuid}/signers.json`);
    assert.deepEqual(
      signers.json.signers.map((s: { name: string }) => s.name),
      ['ANNA', 'BEN', 'CARL', 'DAN'],
    );
    assert.deepEqual(signers.json.signers[0], { name: 'ANNA', surname: 'TESTNUMBER', isSignatureValid: 'false', signStatus: 'pending', rejectionReason: '' });
    const report = await post(`/en/api/v2/document/${uuid}/validation.json`);
    assert.equal(report.json.status, 'ok');
    assert.equal(report.json.data.simpleReport.documentFilename, 'contract.pdf');
    assert.equal(report.json.data.simpleReport.signaturesCount, 0);
    assert.match(report.json.data.diagnosticData.ValidationDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const removed = await send(`${stack.proxyUrl}/en/api/document/${uuid}/remove.json`, 'DELETE', {});
    assert.deepEqual(removed.json, { status: 'ok', data: { status: 'ok', message: 'Document was successfully removed' } });
    for (const path of [`/api/document/${uuid}/signers.json`, `/api/v2/document/${uuid}/validation.json`, `/api/document/${uuid}/invite-signer.json`]) {
      const answer = await post(path, { signer: signer('X') });
      assert.deepEqual(answer.json, { status: 'error', message: 'Document was not found' });
    }
    const again = await send(`${stack.proxyUrl}/api/document/${uuid}/remove.json`, 'DELETE', {});
    assert.deepEqual(again.json, { status: 'error', message: 'Document was not found' });
  });
  it('validates a PDF the sandbox signed: one valid signature, by whom', async () => {
    const start = await post('/smartid/sign.json', {
      type: 'pdf',
      code: '40504040001',
      country: 'EE',
      pdf: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] },
    });
    stack.clock.advance(3000);
    const signed = await post(`/smartid/sign/status/${start.json.token}.json`);
    const up = await post('/api/document/upload.json', {
      access: 'private',
      file: { filename: signed.json.file.name, content: signed.json.file.content },
      signers: [],
    });
    const report = await post(`/api/v2/document/${up.json.document.uuid}/validation.json`);
    const simple = report.json.data.simpleReport;
    assert.equal(simple.signaturesCount, 1);
    assert.equal(simple.validSignaturesCount, 1);
    assert.equal(simple.jaxbModel.signatureOrTimestamp[0].signedBy, 'OK TESTNUMBER');
    assert.equal(simple.jaxbModel.signatureOrTimestamp[0].indication, 'TOTAL_PASSED');
    assert.equal(simple.jaxbModel.signatureOrTimestamp[0].signatureFormat, 'PAdES-BASELINE-B');
  });
  it('keeps documents in the data directory across a restart', async () => {
    const uuid = await upload();
    const again = await startStack({ dataDir });
    try {
      assert.equal((await post(`/api/document/${uuid}/signers.json`, {}, again)).json.status, 'ok');
    } finally {
      await again.close();
    }
  });
});

describe('sandbox: temporary signing links', () => {
  it('creates a link that works until it expires, and deletes the document after delete_document_after', async () => {
    const uuid = await upload();
    const answer = await post('/api/document/generate-temporary-signing-link.json', {
      document_id: uuid,
      callback_url: 'https://host.example/cb',
      expire_after: 10,
      delete_document_after: 20,
      language: 'en',
      signers: [{ name: 'EVA', surname: 'TESTNUMBER', signature_type: 'smartid', personal_code: '40504040001', email: 'eva@example.test' }],
    });
    assert.equal(answer.json.status, 'ok');
    assert.equal(answer.json.valid_until, Math.floor((stack.clock.time + 10 * 60_000) / 1000));
    assert.equal((await getPage(answer.json.temporary_signing_link)).status, 200);
    stack.clock.advance(10 * 60_000);
    assert.equal((await getPage(answer.json.temporary_signing_link)).status, 410);
    assert.equal((await post(`/api/document/${uuid}/signers.json`)).json.status, 'ok');
    stack.clock.advance(10 * 60_000);
    assert.deepEqual((await post(`/api/document/${uuid}/signers.json`)).json, { status: 'error', message: 'Document was not found' });
    assert.equal((await getPage(answer.json.temporary_signing_link)).status, 404);
  });
  it('defaults to 30 minutes and refuses delete_document_after below expire_after or a missing callback', async () => {
    const uuid = await upload();
    const answer = await post('/api/document/generate-temporary-signing-link.json', { document_id: uuid, callback_url: 'https://host.example/cb' });
    assert.equal(answer.json.valid_until, Math.floor((stack.clock.time + 30 * 60_000) / 1000));
    const early = await post('/api/document/generate-temporary-signing-link.json', {
      document_id: uuid,
      callback_url: 'https://h.example/',
      expire_after: 30,
      delete_document_after: 10,
    });
    assert.equal(early.json.status, 'error');
    assert.match(early.json.message, /delete_document_after/);
    assert.equal(early.json.error_code, undefined);
    const noCallback = await post('/api/document/generate-temporary-signing-link.json', { document_id: uuid });
    assert.match(noCallback.json.message, /callback_url/);
    const missing = await post('/api/document/generate-temporary-signing-link.json', {
      document_id: '00000000-0000-0000-0000-000000000000',
      callback_url: 'https://h.example/',
    });
    assert.deepEqual(missing.json, { status: 'error', message: 'Document was not found' });
  });
  it('answers in the list form when configured so', async () => {
    const uuid = await upload(list);
    const answer = await post('/api/document/generate-temporary-signing-link.json', { document_id: uuid, callback_url: 'https://h.example/' }, list);
    assert.equal(answer.json.document_id, uuid);
    assert.equal(answer.json.temporary_signing_links.length, 1);
    assert.match(answer.json.temporary_signing_links[0].temporary_signing_link, /\/link\//);
  });
  it('removes a temporary signer, and says when there is none', async () => {
    const uuid = await upload();
    await post('/api/document/generate-temporary-signing-link.json', {
      document_id: uuid,
      callback_url: 'https://h.example/',
      signers: [{ name: 'EVA', surname: 'TESTNUMBER', personal_code: '40504040001' }],
    });
    assert.equal((await post(`/api/document/${uuid}/signers.json`)).json.signers.length, 3);
    assert.deepEqual((await post(`/api/document/${uuid}/remove-temporary-signer.json`, { personal_code: '40504040001' })).json, { status: 'ok' });
    assert.equal((await post(`/api/document/${uuid}/signers.json`)).json.signers.length, 2);
    const none = await post(`/api/document/${uuid}/remove-temporary-signer.json`, { name: 'ANNA' });
    assert.equal(none.json.status, 'error');
    assert.equal(none.json.error_code, undefined);
  });
});

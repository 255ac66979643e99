import { expect } from '@open-wc/testing';
import { EsignClient, EsignError, readTemporarySigningLinks } from '../../src/client/index.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';

const ENDPOINT = '/esign';
const lt = new EsignClient({ endpoint: ENDPOINT, lang: 'lt' });
const en = new EsignClient({ endpoint: ENDPOINT, lang: 'en' });
const poll = { interval: 100, timeLimit: 10_000 };
const MISSING = '00000000-0000-0000-0000-000000000000';

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

async function rejection(promise: Promise<unknown>): Promise<EsignError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(EsignError);
    return error as EsignError;
  }
  throw new Error('expected a rejection');
}

const pdf = () => ({ files: [{ name: 'contract.pdf', content: base64(samplePdf('Contract')) }] });

describe('client: authentication', () => {
  it('mobile login: start, wait, result; errors for a bad phone and an unknown token', async () => {
    const start = await en.mobileLogin({ phone: '+37060000666', code: '50001018865' });
    expect(start.control_code).to.match(/^\d{4}$/);
    expect(start.certificate.subject.serial_number).to.equal('PNOLT-50001018865');
    // "waiting" from the person who answers after about a minute: no race with a slow browser
    const slow = await en.mobileLogin({ phone: '+37060000607', code: '39001010607' });
    expect((await en.mobileLoginStatus(slow.token)).status).to.equal('waiting');
    expect((await en.removeMobileSession(slow.token)).status).to.equal('ok');
    const result = await en.waitForResult('mobile', 'login', start.token, poll);
    expect(result.name).to.equal('ADAM');
    // a phone the service never takes is refused by the proxy, before anything is counted or sent
    const bad = await rejection(en.mobileLogin({ phone: '+3712345', code: '50001018865' }));
    expect(bad.code).to.equal('invalid-input');
    expect(bad.field).to.equal('phone');
    expect(bad.httpStatus).to.equal(400);
    expect(bad.serviceCode).to.equal(undefined);
    const unknown = await rejection(en.mobileLoginStatus(MISSING));
    expect(unknown.code).to.equal('session-not-found');
    // each failure keeps the proxy's id of its request (its x-request-id), one per request, in its event detail too
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(bad.requestId).to.match(uuid);
    expect(unknown.requestId).to.match(uuid);
    expect(unknown.requestId).not.to.equal(bad.requestId);
    expect(unknown.toDetail().requestId).to.equal(unknown.requestId);
  });
  it('smart login: result in Lithuanian locale; refusal, expiry and not-a-user as their codes', async () => {
    const start = await lt.smartIdLogin({ code: '40504040001', country: 'LT' });
    const result = await lt.waitForResult('smartid', 'login', start.token, poll);
    expect(result.certificate.subject.serial_number).to.equal('PNOLT-40504040001');
    const refused = await lt.smartIdLogin({ code: '30403039917', country: 'LT' });
    const refusal = await rejection(lt.waitForResult('smartid', 'login', refused.token, poll));
    expect(refusal.code).to.equal('refused');
    expect(refusal.retryable).to.equal(true);
    const expired = await en.smartIdLogin({ code: '030403-10083', country: 'LV' });
    expect((await rejection(en.waitForResult('smartid', 'login', expired.token, poll))).code).to.equal('expired');
    const notUser = await rejection(en.smartIdLogin({ code: '50001018865', country: 'EE' }));
    expect(notUser.code).to.equal('not-a-user');
    expect(notUser.retryable).to.equal(false);
    const badCode = await rejection(en.smartIdLoginStatus(MISSING));
    expect(badCode.serviceCode).to.equal(40402);
  });
  it('smart login status: wrong country is an invalid field', async () => {
    const error = await rejection(en.smartIdLogin({ code: '40504040001', country: 'FI' as 'EE' }));
    expect(error.code).to.equal('invalid-input');
    expect(error.field).to.equal('country');
    expect(error.serviceCode).to.equal(undefined);
  });
});

describe("client: the endpoint is on the page's own origin", () => {
  it('an endpoint of another origin is a setup error said at once, with nothing sent (never "the network")', async () => {
    const before = performance.getEntriesByType('resource').length;
    const elsewhere = new EsignClient({ endpoint: 'http://127.0.0.2:9/esign', lang: 'en' });
    const error = await rejection(elsewhere.smartIdLogin({ code: '40504040001', country: 'EE' }));
    expect([error.code, error.field, error.retryable]).to.deep.equal(['misconfigured', 'endpoint', false]);
    expect(error.message).to.contain(`must be on the page's own origin (${origin})`);
    expect(
      performance
        .getEntriesByType('resource')
        .slice(before)
        .filter((entry) => entry.name.includes('127.0.0.2')),
    ).to.deep.equal([]);
    // the same path on the page's origin, written out in full, is the page's own
    const own = new EsignClient({ endpoint: `${location.origin}/esign`, lang: 'en' });
    expect((await own.smartIdLogin({ code: '40504040001', country: 'EE' })).status).to.equal('ok');
  });
});

describe('client: a body on its way up', () => {
  it("tells a large body's bytes sent and its total as it goes, and a small body's nothing, with the same answers", async () => {
    // a PDF with half a megabyte of comment lines after its end
    const padding = new TextEncoder().encode(`\n%${'x'.repeat(1023)}`.repeat(512));
    const large = new Uint8Array([...samplePdf(), ...padding]);
    const told: [number, number][] = [];
    const onUploadProgress = (sent: number, total: number) => told.push([sent, total]);
    const signers = [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test' }];
    const answer = await en.uploadDocument({ access: 'private', file: { filename: 'scan.pdf', content: base64(large) }, signers }, { onUploadProgress });
    expect(answer.document.uuid).to.match(/^[0-9a-f-]{36}$/);
    expect(told.length).to.be.greaterThan(0);
    const total = told[0]![1];
    expect(total).to.be.greaterThan(base64(large).length);
    expect(told.every(([sent, all]) => all === total && sent >= 0 && sent <= total)).to.equal(true);
    expect(told.at(-1)![0]).to.equal(total);
    const before = told.length;
    const small = await en.uploadDocument({ access: 'private', file: { filename: 'small.pdf', content: base64(samplePdf()) }, signers }, { onUploadProgress });
    expect(small.document.uuid).to.match(/^[0-9a-f-]{36}$/);
    expect(told.length, 'a small body is sent with fetch, telling nothing').to.equal(before);
    // a refusal reads the same whichever way the body went
    const refused = await rejection(
      en.uploadDocument({ access: 'private', file: { filename: 'scan.txt', content: base64(large) }, signers }, { onUploadProgress }),
    );
    expect(refused.code).to.equal('invalid-input');
  });
});

describe('client: signing', () => {
  it('mobile and smart file signing with their errors', async () => {
    const mobile = await en.mobileSign({ type: 'pdf', phone: '+37060000666', code: '50001018865', pdf: pdf(), signature_position: 'right_bottom' });
    const signed = await en.waitForResult('mobile', 'sign', mobile.token, poll);
    expect(signed.file.name).to.equal('contract_signed.pdf');
    expect((await en.mobileSignStatus(MISSING).catch((e) => e)).code).to.equal('session-not-found');
    const smart = await lt.smartIdSign({ type: 'asice', code: '40504040001', country: 'EE', asice: pdf(), certificate_level: 'QUALIFIED' });
    const container = await lt.waitForResult('smartid', 'sign', smart.token, poll);
    expect(container.file.name).to.equal('contract_signed.asice');
    const nonQualified = await en.smartIdSign({ type: 'pdf', code: '40504049999', country: 'LT', pdf: pdf() });
    expect((await rejection(en.waitForResult('smartid', 'sign', nonQualified.token, poll))).code).to.equal('not-qualified');
    const corrupt = await rejection(
      en.smartIdSign({ type: 'pdf', code: '40504040001', country: 'EE', pdf: { files: [{ name: 'a.pdf', content: btoa('nope') }] } }),
    );
    expect(corrupt.code).to.equal('document-corrupted');
    expect((await en.smartIdSignStatus(MISSING).catch((e) => e)).code).to.equal('session-not-found');
  });
  it('hash signing on both channels with their status endpoints', async () => {
    const hash = 'ab'.repeat(32);
    const mobile = await en.mobileHashSign({ phone: '+37200000766', code: '60001019906', hash, hash_algorithm: 'SHA256', country: 'EE' });
    const mobileResult = await en.waitForResult('mobile', 'hash', mobile.token, poll);
    expect(atob(mobileResult.signature_value)).to.have.length(64);
    const smart = await en.smartIdHashSign({ code: '40504040001', hash: 'cd'.repeat(64), hash_algorithm: 'SHA512', country: 'LT' });
    const smartResult = await en.waitForResult('smartid', 'hash', smart.token, poll);
    expect(atob(smartResult.signature_value)).to.have.length(256);
    const wrongLength = await rejection(en.smartIdHashSign({ code: '40504040001', hash, hash_algorithm: 'SHA512', country: 'LT' }));
    expect(wrongLength.field).to.equal('hash');
    expect((await en.mobileHashSignStatus(MISSING).catch((e) => e)).code).to.equal('session-not-found');
    expect((await en.smartIdHashSignStatus(MISSING).catch((e) => e)).code).to.equal('session-not-found');
    const mobileFail = await en.mobileHashSign({ phone: '+37201100266', code: '60001019950', hash, hash_algorithm: 'SHA256', country: 'EE' });
    expect((await rejection(en.waitForResult('mobile', 'hash', mobileFail.token, poll))).code).to.equal('refused');
  });
  it('cancels: session removal at the service, then the token is unknown', async () => {
    const start = await en.mobileLogin({ phone: '+37060000607', code: '39001010607' });
    expect((await en.removeMobileSession(start.token)).status).to.equal('ok');
    expect((await rejection(en.mobileLoginStatus(start.token))).code).to.equal('session-not-found');
    expect((await rejection(en.removeMobileSession(start.token))).code).to.equal('session-not-found');
    const smart = await en.smartIdLogin({ code: '39001010607', country: 'EE' });
    expect((await en.removeSmartIdSession(smart.token)).status).to.equal('ok');
    expect((await rejection(en.removeSmartIdSession(smart.token))).code).to.equal('session-not-found');
  });
  it('stops polling on abort with a cancelled error', async () => {
    const start = await en.smartIdLogin({ code: '39001010607', country: 'LT' });
    const controller = new AbortController();
    const waiting = en.waitForResult('smartid', 'login', start.token, { ...poll, signal: controller.signal });
    setTimeout(() => controller.abort(), 250);
    const error = await rejection(waiting);
    expect(error.code).to.equal('cancelled');
  });
  it('gives up after the time limit with a timeout error', async () => {
    const start = await en.smartIdLogin({ code: '39001010607', country: 'LT' });
    const error = await rejection(en.waitForResult('smartid', 'login', start.token, { interval: 100, timeLimit: 400 }));
    expect(error.code).to.equal('timeout');
  });
});

describe('client: documents', () => {
  it('upload, invite, signers, validation, temporary link, temporary signer removal and removal, with their errors', async () => {
    const file = { filename: 'contract.pdf', content: base64(samplePdf()) };
    const upload = await en.uploadDocument({ access: 'private', file, signers: [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test' }] });
    const uuid = upload.document.uuid;
    expect(upload.signers[0]?.invitationUrl).to.match(/\/sign\//);
    const wrongType = await rejection(en.uploadDocument({ access: 'private', file: { filename: 'a.txt', content: 'eA==' }, signers: [] }));
    expect(wrongType.code).to.equal('invalid-input');
    expect(wrongType.field).to.equal('file');
    expect(wrongType.message).to.equal('Invalid file type. Allowed file types: pdf, adoc, asice, bdoc');

    const invited = await lt.inviteSigner(uuid, { signer: { name: 'BEN', surname: 'TESTNUMBER', email: 'ben@example.test', noEmail: true } });
    expect(invited.signers[0]?.invitationUrl).to.equal(null);
    expect((await rejection(en.inviteSigner(MISSING, { signer: { name: 'A', surname: 'B', email: 'a@b.test' } }))).code).to.equal('document-not-found');

    const signers = await en.listSigners(uuid);
    expect(signers.signers.map((s) => s.signStatus)).to.deep.equal(['pending', 'pending']);
    expect((await rejection(en.listSigners(MISSING))).code).to.equal('document-not-found');

    const report = await en.validateDocument(uuid);
    expect(report.data.simpleReport.documentFilename).to.equal('contract.pdf');
    expect((await rejection(en.validateDocument(MISSING))).code).to.equal('document-not-found');

    const link = await en.generateTemporarySigningLink({
      document_id: uuid,
      callback_url: 'https://host.example/cb',
      expire_after: 15,
      signers: [{ name: 'EVA', surname: 'TESTNUMBER', personal_code: '40504040001' }],
    });
    const [entry] = readTemporarySigningLinks(link);
    expect(entry?.url).to.match(/\/link\//);
    expect(entry!.validUntil.getTime()).to.be.greaterThan(Date.now() + 14 * 60_000);
    const early = await rejection(
      en.generateTemporarySigningLink({ document_id: uuid, callback_url: 'https://h.example/', expire_after: 30, delete_document_after: 5 }),
    );
    expect(early.code).to.equal('invalid-input');

    expect((await en.removeTemporarySigner(uuid, { personal_code: '40504040001' })).status).to.equal('ok');
    expect((await rejection(en.removeTemporarySigner(uuid, { personal_code: '40504040001' }))).code).to.equal('signer-not-found');
    expect((await rejection(en.removeTemporarySigner(MISSING, { personal_code: '40504040001' }))).code).to.equal('document-not-found');

    const removed = await lt.removeDocument(uuid);
    expect(removed.data.status).to.equal('ok');
    expect((await rejection(lt.removeDocument(uuid))).code).to.equal('document-not-found');
  });
  it('reads both answer forms of the temporary link', () => {
    const single = readTemporarySigningLinks({ status: 'ok', temporary_signing_link: 'https://x.test/a', valid_until: '1800000000' });
    const list = readTemporarySigningLinks({
      status: 'ok',
      document_id: 'd',
      temporary_signing_links: [{ temporary_signing_link: 'https://x.test/b', valid_until: 1800000000 }],
    });
    expect(single[0]?.validUntil.toISOString()).to.equal('2027-01-15T08:00:00.000Z');
    expect(list[0]?.url).to.equal('https://x.test/b');
  });
});

describe('client: the way there', () => {
  it('reports a refused path as operation-not-allowed and an unreachable endpoint as network', async () => {
    const response = await fetch('/esign/smartid/login.json?x=1', { method: 'POST', body: '{}' });
    expect(response.status).to.equal(404);
    // (a host's own fetch may go to another origin: the browser's alone keeps to the page's)
    const offline = new EsignClient({ endpoint: 'http://127.0.0.1:9', lang: 'en', fetch: (input, init) => fetch(input, init) });
    const error = await rejection(offline.smartIdLogin({ code: '40504040001', country: 'EE' }));
    expect(error.code).to.equal('network');
    expect(error.retryable).to.equal(true);
  });
  it('treats a non-JSON answer as a network failure', async () => {
    const html = new EsignClient({ endpoint: '/not-the-proxy', lang: 'en' });
    const error = await rejection(html.smartIdLogin({ code: '40504040001', country: 'EE' }));
    expect(error.code).to.equal('network');
  });
  it('refuses an unsafe token before sending anything', async () => {
    const error = await rejection(en.mobileLoginStatus('../../api/document/upload'));
    expect(error.code).to.equal('invalid-input');
    expect(error.field).to.equal('token');
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { ACCESS_TOKEN, b64, send, startStack, type Stack } from './harness.js';

// The sandbox's own holes, found by a fuzz run: each closed and kept closed here.

let stack: Stack;
before(async () => {
  stack = await startStack({ answerAfterMs: 1000 });
});
after(async () => {
  await stack.close();
});

const direct = (path: string, body: object, method = 'POST') =>
  send(`${stack.sandboxUrl}${path}`, method, { ...body, access_token: ACCESS_TOKEN }, false, { jar: null });
const pdf = () => b64(samplePdf('Hardening'));

async function upload(
  signers = [
    { name: 'Ona', surname: 'Tester', email: 'ona@example.test' },
    { name: 'Jonas', surname: 'Tester', email: 'jonas@example.test' },
  ],
) {
  const answer = await direct('/api/document/upload.json', { access: 'private', file: { filename: 'c.pdf', content: pdf() }, signers });
  assert.equal(answer.json.status, 'ok');
  return answer.json as { document: { uuid: string }; signers: { invitationUrl: string }[] };
}

describe('sandbox hardening', () => {
  it('lets a signing page follow and remove only the sessions it started', async () => {
    const doc = await upload();
    const [a, b] = doc.signers.map((s) => new URL(s.invitationUrl).pathname);
    const start = await send(
      `${stack.sandboxUrl}${a}/esign/smartid/sign.json`,
      'POST',
      { type: 'pdf', code: '40504040001', country: 'EE', pdf: { files: [{ name: 'c.pdf', content: pdf() }] } },
      false,
      { jar: null },
    );
    assert.equal(start.json.status, 'ok');
    const token = start.json.token as string;
    const foreign = await send(`${stack.sandboxUrl}${b}/esign/smartid/sign/status/${token}.json`, 'POST', {}, false, { jar: null });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.json.error_code, 40402);
    const foreignRemoval = await send(`${stack.sandboxUrl}${b}/esign/api/smartid/session/${token}`, 'DELETE', {}, false, { jar: null });
    assert.equal(foreignRemoval.status, 404);
    // a session started by the host is no page's either
    const hostSession = await direct('/smartid/login.json', { code: '40504040001', country: 'EE' });
    const viaPage = await send(`${stack.sandboxUrl}${a}/esign/smartid/status/${hostSession.json.token}.json`, 'POST', {}, false, { jar: null });
    assert.equal(viaPage.status, 404);
    const own = await send(`${stack.sandboxUrl}${a}/esign/smartid/sign/status/${token}.json`, 'POST', {}, false, { jar: null });
    assert.equal(own.json.status, 'waiting');
  });

  it('names its own listening address in links, whatever Host a client sends', async () => {
    const body = JSON.stringify({
      access_token: ACCESS_TOKEN,
      access: 'private',
      file: { filename: 'c.pdf', content: pdf() },
      signers: [{ name: 'Ona', surname: 'Tester', email: 'ona@example.test' }],
    });
    const url = new URL(stack.sandboxUrl);
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/api/document/upload.json',
          headers: { host: 'evil.example', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let out = '';
          res.on('data', (chunk) => (out += chunk));
          res.on('end', () => resolve(out));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    const invitation = (JSON.parse(text) as { signers: { invitationUrl: string }[] }).signers[0]!.invitationUrl;
    assert.ok(invitation.startsWith(`${stack.sandboxUrl}/sign/`), invitation);
  });

  it('refuses a container file name of 70,000 characters at the start (40001)', async () => {
    const answer = await direct('/smartid/sign.json', {
      type: 'asice',
      code: '40504040001',
      country: 'EE',
      asice: { files: [{ name: `${'a'.repeat(70_000)}.txt`, content: b64('hello') }] },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.error_code, 40001);
    assert.match(answer.json.message, /\[asice\]/);
  });

  it('refuses temporary-link signers that are not objects, an empty file and absurd minutes, changing nothing', async () => {
    const doc = await upload();
    const uuid = doc.document.uuid;
    const before = (await send(`${stack.proxyUrl}/api/document/${uuid}/signers.json`, 'POST', {})).json.signers.length;
    const cases: object[] = [
      { signers: ['x', null, 5] },
      { signers: [[]] },
      { file: { filename: 'c.pdf', content: '' } },
      { file: { filename: 'x'.repeat(300), content: pdf() } },
      { expire_after: 1e300 },
      { expire_after: 30, delete_document_after: 1e300 },
    ];
    for (const extra of cases) {
      const answer = await direct('/api/document/generate-temporary-signing-link.json', {
        document_id: uuid,
        callback_url: 'https://host.example/cb',
        ...extra,
      });
      assert.equal(answer.status, 400, JSON.stringify(extra));
      assert.equal(answer.json.status, 'error');
      assert.match(answer.json.message, /^Invalid parameter \[/, JSON.stringify(extra));
    }
    const after = (await send(`${stack.proxyUrl}/api/document/${uuid}/signers.json`, 'POST', {})).json.signers.length;
    assert.equal(after, before);
    const validation = await send(`${stack.proxyUrl}/api/v2/document/${uuid}/validation.json`, 'POST', {});
    assert.equal(validation.json.data.simpleReport.documentFilename, 'c.pdf', 'the document was not replaced');
  });

  it('answers with Content-Type exactly application/json, errors too', async () => {
    const ok = await direct('/smartid/login.json', { code: '40504040001', country: 'EE' });
    assert.equal(ok.headers.get('content-type'), 'application/json');
    const failed = await direct('/smartid/login.json', { code: 'x', country: 'EE' });
    assert.equal(failed.headers.get('content-type'), 'application/json');
  });

  it('gives a Mobile-ID login of an unknown number a certificate at the start, as the service does', async () => {
    const answer = await direct('/mobile/login.json', { phone: '+37060000999', code: '39001010992' });
    assert.equal(answer.json.status, 'ok');
    assert.match(answer.json.certificate.subject.serial_number, /^PNOLT-39001010992$/);
  });

  it('forgets finished sessions after their time and frees removed ones at once (bounded memory)', async () => {
    const big = b64(new Uint8Array(1024 * 1024).fill(7));
    const startCount = stack.sandbox.sessions.size;
    const tokens: string[] = [];
    for (let i = 0; i < 30; i++) {
      const start = await direct('/mobile/sign.json', {
        type: 'asice',
        phone: '+37060000666',
        code: '50001018865',
        asice: { files: [{ name: `f${i}.bin`, content: big }] },
      });
      assert.equal(start.json.status, 'ok');
      tokens.push(start.json.token);
    }
    assert.equal(stack.sandbox.sessions.size, startCount + 30);
    for (const token of tokens.slice(0, 10)) assert.equal((await direct(`/api/mobile/session/${token}`, {}, 'DELETE')).json.status, 'ok');
    assert.equal(stack.sandbox.sessions.size, startCount + 20, 'removal frees at once');
    stack.clock.advance(1000);
    const finished = await direct(`/mobile/sign/status/${tokens[10]}.json`, {});
    assert.equal(finished.json.status, 'ok');
    stack.clock.advance(10 * 60_000 + 1);
    assert.equal(stack.sandbox.sessions.size, 0, 'every session is forgotten after its time');
    const late = await direct(`/mobile/sign/status/${tokens[10]}.json`, {});
    assert.equal(late.json.error_code, 40402);
  });

  it("lists the used certificates and each signature's chain in validation reports, for PDFs and containers", async () => {
    for (const [type, files] of [
      ['pdf', [{ name: 'c.pdf', content: pdf() }]],
      ['asice', [{ name: 'a.txt', content: b64('hello') }]],
    ] as const) {
      const start = await direct('/smartid/sign.json', { type, code: '40504040001', country: 'EE', [type]: { files } });
      stack.clock.advance(1000);
      const done = await direct(`/smartid/sign/status/${start.json.token}.json`, {});
      assert.equal(done.json.status, 'ok', JSON.stringify(done.json).slice(0, 200));
      const up = await direct('/api/document/upload.json', {
        access: 'private',
        file: { filename: done.json.file.name, content: done.json.file.content },
        signers: [],
      });
      const report = (await direct(`/api/v2/document/${up.json.document.uuid}/validation.json`, {})).json.data;
      const [signature] = report.simpleReport.jaxbModel.signatureOrTimestamp as {
        indication: string;
        certificateChain: { certificate: { id: string; qualifiedName: string }[] };
      }[];
      assert.equal(signature!.indication, 'TOTAL_PASSED', type);
      const chain = signature!.certificateChain.certificate;
      assert.equal(chain.length, 2, type);
      assert.match(chain[0]!.qualifiedName, /TESTNUMBER/);
      assert.match(chain[1]!.qualifiedName, /SANDBOX TEST issuing CA/);
      const used = report.diagnosticData.UsedCertificates as { Id: string; Base64Encoded: string; Trusted: boolean; CommonName: string }[];
      assert.deepEqual(used.map((c) => c.Id).sort(), chain.map((c) => c.id).sort(), type);
      assert.ok(used.every((c) => c.Base64Encoded.startsWith('MII')));
      assert.equal(used.find((c) => /issuing CA/.test(c.CommonName))!.Trusted, true);
    }
  });
});

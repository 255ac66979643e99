import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { b64, getPage, listen, send, startStack, until, type Stack } from './harness.js';

let stack: Stack;
let callbacks: Server;
let callbackUrl: string;
const received: unknown[] = [];
before(async () => {
  stack = await startStack();
  callbacks = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push(JSON.parse(text));
      res.end('ok');
    });
  });
  callbackUrl = `${await listen(callbacks)}/callback`;
});
after(async () => {
  await stack.close();
  callbacks.closeAllConnections();
  await new Promise((resolve) => callbacks.close(resolve));
});

const post = (path: string, body: object = {}) => send(`${stack.proxyUrl}${path}`, 'POST', body);

describe('sandbox: signing pages behind invitations and temporary links', () => {
  it('an invited person signs on the invitation page: the list shows it, the callback arrives, validation sees it', async () => {
    const upload = await post('/api/document/upload.json', {
      access: 'private',
      file: { filename: 'contract.pdf', content: b64(samplePdf('Contract')), callbackUrl },
      signers: [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test' }],
    });
    const uuid = upload.json.document.uuid;
    const invitation = new URL(upload.json.signers[0].invitationUrl);
    const page = await getPage(invitation.href);
    assert.equal(page.status, 200);
    assert.match(page.text, /<esign-sign endpoint="\/sign\/[0-9a-f-]+\/esign" type="pdf"/);
    const documentBytes = await fetch(`${invitation.href}/document`);
    assert.equal(
      Buffer.from(await documentBytes.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );

    // the page's own requests carry no access token: the sandbox adds it for these operations only
    const pageApi = `${invitation.href}/esign`;
    const start = await send(`${pageApi}/smartid/sign.json`, 'POST', {
      type: 'pdf',
      code: '40504040001',
      country: 'EE',
      pdf: { files: [{ name: 'contract.pdf', content: b64(samplePdf('Contract')) }] },
    });
    assert.equal(start.json.status, 'ok');
    const refused = await send(`${pageApi}/api/document/upload.json`, 'POST', {});
    assert.equal(refused.status, 404);
    stack.clock.advance(3000);
    const done = await send(`${pageApi}/smartid/sign/status/${start.json.token}.json`, 'POST', {});
    assert.equal(done.json.status, 'ok');

    const signers = await post(`/api/document/${uuid}/signers.json`);
    assert.equal(signers.json.signers[0].signStatus, 'signed');
    await until(() => received.length > 0, 'the callback');
    assert.deepEqual(received[0], { uuid, status: 'signed', signer: { name: 'ANNA', surname: 'TESTNUMBER' } });
    const report = await post(`/api/v2/document/${uuid}/validation.json`);
    assert.equal(report.json.data.simpleReport.signaturesCount, 1);
  });

  it('a temporary link page signs for a temporary signer until the link expires', async () => {
    const upload = await post('/api/document/upload.json', { access: 'private', file: { filename: 'a.pdf', content: b64(samplePdf()) }, signers: [] });
    const uuid = upload.json.document.uuid;
    const link = await post('/api/document/generate-temporary-signing-link.json', {
      document_id: uuid,
      callback_url: callbackUrl,
      expire_after: 5,
      language: 'lt',
      signers: [{ name: 'OK', surname: 'TESTNUMBER', personal_code: '30303039914', signature_type: 'smartid' }],
    });
    const url = link.json.temporary_signing_link;
    const page = await getPage(url);
    assert.match(page.text, /<html lang="lt">/);
    // the heading names the file without bending it into a grammatical case; the deadline is the
    // moment itself for the page's script to show in the person's time zone, UTC until it does
    // (its last word and extension kept on one line)
    assert.match(page.text, /<h1[^>]*>Pasirašymas: <span style="white-space:nowrap">a\.pdf<\/span><\/h1>/);
    assert.match(page.text, /Šį dokumentą galite pasirašyti iki/);
    const deadline = /<time datetime="([^"]+)" data-local>([^<]+ UTC)<\/time>/.exec(page.text);
    assert.ok(deadline, 'the deadline as a time element');
    assert.equal(Math.round((Date.parse(deadline[1]!) - stack.clock.now()) / 60_000), 5, 'five minutes from now');
    // a copy of the signed document for the person who signs, shown once signed
    assert.match(page.text, /<a id="copy" hidden>Atsisiųsti pasirašyto dokumento kopiją<\/a>/);
    const start = await send(`${url}/esign/smartid/sign.json`, 'POST', {
      type: 'pdf',
      code: '30303039914',
      country: 'LT',
      pdf: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] },
    });
    stack.clock.advance(3000);
    assert.equal((await send(`${url}/esign/smartid/sign/status/${start.json.token}.json`, 'POST', {})).json.status, 'ok');
    const signers = await post(`/api/document/${uuid}/signers.json`);
    assert.deepEqual(
      signers.json.signers.map((s: { signStatus: string }) => s.signStatus),
      ['signed'],
    );
    await until(() => received.some((r) => (r as { uuid: string }).uuid === uuid), "the document's callback");
    assert.deepEqual(
      received.find((r) => (r as { uuid: string }).uuid === uuid),
      { uuid, status: 'signed', signer: { name: 'OK', surname: 'TESTNUMBER' } },
    );
    stack.clock.advance(5 * 60_000);
    assert.equal((await getPage(url)).status, 410);
    assert.equal((await send(`${url}/esign/smartid/sign.json`, 'POST', {})).status, 404);
  });

  it('signs only the stored document: a page that posts other content is refused, and the document stays as it was', async () => {
    const original = b64(samplePdf('Agreement'));
    const upload = await post('/api/document/upload.json', {
      access: 'private',
      file: { filename: 'agreement.pdf', content: original, callbackUrl },
      signers: [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test' }],
    });
    const uuid = upload.json.document.uuid as string;
    const invitation = upload.json.signers[0].invitationUrl as string;
    const link = await post('/api/document/generate-temporary-signing-link.json', {
      document_id: uuid,
      callback_url: callbackUrl,
      expire_after: 5,
      language: 'lt',
      signers: [{ name: 'OK', surname: 'TESTNUMBER', personal_code: '30303039914', signature_type: 'smartid' }],
    });
    const changed = b64(samplePdf('Agreement, changed: the price is doubled'));
    const callbacksBefore = received.length;
    for (const page of [invitation, link.json.temporary_signing_link as string]) {
      const refused = await send(`${page}/esign/smartid/sign.json`, 'POST', {
        type: 'pdf',
        code: '30303039914',
        country: 'LT',
        pdf: { files: [{ name: 'agreement.pdf', content: changed }] },
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.json.error_code, 40001);
      assert.match(refused.json.message, /^Invalid parameter \[pdf\]: /);
    }
    const signers = await post(`/api/document/${uuid}/signers.json`);
    assert.deepEqual(
      signers.json.signers.map((s: { signStatus: string }) => s.signStatus),
      ['pending', 'pending'],
    );
    const stored = Buffer.from(await (await fetch(`${stack.proxyUrl}/api/document/${uuid}/download.json`)).arrayBuffer());
    assert.equal(stored.toString('base64'), original, 'the stored document is unchanged');
    assert.equal(received.length, callbacksBefore, 'no callback said signed');
    // the stored document itself is signed as before
    const start = await send(`${invitation}/esign/smartid/sign.json`, 'POST', {
      type: 'pdf',
      code: '30303039914',
      country: 'LT',
      pdf: { files: [{ name: 'agreement.pdf', content: original }] },
    });
    assert.equal(start.json.status, 'ok');
  });

  it("speaks the five languages: chosen on the page, else the link's own, else the browser's, and offers the switch", async () => {
    const upload = await post('/api/document/upload.json', {
      access: 'private',
      file: { filename: 'sutartis.pdf', content: b64(samplePdf()) },
      signers: [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test' }],
    });
    const invitation = upload.json.signers[0].invitationUrl as string;
    const titles = { lt: 'Pasirašymas:', lv: 'Parakstīšana:', et: 'Allkirjastamine:', ru: 'Подписание:', en: 'Signing:' };
    for (const [lang, title] of Object.entries(titles)) {
      const page = await getPage(`${invitation}?lang=${lang}`);
      assert.equal(page.status, 200, lang);
      assert.match(page.text, new RegExp(`<html lang="${lang}">`), lang);
      assert.match(page.text, new RegExp(`<h1[^>]*>${title} <span style="white-space:nowrap">sutartis.pdf</span></h1>`), lang);
      assert.match(page.text, new RegExp(`<esign-sign [^>]*lang="${lang}"`), `the widget in ${lang}`);
      // the switch: every language named in itself, the current one marked
      const links = [...page.text.matchAll(/<a href="\?lang=(\w+)" lang="\w+"([^>]*)>/g)];
      assert.deepEqual(
        links.map((m) => m[1]),
        ['lt', 'lv', 'et', 'ru', 'en'],
        lang,
      );
      assert.deepEqual(
        links.filter((m) => m[2]!.includes('aria-current="true"')).map((m) => m[1]),
        [lang],
        `${lang} marked current`,
      );
    }
    const byBrowser = await fetch(invitation, { headers: { 'accept-language': 'de-DE, lv;q=0.9, en;q=0.5' } });
    assert.match(await byBrowser.text(), /<html lang="lv">/);
    const unknown = await fetch(`${invitation}?lang=xx`, { headers: { 'accept-language': 'de' } });
    assert.match(await unknown.text(), /<html lang="en">/);
    // the page's document and operations take no query
    assert.equal((await fetch(`${invitation}/document?lang=lt`)).status, 404);

    const link = await post('/api/document/generate-temporary-signing-link.json', {
      document_id: upload.json.document.uuid,
      callback_url: callbackUrl,
      expire_after: 5,
      language: 'lt',
      signers: [{ name: 'OK', surname: 'TESTNUMBER', personal_code: '30303039914', signature_type: 'smartid' }],
    });
    const url = link.json.temporary_signing_link as string;
    const own = await fetch(url, { headers: { 'accept-language': 'ru' } });
    assert.match(await own.text(), /<html lang="lt">/, "the link's language first");
    const russian = await getPage(`${url}?lang=ru`);
    assert.match(russian.text, /<h1[^>]*>Подписание: <span style="white-space:nowrap">sutartis\.pdf<\/span><\/h1>/);
    assert.match(russian.text, /Подписать этот документ можно до <strong><time /);
    const missing = await getPage(`${stack.sandboxUrl}/sign/00000000-0000-0000-0000-000000000000?lang=et`);
    assert.equal(missing.status, 404);
    assert.match(missing.text, /Linki ei leitud/);
  });
});

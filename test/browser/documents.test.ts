import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { EsignClient } from '../../src/client/index.js';
import '../../src/define.js';
import type { EsignDocument } from '../../src/elements/document/document.js';
import type { EsignDocumentUpload } from '../../src/elements/document-upload/document-upload.js';
import type { EsignSignerList } from '../../src/elements/signer-list/signer-list.js';
import type { EsignSigningLink } from '../../src/elements/signing-link/signing-link.js';
import type { EsignValidationReport } from '../../src/elements/validation-report/validation-report.js';
import { en } from '../../src/i18n/en.js';
import { lt } from '../../src/i18n/lt.js';
import { ru } from '../../src/i18n/ru.js';
import { formatSize } from '../../src/internal/documents/file-picker.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { ENDPOINT, deepActiveElement, deepText, requestsTo, until } from './helpers.js';

before(() => performance.setResourceTimingBufferSize(100_000));

const client = new EsignClient({ endpoint: ENDPOINT, lang: 'en' });
const MISSING = '00000000-0000-0000-0000-000000000000';

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

async function storedDocument(signers = [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test' }]): Promise<string> {
  const answer = await client.uploadDocument({ access: 'private', file: { filename: 'contract.pdf', content: base64(samplePdf()) }, signers });
  return answer.document.uuid;
}

function input(el: Element, id: string): HTMLInputElement {
  return el.shadowRoot!.querySelector<HTMLInputElement>(`#${id}`)!;
}

async function fill(el: HTMLElement & { updateComplete: Promise<boolean> }, id: string, value: string): Promise<void> {
  const field = input(el, id);
  field.value = value;
  field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

/** A part of esign-document, once the document's state is known and its parts are shown. */
async function partOf<T extends Element>(el: Element, tag: string): Promise<T> {
  await until(() => el.shadowRoot!.querySelector(tag) !== null, `${tag} shown`);
  return el.shadowRoot!.querySelector<T>(tag)!;
}

/** esign-document with its signer list loaded once (the event, composed, is counted on the element from the start). */
async function documentWithSigners(markup: ReturnType<typeof html>): Promise<{ el: EsignDocument; list: EsignSignerList }> {
  const loaded: Event[] = [];
  const el = await fixture<EsignDocument>(markup);
  el.addEventListener('esign-signers-loaded', (e) => loaded.push(e));
  await until(() => loaded.length >= 1, 'the signers loaded');
  return { el, list: await partOf<EsignSignerList>(el, 'esign-signer-list') };
}

function button(el: Element, text: string): HTMLButtonElement {
  const found = [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent.trim() === text);
  if (!found) throw new Error(`no button "${text}"`);
  return found;
}

describe('esign-document-upload', () => {
  it('checks every field before sending and says what is wrong', async () => {
    performance.clearResourceTimings();
    const el = await fixture<EsignDocumentUpload>(html`<esign-document-upload endpoint=${ENDPOINT} lang="en"></esign-document-upload>`);
    await expect(el).to.be.accessible();
    // where the service reports to and sends signers back is the host's to set: no field for a person
    expect(el.shadowRoot!.querySelector('input[type="url"]'), 'no address field in the form').to.equal(null);
    let code = '';
    await el.upload().catch((error) => (code = error.code));
    expect(code).to.equal('invalid-input');
    await el.updateComplete;
    const text = deepText(el);
    expect(text).to.contain(en['upload.no-file']);
    expect(text).to.contain(en['signer.name-empty']);
    expect(text).to.contain(en['signer.email-empty']);
    await until(() => deepActiveElement()?.getAttribute('part') === 'pick', 'focus on the file button');
    await expect(el).to.be.accessible();
    el.file = new File(['x'], 'notes.docx');
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['sign.wrong-type']);
    expect(requestsTo('/esign/')).to.equal(0);
  });

  it('shows a large document on its way up: its bytes sent of its size, then the links', async () => {
    const el = await fixture<EsignDocumentUpload>(html`<esign-document-upload endpoint=${ENDPOINT} lang="ru"></esign-document-upload>`);
    // a PDF with a megabyte of comment lines after its end: as large as a scan, and still a PDF
    const padding = new TextEncoder().encode(`\n%${'x'.repeat(1023)}`.repeat(1024));
    const file = new File([samplePdf() as BlobPart, padding], 'scan.pdf', { type: 'application/pdf' });
    // picked by the person (a host's file is fixed: no picker, nothing to remove)
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('input[type=file]')!;
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    el.signers = [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test', successUrl: '', noEmail: false }];
    await el.updateComplete;
    const uploaded: Event[] = [];
    el.addEventListener('esign-document-uploaded', (e) => uploaded.push(e));
    const label = () => el.shadowRoot!.querySelector('[part="progress"] span')?.textContent ?? '';
    await fetch('/__faults/held-file?hold=1');
    const submit = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="submit"]')!;
    submit.focus();
    submit.click();
    const uploading = new Promise((resolve) => el.addEventListener('esign-document-uploaded', resolve, { once: true }));
    try {
      await until(() => label().startsWith('Отправка документа: '), 'the bytes sent told');
      // nothing changes the document on its way, and the focus stays on the button pressed
      const remove = el.shadowRoot!.querySelector<HTMLButtonElement>('.file-list button')!;
      expect([remove.getAttribute('aria-disabled'), el.shadowRoot!.querySelector('[part="pick"]')!.getAttribute('aria-disabled')]).to.deep.equal([
        'true',
        'true',
      ]);
      remove.click();
      submit.click();
      await el.updateComplete;
      expect(deepText(el)).to.contain('scan.pdf');
      expect(deepActiveElement()).to.equal(submit);
      expect(label()).to.match(new RegExp(`^Отправка документа: [\\d.,\\s]+[kKMкКМ]?[BБ] из ${formatSize(file.size, 'ru').replace('.', '\\.')}$`));
      expect(el.shadowRoot!.querySelector<HTMLProgressElement>('[part="progress"] progress')!.value).to.be.greaterThan(0);
      expect(el.shadowRoot!.querySelector('[part="submit"]')!.textContent?.trim()).to.equal(ru['upload.uploading']);
      // a screen reader is told the send once, with its size (not every step of the bar)
      expect(el.shadowRoot!.querySelector('form p[role="status"]')?.textContent?.trim()).to.equal(
        ru['sign.sending-start'].replace('{size}', formatSize(file.size, 'ru')),
      );
      expect(uploaded).to.have.length(0);
      await expect(el).to.be.accessible();
    } finally {
      await fetch('/__faults/held-file?release=1');
    }
    await uploading;
    await el.updateComplete;
    expect(uploaded).to.have.length(1);
    expect(el.shadowRoot!.querySelector('[part="progress"]')).to.equal(null);
    expect(el.shadowRoot!.querySelector('a.url')).to.not.equal(null);
  });

  it('uploads with two signers and shows the invitation links', async () => {
    const el = await fixture<EsignDocumentUpload>(html`<esign-document-upload endpoint=${ENDPOINT} lang="lt"></esign-document-upload>`);
    el.file = new File([samplePdf() as BlobPart], 'contract.pdf', { type: 'application/pdf' });
    el.signers = [
      { name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test', successUrl: 'https://host.example/done', noEmail: false },
      { name: 'BEN', surname: 'TESTNUMBER', email: 'ben@example.test', successUrl: '', noEmail: true },
    ];
    await el.updateComplete;
    // a host's address that is no web address is a setup problem, said before anything is sent
    el.callbackUrl = 'ftp://nope';
    const misconfigured = oneEvent(el, 'esign-error');
    const refused = await el.upload().then(
      () => 'sent',
      (error: { code: string; field?: string }) => `${error.code} ${error.field}`,
    );
    expect(refused).to.equal('misconfigured callbackUrl');
    expect((await misconfigured).detail.code).to.equal('misconfigured');
    await el.updateComplete;
    expect(deepText(el)).to.contain(lt['error.misconfigured']);
    el.callbackUrl = '';
    const uploaded = oneEvent(el, 'esign-document-uploaded');
    button(el, lt['upload.submit']).click();
    const { detail } = await uploaded;
    expect(detail.uuid).to.match(/^[0-9a-f-]{36}$/);
    expect(detail.signers[0]!.invitationUrl).to.match(/\/sign\//);
    expect(detail.signers[1]!.invitationUrl).to.equal(null);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('a.url')!.getAttribute('href')).to.equal(detail.signers[0]!.invitationUrl);
    expect(deepText(el)).to.contain(lt['link.none']);
    // copying says whether it worked: the clipboard may be refused to a headless browser
    button(el, lt['link.copy']).click();
    await until(() => [lt['link.copied'], lt['link.copy-failed']].some((words) => deepText(el).includes(words)), 'the copy result');
    await until(() => deepActiveElement()?.classList.contains('done') ?? false, 'focus on the result');
    await expect(el).to.be.accessible();

    // the same document removed by an esign-document on the page: its links are withdrawn, and said so
    const doc = await fixture<EsignDocument>(html`<esign-document endpoint=${ENDPOINT} lang="lt" document-id=${detail.uuid}></esign-document>`);
    const removed = oneEvent(doc, 'esign-document-removed');
    await doc.removeDocument();
    expect((await removed).detail.documentId).to.equal(detail.uuid);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('a.url'), 'no invitation link offered').to.equal(null);
    expect(deepText(el)).to.contain(lt['upload.removed']);
    await expect(el).to.be.accessible();
  });
});

describe('esign-signer-list', () => {
  it('lists signers with their states, and says when there are none or the document is missing', async () => {
    const uuid = await storedDocument();
    const el = await fixture<EsignSignerList>(html`<esign-signer-list endpoint=${ENDPOINT} lang="en" document-id=${uuid}></esign-signer-list>`);
    await oneEvent(el, 'esign-signers-loaded');
    await el.updateComplete;
    expect(deepText(el)).to.contain('ANNA TESTNUMBER');
    expect(deepText(el)).to.contain(en['sign-status.pending']);
    await expect(el).to.be.accessible();
    el.documentId = await storedDocument([]);
    await oneEvent(el, 'esign-signers-loaded');
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['signers.empty']);
    el.documentId = MISSING;
    await oneEvent(el, 'esign-error');
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['error.document-not-found']);
    expect(deepText(el)).not.to.contain(en['signers.empty']);
    await expect(el).to.be.accessible();
  });

  it('invites a signer (checking the fields first) and the list refreshes', async () => {
    const uuid = await storedDocument();
    const el = await fixture<EsignSignerList>(html`<esign-signer-list endpoint=${ENDPOINT} lang="en" document-id=${uuid}></esign-signer-list>`);
    await oneEvent(el, 'esign-signers-loaded');
    // Escape closes the form it opened, the focus back on what opened it
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="invite"]')!.click();
    await until(() => deepActiveElement()?.id === 'invite-name', 'focus in the form');
    deepActiveElement()!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await until(() => deepActiveElement()?.getAttribute('part') === 'invite', 'the form closed by Escape');
    expect(el.shadowRoot!.querySelector('form')).to.equal(null);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="invite"]')!.click();
    await el.updateComplete;
    await fill(el, 'invite-name', 'CARL');
    await fill(el, 'invite-surname', 'TESTNUMBER');
    await fill(el, 'invite-email', 'carl@');
    await el.invite().catch(() => undefined);
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['field.email']);
    await expect(el).to.be.accessible();
    await fill(el, 'invite-email', 'carl@example.test');
    const invited = oneEvent(el, 'esign-signer-invited');
    button(el, en['signers.invite-submit']).click();
    expect((await invited).detail.signers[0]!.name).to.equal('CARL');
    await until(() => el.signers.length === 2, 'the refreshed list');
    expect(deepText(el)).to.contain('CARL TESTNUMBER');
  });

  it('offers removal only for temporary signers, and removes one after confirmation', async () => {
    const uuid = await storedDocument();
    await client.generateTemporarySigningLink({
      document_id: uuid,
      callback_url: 'https://host.example/cb',
      signers: [{ name: 'EVA', surname: 'TESTNUMBER', personal_code: '40504040001' }],
    });
    const el = await fixture<EsignSignerList>(html`<esign-signer-list endpoint=${ENDPOINT} lang="en" document-id=${uuid}></esign-signer-list>`);
    await oneEvent(el, 'esign-signers-loaded');
    await el.updateComplete;
    // not told which signers are temporary: no removal offered at all
    expect(el.signers.map((s) => s.name).sort()).to.deep.equal(['ANNA', 'EVA']);
    expect(el.shadowRoot!.querySelectorAll('[id^="remove-"]')).to.have.length(0);
    el.temporarySigners = [{ name: 'eva', surname: 'Testnumber' }];
    await el.updateComplete;
    expect([...el.shadowRoot!.querySelectorAll('[id^="remove-"]')].map((b) => b.textContent.trim())).to.deep.equal(['Remove EVA TESTNUMBER']);
    await expect(el).to.be.accessible();
    const errors: Event[] = [];
    el.addEventListener('esign-error', (e) => errors.push(e));
    button(el, 'Remove EVA TESTNUMBER').click();
    await el.updateComplete;
    expect(deepText(el)).to.contain('Remove EVA TESTNUMBER from the signers of this document?');
    await until(() => deepActiveElement()?.classList.contains('keep') ?? false, 'focus on the way that keeps the signer');
    await expect(el).to.be.accessible();
    // Escape closes what it opened, the focus back where it was
    deepActiveElement()!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await until(() => el.shadowRoot!.querySelector('[part="confirm"]') === null, 'the confirmation closed by Escape');
    await until(() => deepActiveElement()?.id?.startsWith('remove-') ?? false, 'focus back on the remove button');
    expect(deepActiveElement()!.classList.contains('destructive'), 'it looks destructive').to.equal(true);
    button(el, 'Remove EVA TESTNUMBER').click();
    await until(() => deepActiveElement()?.classList.contains('keep') ?? false, 'the confirmation again');
    const removed: CustomEvent[] = [];
    el.addEventListener('esign-signer-removed', (e) => removed.push(e as CustomEvent));
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="confirm"]')!.click();
    await until(() => removed.length === 1, 'the removal');
    expect(removed[0]!.detail).to.deep.equal({ documentId: uuid, name: 'EVA', surname: 'TESTNUMBER' });
    await until(() => el.signers.length === 1, 'the refreshed list');
    expect(el.signers[0]!.name).to.equal('ANNA');
    expect(el.shadowRoot!.querySelectorAll('[id^="remove-"], [part="confirm"]')).to.have.length(0);
    await until(() => deepActiveElement()?.getAttribute('part') === 'refresh', 'focus back on the list');
    expect(errors).to.have.length(0);
    expect(removed).to.have.length(1);
  });

  it('refreshes on an interval and stops when it leaves the page', async () => {
    const uuid = await storedDocument();
    const el = await fixture<EsignSignerList>(
      html`<esign-signer-list endpoint=${ENDPOINT} lang="en" refresh-interval="150" document-id=${uuid}></esign-signer-list>`,
    );
    const path = `/esign/api/document/${uuid}/signers.json`;
    await until(() => requestsTo(path) >= 3, 'three loads');
    el.remove();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = requestsTo(path);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(requestsTo(path)).to.equal(after);
  });
});

describe('esign-validation-report', () => {
  it('validates a stored document and says it has no signatures', async () => {
    const uuid = await storedDocument();
    const el = await fixture<EsignValidationReport>(
      html`<esign-validation-report endpoint=${ENDPOINT} lang="en" document-id=${uuid}></esign-validation-report>`,
    );
    const { detail } = await oneEvent(el, 'esign-validated');
    expect(detail.signatures).to.equal(0);
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['report.none']);
    await expect(el).to.be.accessible();
  });

  it('reads a report set as a property, in plain words, tolerating missing fields', async () => {
    const el = await fixture<EsignValidationReport>(html`<esign-validation-report lang="en"></esign-validation-report>`);
    el.report = {
      simpleReport: {
        validSignaturesCount: 1,
        signaturesCount: 3,
        jaxbModel: {
          signatureOrTimestamp: [
            {
              id: 'S1',
              signedBy: 'OK TESTNUMBER',
              signingTime: Date.UTC(2026, 0, 2, 10, 0),
              signatureFormat: 'XAdES-BASELINE-B',
              signatureLevel: 'QESig',
              indication: 'TOTAL_PASSED',
            },
            { id: 'S2', signedBy: 'MARY ÄNN', indication: 'TOTAL_FAILED', subIndication: 'HASH_FAILURE', errors: ['The reference data object is not intact!'] },
            { indication: 'INDETERMINATE', subIndication: 'SOMETHING_NEW', warnings: ['A warning'] },
          ],
        },
      },
      diagnosticData: {},
    };
    // the signatures' view loads with the first report
    await until(() => el.shadowRoot!.querySelectorAll('.signature').length === 3, 'the signatures shown');
    const text = deepText(el);
    expect(text).to.contain('1 of 3 signatures are valid.');
    expect(text).to.contain(`${en['indication.TOTAL_FAILED']}: ${en['sub.HASH_FAILURE']}`);
    expect(text).to.contain(`${en['indication.INDETERMINATE']}: SOMETHING_NEW`);
    expect(text).to.contain('The reference data object is not intact!');
    expect(text).to.contain(en['report.unknown']);
    // the plain-words part says what the technical names mean; they stay in the technical part
    const signature = el.shadowRoot!.querySelector('.signature')!;
    expect(signature.textContent).to.contain(en['level.QESig']).and.contain(en['format.XAdES']);
    expect(signature.textContent).not.to.contain('QESig').and.not.to.contain('BASELINE');
    // the signing time with its zone: never a time a reader in another zone misreads
    const signed = new Date(Date.UTC(2026, 0, 2, 10, 0));
    const zone = new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' }).formatToParts(signed).find((part) => part.type === 'timeZoneName')!.value;
    expect(signature.textContent).to.contain(`${signed.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' })} ${zone}`);
    // Baltic English writes the day before the month, never the US "Jan 2, 2026"
    expect(signature.textContent)
      .to.match(/\b2 Jan 2026\b/)
      .and.not.to.contain('Jan 2, 2026');
    expect(el.shadowRoot!.querySelector('details pre')!.textContent).to.contain('QESig').and.contain('XAdES-BASELINE-B');
    // the technical part's times as dates, not epoch milliseconds, and nothing of it cut off sideways
    const raw = el.shadowRoot!.querySelector<HTMLElement>('details pre')!;
    expect(raw.textContent).to.contain('"signingTime": "2026-01-02T10:00:00.000Z"');
    expect(raw.textContent).not.to.contain(String(Date.UTC(2026, 0, 2, 10, 0)));
    el.style.display = 'block';
    el.style.inlineSize = '300px';
    el.shadowRoot!.querySelector('details')!.open = true;
    await el.updateComplete;
    expect(raw.scrollWidth, 'no line wider than the box').to.be.at.most(raw.clientWidth);
    el.style.inlineSize = '';
    await expect(el).to.be.accessible();
  });

  it('says when the document is not found', async () => {
    const el = await fixture<EsignValidationReport>(
      html`<esign-validation-report endpoint=${ENDPOINT} lang="et" document-id=${MISSING}></esign-validation-report>`,
    );
    const { detail } = await oneEvent(el, 'esign-error');
    expect(detail.code).to.equal('document-not-found');
    await el.updateComplete;
    expect(deepText(el)).to.contain(detail.message);
    await expect(el).to.be.accessible();
  });
});

describe('esign-signing-link', () => {
  it('checks minutes and the callback before sending, then shows the link with its expiry', async () => {
    performance.clearResourceTimings();
    const uuid = await storedDocument();
    const el = await fixture<EsignSigningLink>(html`<esign-signing-link endpoint=${ENDPOINT} lang="en" document-id=${uuid}></esign-signing-link>`);
    await expect(el).to.be.accessible();
    await fill(el, 'expire', '20');
    await fill(el, 'delete', '10');
    await el.create().catch(() => undefined);
    await el.updateComplete;
    expect(deepText(el)).to.contain("Must be at least the link's validity: 20 minutes.");
    expect(el.shadowRoot!.querySelector('input[type="url"]'), 'no address field in the form').to.equal(null);
    expect(requestsTo('/esign/api/document/generate-temporary-signing-link.json')).to.equal(0);
    await expect(el).to.be.accessible();
    await fill(el, 'delete', '40');
    // where the signing page sends the person back is the host's: without it, a setup problem, nothing sent
    const setup = await el.create().then(
      () => 'sent',
      (error: { code: string; field?: string }) => `${error.code} ${error.field}`,
    );
    expect(setup).to.equal('misconfigured callbackUrl');
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['error.misconfigured']);
    expect(requestsTo('/esign/api/document/generate-temporary-signing-link.json')).to.equal(0);
    el.callbackUrl = 'https://host.example/cb';
    button(el, en['signer.add']).click();
    await el.updateComplete;
    await fill(el, 's0-name', 'EVA');
    await fill(el, 's0-code', '40504040001');
    // a signer with no surname cannot be listed or removed by the service: refused before sending
    const refused = await el.create().then(
      () => 'sent',
      (error: { code: string; field?: string }) => `${error.code} ${error.field}`,
    );
    expect(refused).to.equal('invalid-input s0-surname');
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['signer.surname-empty']);
    expect(requestsTo('/esign/api/document/generate-temporary-signing-link.json')).to.equal(0);
    await until(() => deepActiveElement()?.id === 's0-surname', 'the focus on the missing surname');
    await fill(el, 's0-surname', 'JÕEORG');
    const created = oneEvent(el, 'esign-signing-link-created');
    button(el, en['slink.submit']).click();
    const { detail } = await created;
    expect(detail.links[0]!.url).to.match(/\/link\//);
    expect(detail.links[0]!.validUntil.getTime()).to.be.greaterThan(Date.now() + 19 * 60_000);
    await el.updateComplete;
    const zone = new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' })
      .formatToParts(detail.links[0]!.validUntil)
      .find((part) => part.type === 'timeZoneName')!.value;
    expect(deepText(el), 'valid until a time with its zone').to.match(new RegExp(`Valid until [^·]*\\d{2}:\\d{2} ${zone.replace('+', '\\+')}`));
    await expect(el).to.be.accessible();
    const signers = await client.listSigners(uuid);
    expect(signers.signers.map((s) => `${s.name} ${s.surname}`)).to.include('EVA JÕEORG');
    expect(detail.signers).to.deep.equal([{ name: 'EVA', surname: 'JÕEORG' }]);
  });
});

describe('esign-validation-report: a file checked without storing it', () => {
  async function signedByTheSandbox(): Promise<Uint8Array> {
    const start = await client.smartIdSign({
      type: 'pdf',
      code: '40504040001',
      country: 'EE',
      pdf: { files: [{ name: 'contract.pdf', content: base64(samplePdf('Checked')) }] },
    });
    const result = await client.waitForResult('smartid', 'sign', start.token, { interval: 100 });
    return Uint8Array.from(atob(result.file.content), (c) => c.charCodeAt(0));
  }

  async function drop(el: EsignValidationReport, file: File): Promise<void> {
    const zone = el.shadowRoot!.querySelector('.drop')!;
    const transfer = new DataTransfer();
    transfer.items.add(file);
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    await el.updateComplete;
  }

  it('says a file the sandbox signed is valid and a tampered copy is not, storing nothing', async () => {
    performance.clearResourceTimings();
    const signed = await signedByTheSandbox();
    const el = await fixture<EsignValidationReport>(html`<esign-validation-report endpoint=${ENDPOINT} lang="en"></esign-validation-report>`);
    expect(el.shadowRoot!.querySelector('[part="validate"]')).to.equal(null);
    expect(deepText(el)).to.contain(en['report.check-file']);
    await expect(el).to.be.accessible();
    const events: CustomEvent[] = [];
    const errors: CustomEvent[] = [];
    el.addEventListener('esign-validated', (e) => events.push(e as CustomEvent));
    el.addEventListener('esign-error', (e) => errors.push(e as CustomEvent));

    await drop(el, new File([signed as BlobPart], 'contract_signed.pdf', { type: 'application/pdf' }));
    await until(() => events.length === 1, 'the report of the signed file');
    expect(events[0]!.detail).to.include({ documentId: '', fileName: 'contract_signed.pdf', validSignatures: 1, signatures: 1 });
    await el.updateComplete;
    expect(deepText(el)).to.contain('1 of 1 signature is valid.');
    expect(deepText(el)).to.contain('contract_signed.pdf');
    await until(() => deepActiveElement()?.classList.contains('summary') ?? false, 'focus on the summary');
    await expect(el).to.be.accessible();

    // one byte of the signed content changed
    const tampered = signed.slice();
    const at = new TextDecoder('latin1').decode(tampered).indexOf('Checked');
    expect(at).to.be.greaterThan(0);
    tampered[at] = 'X'.charCodeAt(0);
    await drop(el, new File([tampered], 'tampered.pdf', { type: 'application/pdf' }));
    await until(() => events.length === 2, 'the report of the tampered copy');
    expect(events[1]!.detail.fileName).to.equal('tampered.pdf');
    expect(events[1]!.detail.validSignatures).to.equal(0);
    expect(events[1]!.detail.signatures).to.equal(1);
    await el.updateComplete;
    expect(deepText(el)).to.contain('0 of 1 signature is valid.');
    expect(errors).to.have.length(0);
    // nothing stored, nothing uploaded: only the validation of files was asked, in the element's locale
    const paths = performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith('/esign/'));
    expect(paths.filter((path) => !path.includes('/smartid/'))).to.deep.equal([
      '/esign/en/api/v2/document/validation.json',
      '/esign/en/api/v2/document/validation.json',
    ]);

    // a file of another type is refused before anything is sent
    await drop(el, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['sign.wrong-type']);
    expect(events).to.have.length(2);
    await expect(el).to.be.accessible();
  });
});

describe('esign-document', () => {
  it('says once that a missing document is missing, and offers nothing that needs it', async () => {
    const errors: CustomEvent[] = [];
    const el = await fixture<EsignDocument>(
      html`<esign-document endpoint=${ENDPOINT} lang="en" document-id=${MISSING} @esign-error=${(e: CustomEvent) => errors.push(e)}></esign-document>`,
    );
    await until(() => deepText(el).includes(en['error.document-not-found']), 'the missing document said');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const text = deepText(el);
    expect(text.split(en['error.document-not-found']).length - 1, 'said once').to.equal(1);
    expect(errors.map((e) => e.detail.code)).to.deep.equal(['document-not-found']);
    for (const part of ['remove', 'download', 'link-submit']) expect(el.shadowRoot!.querySelector(`[part="${part}"]`), part).to.equal(null);
    expect(el.shadowRoot!.querySelector('esign-signer-list, esign-signing-link, esign-validation-report')).to.equal(null);
    expect(text).not.to.contain(en['slink.submit']);
    expect(text).not.to.contain(en['document.remove']);
    await expect(el).to.be.accessible();
    // a document that exists after all: checking again shows it
    el.documentId = await storedDocument();
    await until(() => el.shadowRoot!.querySelector('esign-signer-list') !== null, 'the document shown');
    expect(deepText(el)).not.to.contain(en['error.document-not-found']);
  });

  it('offers to remove the temporary signers added through its own link form, and no others', async () => {
    const uuid = await storedDocument();
    const { el, list } = await documentWithSigners(
      html`<esign-document endpoint=${ENDPOINT} lang="en" document-id=${uuid} callback-url="https://host.example/cb"></esign-document>`,
    );
    await list.updateComplete;
    expect(list.shadowRoot!.querySelectorAll('[id^="remove-"]')).to.have.length(0);
    const link = await partOf<EsignSigningLink>(el, 'esign-signing-link');
    button(link, en['signer.add']).click();
    await link.updateComplete;
    await fill(link, 's0-name', 'EVA');
    await fill(link, 's0-surname', 'TESTNUMBER');
    await fill(link, 's0-code', '40504040001');
    const created = oneEvent(el, 'esign-signing-link-created');
    button(link, en['slink.submit']).click();
    expect((await created).detail.signers).to.deep.equal([{ name: 'EVA', surname: 'TESTNUMBER' }]);
    const reloaded = oneEvent(list, 'esign-signers-loaded');
    list.shadowRoot!.querySelector<HTMLButtonElement>('[part="refresh"]')!.click();
    await reloaded;
    await list.updateComplete;
    expect([...list.shadowRoot!.querySelectorAll('[id^="remove-"]')].map((b) => b.textContent.trim())).to.deep.equal(['Remove EVA TESTNUMBER']);
    await expect(el).to.be.accessible();

    // one confirmation open at a time, whichever opens last
    const opened: Event[] = [];
    const outside: Event[] = [];
    list.addEventListener('esign-confirm-open', (e) => opened.push(e));
    el.addEventListener('esign-confirm-open', (e) => outside.push(e));
    const confirmations = () => [list, el].map((host) => host.shadowRoot!.querySelectorAll('[part="confirm"]').length);
    list.shadowRoot!.querySelector<HTMLButtonElement>('[id^="remove-"]')!.click();
    await list.updateComplete;
    await el.updateComplete;
    expect(confirmations(), "the signer's").to.deep.equal([1, 0]);
    expect(opened, 'said once').to.have.length(1);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="remove"]')!.click();
    await el.updateComplete;
    await list.updateComplete;
    expect(confirmations(), "the document's").to.deep.equal([0, 1]);
    await until(() => deepActiveElement()?.classList.contains('keep') ?? false, "focus on the open confirmation's way back");
    list.shadowRoot!.querySelector<HTMLButtonElement>('[id^="remove-"]')!.click();
    await list.updateComplete;
    await el.updateComplete;
    expect(confirmations(), "the signer's again").to.deep.equal([1, 0]);
    expect(opened).to.have.length(2);
    expect(outside, 'not beyond the document').to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('shows signers, validation and a link form, and removes the document after confirmation', async () => {
    const uuid = await storedDocument();
    const { el } = await documentWithSigners(html`<esign-document endpoint=${ENDPOINT} lang="en" document-id=${uuid}></esign-document>`);
    await until(() => deepText(el).includes(en['report.none']), 'the validation');
    await expect(el).to.be.accessible();
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="remove"]')!.click();
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['document.confirm-remove']);
    // two presses of Enter never remove it: the focus is on Keep, and Escape closes the question
    await until(() => deepActiveElement()?.classList.contains('keep') ?? false, 'focus on Keep');
    deepActiveElement()!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await until(() => deepActiveElement()?.getAttribute('part') === 'remove', 'the question closed by Escape, the focus back');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="remove"]')!.click();
    await el.updateComplete;
    const removed = oneEvent(el, 'esign-document-removed');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="confirm"]')!.click();
    expect((await removed).detail.documentId).to.equal(uuid);
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['document.removed']);
    let code = '';
    await client.listSigners(uuid).catch((error) => (code = error.code));
    expect(code).to.equal('document-not-found');
  });

  it("shows the document's state, refreshes it with the signer list, and downloads the stored file once", async () => {
    performance.clearResourceTimings();
    const uuid = await storedDocument();
    const el = await fixture<EsignDocument>(html`<esign-document endpoint=${ENDPOINT} lang="lt" document-id=${uuid}></esign-document>`);
    const state = () => el.shadowRoot!.querySelector('[part="state"]')!.textContent.trim();
    await until(() => state() === lt['document.state.saved'], 'the state, as a badge');
    // no file-name given: the title is the name the service gives with the validation
    const title = () => el.shadowRoot!.querySelector('h2')!.textContent.replace(/\s+/g, '');
    await until(() => title() === 'contract.pdfcontract.pdf', 'the file name as the title (said once, shown once)');
    expect(el.shadowRoot!.querySelector('h2 .file-name')!.getAttribute('title')).to.equal('contract.pdf');
    await expect(el).to.be.accessible();
    const statePath = `/esign/api/document/${uuid}/check-status.json`;
    await until(() => requestsTo(statePath) >= 1, 'the state request');
    const before = requestsTo(statePath);
    const list = await partOf<EsignSignerList>(el, 'esign-signer-list');
    const reloaded = oneEvent(list, 'esign-signers-loaded');
    list.shadowRoot!.querySelector<HTMLButtonElement>('[part="refresh"]')!.click();
    await reloaded;
    await until(() => requestsTo(statePath) === before + 1, 'the state asked again with the list');

    const events: CustomEvent[] = [];
    el.addEventListener('esign-document-downloaded', (e) => {
      events.push(e as CustomEvent);
      e.preventDefault(); // this host saves the file itself
    });
    const button = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="download"]')!;
    expect(button.textContent.trim()).to.equal(lt['document.download']);
    button.click();
    await until(() => events.length === 1, 'the downloaded file');
    const file = events[0]!.detail.file as File;
    expect(file.name).to.equal('contract.pdf');
    expect(file.type).to.equal('application/pdf');
    expect(new Uint8Array(await file.arrayBuffer())).to.deep.equal(samplePdf());
    await el.updateComplete;
    expect(events.length).to.equal(1);
    await expect(el).to.be.accessible();
  });

  it('says an unknown state as the service sends it and downloads nothing for a missing document', async () => {
    const el = await fixture<EsignDocument>(html`<esign-document endpoint=${ENDPOINT} lang="en" document-id=${MISSING}></esign-document>`);
    const errors: CustomEvent[] = [];
    el.addEventListener('esign-error', (e) => errors.push(e as CustomEvent));
    const downloaded: Event[] = [];
    el.addEventListener('esign-document-downloaded', (e) => downloaded.push(e));
    const code = await el.download().then(
      () => 'none',
      (error: { code: string }) => error.code,
    );
    expect(code).to.equal('document-not-found');
    expect(downloaded.length).to.equal(0);
    await until(() => el.shadowRoot!.querySelector('[part="check"]') !== null, 'the missing document view');
    expect(el.shadowRoot!.querySelector('[part="state"]')).to.equal(null);
    // two actions failed (the state check and the download), each told once
    expect(errors.map((e) => e.detail.code)).to.deep.equal(['document-not-found', 'document-not-found']);
    expect(deepText(el).split(en['error.document-not-found']).length - 1).to.equal(1);
    // the reason first, what can help after it (as every element's failure reads)
    const reason = el.shadowRoot!.querySelector('[part="error"], [role="alert"]')!;
    const check = el.shadowRoot!.querySelector('[part="check"]')!;
    expect(reason.compareDocumentPosition(check) & Node.DOCUMENT_POSITION_FOLLOWING, 'Check again after the reason').to.not.equal(0);
    await expect(el).to.be.accessible();
  });
});

// one failure for every element (the review's m13): what could not be done, then why, the icon
// beside both at their first line, the actions after; drawn as esign-status draws a session's
describe('a failure, the same in every element', () => {
  /** The failure's box, its heading and reason, and how it is drawn. */
  function failureOf(el: Element) {
    const box = el.shadowRoot!.querySelector<HTMLElement>('[part="error"]')!;
    const style = getComputedStyle(box);
    const icon = getComputedStyle(box, '::before');
    return {
      heading: box.querySelector('.title')?.textContent?.trim() ?? '',
      reason: box.querySelector('.detail')?.textContent?.trim() ?? '',
      role: box.getAttribute('role'),
      look: {
        display: style.display,
        align: style.alignItems,
        gap: style.columnGap,
        padding: style.paddingTop,
        radius: style.borderTopLeftRadius,
        icon: [icon.width, icon.height],
      },
    };
  }

  it("says what could not be done, then why, in the session elements' look: upload, signers, link, validation, the document itself", async () => {
    const status = await fixture<HTMLElement & { updateComplete: Promise<boolean> }>(
      html`<esign-status state="error" message="x" detail="y" lang="ru"></esign-status>`,
    );
    await status.updateComplete;
    const box = status.shadowRoot!.querySelector<HTMLElement>('.status')!;
    const iconBox = status.shadowRoot!.querySelector<HTMLElement>('.icon')!;
    const sessionLook = {
      display: getComputedStyle(box).display,
      align: getComputedStyle(box).alignItems,
      gap: getComputedStyle(box).columnGap,
      padding: getComputedStyle(box).paddingTop,
      radius: getComputedStyle(box).borderTopLeftRadius,
      icon: [getComputedStyle(iconBox).width, getComputedStyle(iconBox).height],
    };

    const upload = await fixture<EsignDocumentUpload>(
      html`<esign-document-upload endpoint=${ENDPOINT} lang="ru" callback-url="ftp://nope"></esign-document-upload>`,
    );
    upload.file = new File([samplePdf() as BlobPart], 'contract.pdf', { type: 'application/pdf' });
    upload.signers = [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test', successUrl: '', noEmail: false }];
    await upload.updateComplete;
    await upload.upload().catch(() => undefined);
    await upload.updateComplete;

    const list = await fixture<EsignSignerList>(html`<esign-signer-list endpoint=${ENDPOINT} lang="ru" document-id=${MISSING}></esign-signer-list>`);
    await until(() => list.shadowRoot!.querySelector('[part="error"]') !== null, "the signers' failure");

    const report = await fixture<EsignValidationReport>(
      html`<esign-validation-report endpoint=${ENDPOINT} lang="ru" document-id=${MISSING}></esign-validation-report>`,
    );
    await until(() => report.shadowRoot!.querySelector('[part="error"]') !== null, "the validation's failure");

    const link = await fixture<EsignSigningLink>(html`<esign-signing-link endpoint=${ENDPOINT} lang="ru" document-id=${MISSING}></esign-signing-link>`);
    await link.create().catch(() => undefined);
    await link.updateComplete;

    const doc = await fixture<EsignDocument>(html`<esign-document endpoint=${ENDPOINT} lang="ru" document-id=${MISSING}></esign-document>`);
    await until(() => doc.shadowRoot!.querySelector('[part="error"]') !== null, "the document's failure");

    const failures = [upload, list, report, link, doc].map(failureOf);
    expect(failures.map((f) => [f.heading, f.reason])).to.deep.equal([
      [ru['failed.upload'], ru['error.misconfigured']],
      [ru['failed.signers'], ru['error.document-not-found']],
      [ru['failed.validate'], ru['error.document-not-found']],
      // a link without the site's callback address is the site's setup problem, said before anything is sent
      [ru['failed.link'], ru['error.misconfigured']],
      [ru['failed.document'], ru['error.document-not-found']],
    ]);
    for (const failure of failures) {
      expect(failure.role).to.equal('alert');
      expect(failure.look).to.deep.equal(sessionLook);
    }
    // what can help comes after the reason
    const check = doc.shadowRoot!.querySelector('[part="check"]')!;
    expect(doc.shadowRoot!.querySelector('[part="error"]')!.compareDocumentPosition(check) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    for (const el of [upload, list, report, link, doc]) await expect(el).to.be.accessible();
  });
});

import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { EsignClient } from '../../src/client/index.js';
import '../../src/define.js';
import type { EsignHashSign } from '../../src/elements/hash-sign/hash-sign.js';
import type { EsignSign } from '../../src/elements/sign/sign.js';
import type { EsignDocumentPreview } from '../../src/elements/document-preview/document-preview.js';
import { en } from '../../src/i18n/en.js';
import { lv } from '../../src/i18n/lv.js';
import { et } from '../../src/i18n/et.js';
import type { Strings } from '../../src/i18n/index.js';
import { PERSONAS } from 'esign-sandbox/personas';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { formatSize } from '../../src/internal/documents/file-picker.js';
import { ENDPOINT, deepActiveElement, deepText, personForm, plain, requestsTo, submitButton, type, until } from './helpers.js';

before(() => performance.setResourceTimingBufferSize(100_000));

const pdfFile = (name = 'contract.pdf', pages = 1) => new File([samplePdf('Contract', pages) as BlobPart], name, { type: 'application/pdf' });

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

async function signElement(attrs: Record<string, string> = {}): Promise<EsignSign> {
  const el = await fixture<EsignSign>(html`<esign-sign endpoint=${ENDPOINT} lang="en" poll-interval="100"></esign-sign>`);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  await el.updateComplete;
  return el;
}

/** Picks files in the element's file input as the browser would after a choice. */
async function pick(el: EsignSign, files: File[]): Promise<void> {
  const input = el.shadowRoot!.querySelector<HTMLInputElement>('input[type=file]')!;
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await el.updateComplete;
}

async function chooseMobile(el: HTMLElement & { updateComplete: Promise<boolean> }) {
  el.shadowRoot!.querySelector<HTMLInputElement>('input[value="mobile"]')!.click();
  await el.updateComplete;
  await personForm(el as never).updateComplete;
}

/** How much of a preview's page is drawn (dark pixels): a visible signature adds to it. */
function ink(preview: EsignDocumentPreview): number {
  const canvas = preview.shadowRoot!.querySelector('canvas');
  if (!canvas?.width) return 0;
  const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 600) dark++;
  return dark;
}

async function text(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}

describe('esign-sign: documents', () => {
  it('is accessible with no document and with a picked one, and lists it with its size', async () => {
    const el = await signElement();
    await expect(el).to.be.accessible();
    await pick(el, [pdfFile()]);
    expect(deepText(el)).to.contain('contract.pdf');
    await expect(el).to.be.accessible();
  });

  it('refuses another file type as it is chosen, naming the types as the picker does, and sends nothing', async () => {
    performance.clearResourceTimings();
    const el = await signElement();
    await pick(el, [new File(['hello'], 'notes.txt', { type: 'text/plain' })]);
    await el.updateComplete;
    expect(deepText(el)).to.contain('This file type cannot be signed. Allowed: PDF, ASiC-E, BDOC or ADOC.');
    expect(deepText(el)).to.contain(en['sign.types']);
    expect(el.documents).to.have.length(0);
    expect(deepText(el)).not.to.contain('notes.txt');
    await expect(el).to.be.accessible();
    await type(el as never, 'code', '40504040001');
    let code = '';
    await el.start().catch((error) => (code = error.code));
    expect(code).to.equal('invalid-input');
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['sign.no-file']);
    await until(() => deepActiveElement()?.getAttribute('part') === 'pick', 'focus on the file button');
    expect(requestsTo('/esign/')).to.equal(0);
    // a PDF chosen next replaces the refusal
    await pick(el, [new File([samplePdf() as BlobPart], 'contract.pdf', { type: 'application/pdf' })]);
    await el.updateComplete;
    expect(el.documents.map((d) => d.name)).to.deep.equal(['contract.pdf']);
    expect(deepText(el)).not.to.contain(en['sign.wrong-type']);
  });

  it('refuses a file over the host limit before encoding, in the person language', async () => {
    performance.clearResourceTimings();
    const el = await signElement({ 'max-size': '100', lang: 'lv' });
    await pick(el, [pdfFile()]);
    await type(el as never, 'code', '40504040001');
    await el.start().catch(() => undefined);
    await el.updateComplete;
    expect(deepText(el)).to.contain(lv['sign.too-large'].split('{name}')[1]!.split('{limit}')[0]!.trim());
    expect(requestsTo('/esign/')).to.equal(0);
  });

  it('shows every problem at once, the focus on the first', async () => {
    const el = await signElement();
    await el.start().catch(() => undefined);
    await until(() => deepText(el).includes(en['form.code.empty']), 'the code error');
    expect(deepText(el)).to.contain(en['sign.no-file']);
    await until(() => deepActiveElement()?.getAttribute('part') === 'pick', 'focus on the file button');
    await expect(el).to.be.accessible();
  });

  it('asks for a document when there is none', async () => {
    const el = await signElement();
    await type(el as never, 'code', '40504040001');
    await el.start().catch(() => undefined);
    await el.updateComplete;
    expect(deepText(el)).to.contain(en['sign.no-file']);
  });
});

describe('esign-sign: signing', () => {
  it('start() called three times at once signs once: one esign-signed, one file, one download link', async () => {
    performance.clearResourceTimings();
    const el = await signElement();
    el.files = pdfFile('once.pdf');
    await type(el as never, 'code', '40504040001');
    const counts = { started: 0, signed: 0, error: 0 };
    el.addEventListener('esign-started', () => counts.started++);
    el.addEventListener('esign-signed', () => counts.signed++);
    el.addEventListener('esign-error', () => counts.error++);
    const runs = [el.start(), el.start(), el.start()];
    expect(new Set(runs).size).to.equal(1);
    const details = await Promise.all(runs);
    expect(details[0]).to.equal(details[2]);
    await el.updateComplete;
    expect(counts).to.deep.equal({ started: 1, signed: 1, error: 0 });
    expect(requestsTo('/esign/en/smartid/sign.json')).to.equal(1);
    expect(el.shadowRoot!.querySelectorAll('[part="download"]').length).to.equal(1);
  });

  for (const [lang, t, channel] of [
    ['lv', lv, 'smartid'],
    ['et', et, 'mobile'],
  ] as [string, Strings, 'smartid' | 'mobile'][]) {
    it(`signs in ${lang === 'lv' ? 'Latvian' : 'Estonian'} with ${channel === 'smartid' ? 'Smart-ID' : 'Mobile-ID'}: the form, the wait and the signed file in the person's words`, async () => {
      const el = await fixture<EsignSign>(html`<esign-sign endpoint=${ENDPOINT} lang=${lang} poll-interval="100"></esign-sign>`);
      el.files = pdfFile('ligums.pdf');
      await el.updateComplete;
      if (channel === 'mobile') {
        await chooseMobile(el);
        await type(el as never, 'phone', '+37200000766');
        await type(el as never, 'code', '60001019906');
      } else {
        // a Latvian page preselects Latvia: a Latvian person signs without choosing it
        expect(personForm(el as never).shadowRoot!.querySelector<HTMLSelectElement>('#country')!.value).to.equal('LV');
        await type(el as never, 'code', '050405-10009');
      }
      expect(deepText(personForm(el as never))).to.contain(t['form.code']);
      // a Latvian page offers no Mobile-ID (it cannot serve Latvia): no method to choose; Estonia has both
      if (lang === 'lv') expect(el.shadowRoot!.querySelectorAll('input[name="channel"]').length).to.equal(0);
      else expect(deepText(el)).to.contain(t[`channel.${channel}`]);
      expect(submitButton(el as never).textContent.trim()).to.equal(t['sign.submit']);
      const events: string[] = [];
      for (const type of ['esign-started', 'esign-signed', 'esign-error', 'esign-cancelled']) el.addEventListener(type, () => events.push(type));
      const signed = oneEvent(el, 'esign-signed');
      // the first poll answered after 1.5 s: the wait stays on screen long enough to be read on a busy machine
      await fetch('/__faults/poll?plan=stall');
      submitButton(el as never).click();
      await until(() => deepText(el).includes(t['status.waiting']), 'the wait in the language');
      const { detail } = await signed;
      expect(await (await fetch('/__faults/poll')).json()).to.deep.include({ faulted: 1, left: 0 });
      await el.updateComplete;
      const name = `${detail.person.name} ${detail.person.surname}`;
      expect(deepText(el)).to.contain(t['sign.success'].replace('{name}', name));
      expect(el.shadowRoot!.querySelector('[part="download"]')!.textContent.trim()).to.equal(t['sign.download']);
      expect(events).to.deep.equal(['esign-started', 'esign-signed']);
      expect(deepText(el), 'no English word left').not.to.contain(en['sign.download']);
      await expect(el).to.be.accessible();
    });
  }

  it('a file the service cannot use is answered with "Choose another file", focused, which takes the person to the picker (never "Change the details")', async () => {
    const el = await signElement();
    await pick(el, [new File(['not a PDF at all'], 'scan.pdf', { type: 'application/pdf' })]);
    await type(el as never, 'code', '40504040001');
    const errors: string[] = [];
    el.addEventListener('esign-error', (event) => errors.push((event as CustomEvent<{ code: string }>).detail.code));
    submitButton(el as never).click();
    await until(() => errors.includes('document-corrupted'), 'the service refuses the file');
    await until(() => deepActiveElement()?.getAttribute('part') === 'retry', 'the focus on what helps');
    const actions = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.actions button')].map((b) => [
      b.getAttribute('part'),
      b.className,
      b.textContent.trim(),
    ]);
    expect(actions).to.deep.equal([['retry', 'primary', en['sign.pick-other']]]);
    expect(deepText(el)).not.to.include(en['action.edit']);
    await expect(el).to.be.accessible();
    (deepActiveElement() as HTMLButtonElement).click();
    await until(() => deepActiveElement()?.getAttribute('part') === 'pick', 'the focus on the picker');
    expect(errors.filter((code) => code === 'document-corrupted')).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it('a file the site gave that the service cannot use is a dead end said as such: no "Change the details", nothing to retry, the focus on the words', async () => {
    const el = await signElement();
    el.files = [new File(['not a PDF at all'], 'scan.pdf', { type: 'application/pdf' })];
    await type(el as never, 'code', '40504040001');
    const errors: string[] = [];
    el.addEventListener('esign-error', (event) => errors.push((event as CustomEvent<{ code: string }>).detail.code));
    submitButton(el as never).click();
    await until(() => errors.includes('document-corrupted'), 'the service refuses the file');
    await until(() => deepActiveElement()?.getAttribute('part') === 'status', 'the focus on what happened');
    expect([...el.shadowRoot!.querySelectorAll('.actions button')].map((b) => b.textContent.trim())).to.deep.equal([]);
    expect(deepText(el)).not.to.include(en['action.edit']);
    expect(deepText(el)).to.include(en['error.document-corrupted']);
    expect(errors).to.deep.equal(['document-corrupted']);
    await expect(el).to.be.accessible();
  });

  it('a body parser in front that refuses the file with its own 413 page: said as a file too large, never as the network', async () => {
    await fetch('/__faults/parser?starts=1');
    const el = await signElement();
    el.files = pdfFile();
    await type(el as never, 'code', '40504040001');
    const errors: string[] = [];
    el.addEventListener('esign-error', (event) => errors.push((event as CustomEvent<{ code: string }>).detail.code));
    submitButton(el as never).click();
    await until(() => errors.length > 0, 'the error');
    expect(errors).to.deep.equal(['request-too-large']);
    await until(() => deepText(el).includes(en['error.request-too-large']), 'the words of a file too large');
    expect(deepText(el)).not.to.include(en['error.network']);
    await expect(el).to.be.accessible();
  });

  it('signs a PDF with Smart-ID (visible, last page): the signed file as base64 and as a PDF Blob, and a download', async () => {
    const el = await signElement({ 'signature-position': 'right_bottom', 'signature-page': 'last_page', 'certificate-level': 'QUALIFIED' });
    el.files = pdfFile('contract.pdf', 2);
    await type(el as never, 'code', '40504040001');
    const signed = oneEvent(el, 'esign-signed');
    submitButton(el as never).click();
    const { detail } = await signed;
    expect(detail.file.name).to.equal('contract (signed).pdf');
    expect(detail.file.type).to.equal('application/pdf');
    expect(detail.file.blob.type).to.equal('application/pdf');
    expect(detail.file.blob.name).to.equal('contract (signed).pdf');
    const content = await text(detail.file.blob);
    expect(content.startsWith('%PDF-')).to.equal(true);
    expect(content).to.contain('/SubFilter /ETSI.CAdES.detached');
    expect(content).to.contain('Digitally signed by');
    expect(atob(detail.file.content)).to.equal(content);
    expect(detail.person).to.deep.equal({ name: 'OK', surname: 'TESTNUMBER' });
    expect(detail.signatureId).to.be.a('string');
    await el.updateComplete;
    const link = el.shadowRoot!.querySelector<HTMLAnchorElement>('[part="download"]')!;
    expect(link.getAttribute('download')).to.equal('contract (signed).pdf');
    expect(link.href).to.match(/^blob:/);
    expect(await text(await (await fetch(link.href)).blob())).to.equal(content);
    await expect(el).to.be.accessible();
  });

  it("sums the signature up under who signed: its level, its method and when, in the person's words and time", async () => {
    const cases: { lang: string; attrs: Record<string, string>; code: string; mobile: boolean; words: string[] }[] = [
      {
        lang: 'en',
        attrs: { 'certificate-level': 'QUALIFIED' },
        code: '40504040001',
        mobile: false,
        words: [en['sign.level.advanced-qc'], en['channel.smartid']],
      },
      { lang: 'lv', attrs: { country: 'EE' }, code: '40504040001', mobile: false, words: [lv['sign.level.qes'], lv['channel.smartid']] },
      { lang: 'et', attrs: { 'certificate-level': 'QUALIFIED' }, code: '50001018865', mobile: true, words: [et['sign.level.qes'], et['channel.mobile']] },
    ];
    for (const { lang, attrs, code, mobile, words } of cases) {
      const el = await signElement({ ...attrs, lang });
      el.files = pdfFile('contract.pdf');
      if (mobile) {
        await chooseMobile(el);
        await type(el as never, 'phone', '+37060000666');
      }
      await type(el as never, 'code', code);
      const before = new Date();
      const signedEvents: Event[] = [];
      el.addEventListener('esign-signed', (e) => signedEvents.push(e));
      await el.start();
      await el.updateComplete;
      const status = el.shadowRoot!.querySelector('esign-status')!;
      await status.updateComplete;
      // brand names are kept whole with a non-breaking hyphen
      const detail = status.detail.replace(/\u2011/g, '-').replace(/\u00a0/g, ' ');
      const when = before.toLocaleDateString(lang === 'en' ? 'en-GB' : lang, { dateStyle: 'medium' });
      expect(detail.startsWith(`${words.join(' · ')} · ${when.replace(/\u00a0/g, ' ')}`), `${lang}: ${detail}`).to.equal(true);
      // shown with its dots, said as a list
      expect(status.shadowRoot!.querySelector('#detail [aria-hidden="true"]')?.textContent).to.equal(status.detail);
      expect(status.shadowRoot!.querySelector('#detail .visually-hidden')?.textContent).to.equal(status.detail.split(' ·\u00a0').join(', '));
      expect(signedEvents).to.have.length(1);
      await expect(el).to.be.accessible();
    }
  });

  it('shows the document before the person confirms, and the signed file with its visible signature after', async () => {
    const el = await signElement({ 'signature-position': 'right_bottom' });
    el.files = pdfFile('contract.pdf', 1);
    await el.updateComplete;
    const before = el.shadowRoot!.querySelector<EsignDocumentPreview>('esign-document-preview')!;
    expect(before, 'a preview before signing').to.exist;
    await until(() => (before.shadowRoot!.querySelector('.textLayer')?.textContent ?? '').includes('Contract'), 'the document drawn').catch((e) => {
      throw new Error(`${e.message}: ${before._status} ${before._error} ${before.isConnected} ${before.shadowRoot!.textContent}`);
    });
    const inkBefore = ink(before);
    await expect(el).to.be.accessible();
    await type(el as never, 'code', '40504040001');
    const signed = oneEvent(el, 'esign-signed');
    submitButton(el as never).click();
    await signed;
    await el.updateComplete;
    const after = el.shadowRoot!.querySelector<EsignDocumentPreview>('esign-document-preview')!;
    expect(after.file && (after.file as File).name).to.equal('contract (signed).pdf');
    await until(
      () => (after.shadowRoot!.querySelector('.textLayer')?.textContent ?? '').includes('Contract') && ink(after) > inkBefore,
      'the signed file drawn with more on the page',
    );
    // one download in the card: the signed file's, not the preview's own beside it
    const previewLink = after.shadowRoot!.querySelector('[part="open"]')!;
    expect(getComputedStyle(previewLink).display).to.equal('none');
    expect(el.shadowRoot!.querySelectorAll('[part="download"]').length).to.equal(1);
    await expect(el).to.be.accessible();

    const none = await signElement({ 'no-preview': '' });
    none.files = pdfFile();
    await none.updateComplete;
    expect(none.shadowRoot!.querySelector('esign-document-preview'), 'the host turned it off').to.equal(null);
  });

  it('signs several picked files as one ASiC-E container with Mobile-ID', async () => {
    const el = await signElement({ type: 'asice' });
    await pick(el, [pdfFile('a.pdf')]);
    await pick(el, [new File(['annex'], 'annex.txt', { type: 'text/plain' })]);
    expect(deepText(el)).to.contain('a.pdf');
    expect(deepText(el)).to.contain('annex.txt');
    await chooseMobile(el);
    await type(el as never, 'phone', '+37060000666');
    await type(el as never, 'code', '50001018865');
    const detail = await el.start();
    expect(detail.file.name).to.equal('a (signed).asice');
    expect(detail.file.blob.type).to.equal('application/vnd.etsi.asic-e+zip');
    const zip = await text(detail.file.blob);
    expect(zip.slice(30, 38)).to.equal('mimetype');
    expect(zip).to.contain('annex.txt');
    expect(zip).to.contain('META-INF/signatures0.xml');
  });

  for (const kind of ['bdoc', 'adoc'] as const) {
    it(`signs a ${kind} container given as base64 by the host`, async () => {
      const el = await signElement({ type: kind });
      el.files = [{ name: 'contract.pdf', content: base64(samplePdf()) }];
      await type(el as never, 'code', '30303039914');
      const detail = await el.start();
      expect(detail.file.name).to.equal(`contract (signed).${kind}`);
      expect(el.shadowRoot!.querySelector('[part="pick"]')).to.equal(null);
    });
  }

  it('shows progress while it encodes a large file', async function () {
    // 4 MB encoded, sent, signed and read back: read in many chunks, each told (a larger one only
    // loaded the machine: under the whole suite its way through the proxy outran the upstream's time limit)
    this.timeout(90_000);
    const el = await signElement({ type: 'asice' });
    const big = new Uint8Array(4 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 65536) crypto.getRandomValues(big.subarray(i, i + 65536));
    el.files = new File([big], 'big.bin');
    await type(el as never, 'code', '40504040001');
    let sawProgress = false;
    const observer = new MutationObserver(() => {
      if (el.shadowRoot!.querySelector('progress')) sawProgress = true;
    });
    observer.observe(el.shadowRoot!, { childList: true, subtree: true });
    const detail = await el.start();
    observer.disconnect();
    expect(sawProgress).to.equal(true);
    expect(detail.file.blob.size).to.be.greaterThan(big.length);
  });

  it('shows a large document on its way up: its bytes sent of its size, under a button that says it is sending, said once with its size, then the control code', async () => {
    const el = await signElement({ type: 'asice' });
    const big = new Uint8Array(3 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 65536) crypto.getRandomValues(big.subarray(i, i + 65536));
    el.files = new File([big], 'big.bin');
    await type(el as never, 'code', '40504040001');
    const started: Event[] = [];
    el.addEventListener('esign-started', (e) => started.push(e));
    const seen = new Set<string>();
    const label = () => el.shadowRoot!.querySelector('[part="progress"] span')?.textContent ?? '';
    const observer = new MutationObserver(() => seen.add(label()));
    observer.observe(el.shadowRoot!, { childList: true, subtree: true, characterData: true });
    // the start is held at the test server, unread, until the page has told what it sent
    await fetch('/__faults/held-file?hold=1');
    const signing = el.start();
    const total = formatSize(big.length, 'en');
    try {
      // the first word may be of no bytes yet (a busy machine's socket takes its first chunk late)
      const bar = () => el.shadowRoot!.querySelector<HTMLProgressElement>('[part="progress"] progress');
      await until(() => /^Sending the document: .+ of /.test(label()) && (bar()?.value ?? 0) > 0, 'the bytes sent told');
      expect(label()).to.match(new RegExp(`^Sending the document: [\\d.,]+\\s?[kKM]?B of ${total.replace('.', '\\.')}$`));
      expect(bar()!.value).to.be.greaterThan(0);
      // the busy button says what goes on, and a screen reader is told once, with the size
      expect(submitButton(el as never).textContent?.trim()).to.equal(en['sign.sending-busy']);
      expect(el.shadowRoot!.querySelector('form p[role="status"]')?.textContent?.trim()).to.equal(en['sign.sending-start'].replace('{size}', total));
      expect(started).to.have.length(0);
      await expect(el).to.be.accessible();
    } finally {
      await fetch('/__faults/held-file?release=1');
    }
    await until(() => started.length === 1, 'the session started');
    observer.disconnect();
    expect(el.shadowRoot!.querySelector('[part="progress"]')).to.equal(null);
    expect([...seen].some((words) => words === 'Preparing the document…')).to.equal(true);
    expect([...seen].filter((words) => words.startsWith('Sending the document:')).length).to.be.greaterThan(0);
    await el.cancel();
    await signing.catch(() => undefined);
    expect(started).to.have.length(1);
  });

  const failing = PERSONAS.filter((p) => !p.slow && (p.signOutcome ?? p.outcome) !== 'ok');
  for (const persona of failing) {
    const outcome = persona.signOutcome ?? persona.outcome;
    it(`${persona.channel} ${persona.code} ends signing in ${outcome}`, async () => {
      const el = await signElement();
      el.files = pdfFile();
      if (persona.channel === 'mobile') {
        await chooseMobile(el);
        await type(el as never, 'phone', persona.phone!);
      } else {
        const select = personForm(el as never).shadowRoot!.querySelector<HTMLSelectElement>('#country')!;
        select.value = persona.countries.includes('LT') ? 'LT' : persona.countries[0]!;
        select.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
      }
      await type(el as never, 'code', persona.code);
      const failed = oneEvent(el, 'esign-error');
      submitButton(el as never).click();
      const { detail } = await failed;
      expect(detail.serviceCode).to.equal(outcome);
      await until(() => deepText(el).includes(plain(detail.message)), 'the error words');
      // what was being signed stays above the words
      const subject = el.shadowRoot!.querySelector('[part="subject"]')!;
      expect(subject.querySelector('.label')!.textContent).to.equal(en['sign.file']);
      expect(subject.querySelector('.file-name')!.getAttribute('title')).to.equal(el.documents[0]!.name);
      await expect(el).to.be.accessible();
    });
  }

  it('cancels while waiting and removes the session at the service', async () => {
    const el = await signElement();
    el.files = pdfFile();
    await chooseMobile(el);
    await type(el as never, 'phone', '+37060000607');
    await type(el as never, 'code', '39001010607');
    const started = oneEvent(el, 'esign-started');
    const running = el.start().catch((error) => error.code);
    const { detail } = await started;
    expect(detail.kind).to.equal('sign');
    await el.cancel();
    expect(await running).to.equal('cancelled');
    await until(() => deepText(el).includes(en['sign.cancelled']), 'the cancelled words');
    expect(el.shadowRoot!.querySelector('[part="subject"] .file-name')!.getAttribute('title'), 'the document named above the words').to.equal(
      el.documents[0]!.name,
    );
    await expect(el).to.be.accessible();
    let code = '';
    await new EsignClient({ endpoint: ENDPOINT, lang: 'en' }).mobileSignStatus(detail.token).catch((error) => (code = error.code));
    expect(code).to.equal('session-not-found');
  });
});

describe('esign-hash-sign', () => {
  const hex = 'a'.repeat(64);

  async function hashElement(attrs: Record<string, string> = {}): Promise<EsignHashSign> {
    const el = await fixture<EsignHashSign>(html`<esign-hash-sign endpoint=${ENDPOINT} lang="en" poll-interval="100"></esign-hash-sign>`);
    for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
    await el.updateComplete;
    return el;
  }

  it('signs a hex SHA256 hash with Smart-ID and offers only Lithuania and Estonia', async () => {
    const el = await hashElement({ hash: hex.toUpperCase() });
    await expect(el).to.be.accessible();
    const options = [...personForm(el as never).shadowRoot!.querySelectorAll('option')].map((o) => o.value);
    expect(options).to.deep.equal(['LT', 'EE']);
    // in lowercase, in groups, copied whole without spaces
    expect(el.shadowRoot!.querySelector('[part="hash"]')!.textContent).to.equal(hex);
    await type(el as never, 'code', '40504040001');
    const signed = oneEvent(el, 'esign-hash-signed');
    submitButton(el as never).click();
    const { detail } = await signed;
    expect(detail.hash).to.equal(hex);
    expect(detail.hashAlgorithm).to.equal('SHA256');
    expect(atob(detail.signatureValue)).to.have.length(256);
    await until(() => deepText(el).includes(en['hash.success']), 'the success words');
    await expect(el).to.be.accessible();
  });

  it("names what is signed in the site's words, above the form and beside the code while waiting; the hash under Technical details, in groups of four", async () => {
    const el = await hashElement({ hash: hex, subject: 'Payment order 123' });
    const root = el.shadowRoot!;
    expect(root.querySelector('[part="subject"]')!.textContent.trim()).to.equal('Payment order 123');
    const details = root.querySelector<HTMLDetailsElement>('details[part="details"]')!;
    expect(details.open, 'the hash behind its disclosure').to.equal(false);
    expect(details.querySelector('summary')!.textContent.trim()).to.equal(en['hash.details']);
    const groups = [...root.querySelectorAll('[part="hash"] .group')].map((group) => group.textContent);
    expect(groups).to.have.length(16);
    expect(groups.every((group) => group === 'aaaa')).to.equal(true);
    await expect(el).to.be.accessible();
    // opened with the keyboard
    details.querySelector('summary')!.focus();
    await sendKeys({ press: 'Enter' });
    expect(details.open).to.equal(true);
    await expect(el).to.be.accessible();
    // while waiting, beside the code, as the thing being confirmed, and said with the code's box (not the small print below)
    await type(el as never, 'code', '39001010607');
    const started = oneEvent(el, 'esign-started');
    submitButton(el as never).click();
    await started;
    await el.updateComplete;
    const code = root.querySelector('esign-control-code')!;
    await code.updateComplete;
    const confirming = code.shadowRoot!.querySelector('[part="confirming"]')!;
    expect(confirming.textContent.trim()).to.equal(en['code.confirming'].replace('{subject}', 'Payment order 123'));
    const box = code.shadowRoot!.querySelector('.box')!;
    expect(box.getAttribute('aria-describedby')!.split(' ')[0], 'said first with the code').to.equal('confirming');
    // the digits above it, the instruction below: it stands between them
    const order = [...box.children].map((child) => child.className);
    expect(order.indexOf('confirming')).to.be.greaterThan(order.indexOf('digits'));
    expect(order.indexOf('confirming')).to.be.lessThan(order.indexOf('instruction'));
    expect(root.querySelector('esign-status')!.detail).not.to.contain('Payment order 123');
    // a host styles it through the element (forwarded)
    expect(el.shadowRoot!.querySelector('esign-control-code')!.getAttribute('exportparts')).to.contain('confirming');
    await expect(el).to.be.accessible();
    await el.cancel();
  });

  it('shows the hash open when the site names nothing else, and the slot takes richer words', async () => {
    const el = await hashElement({ hash: hex });
    expect(el.shadowRoot!.querySelector('details[part="details"]'), 'no disclosure: the hash is what is shown').to.equal(null);
    expect(el.shadowRoot!.querySelector('[part="hash"]')!.textContent).to.equal(hex);
    expect(el.shadowRoot!.querySelector('[part="subject"]')).to.equal(null);
    const slotted = await fixture<EsignHashSign>(
      html`<esign-hash-sign endpoint=${ENDPOINT} lang="en" hash=${hex}><span slot="subject">Payment order <b>123</b></span></esign-hash-sign>`,
    );
    expect(slotted.shadowRoot!.querySelector<HTMLDetailsElement>('details[part="details"]')!.open).to.equal(false);
    const slot = slotted.shadowRoot!.querySelector<HTMLSlotElement>('[part="subject"] slot')!;
    expect(slot.assignedElements().map((e) => e.textContent)).to.deep.equal(['Payment order 123']);
    await expect(slotted).to.be.accessible();
  });

  it('on a Latvian page, says which personal codes can sign here (hash signing serves Lithuania and Estonia); on another page, nothing', async () => {
    const latvian = await fixture<EsignHashSign>(html`<esign-hash-sign endpoint=${ENDPOINT} lang="lv" hash=${hex}></esign-hash-sign>`);
    await latvian.updateComplete;
    expect(latvian.shadowRoot!.querySelector('[part="note"]')!.textContent).to.equal(lv['hash.countries']);
    await expect(latvian).to.be.accessible();
    const english = await hashElement({ hash: hex });
    expect(english.shadowRoot!.querySelector('[part="note"]')).to.equal(null);
  });

  it('signs a SHA512 hash given as bytes with Mobile-ID: a 64-byte ECDSA signature', async () => {
    const el = await hashElement({ 'hash-algorithm': 'SHA512' });
    el.hash = new Uint8Array(await crypto.subtle.digest('SHA-512', new TextEncoder().encode('contract')));
    await chooseMobile(el);
    await type(el as never, 'phone', '+37200000766');
    await type(el as never, 'code', '60001019906');
    const detail = await el.start();
    expect(detail.hash).to.have.length(128);
    expect(atob(detail.signatureValue)).to.have.length(64);
  });

  it('reads a base64 hash', async () => {
    const el = await hashElement();
    el.hash = btoa(String.fromCharCode(...new Uint8Array(32).fill(0xab)));
    expect(el.hashHex).to.equal('ab'.repeat(32));
  });

  it("takes a hash of the wrong length for the site's mistake: misconfigured, said to the developer, nothing to retry, nothing sent", async () => {
    performance.clearResourceTimings();
    const el = await hashElement({ hash: hex, 'hash-algorithm': 'SHA512' });
    await type(el as never, 'code', '40504040001');
    const errors: string[] = [];
    el.addEventListener('esign-error', (event) => errors.push((event as CustomEvent<{ code: string }>).detail.code));
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warned.push(args.join(' '));
    let code = '';
    try {
      await el.start().catch((error) => (code = error.code));
    } finally {
      console.warn = warn;
    }
    expect(code).to.equal('misconfigured');
    expect(errors, 'one event for the host').to.deep.equal(['misconfigured']);
    expect(warned.filter((line) => line.includes('SHA-512 hash is 64 bytes; this one is 32')).length, 'the developer told what is wrong').to.equal(1);
    await el.updateComplete;
    // the person is not asked to fix a field: the site's words, no retry of the same
    expect(deepText(el)).to.contain(en['error.misconfigured']);
    expect(el.shadowRoot!.querySelector('[part="retry"]')).to.equal(null);
    expect(el.shadowRoot!.querySelector('.field-error')).to.equal(null);
    await until(() => el.shadowRoot!.activeElement?.localName === 'esign-status', 'the focus on what is said');
    await expect(el).to.be.accessible();
    expect(requestsTo('/esign/')).to.equal(0);
  });

  it('refuses a non-ASCII Smart-ID message as a setup error', async () => {
    const el = await hashElement({ hash: hex, message: 'Pasirašykite sutartį' });
    await type(el as never, 'code', '40504040001');
    const failed = oneEvent(el, 'esign-error');
    el.start().catch(() => undefined);
    const { detail } = await failed;
    expect(detail.code).to.equal('misconfigured');
    expect(detail.field).to.equal('message');
  });

  it('ends in the person outcome: a refusal', async () => {
    const el = await hashElement({ hash: hex });
    await type(el as never, 'code', '30403039917');
    const failed = oneEvent(el, 'esign-error');
    submitButton(el as never).click();
    expect((await failed).detail.code).to.equal('refused');
    await until(() => deepText(el).includes(en['error.refused.smartid']), 'the error words');
    await expect(el).to.be.accessible();
  });
});

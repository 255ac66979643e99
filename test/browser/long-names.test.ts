import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/define.js';
import type { EsignSign } from '../../src/elements/sign/sign.js';
import type { EsignDocumentUpload } from '../../src/elements/document-upload/document-upload.js';
import type { EsignValidationReport } from '../../src/elements/validation-report/validation-report.js';
import type { EsignDocument } from '../../src/elements/document/document.js';
import type { EsignDocumentPreview } from '../../src/elements/document-preview/document-preview.js';
import { EsignClient } from '../../src/client/index.js';
import { en } from '../../src/i18n/en.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { ENDPOINT, deepActiveElement, submitButton, type, until } from './helpers.js';

// What a person sees, finished: a file name of 200 characters in every element that shows one,
// nothing wider than its box and the page never wider; every disclosure opened at phone and desktop
// widths; no field marked before a form is submitted.

const LONG = `${'Sutartis-su-labai-ilgu-pavadinimu-'.repeat(6).slice(0, 196)}.pdf`;
const pdf = (name = LONG, pages = 1) => new File([samplePdf('Contract', pages) as BlobPart], name, { type: 'application/pdf' });
const client = new EsignClient({ endpoint: ENDPOINT, lang: 'en' });

/** An element in a box of the given width. */
async function inBox<T extends HTMLElement>(width: number, template: ReturnType<typeof html>): Promise<{ box: HTMLDivElement; el: T }> {
  const box = await fixture<HTMLDivElement>(html`<div style="inline-size: ${width}px">${template}</div>`);
  return { box, el: box.firstElementChild as T };
}

/** Every file name the element shows: inside its box, whole in its title, whole for a screen reader. */
function expectNamesFit(root: ShadowRoot, box: HTMLElement, name = LONG): void {
  const names = [...root.querySelectorAll<HTMLElement>('.file-name')];
  expect(names.length, 'a file name is shown').to.be.greaterThan(0);
  const right = Math.round(box.getBoundingClientRect().right);
  for (const shown of names) {
    expect(Math.round(shown.getBoundingClientRect().right), 'the name inside its box').to.be.at.most(right);
    expect(shown.getAttribute('title')).to.equal(name);
    expect(shown.querySelector('.visually-hidden')!.textContent).to.equal(name);
    // the end and the extension always show
    const end = shown.querySelector<HTMLElement>('.name-end')!;
    // enough of the end to tell two names apart (`contract (signed)` from `offer (signed)`)
    expect(end.textContent).to.equal('labai-ilgu-pav.pdf');
    expect(end.getBoundingClientRect().width, 'the end is drawn').to.be.greaterThan(10);
  }
}

const WIDTHS = [320, 360, 1280];

/** Nothing widens the page beyond the viewport or the box itself (a scroll bar coming and going aside). */
function expectPageFits(box: HTMLElement, what = 'the page'): void {
  const page = document.documentElement;
  const margin = parseFloat(getComputedStyle(document.body).marginRight);
  expect(page.scrollWidth, what).to.be.at.most(Math.max(page.clientWidth, Math.ceil(box.getBoundingClientRect().right + margin)));
}

describe('a file name of 200 characters never widens anything', () => {
  for (const width of WIDTHS) {
    it(`${width} px: esign-sign lists it, and offers the signed file beside its name`, async () => {
      const { box, el } = await inBox<EsignSign>(
        width,
        html`<esign-sign endpoint=${ENDPOINT} lang="en" poll-interval="100" signature-position="right_bottom"></esign-sign>`,
      );
      el.files = pdf(LONG, 2);
      await el.updateComplete;
      await until(() => el.shadowRoot!.querySelector('.file-name') !== null, 'the file listed');
      expectNamesFit(el.shadowRoot!, box);
      await type(el as never, 'code', '40504040001');
      const signed = oneEvent(el, 'esign-signed');
      submitButton(el as never).click();
      await signed;
      await el.updateComplete;
      const signedName = LONG.replace('.pdf', ' (signed).pdf');
      const download = el.shadowRoot!.querySelector<HTMLAnchorElement>('[part="download"]')!;
      expect(download.textContent.trim(), 'the button says what it does').to.equal(en['sign.download']);
      expect(download.getAttribute('download')).to.equal(signedName);
      expect(Math.round(download.getBoundingClientRect().right), 'the download button').to.be.at.most(Math.round(box.getBoundingClientRect().right));
      const names = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.file-name')];
      expect(names.map((n) => n.getAttribute('title'))).to.deep.equal([signedName]);
      expect(Math.round(names[0]!.getBoundingClientRect().right), 'the signed name').to.be.at.most(Math.round(box.getBoundingClientRect().right));
      // the mark the widget added shows whole, with 12 characters of the name's own before it
      expect(names[0]!.querySelector('.name-end')!.textContent).to.equal('bai-ilgu-pav (signed).pdf');
      // on a line of its own under its button, at every width
      expect(Math.round(names[0]!.getBoundingClientRect().top), 'under the button').to.be.at.least(Math.round(download.getBoundingClientRect().bottom));
      // the signed file opens on the page its visible signature is on (the last)
      const preview = el.shadowRoot!.querySelector<EsignDocumentPreview>('esign-document-preview')!;
      await until(() => preview._status === 'ready', 'the signed file shown');
      expect(preview.page).to.equal(2);
      // the preview's controls on one row inside the box
      const toolbar = preview.shadowRoot!.querySelector<HTMLElement>('.toolbar')!;
      const buttons = [...toolbar.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
      expect(new Set(buttons.map((b) => Math.round(b.top))).size, 'one row').to.equal(1);
      expect(Math.round(Math.max(...buttons.map((b) => b.right))), 'the last control').to.be.at.most(Math.round(box.getBoundingClientRect().right));
      expectPageFits(box);
      await expect(el).to.be.accessible();
    });

    it(`${width} px: esign-document-upload lists it and names it once uploaded`, async () => {
      const { box, el } = await inBox<EsignDocumentUpload>(width, html`<esign-document-upload endpoint=${ENDPOINT} lang="en"></esign-document-upload>`);
      el.file = pdf();
      await el.updateComplete;
      await until(() => el.shadowRoot!.querySelector('.file-name') !== null, 'the file listed');
      expectNamesFit(el.shadowRoot!, box);
      el.signers = [];
      const uploaded = oneEvent(el, 'esign-document-uploaded');
      void el.upload();
      const { detail } = await uploaded;
      expect(detail.fileName).to.equal(LONG);
      await el.updateComplete;
      expectNamesFit(el.shadowRoot!, box);
      expect(el.shadowRoot!.querySelector('.uploaded .id')!.textContent).to.equal(detail.uuid);
      expectPageFits(box);
      await expect(el).to.be.accessible();
    });

    it(`${width} px: esign-validation-report lists a dropped file`, async () => {
      const { box, el } = await inBox<EsignValidationReport>(width, html`<esign-validation-report endpoint=${ENDPOINT} lang="en"></esign-validation-report>`);
      await el.updateComplete;
      const validated = oneEvent(el, 'esign-validated');
      const transfer = new DataTransfer();
      transfer.items.add(pdf());
      el.shadowRoot!.querySelector('.drop')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      await validated;
      await el.updateComplete;
      expectNamesFit(el.shadowRoot!, box);
      expect(el.shadowRoot!.querySelector('[part="pick"]')!.textContent.trim(), 'one picker behaviour').to.equal(en['sign.pick-other']);
      expectPageFits(box);
    });

    it(`${width} px: esign-document is titled by it`, async () => {
      const uuid = (await client.uploadDocument({ access: 'private', file: { filename: LONG, content: btoa('%PDF-1.4') }, signers: [] }).catch(() => null))
        ?.document.uuid;
      const { box, el } = await inBox<EsignDocument>(
        width,
        html`<esign-document endpoint=${ENDPOINT} lang="en" document-id=${uuid ?? 'missing'} file-name=${LONG}></esign-document>`,
      );
      await until(() => el.shadowRoot!.querySelector('h2 .file-name') !== null, 'the title');
      expectNamesFit(el.shadowRoot!, box);
      expectPageFits(box);
    });
  }
});

describe('a short file name is shown whole where it fits', () => {
  for (const width of [320, 360]) {
    it(`${width} px: esign-sign lists "contract-5p.pdf" uncut beside its size and remove button`, async () => {
      const { box, el } = await inBox<EsignSign>(width, html`<esign-sign endpoint=${ENDPOINT} lang="en"></esign-sign>`);
      el.files = pdf('contract-5p.pdf');
      await el.updateComplete;
      await until(() => el.shadowRoot!.querySelector('.file-name') !== null, 'the file listed');
      // short enough to be kept whole as the end that always shows
      const start = el.shadowRoot!.querySelector<HTMLElement>('.file-list .name-start')!;
      const end = el.shadowRoot!.querySelector<HTMLElement>('.file-list .name-end')!;
      expect([start.textContent, end.textContent]).to.deep.equal(['', 'contract-5p.pdf']);
      expect(end.scrollWidth, 'nothing cut off').to.be.at.most(end.clientWidth);
      expectPageFits(box);
    });
  }
});

describe('opening every disclosure of esign-document keeps the page as wide as it was', () => {
  for (const width of WIDTHS) {
    it(`${width} px: the id, the full report, the invitation form and a link's signer`, async () => {
      const upload = await client.uploadDocument({
        access: 'private',
        file: { filename: 'contract.pdf', content: btoa(String.fromCharCode(...samplePdf('Wide'))) },
        signers: [{ name: 'OK', surname: 'TESTNUMBER', email: 'ok@example.test' }],
      });
      const uuid = upload.document.uuid;
      const { box, el } = await inBox<EsignDocument>(width, html`<esign-document endpoint=${ENDPOINT} lang="ru" document-id=${uuid}></esign-document>`);
      await until(() => el.shadowRoot!.querySelector('esign-validation-report') !== null, 'the parts');
      const report = el.shadowRoot!.querySelector<EsignValidationReport>('esign-validation-report')!;
      await until(() => report.shadowRoot!.querySelector('details') !== null, 'the report');
      const list = el.shadowRoot!.querySelector('esign-signer-list')!;
      await until(() => list.shadowRoot!.querySelector('[part="invite"]') !== null, 'the signer list');
      const opened: string[] = [];
      const open = async (what: string, act: () => void) => {
        act();
        await el.updateComplete;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        opened.push(what);
        expectPageFits(box, `the page after opening ${what}`);
        expect(Math.round(el.getBoundingClientRect().right), `the element after opening ${what}`).to.be.at.most(Math.round(box.getBoundingClientRect().right));
      };
      await open('the id', () => el.shadowRoot!.querySelector<HTMLElement>('.more summary')!.click());
      expect(el.shadowRoot!.querySelector('.more .id')!.textContent).to.equal(uuid);
      await open('the full report', () => report.shadowRoot!.querySelector<HTMLElement>('details summary')!.click());
      await open('the invitation form', () => list.shadowRoot!.querySelector<HTMLButtonElement>('[part="invite"]')!.click());
      const link = el.shadowRoot!.querySelector('esign-signing-link')!;
      await open("a link's signer", () => link.shadowRoot!.querySelector<HTMLButtonElement>('[part="add-signer"]')!.click());
      expect(opened).to.have.length(4);
      await expect(el).to.be.accessible();
    });
  }
});

describe('the document forms mark a field only after a submit', () => {
  const invalid = (root: ShadowRoot) => [...root.querySelectorAll('[aria-invalid="true"]')].map((field) => field.id);

  it('tabbing through the upload form, the invitation form and the link form marks nothing', async () => {
    const upload = await fixture<EsignDocumentUpload>(html`<esign-document-upload endpoint=${ENDPOINT} lang="en"></esign-document-upload>`);
    const fields = [...upload.shadowRoot!.querySelectorAll<HTMLInputElement>('input:not([type=file]):not([type=radio]):not([type=checkbox])')];
    expect(fields.length).to.be.greaterThan(2);
    for (const field of fields) {
      field.focus();
      field.blur();
    }
    await upload.updateComplete;
    expect(invalid(upload.shadowRoot!), 'nothing marked before a submit').to.deep.equal([]);
    await upload.upload().catch(() => undefined);
    await upload.updateComplete;
    expect(invalid(upload.shadowRoot!).length, 'the submit marks the empty signer fields').to.be.greaterThan(0);
    expect(deepActiveElement(), 'the focus on the first problem').to.equal(upload.shadowRoot!.querySelector('[part="pick"]'));

    const stored = await client.uploadDocument({
      access: 'private',
      file: { filename: 'contract.pdf', content: btoa(String.fromCharCode(...samplePdf('Forms'))) },
      signers: [],
    });
    const link = await fixture<HTMLElement & { updateComplete: Promise<boolean> }>(
      html`<esign-signing-link endpoint=${ENDPOINT} lang="en" document-id=${stored.document.uuid}></esign-signing-link>`,
    );
    await link.updateComplete;
    link.shadowRoot!.querySelector<HTMLButtonElement>('[part="add-signer"]')!.click();
    await link.updateComplete;
    for (const field of link.shadowRoot!.querySelectorAll<HTMLInputElement>('input')) {
      field.focus();
      field.blur();
    }
    await link.updateComplete;
    expect(invalid(link.shadowRoot!)).to.deep.equal([]);
  });
});

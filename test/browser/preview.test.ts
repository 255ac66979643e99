import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { EsignClient } from '../../src/client/index.js';
import '../../src/elements/document-preview/define.js';
import type { EsignDocumentPreview } from '../../src/elements/document-preview/document-preview.js';
import type { PreviewLoadedDetail } from '../../src/elements/document-preview/events.js';
import type { EsignErrorDetail } from '../../src/client/errors.js';
import { en } from '../../src/i18n/en.js';
import { ENDPOINT, deepActiveElement, until } from './helpers.js';

const client = new EsignClient({ endpoint: ENDPOINT, lang: 'en' });

function pdfFile(title: string, pages: number, name = 'contract.pdf'): File {
  return new File([samplePdf(title, pages) as BlobPart], name, { type: 'application/pdf' });
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** The page's words as the text layer holds them. */
function textLayer(el: EsignDocumentPreview): string {
  return el.shadowRoot!.querySelector('.textLayer')?.textContent ?? '';
}

/** Whether the canvas holds anything but white: the page was drawn. */
function drawn(el: EsignDocumentPreview): boolean {
  const canvas = el.shadowRoot!.querySelector('canvas')!;
  if (!canvas.width) return false;
  const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 128) return true;
  return false;
}

async function shown(el: EsignDocumentPreview, words: string): Promise<void> {
  await until(() => textLayer(el).includes(words) && drawn(el), `"${words}" drawn with its text layer`);
}

/** The page position as shown (hidden from screen readers) and as said (hidden from the eye). */
function positionSaid(el: EsignDocumentPreview): [string, string] {
  const position = part(el, 'position');
  return [position.querySelector('[aria-hidden="true"]')!.textContent, position.querySelector('.visually-hidden')!.textContent];
}

function part(el: EsignDocumentPreview, name: string): HTMLElement {
  return el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`)!;
}

describe('esign-document-preview', () => {
  it('draws the first page of a PDF with a text layer, and pages through with the keyboard, focus kept', async () => {
    const loaded: CustomEvent<PreviewLoadedDetail>[] = [];
    const el = await fixture<EsignDocumentPreview>(
      html`<esign-document-preview lang="en" @esign-preview-loaded=${(e: CustomEvent<PreviewLoadedDetail>) => loaded.push(e)}></esign-document-preview>`,
    );
    expect(el.shadowRoot!.textContent.trim(), 'nothing without a file').to.equal('');
    el.file = pdfFile('Lease agreement', 3);
    await shown(el, 'Page 1 of 3');
    expect(textLayer(el)).to.contain('Lease agreement');
    expect(loaded.map((e) => e.detail)).to.deep.equal([{ fileName: 'contract.pdf', pages: 3 }]);
    // shown as "1 / 3" in a toolbar of one row, said as "Page 1 of 3"
    expect(positionSaid(el)).to.deep.equal(['1 / 3', 'Page 1 of 3']);
    expect(part(el, 'viewport').getAttribute('aria-label')).to.equal('Preview of contract.pdf');
    expect(el.shadowRoot!.querySelector('canvas')!.getAttribute('aria-hidden')).to.equal('true');
    // PDF.js's canvases for measuring text are not left in the host page, outside its landmarks (once no text layer is being drawn)
    await until(() => document.body.querySelectorAll(':scope > canvas').length === 0, 'no canvas left in the page');
    await expect(el).to.be.accessible();

    part(el, 'next').focus();
    await sendKeys({ press: 'Enter' });
    await shown(el, 'Page 2 of 3');
    expect(el.page).to.equal(2);
    expect(el.getAttribute('page'), 'reflected').to.equal('2');
    await sendKeys({ press: 'Enter' });
    await shown(el, 'Page 3 of 3');
    expect(part(el, 'next').getAttribute('aria-disabled'), 'at the end').to.equal('true');
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(el.page, 'no page beyond the last').to.equal(3);
    expect(deepActiveElement(), 'focus stays on the button').to.equal(part(el, 'next'));

    part(el, 'viewport').focus();
    await sendKeys({ press: 'Home' });
    await shown(el, 'Page 1 of 3');
    await sendKeys({ press: 'PageDown' });
    await shown(el, 'Page 2 of 3');
    expect(positionSaid(el)).to.deep.equal(['2 / 3', 'Page 2 of 3']);
    expect(loaded, 'one load').to.have.length(1);
    await until(() => document.body.querySelectorAll(':scope > canvas').length === 0, 'none after paging either');
    await expect(el).to.be.accessible();
  });

  it('pages with the keyboard at any zoom: PageDown and PageUp step, End and Home jump, arrows scroll, and a new page starts at its top', async () => {
    const loaded: CustomEvent<PreviewLoadedDetail>[] = [];
    const el = await fixture<EsignDocumentPreview>(
      html`<esign-document-preview lang="en" zoom="2" style="--esign-preview-height: 240px" @esign-preview-loaded=${(e: CustomEvent<PreviewLoadedDetail>) => loaded.push(e)}></esign-document-preview>`,
    );
    el.file = pdfFile('Loan agreement', 4);
    await shown(el, 'Page 1 of 4');
    const viewport = part(el, 'viewport');
    expect(viewport.scrollHeight, 'zoomed in: the page is taller than its frame').to.be.above(viewport.clientHeight + 100);
    viewport.focus();
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await until(() => viewport.scrollTop > 0, 'the arrows scroll within the page');
    // the browsers scroll smoothly: the person reads on once the scrolling has stopped (still for three
    // looks in a row: on a busy machine an animation's frames can be 100 ms apart)
    for (let last = -1, still = 0; still < 3;) {
      still = viewport.scrollTop === last ? still + 1 : 0;
      last = viewport.scrollTop;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(el.page, 'arrows do not change the page').to.equal(1);
    await sendKeys({ press: 'PageDown' });
    await shown(el, 'Page 2 of 4');
    await until(() => viewport.scrollTop === 0, 'the next page starts at its top');
    await sendKeys({ press: 'End' });
    await shown(el, 'Page 4 of 4');
    await sendKeys({ press: 'PageDown' });
    await el.updateComplete;
    expect(el.page, 'no page beyond the last').to.equal(4);
    await sendKeys({ press: 'PageUp' });
    await shown(el, 'Page 3 of 4');
    expect(positionSaid(el)).to.deep.equal(['3 / 4', 'Page 3 of 4']);
    await sendKeys({ press: 'Home' });
    await shown(el, 'Page 1 of 4');
    await sendKeys({ press: 'PageUp' });
    await el.updateComplete;
    expect(el.page, 'no page before the first').to.equal(1);
    expect(deepActiveElement(), 'focus stays on the page').to.equal(viewport);
    expect(el.zoom, 'the zoom is kept from page to page').to.equal(2);
    expect(loaded, 'one load').to.have.length(1);
  });

  it('offers the shown PDF as a download named after it (never a nameless tab), and withdraws it with the file', async () => {
    const el = await fixture<EsignDocumentPreview>(html`<esign-document-preview lang="lt"></esign-document-preview>`);
    expect(part(el, 'open'), 'nothing to open without a file').to.equal(null);
    el.file = pdfFile('Nuomos sutartis', 1);
    await shown(el, 'Nuomos sutartis');
    const link = part(el, 'open') as HTMLAnchorElement;
    expect(link.textContent.trim()).to.equal('Atsisiųsti contract.pdf');
    expect(link.download, 'saved under its own name').to.equal('contract.pdf');
    expect(link.target, 'no nameless blob: tab').to.equal('');
    expect(link.href).to.match(/^blob:/);
    const bytes = new Uint8Array(await (await fetch(link.href)).arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5)), 'the PDF itself').to.equal('%PDF-');
    expect(bytes.length).to.equal(el.file.size);
    await expect(el).to.be.accessible();
    const old = link.href;
    el.file = null;
    await until(() => part(el, 'open') === null, 'the link goes with the file');
    let withdrawn = false;
    await fetch(old).catch(() => (withdrawn = true));
    expect(withdrawn, 'its address no longer answers').to.equal(true);
  });

  it('fits a 360 px phone, zooms in and out, and fits again', async () => {
    const wrap = await fixture<HTMLDivElement>(html`<div style="inline-size: 360px"><esign-document-preview lang="lt"></esign-document-preview></div>`);
    const el = wrap.firstElementChild as EsignDocumentPreview;
    el.file = pdfFile('Sutartis', 1);
    await shown(el, 'Sutartis');
    const canvas = el.shadowRoot!.querySelector('canvas')!;
    const fitted = canvas.getBoundingClientRect().width;
    expect(fitted, 'the page fits the phone').to.be.at.most(part(el, 'viewport').clientWidth);
    // the frame's padding gives way on a phone: the page takes nearly all of the width
    expect(fitted, 'and uses it').to.be.above(part(el, 'viewport').clientWidth - 24);
    expect(el.scrollWidth, 'no sideways scroll of the element').to.be.at.most(360);
    expect(part(el, 'fit').getAttribute('aria-pressed')).to.equal('true');
    // its name says what it does and the zoom, once: no title repeating it as a description
    expect(part(el, 'fit').getAttribute('aria-label')).to.match(/^Pagal plotį \d+\s?%$/);
    expect(part(el, 'fit').hasAttribute('title')).to.equal(false);
    part(el, 'zoom-in').click();
    await el.updateComplete;
    expect(el.zoom, 'a zoom step').to.be.above(0);
    await until(() => canvas.getBoundingClientRect().width > fitted, 'drawn larger');
    expect(part(el, 'fit').getAttribute('aria-pressed')).to.equal('false');
    part(el, 'fit').click();
    await until(() => Math.abs(canvas.getBoundingClientRect().width - fitted) < 2, 'fitted again');
    await expect(el).to.be.accessible();
  });

  it("lists a container's files and shows each PDF among them", async () => {
    const files = [
      { name: 'contract.pdf', content: base64(samplePdf('Main contract', 2)) },
      { name: 'annex <b>&.pdf', content: base64(samplePdf('Annex one', 1)) },
      { name: 'notes.txt', content: btoa('plain notes') },
    ];
    const start = await client.smartIdSign({ type: 'asice', code: '30303039914', country: 'LT', asice: { files } });
    const signed = await client.waitForResult('smartid', 'sign', start.token, { interval: 200 });
    const bytes = Uint8Array.from(atob(signed.file.content), (c) => c.charCodeAt(0));
    const loaded: PreviewLoadedDetail[] = [];
    const el = await fixture<EsignDocumentPreview>(
      html`<esign-document-preview lang="en" @esign-preview-loaded=${(e: CustomEvent<PreviewLoadedDetail>) => loaded.push(e.detail)}></esign-document-preview>`,
    );
    el.file = new File([bytes], signed.file.name);
    await shown(el, 'Main contract');
    const rows = [...el.shadowRoot!.querySelectorAll('.files li')].map((li) => li.querySelector('.file-name')!.getAttribute('title'));
    expect(rows).to.deep.equal(['contract.pdf', 'annex <b>&.pdf', 'notes.txt']);
    expect(el.shadowRoot!.querySelector('#files-title')!.textContent).to.equal('3 files in the container');
    const buttons = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.files button')];
    expect(
      buttons.map((b) => b.getAttribute('aria-pressed')),
      'PDFs only, the first shown',
    ).to.deep.equal(['true', 'false']);
    // which file the page below is, said above it
    const shownName = () => el.shadowRoot!.querySelector('[part="shown"]')?.querySelector('.file-name')?.getAttribute('title');
    expect(el.shadowRoot!.querySelector('[part="shown"]')!.textContent).to.contain(en['preview.shown']);
    expect(shownName()).to.equal('contract.pdf');
    await expect(el).to.be.accessible();
    buttons[1]!.click();
    await shown(el, 'Annex one').catch((e) => {
      throw new Error(`${e.message}: ${el._status} ${el._error} [${textLayer(el)}] ${el.shadowRoot!.textContent}`);
    });
    expect(part(el, 'viewport').getAttribute('aria-label')).to.equal('Preview of annex <b>&.pdf');
    expect(shownName()).to.equal('annex <b>&.pdf');
    expect(loaded).to.deep.equal([
      { fileName: 'contract.pdf', pages: 2 },
      { fileName: 'annex <b>&.pdf', pages: 1 },
    ]);
    await expect(el).to.be.accessible();
  });

  it("shows a container's short file names whole at 320 px, beside their sizes and Show buttons", async () => {
    const files = [
      { name: 'contract-5p.pdf', content: base64(samplePdf('Main contract', 1)) },
      { name: 'annex-12.pdf', content: base64(samplePdf('Annex', 1)) },
    ];
    const start = await client.smartIdSign({ type: 'asice', code: '30303039914', country: 'LT', asice: { files } });
    const signed = await client.waitForResult('smartid', 'sign', start.token, { interval: 200 });
    const bytes = Uint8Array.from(atob(signed.file.content), (c) => c.charCodeAt(0));
    const box = await fixture<HTMLDivElement>(html`<div style="inline-size: 320px"><esign-document-preview lang="en"></esign-document-preview></div>`);
    const el = box.firstElementChild as EsignDocumentPreview;
    el.file = new File([bytes], signed.file.name);
    await shown(el, 'Main contract');
    const ends = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.files .name-end')];
    expect(ends.map((end) => end.textContent)).to.deep.equal(['contract-5p.pdf', 'annex-12.pdf']);
    for (const end of ends) expect(end.scrollWidth, `${end.textContent}: nothing cut off`).to.be.at.most(end.clientWidth);
    // the file shown is marked chosen (in the accent, bold), not greyed as if it could not be pressed
    const pressed = el.shadowRoot!.querySelector<HTMLElement>('.files button[aria-pressed="true"]')!;
    const other = el.shadowRoot!.querySelector<HTMLElement>('.files button[aria-pressed="false"]')!;
    expect(getComputedStyle(pressed).color, 'the accent, as the others').to.equal(getComputedStyle(other).color);
    expect(getComputedStyle(pressed).fontWeight).to.equal('600');
    expect(getComputedStyle(pressed).backgroundColor, 'a tint of its own').not.to.equal(getComputedStyle(other).backgroundColor);
    expect(getComputedStyle(pressed).opacity).to.equal('1');
    await expect(el).to.be.accessible();
  });

  for (const width of [240, 280, 320]) {
    it(`keeps its toolbar inside the box at ${width} px`, async () => {
      const box = await fixture<HTMLDivElement>(html`<div style="inline-size: ${width}px"><esign-document-preview lang="en"></esign-document-preview></div>`);
      const el = box.firstElementChild as EsignDocumentPreview;
      el.file = new File([samplePdf('Main contract', 2) as BlobPart], 'contract.pdf', { type: 'application/pdf' });
      await shown(el, 'Main contract');
      const right = box.getBoundingClientRect().right;
      for (const button of el.shadowRoot!.querySelectorAll<HTMLElement>('[part="toolbar"] button')) {
        expect(Math.round(button.getBoundingClientRect().right), `${button.getAttribute('part')} inside`).to.be.at.most(Math.round(right));
      }
    });
  }

  it('says when a file has no preview, and when a PDF is broken', async () => {
    const errors: EsignErrorDetail[] = [];
    const loaded: PreviewLoadedDetail[] = [];
    const el = await fixture<EsignDocumentPreview>(
      html`<esign-document-preview lang="en" @esign-error=${(e: CustomEvent<EsignErrorDetail>) => errors.push(e.detail)} @esign-preview-loaded=${(e: CustomEvent<PreviewLoadedDetail>) => loaded.push(e.detail)}></esign-document-preview>`,
    );
    el.file = new File(['just text'], 'readme.txt');
    await until(() => el.shadowRoot!.textContent.includes(en['preview.unsupported']), 'no preview said');
    expect(loaded).to.deep.equal([{ fileName: 'readme.txt', pages: 0 }]);
    await expect(el).to.be.accessible();
    el.file = new File(['%PDF-1.7\nthis is not a PDF at all'], 'broken.pdf');
    await until(() => el.shadowRoot!.querySelector('[part="error"]') !== null, 'the failure said');
    expect(el.shadowRoot!.querySelector('[part="error"]')!.textContent).to.contain(en['preview.failed']);
    expect(errors.map((e) => [e.code, e.retryable])).to.deep.equal([['document-corrupted', false]]);
    expect(loaded, 'no load for the broken one').to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it("says so, as a setup error, when PDF.js's worker is not where the preview looks for it", async () => {
    const errors: EsignErrorDetail[] = [];
    const loaded: PreviewLoadedDetail[] = [];
    const el = await fixture<EsignDocumentPreview>(
      html`<esign-document-preview lang="en" worker-src="/no-such-worker.js" @esign-error=${(e: CustomEvent<EsignErrorDetail>) => errors.push(e.detail)} @esign-preview-loaded=${(e: CustomEvent<PreviewLoadedDetail>) => loaded.push(e.detail)}></esign-document-preview>`,
    );
    el.file = pdfFile('Lease agreement', 2);
    await until(() => el.shadowRoot!.querySelector('[part="error"]') !== null, 'the failure said');
    expect(el.shadowRoot!.querySelector('[part="error"]')!.textContent).to.contain(en['preview.failed']).and.to.contain(en['error.misconfigured']);
    expect(errors.map((e) => [e.code, e.retryable])).to.deep.equal([['misconfigured', false]]);
    expect(loaded).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });
});

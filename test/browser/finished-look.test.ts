import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import type { EsignValidationReport } from '../../src/elements/validation-report/validation-report.js';
import type { ValidationReport } from '../../src/protocol/types.js';
import { en } from '../../src/i18n/en.js';
import { personForm, submitButton, until } from './helpers.js';

// What a person sees, finished: nothing an element shows widens the page, no error before the
// person submits, and fields whose boundaries can be seen (WCAG 2.2, 1.4.11: 3:1).

/** A report whose technical part has a line of 6,000 characters (the service's can be longer). */
const LONG_REPORT = {
  simpleReport: {
    validSignaturesCount: 1,
    signaturesCount: 1,
    jaxbModel: {
      signatureOrTimestamp: [
        { id: 'S-1', signedBy: 'OK TESTNUMBER', signatureFormat: 'PAdES-BASELINE-B', signatureLevel: 'QESig', indication: 'TOTAL_PASSED' },
      ],
    },
  },
  diagnosticData: { certificate: 'MII'.padEnd(6000, 'A') },
} as unknown as ValidationReport;

describe('nothing an element shows widens the page', () => {
  for (const width of [320, 360, 1280]) {
    it(`${width} px: opening the full technical report keeps the report inside its box`, async () => {
      const wrap = await fixture<HTMLDivElement>(
        html`<div style="inline-size: ${width}px"><esign-validation-report lang="en"></esign-validation-report></div>`,
      );
      const el = wrap.firstElementChild as EsignValidationReport;
      el.report = LONG_REPORT;
      await until(() => el.shadowRoot!.querySelector('details') !== null, 'the report view');
      const pageWidth = document.documentElement.scrollWidth;
      const details = el.shadowRoot!.querySelector('details')!;
      details.querySelector('summary')!.click();
      await until(() => details.open, 'the report open');
      const pre = details.querySelector('pre')!;
      // the long value is there, wrapped within the box: nothing of it cut off sideways
      expect(pre.textContent, 'the long value is there').to.contain('MII'.padEnd(6000, 'A'));
      expect(pre.scrollWidth, 'no line wider than the box').to.be.at.most(pre.clientWidth);
      expect(Math.round(el.getBoundingClientRect().width), 'the element').to.be.at.most(width);
      expect(Math.round(pre.getBoundingClientRect().right), 'the report box').to.be.at.most(Math.round(wrap.getBoundingClientRect().right));
      expect(document.documentElement.scrollWidth, 'the page').to.equal(pageWidth);
      await expect(el).to.be.accessible();
    });
  }
});

describe('a field says what is wrong only once the form was submitted', () => {
  it('passing through the personal code by keyboard leaves it unmarked; a submit marks it; correcting it clears the mark as the person types', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="en" channels="smartid"></esign-identify>`);
    await el.updateComplete;
    const form = personForm(el);
    await form.updateComplete;
    const code = form.shadowRoot!.querySelector<HTMLInputElement>('#code')!;
    const submit = submitButton(el);
    code.focus();
    submit.focus();
    code.focus();
    await form.updateComplete;
    expect(code.getAttribute('aria-invalid')).to.equal('false');
    expect(form.shadowRoot!.querySelector('.field-error')).to.equal(null);

    submit.click();
    await until(() => code.getAttribute('aria-invalid') === 'true', 'the error after the submit');
    expect(form.shadowRoot!.querySelector('#code-error')!.textContent.trim()).to.equal(en['form.code.empty']);

    code.value = '3030303991';
    code.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('#code-error')!.textContent.trim(), 'checked again as typed').to.equal(en['form.code.format']);
    code.value = '30303039914';
    code.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await form.updateComplete;
    expect(code.getAttribute('aria-invalid')).to.equal('false');
    expect(form.shadowRoot!.querySelector('.field-error')).to.equal(null);
  });
});

/** sRGB relative luminance of a computed `rgb(…)` colour. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? [])
    .slice(0, 3)
    .map(Number)
    .map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};

describe('the boundaries of fields can be seen', () => {
  for (const theme of ['light', 'dark']) {
    it(`${theme}: every input, select and channel choice has a border of at least 3:1 against the surface`, async () => {
      const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="en" theme=${theme}></esign-identify>`);
      await el.updateComplete;
      const form = personForm(el);
      await form.updateComplete;
      const surface = getComputedStyle(el.shadowRoot!.querySelector('.base')!).backgroundColor;
      const controls = [...form.shadowRoot!.querySelectorAll('input, select'), ...el.shadowRoot!.querySelectorAll('.channel')];
      expect(controls.length).to.be.at.least(4);
      for (const control of controls) {
        const border = getComputedStyle(control).borderTopColor;
        expect(contrast(border, surface), `${control.localName}#${control.id || control.className}: ${border} on ${surface}`).to.be.at.least(3);
      }
    });
  }
});

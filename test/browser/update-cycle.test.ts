import { expect, fixture, html } from '@open-wc/testing';
import { EsignClient } from '../../src/client/index.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import type { EsignValidationReport } from '../../src/elements/validation-report/validation-report.js';
import { ENDPOINT, deepActiveElement, until } from './helpers.js';

// A page of its own: Lit says each development warning once per page, so nothing may come before.
const warnings: string[] = [];
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  warnings.push(args.map(String).join(' '));
  warn(...args);
};

const client = new EsignClient({ endpoint: ENDPOINT, lang: 'en' });

async function storedDocument(): Promise<string> {
  const bytes = samplePdf();
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  const answer = await client.uploadDocument({
    access: 'private',
    file: { filename: 'contract.pdf', content: btoa(text) },
    signers: [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test' }],
  });
  return answer.document.uuid;
}

describe("the document elements and Lit's update cycle", () => {
  before(async () => {
    await import('../../src/define.js');
  });

  it('load, validate and show a document without changing properties inside an update', async () => {
    const uuid = await storedDocument();
    const el = await fixture(html`<esign-document endpoint=${ENDPOINT} lang="en" document-id=${uuid}></esign-document>`);
    const loaded: Event[] = [];
    el.addEventListener('esign-signers-loaded', (e) => loaded.push(e));
    await until(() => loaded.length === 1, 'the signers');
    const report = el.shadowRoot!.querySelector<EsignValidationReport>('esign-validation-report')!;
    await until(() => report.report !== null && report.report !== undefined, 'the validation');
    (el as HTMLElement & { documentId: string }).documentId = await storedDocument();
    await until(() => loaded.length === 2, 'the signers of the other document');
    expect(warnings.filter((w) => /change-in-update|scheduled an update/.test(w))).to.deep.equal([]);
  });

  it('Validate keeps the focus while it runs and after, and says the result', async () => {
    const uuid = await storedDocument();
    const report = await fixture<EsignValidationReport>(
      html`<esign-validation-report endpoint=${ENDPOINT} lang="en" manual document-id=${uuid}></esign-validation-report>`,
    );
    const validate = report.shadowRoot!.querySelector<HTMLButtonElement>('[part="validate"]')!;
    validate.focus();
    const validated: Event[] = [];
    report.addEventListener('esign-validated', (e) => validated.push(e));
    validate.click();
    await report.updateComplete;
    expect(validate.getAttribute('aria-disabled')).to.equal('true');
    expect(deepActiveElement()).to.equal(validate);
    // a second press while it runs starts nothing
    validate.click();
    await until(() => validated.length === 1, 'the validation');
    await report.updateComplete;
    expect(deepActiveElement()).to.equal(validate);
    expect(validate.getAttribute('aria-disabled')).to.equal('false');
    expect(report.shadowRoot!.querySelector('.summary[role="status"]')!.textContent).to.contain('The document has no signatures.');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(validated).to.have.length(1);
    await expect(report).to.be.accessible();
  });
});

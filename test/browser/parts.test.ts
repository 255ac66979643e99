import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/define.js';
import type { EsignDocument } from '../../src/elements/document/document.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { EsignClient } from '../../src/client/index.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { ENDPOINT, deepActiveElement, personForm, submitButton, type, until } from './helpers.js';

async function storedDocument(): Promise<string> {
  let text = '';
  for (const byte of samplePdf()) text += String.fromCharCode(byte);
  const answer = await new EsignClient({ endpoint: ENDPOINT }).uploadDocument({
    access: 'private',
    file: { filename: 'contract.pdf', content: btoa(text) },
    signers: [{ name: 'ANNA', surname: 'TESTNUMBER', email: 'anna@example.test' }],
  });
  return answer.document.uuid;
}

// A host styles the parts of the elements inside the composites through the forwarded parts, and
// puts its own content into the success state.

const style = document.createElement('style');
style.textContent = `
  esign-identify::part(input) { background-color: rgb(1, 2, 3); }
  esign-identify::part(code) { color: rgb(4, 5, 6); }
  esign-identify::part(status) { border-top-color: rgb(7, 8, 9); }
  esign-document::part(signers-refresh) { background-color: rgb(10, 11, 12); }
  esign-document::part(link-submit) { background-color: rgb(13, 14, 15); }
`;
document.head.append(style);

describe('forwarded parts and the success slot', () => {
  it('styles the person form, the control code and the status inside esign-identify', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="en" poll-interval="100"></esign-identify>`);
    await personForm(el).updateComplete;
    const input = personForm(el).shadowRoot!.querySelector<HTMLInputElement>('#code')!;
    expect(getComputedStyle(input).backgroundColor).to.equal('rgb(1, 2, 3)');
    const status = el.shadowRoot!.querySelector('esign-status')!;
    await (status as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const box = status.shadowRoot!.querySelector('[part~="status"]')!;
    expect(getComputedStyle(box).borderTopColor).to.equal('rgb(7, 8, 9)');
    await type(el, 'code', '39001010607');
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    await el.updateComplete;
    const code = el.shadowRoot!.querySelector('esign-control-code')!;
    await until(() => code.shadowRoot?.querySelector('[part~="code"]') != null, 'the control code');
    expect(getComputedStyle(code.shadowRoot!.querySelector('[part~="code"]')!).color).to.equal('rgb(4, 5, 6)');
    await el.cancel();
  });

  it('styles the signer list and the link form inside esign-document', async () => {
    const el = await fixture<EsignDocument>(html`<esign-document endpoint=${ENDPOINT} lang="en" document-id=${await storedDocument()}></esign-document>`);
    await until(() => el.shadowRoot!.querySelector('esign-signer-list')?.shadowRoot?.querySelector('[part~="refresh"]') != null, 'the signer list');
    const refresh = el.shadowRoot!.querySelector('esign-signer-list')!.shadowRoot!.querySelector('[part~="refresh"]')!;
    expect(getComputedStyle(refresh).backgroundColor).to.equal('rgb(10, 11, 12)');
    await until(() => el.shadowRoot!.querySelector('esign-signing-link')?.shadowRoot?.querySelector('[part~="submit"]') != null, 'the link form');
    const submit = el.shadowRoot!.querySelector('esign-signing-link')!.shadowRoot!.querySelector('[part~="submit"]')!;
    expect(getComputedStyle(submit).backgroundColor).to.equal('rgb(13, 14, 15)');
  });

  it("shows the host's own success content from the success slot", async () => {
    const el = await fixture<EsignIdentify>(
      html`<esign-identify endpoint=${ENDPOINT} lang="en" poll-interval="100"><p slot="success" id="welcome">Welcome back</p></esign-identify>`,
    );
    await type(el, 'code', '40504040001');
    const done = oneEvent(el, 'esign-authenticated');
    submitButton(el).click();
    await done;
    await el.updateComplete;
    const slot = el.shadowRoot!.querySelector<HTMLSlotElement>('slot[name="success"]')!;
    expect(slot.assignedElements().map((e) => e.id)).to.deep.equal(['welcome']);
    expect(el.querySelector('#welcome')!.getBoundingClientRect().height).to.be.greaterThan(0);
    await until(() => deepActiveElement()?.classList.contains('status') === true, 'the focus on the status, not lost to the page');
    await expect(el).to.be.accessible();
  });
});

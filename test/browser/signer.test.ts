import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/define.js';
import type { EsignErrorDetail } from '../../src/client/errors.js';
import type { EsignHashSign } from '../../src/elements/hash-sign/hash-sign.js';
import type { EsignSign } from '../../src/elements/sign/sign.js';
import { lt } from '../../src/i18n/lt.js';
import { ru } from '../../src/i18n/ru.js';
import { en } from '../../src/i18n/en.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { deepActiveElement, deepText, personForm, submitButton, until } from './helpers.js';

// The signing elements given the person logged in to the site (`signer`): shown as fixed, not as
// fields, and the proxy's signing gate (/esign-gated, whose person the page names in a cookie)
// refusing anyone else with words of its own.

const pdfBase64 = () => btoa(String.fromCharCode(...samplePdf('Gate')));
const signedIn = (code: string | null) => {
  document.cookie = code ? `signed-in=${encodeURIComponent(code)}; path=/` : 'signed-in=; path=/; max-age=0';
};
afterEach(() => signedIn(null));

async function signWith(signer: string, lang = 'en'): Promise<EsignSign> {
  const el = await fixture<EsignSign>(html`<esign-sign endpoint="/esign-gated" lang=${lang} poll-interval="100" signer=${signer}></esign-sign>`);
  el.files = { name: 'contract.pdf', content: pdfBase64() };
  await el.updateComplete;
  await personForm(el as never).updateComplete;
  return el;
}

/**
 * A field of the person form: the input (or the read-only value), the words its label and hint give
 * it, and for a read-only value what is shown and what a screen reader says.
 */
function field(el: HTMLElement, id: string) {
  const root = personForm(el as never).shadowRoot!;
  const input = root.querySelector<HTMLInputElement & HTMLSelectElement>(`#${id}`)!;
  const text = (selector: string) => input.querySelector(selector)?.textContent?.trim();
  return {
    input,
    label: root.querySelector(`label[for="${id}"], #${id}-label`)?.textContent?.trim(),
    hint: root.querySelector(`#${id}-hint`)?.textContent?.trim(),
    shown: text('[aria-hidden="true"]') ?? input.textContent?.trim(),
    spoken: text('.visually-hidden') ?? input.textContent?.trim(),
  };
}

/** The person form's fields a person can type in or choose from. */
const editable = (el: HTMLElement) => [...personForm(el as never).shadowRoot!.querySelectorAll('input, select')].map((f) => f.id);

describe('signer: the person the site fixed', () => {
  it('shows the signer read-only and masked, saying the site set it, and signs as them through the gate', async () => {
    signedIn('30303039914,LT');
    const el = await signWith('30303039914,LT');
    await expect(el).to.be.accessible();
    // shown masked and said by its ending, framed and read like the hash: a value, not a box to type in
    const code = field(el, 'code');
    expect([code.label, code.hint, code.shown, code.spoken]).to.deep.equal(['Personal code', en['form.fixed'], '3030••••914', 'ending in 9 1 4']);
    // the country set by the site as the code is: read the same way, said so (not a disabled choice read "unavailable")
    const country = field(el, 'country');
    expect([country.label, country.hint, country.shown, country.spoken]).to.deep.equal(['Country', en['form.fixed'], en['country.LT'], en['country.LT']]);
    expect(editable(el), 'nothing to type into or choose').to.deep.equal([]);
    const frame = (f: Element) => getComputedStyle(f).borderTopStyle + ' ' + getComputedStyle(f).backgroundColor;
    expect(frame(code.input), 'framed like the country').to.equal(frame(country.input));
    expect(getComputedStyle(code.input).borderTopStyle).to.equal('solid');
    expect(deepText(el)).not.to.contain('30303039914');
    const signed: Event[] = [];
    el.addEventListener('esign-signed', (event) => signed.push(event));
    const detail = await el.start();
    expect(detail.file.name).to.equal('contract (signed).pdf');
    expect(signed.length).to.equal(1);
  });

  it('takes the signer as a property too, with a phone for Mobile-ID, read-only on the way of the keyboard to the submit button', async () => {
    signedIn('50001018865,LT');
    const el = await fixture<EsignHashSign>(
      html`<esign-hash-sign endpoint="/esign-gated" lang="en" channel="mobile" hash=${'ab'.repeat(32)} .signer=${{ code: '50001018865', phone: '+37060000666' }}></esign-hash-sign>`,
    );
    await personForm(el as never).updateComplete;
    await expect(el).to.be.accessible();
    expect([field(el, 'phone').shown, field(el, 'phone').spoken, field(el, 'phone').hint]).to.deep.equal([
      '+370\u00a06••\u00a0••\u00a0666',
      '+370, ending in 6 6 6',
      en['form.fixed'],
    ]);
    expect([field(el, 'code').shown, field(el, 'code').spoken]).to.deep.equal(['5000••••865', 'ending in 8 6 5']);
    // the hash and the signer read alike: framed the same way
    const hash = el.shadowRoot!.querySelector('[part="hash"]')!;
    // the term names its definition by the list itself: a name on a <dd> is an ARIA attribute it may not have (axe: aria-prohibited-attr)
    expect([hash.localName, hash.previousElementSibling?.localName, hash.hasAttribute('aria-labelledby')]).to.deep.equal(['dd', 'dt', false]);
    expect(getComputedStyle(field(el, 'code').input).borderTopColor).to.equal(getComputedStyle(hash).borderTopColor);
    expect(getComputedStyle(field(el, 'code').input).backgroundColor).to.equal(getComputedStyle(hash).backgroundColor);
    // nothing read-only on the keyboard's way: from the channel straight to the submit button
    el.shadowRoot!.querySelector<HTMLInputElement>('input[name="channel"]:checked')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(deepActiveElement()).to.equal(submitButton(el as never));
    const done = oneEvent(el, 'esign-hash-signed');
    await sendKeys({ press: 'Enter' });
    expect((await done).detail.signatureValue).to.be.a('string');
  });

  it("says in the person's language that they can sign only as the person logged in (signer-mismatch), once", async () => {
    signedIn('40504040001,EE');
    const el = await signWith('30303039914,LT', 'lt');
    const errors: EsignErrorDetail[] = [];
    el.addEventListener('esign-error', (event) => errors.push(event.detail));
    let thrown: unknown;
    await el.start().catch((error: unknown) => (thrown = error));
    expect((thrown as { code?: string }).code).to.equal('signer-mismatch');
    expect(errors.map((e) => [e.code, e.message, e.retryable])).to.deep.equal([['signer-mismatch', lt['error.signer-mismatch'], false]]);
    await el.updateComplete;
    expect(deepText(el)).to.contain(lt['error.signer-mismatch']);
    await expect(el).to.be.accessible();
  });

  it('takes the attribute form as the property too (as a framework may set it)', async () => {
    const el = await signWith('');
    el.signer = '40504040001, ee';
    await el.updateComplete;
    await personForm(el as never).updateComplete;
    expect([field(el, 'code').shown, field(el, 'country').shown]).to.deep.equal(['4050••••001', en['country.EE']]);
    expect(editable(el)).to.deep.equal([]);
    el.signer = null;
    await el.updateComplete;
    await personForm(el as never).updateComplete;
    expect(editable(el), 'fields again').to.deep.equal(['country', 'code']);
  });

  it('asks the person to log in first when nobody is (signer-unknown): the focus on what is said, the host told, and a quiet Try again after it that does no harm', async () => {
    const el = await signWith('30303039914', 'ru');
    const errors: CustomEvent[] = [];
    el.addEventListener('esign-error', (e) => errors.push(e as CustomEvent));
    submitButton(el as never).click();
    await until(() => errors.length === 1, 'the error');
    const { detail } = errors[0]! as CustomEvent<{ code: string; message: string; retryable: boolean }>;
    expect([detail.code, detail.message, detail.retryable]).to.deep.equal(['signer-unknown', ru['error.signer-unknown'], false]);
    await until(() => deepText(el).includes(ru['error.signer-unknown']), 'the words');
    await until(() => el.shadowRoot!.activeElement?.localName === 'esign-status', 'the focus on the status');
    // after the words, quiet: logging in is done elsewhere (another tab), then this goes on
    const retry = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="retry"]')!;
    expect([retry.textContent.trim(), retry.className]).to.deep.equal([ru['action.retry'], 'secondary']);
    expect(deepText(el)).not.to.contain(ru['action.edit']);
    await expect(el).to.be.accessible();
    // still nobody logged in: the form, then the same words again, nothing else happened
    retry.click();
    await until(() => submitButton(el as never) !== null, 'the form back');
    await el.updateComplete;
    submitButton(el as never).click();
    await until(() => errors.length === 2, 'the error again');
    expect(errors.map((e) => (e.detail as { code: string }).code)).to.deep.equal(['signer-unknown', 'signer-unknown']);
  });
});

import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { loadStrings, translate, LANGUAGES } from '../../src/i18n/index.js';
import { ENDPOINT, deepActiveElement, personForm, requestsTo, submitButton, type, until } from './helpers.js';

// With novalidate the page checks nothing of the person's fields: the proxy checks their shapes and
// the sandbox the rest with its own rules, and their field errors (the service's 40005 for a code, the
// proxy's invalid-field for a phone of a shape the service never takes) must land on their fields.

before(() => performance.setResourceTimingBufferSize(100_000));

async function identify(lang: string): Promise<EsignIdentify> {
  const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang=${lang} novalidate poll-interval="100"></esign-identify>`);
  await el.updateComplete;
  return el;
}

/** A field of the person form (null while the form is not shown) and the form's text. */
function field(el: EsignIdentify, id: string) {
  const root = personForm(el)?.shadowRoot ?? null;
  return { input: root?.querySelector<HTMLInputElement>(`#${id}`) ?? null, text: root?.textContent ?? '' };
}

describe("novalidate: the service's field errors land on their fields", () => {
  for (const lang of LANGUAGES) {
    it(`a personal code the service refuses (40005), in ${lang}`, async () => {
      await loadStrings(lang);
      performance.clearResourceTimings();
      const el = await identify(lang);
      expect(el.hasAttribute('novalidate')).to.equal(true);
      expect(personForm(el).novalidate).to.equal(true);
      // eleven digits (the shape the proxy lets through) with a wrong check digit: the service's 40005
      await type(el, 'code', '50001018866');
      const errors: CustomEvent[] = [];
      el.addEventListener('esign-error', (e) => errors.push(e as CustomEvent));
      submitButton(el).click();
      const path = lang === 'lt' ? '/esign/smartid/login.json' : '/esign/en/smartid/login.json';
      await until(() => requestsTo(path) === 1, 'the start reaching the service');
      await until(() => field(el, 'code').input?.getAttribute('aria-invalid') === 'true', 'the code field marked invalid');
      await personForm(el).updateComplete;
      expect(field(el, 'code').text).to.contain(translate(lang, 'form.code.service'));
      await until(() => field(el, 'code').input !== null && deepActiveElement() === field(el, 'code').input, 'the focus on the code field');
      expect(errors.length).to.equal(1);
      expect(errors[0]!.detail.serviceCode).to.equal(40005);
      await expect(el).to.be.accessible();
    });
  }

  it('a phone number the proxy refuses (its shape) lands on the phone field', async () => {
    const el = await identify('en');
    el.shadowRoot!.querySelector<HTMLInputElement>('input[value="mobile"]')!.click();
    await el.updateComplete;
    await personForm(el).updateComplete;
    await type(el, 'phone', '+3706');
    await type(el, 'code', '50001018865');
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    const { detail } = await failed;
    expect(detail.code).to.equal('invalid-input');
    expect(detail.serviceCode).to.equal(undefined);
    expect(detail.field).to.equal('phone');
    await until(() => field(el, 'phone').input?.getAttribute('aria-invalid') === 'true', 'the phone field marked invalid');
    expect(field(el, 'phone').text).to.contain(translate('en', 'form.phone.service'));
    await expect(el).to.be.accessible();
  });
});

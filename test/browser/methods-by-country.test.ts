import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { nothing } from 'lit';
import '../../src/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { en } from '../../src/i18n/en.js';
import { lv } from '../../src/i18n/lv.js';
import { ENDPOINT, deepActiveElement, deepText, personForm, plain, submitButton, type, until } from './helpers.js';

// Mobile-ID exists in Lithuania and Estonia only: a Latvian person is never sent to it (not offered
// while Latvia is the country, not the way forward after "no account"), and changing the country
// comes first where it may help. (A file of its own, after language-load.test.ts: the Latvian words
// it loads would otherwise be there before that suite's fault.)

describe('esign-identify: methods follow the country', () => {
  const radios = (el: EsignIdentify) => [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name="channel"]')].map((r) => r.value);
  const chooseCountry = async (el: EsignIdentify, country: string) => {
    const select = personForm(el).shadowRoot!.querySelector<HTMLSelectElement>('#country')!;
    select.value = country;
    select.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    await el.updateComplete;
  };
  /** The one method offered, as a line of text: never a tile or a control that looks pressable. */
  const onlyTile = (el: EsignIdentify) => {
    const line = el.shadowRoot!.querySelector('.channel-only');
    if (line) expect(el.shadowRoot!.querySelector('.channel, fieldset'), 'no tile beside the line').to.equal(null);
    return line ? plain(line.textContent.trim()) : null;
  };
  /** What the form's status line says (a method added by the person's change of country). */
  const said = (el: EsignIdentify) => plain(el.shadowRoot!.querySelector('form [role="status"]')?.textContent.trim() ?? '');
  const smartIdAlone = plain(lv['identify.channel-only'].replace('{channel}', lv['channel.smartid']));
  const mobileAdded = plain(lv['form.channel-added'].replace('{channel}', lv['channel.mobile']));
  const select = (el: EsignIdentify) => personForm(el).shadowRoot!.querySelector<HTMLSelectElement>('#country')!;
  /** What the person sees after a key: the country shown, the methods offered, the one named alone, the hint. */
  const shown = (el: EsignIdentify) => ({
    country: select(el).value,
    methods: radios(el),
    only: onlyTile(el),
    hint: personForm(el).shadowRoot!.querySelector('#code-hint')?.textContent.trim(),
  });
  const actions = (el: EsignIdentify) =>
    [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.actions button')].map((b) => [b.getAttribute('part'), b.className, plain(b.textContent.trim())]);

  for (const listed of ['', 'smartid,mobile']) {
    it(`offers no Mobile-ID for Latvia, which it cannot serve, and offers it once the country is Lithuania or Estonia${listed ? ' (the host listing both)' : ''}`, async () => {
      const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="lv" channels=${listed || nothing}></esign-identify>`);
      await el.updateComplete;
      expect(radios(el), 'a Latvian page: Smart-ID alone').to.deep.equal([]);
      expect(deepText(el)).not.to.contain(lv['channel.mobile']);
      expect(onlyTile(el), 'the form names the one method').to.equal(smartIdAlone);
      await chooseCountry(el, 'LT');
      expect(radios(el)).to.deep.equal(['smartid', 'mobile']);
      await chooseCountry(el, 'EE');
      expect(radios(el)).to.deep.equal(['smartid', 'mobile']);
      await chooseCountry(el, 'LV');
      expect(radios(el)).to.deep.equal([]);
      await expect(el).to.be.accessible();
    });
  }

  // real key presses: the select's own `change` stays in the person form's shadow root, and its
  // `input` comes before the form has taken the new country (a synthetic composed change hid that)
  it('the methods, the hint and the request follow the country as arrow keys and type-ahead change it', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="lv" poll-interval="100"></esign-identify>`);
    await el.updateComplete;
    const both = ['smartid', 'mobile'];
    const latvia = { country: 'LV', methods: [], only: smartIdAlone, hint: lv['form.code.hint-lv'] };
    const elsewhere = (country: string) => ({ country, methods: both, only: null, hint: lv['form.code.hint'] });
    expect(shown(el)).to.deep.equal(latvia);
    select(el).focus();
    const steps: [string, object][] = [
      ['ArrowDown', elsewhere('EE')],
      ['ArrowUp', latvia],
      ['ArrowUp', elsewhere('LT')],
      ['ArrowDown', latvia],
    ];
    expect(said(el), 'nothing said at rest').to.equal('');
    const saidAfter: string[] = [];
    for (const [key, expected] of steps) {
      await sendKeys({ press: key });
      await el.updateComplete;
      await personForm(el).updateComplete;
      expect(shown(el), `after ${key}`).to.deep.equal(expected);
      saidAfter.push(said(el));
    }
    // Mobile-ID appears above the focused select: said once each time it appears, never when it goes
    expect(saidAfter).to.deep.equal([mobileAdded, '', mobileAdded, '']);
    // type-ahead: "I" is Igaunija, "Li" Lietuva
    await sendKeys({ type: 'I' });
    await el.updateComplete;
    expect(shown(el), 'type-ahead I').to.deep.equal(elsewhere('EE'));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await sendKeys({ type: 'Li' });
    await el.updateComplete;
    await personForm(el).updateComplete;
    expect(shown(el), 'type-ahead Li').to.deep.equal(elsewhere('LT'));
    expect(el.shadowRoot!.activeElement, 'the focus stays in the form').to.equal(personForm(el));
    await expect(el).to.be.accessible();
    // the request follows the country shown: a code only Lithuania knows logs in
    await type(el, 'code', '30303039914');
    const done = oneEvent(el, 'esign-authenticated');
    submitButton(el).click();
    const { detail } = await done;
    expect(detail.person.country).to.equal('LT');
  });

  it('a country the host sets is followed at once, and a change of the select is said to the page as a change', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="lv"></esign-identify>`);
    el.country = 'EE';
    await el.updateComplete;
    await personForm(el).updateComplete;
    expect(shown(el)).to.deep.equal({ country: 'EE', methods: ['smartid', 'mobile'], only: null, hint: lv['form.code.hint'] });
    const changes: string[] = [];
    personForm(el).addEventListener('change', () => changes.push(personForm(el).country));
    select(el).focus();
    await sendKeys({ press: 'ArrowUp' });
    await el.updateComplete;
    expect(changes).to.deep.equal(['LV']);
    expect(shown(el).methods).to.deep.equal([]);
  });

  it('after "no account" in Latvia the way forward is the country, never Mobile-ID', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="lv" poll-interval="100"></esign-identify>`);
    await type(el, 'code', '010101-10006');
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    const { detail } = await failed;
    expect(detail.code).to.equal('not-a-user');
    await until(() => deepActiveElement()?.getAttribute('part') === 'retry', 'focus on changing the country');
    expect(actions(el)).to.deep.equal([['retry', 'primary', lv['action.change-country']]]);
    expect(deepText(el)).not.to.contain(lv['channel.mobile']);
    await expect(el).to.be.accessible();
  });

  it('after "no account" where the code fits another offered country, changing the country comes first, the other method second', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="en" poll-interval="100"></esign-identify>`);
    await chooseCountry(el, 'EE');
    await type(el, 'code', '30303039914');
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    expect((await failed).detail.code).to.equal('not-a-user');
    await until(() => deepActiveElement()?.getAttribute('part') === 'retry', 'focus on changing the country');
    expect(actions(el)).to.deep.equal([
      ['retry', 'primary', en['action.change-country']],
      ['other-channel', 'secondary', 'Use Mobile-ID instead'],
    ]);
    await expect(el).to.be.accessible();
  });

  it('a Latvian code for Mobile-ID is answered with what is wrong (Latvia has no Mobile-ID), not with its digits', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="en" channels="mobile"></esign-identify>`);
    await type(el, 'phone', '+37060000666');
    await type(el, 'code', '010101-10006');
    submitButton(el).click();
    await until(() => deepText(el).includes(en['form.code.mobile-lv']), 'the reason');
    expect(deepText(el)).not.to.contain(en['form.code.format']);
    await expect(el).to.be.accessible();
  });
});

import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { en } from '../../src/i18n/en.js';
import { ENDPOINT, plain, submitButton, type, until } from './helpers.js';

// A phone that slept while a person waited: its timers waited, its clock went on. Woken past the
// time to confirm, the status and the control code's box read the one clock: both say the time is
// up at once, and nobody is asked to enter a PIN beside "Time is up".

const SLOW_PERSON = '39001010607';

describe('one clock for everything a waiting session shows', () => {
  it("woken past the time to confirm, the status and the code's box say the time is up together", async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="en" poll-interval="500"></esign-identify>`);
    await type(el, 'code', SLOW_PERSON);
    submitButton(el).click();
    const code = () => el.shadowRoot!.querySelector('esign-control-code')!;
    const status = () => el.shadowRoot!.querySelector('esign-status')!;
    await until(() => !!code()?.shadowRoot?.querySelector('.instruction'), 'the code and what to do');
    expect(plain(code().shadowRoot!.textContent)).to.contain(plain(en['code.smartid.login']));
    // the clock moves past the limit while the page's timers wait (as a frozen page's do)
    const realNow = Date.now.bind(Date);
    const ahead = 200_000;
    Date.now = () => realNow() + ahead;
    try {
      document.dispatchEvent(new Event('resume'));
      await until(() => (status().shadowRoot?.textContent ?? '').includes(en['status.time-up']), 'the status says the time is up', 3_000);
      // in the same moment, the box no longer asks for the PIN
      await code().updateComplete;
      expect(plain(code().shadowRoot!.textContent)).not.to.contain(plain(en['code.smartid.login']));
      expect(code().shadowRoot!.querySelector('.warning')).to.equal(null);
      await expect(el).to.be.accessible();
    } finally {
      Date.now = realNow;
      await el.cancel();
    }
  });
});

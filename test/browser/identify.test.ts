import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { EsignClient } from '../../src/client/index.js';
import '../../src/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import type { EsignStatus } from '../../src/elements/status/status.js';
import { lt } from '../../src/i18n/lt.js';
import { en } from '../../src/i18n/en.js';
import { et } from '../../src/i18n/et.js';
import { PERSONAS } from 'esign-sandbox/personas';
import { ENDPOINT, deepActiveElement, deepQuery, deepText, personForm, plain, requestsTo, submitButton, type, until } from './helpers.js';

const ERROR_OF: Record<number, keyof typeof en> = {
  40020: 'error.refused',
  40021: 'error.expired',
  40401: 'error.not-a-user',
  40403: 'error.not-qualified',
  40801: 'error.certificate-timeout',
  50000: 'error.service-error',
  50001: 'error.provider-error.channel',
};
const CODE_OF: Record<number, string> = {
  40020: 'refused',
  40021: 'expired',
  40401: 'not-a-user',
  40403: 'not-qualified',
  40801: 'certificate-timeout',
  50000: 'service-error',
  50001: 'provider-error',
};

before(() => performance.setResourceTimingBufferSize(100_000));

async function identify(attrs = '') {
  const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="en" poll-interval="100"></esign-identify>`);
  for (const part of attrs.split(' ').filter(Boolean)) {
    const [name, value = ''] = part.split('=');
    el.setAttribute(name!, value);
  }
  await el.updateComplete;
  return el;
}

async function chooseMobile(el: EsignIdentify) {
  const radio = el.shadowRoot!.querySelector<HTMLInputElement>('input[value="mobile"]')!;
  radio.click();
  await el.updateComplete;
  await personForm(el).updateComplete;
}

describe('esign-identify: form', () => {
  it('is accessible when idle and offers both channels', async () => {
    const el = await identify();
    await expect(el).to.be.accessible();
    const radios = el.shadowRoot!.querySelectorAll('input[type="radio"]');
    expect(radios).to.have.length(2);
    expect(deepText(el)).to.contain('Personal code');
  });

  it('shows the phone field for Mobile-ID, also when the attribute changes after the first render', async () => {
    const el = await identify();
    el.setAttribute('channels', 'mobile');
    await el.updateComplete;
    await personForm(el).updateComplete;
    await expect(el).to.be.accessible();
    expect(el.shadowRoot!.querySelectorAll('input[type="radio"]')).to.have.length(0);
    expect(personForm(el).shadowRoot!.querySelector('#phone')).to.exist;
    el.setAttribute('code', '50001018865');
    await el.updateComplete;
    await personForm(el).updateComplete;
    expect(personForm(el).shadowRoot!.querySelector<HTMLInputElement>('#code')!.value).to.equal('50001018865');
  });

  it('says what is wrong with each field, announces it by focus and sends nothing', async () => {
    performance.clearResourceTimings();
    const el = await identify();
    submitButton(el).click();
    await until(() => deepActiveElement()?.id === 'code', 'focus on the code field');
    await expect(el).to.be.accessible();
    const input = personForm(el).shadowRoot!.querySelector<HTMLInputElement>('#code')!;
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')).to.contain('code-error');
    expect(deepText(el)).to.contain(en['form.code.empty']);
    await type(el, 'code', '50001018866');
    expect(deepText(el)).to.contain(en['form.code.check-digit']);
    await type(el, 'code', '50013018865');
    expect(deepText(el)).to.contain(en['form.code.birth-date']);
    await chooseMobile(el);
    await type(el, 'phone', '+371 2000 0000');
    submitButton(el).click();
    await until(() => deepText(el).includes(en['form.phone.country']), 'the phone error');
    await expect(el).to.be.accessible();
    expect(requestsTo('/esign/')).to.equal(0);
  });

  it('rejects start() with invalid-input while a field is invalid', async () => {
    const el = await identify();
    let code = '';
    await el.start().catch((error) => (code = error.code));
    expect(code).to.equal('invalid-input');
  });
});

describe('esign-identify: one focus rule for an invalid submit', () => {
  for (const channel of ['smartid', 'mobile'] as const) {
    it(`${channel}: a mouse submit with an invalid personal code moves the focus to the field and starts nothing`, async () => {
      const el = await identify(channel === 'mobile' ? 'channel=mobile' : '');
      await personForm(el).updateComplete;
      if (channel === 'mobile') await type(el, 'phone', '+37060000666');
      await type(el, 'code', '12345678901');
      const started: Event[] = [];
      const errors: CustomEvent[] = [];
      el.addEventListener('esign-started', (e) => started.push(e));
      el.addEventListener('esign-error', (e) => errors.push(e as CustomEvent));
      const button = submitButton(el);
      button.focus();
      button.click();
      await until(() => deepActiveElement()?.id === 'code', 'focus on the personal code');
      await el.updateComplete;
      const code = personForm(el).shadowRoot!.querySelector('#code')!;
      expect(code.getAttribute('aria-invalid')).to.equal('true');
      expect(started).to.have.length(0);
      await expect(el).to.be.accessible();
    });
  }
});

describe('esign-identify: flow', () => {
  it('a person the channel does not know is offered the other channel, and nothing retries what cannot work', async () => {
    const el = await identify();
    await chooseMobile(el);
    await type(el, 'phone', '+37200000366');
    await type(el, 'code', '60001019928');
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    const { detail } = await failed;
    expect(detail.code).to.equal('not-a-user');
    expect(detail.retryable).to.equal(false);
    await until(() => deepActiveElement()?.getAttribute('part') === 'other-channel', 'focus on the other channel');
    const actions = [...el.shadowRoot!.querySelectorAll('.actions button')].map((b) => [b.getAttribute('part'), b.textContent.trim()]);
    expect(actions.map(([part, words]) => [part, plain(words!)])).to.deep.equal([
      ['other-channel', 'Use Smart-ID instead'],
      ['retry', en['action.edit']],
    ]);
    await expect(el).to.be.accessible();
    (deepActiveElement() as HTMLButtonElement).click();
    await el.updateComplete;
    await personForm(el).updateComplete;
    expect(el.channel).to.equal('smartid');
    await until(() => deepActiveElement()?.id === 'code', 'focus on the personal code');
    // with one channel offered, only the way back to the details
    const single = await identify('channels=mobile');
    await personForm(single).updateComplete;
    await type(single, 'phone', '+37200000366');
    await type(single, 'code', '60001019928');
    const again = oneEvent(single, 'esign-error');
    submitButton(single).click();
    await again;
    await single.updateComplete;
    expect([...single.shadowRoot!.querySelectorAll('.actions button')].map((b) => b.textContent.trim())).to.deep.equal([en['action.edit']]);
  });

  it('while waiting, says the channel and the person, masked; an error has a short title and the reason', async () => {
    const el = await identify();
    await chooseMobile(el);
    await type(el, 'phone', '+37060000666');
    await type(el, 'code', '50001018865');
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    await el.updateComplete;
    const status = el.shadowRoot!.querySelector('esign-status')!;
    await status.updateComplete;
    expect(status.shadowRoot!.querySelector('.message')!.textContent.trim()).to.equal(en['status.waiting']);
    // shown masked; said by its ending, not as "bullet bullet"
    const detailText = (selector: string) => plain(status.shadowRoot!.querySelector(`.detail ${selector}`)!.textContent.trim());
    expect(detailText('[aria-hidden="true"]')).to.equal('Mobile-ID ·\u00a0+370\u00a06••\u00a0••\u00a0666');
    expect(detailText('.visually-hidden')).to.equal('Mobile-ID, phone number +370, ending in 6 6 6');
    expect(deepText(el)).not.to.contain('60000666');
    await el.cancel();
    const failing = await identify();
    await type(failing, 'code', '30403039917');
    const failed = oneEvent(failing, 'esign-error');
    submitButton(failing).click();
    const { detail } = await failed;
    await failing.updateComplete;
    const box = failing.shadowRoot!.querySelector('esign-status')!;
    await box.updateComplete;
    expect(box.shadowRoot!.querySelector('.message')!.textContent.trim()).to.equal(en['identify.failed']);
    expect(box.shadowRoot!.querySelector('.detail')!.textContent.trim()).to.equal(detail.message);
    await expect(failing).to.be.accessible();
  });

  it('Smart-ID: control code while waiting, then esign-authenticated with the person and certificate', async () => {
    const el = await identify();
    await type(el, 'code', '40504040001');
    const started = oneEvent(el, 'esign-started');
    const authenticated = oneEvent(el, 'esign-authenticated');
    submitButton(el).click();
    const { detail: start } = await started;
    expect(start.controlCode).to.match(/^\d{4}$/);
    expect(start.channel).to.equal('smartid');
    await el.updateComplete;
    const code = el.shadowRoot!.querySelector('esign-control-code')!;
    expect(deepText(code)).to.contain(start.controlCode);
    // said digit by digit by the name of its box, which takes the focus
    expect(code.shadowRoot!.querySelector('.box')!.getAttribute('aria-label')).to.contain(start.controlCode.split('').join(' '));
    await expect(el).to.be.accessible();
    const { detail } = await authenticated;
    expect(detail.person).to.deep.equal({ name: 'OK', surname: 'TESTNUMBER', code: '40504040001', country: 'LT' });
    expect(detail.certificate.subject.serialNumber).to.equal('PNOLT-40504040001');
    expect(detail.raw.certificate.subject.serial_number).to.equal('PNOLT-40504040001');
    expect(detail.token).to.equal(start.token);
    await until(() => deepText(el).includes('Logged in as OK TESTNUMBER'), 'the success words');
    await until(() => deepActiveElement()?.classList.contains('done') ?? false, 'focus on the success text');
    await expect(el).to.be.accessible();
  });

  it('Mobile-ID with peps and sanctions: start() resolves with the screening data', async () => {
    const el = await identify('peps sanctions');
    await chooseMobile(el);
    await type(el, 'phone', '8 600 00708');
    await type(el, 'code', '39001010708');
    const detail = await el.start();
    expect(detail.channel).to.equal('mobile');
    expect(detail.pepsData).to.have.length(1);
    expect(detail.pepsData[0]!.politicalPosition).to.contain('fictional');
    expect(detail.sanctionsData).to.have.length(0);
  });

  it('hides its success state when the host asks', async () => {
    const el = await identify('hide-success');
    await type(el, 'code', '30303039914');
    await el.start();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.base')).to.equal(null);
  });

  for (const persona of PERSONAS.filter((p) => !p.slow)) {
    const country = persona.countries[0]!;
    const expected = persona.outcome;
    it(`${persona.channel} ${persona.phone ?? ''} ${persona.code} ${country} ends in ${expected}`, async () => {
      const el = await identify();
      if (persona.channel === 'mobile') {
        await chooseMobile(el);
        await type(el, 'phone', persona.phone!);
      } else {
        const select = personForm(el).shadowRoot!.querySelector<HTMLSelectElement>('#country')!;
        select.value = country;
        select.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
      }
      await type(el, 'code', persona.code);
      if (expected === 'ok') {
        const authenticated = oneEvent(el, 'esign-authenticated');
        submitButton(el).click();
        const { detail } = await authenticated;
        expect(detail.person.code).to.equal(persona.code);
        expect(detail.person.name).to.equal(persona.givenName);
        return;
      }
      const event = oneEvent(el, 'esign-error');
      submitButton(el).click();
      const { detail } = await event;
      expect(detail.code).to.equal(CODE_OF[expected]);
      expect(detail.serviceCode).to.equal(expected);
      // a Smart-ID refusal is a decline or another code chosen in the app: its words say both
      const words = expected === 40020 && persona.channel === 'smartid' ? 'error.refused.smartid' : ERROR_OF[expected]!;
      // no account: the words name the method and the country (Mobile-ID's by the phone's prefix)
      const accountCountry = persona.channel === 'mobile' ? (persona.phone!.startsWith('+372') ? 'EE' : 'LT') : country;
      const expectedWords = en[words]
        .replace('{channel}', en[`channel.${persona.channel}`])
        .replace('{country}', en[`country.${accountCountry}` as 'country.LT']);
      expect(plain(detail.message)).to.equal(expectedWords);
      await until(() => deepText(el).includes(plain(detail.message)), 'the error words');
      // a person the channel does not know or qualify is offered the other channel first
      // no Smart-ID account in the country chosen: another country first; else the other method, where it can serve
      const first =
        expected === 40401 && persona.channel === 'smartid'
          ? 'retry'
          : (expected === 40401 || expected === 40403) && country !== 'LV'
            ? 'other-channel'
            : 'retry';
      await until(() => deepActiveElement()?.getAttribute('part') === first, `focus on ${first}`);
      const retry = el.shadowRoot!.querySelector('[part="retry"]')!.textContent.trim();
      // no Smart-ID account in the country chosen: changing the country may help, and is offered
      const changeCountry = expected === 40401 && persona.channel === 'smartid';
      expect(retry).to.equal(detail.retryable ? en['action.retry'] : changeCountry ? en['action.change-country'] : en['action.edit']);
      await expect(el).to.be.accessible();
      // trying again brings the form back with what was typed
      (deepActiveElement() as HTMLButtonElement).click();
      await el.updateComplete;
      await personForm(el).updateComplete;
      expect(personForm(el).shadowRoot!.querySelector<HTMLInputElement>('#code')!.value).to.equal(persona.code);
    });
  }
});

describe('esign-identify: cancel, double submit, leaving the page, language', () => {
  it('cancel while waiting removes the Mobile-ID session at the service and fires esign-cancelled', async () => {
    // counted from here: earlier tests cancel sessions too
    performance.clearResourceTimings();
    const el = await identify();
    await chooseMobile(el);
    await type(el, 'phone', '+37060000607');
    await type(el, 'code', '39001010607');
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    const { detail: start } = await started;
    await el.updateComplete;
    const status = el.shadowRoot!.querySelector('esign-status')!;
    await status.updateComplete;
    const cancelled = oneEvent(el, 'esign-cancelled');
    status.shadowRoot!.querySelector<HTMLButtonElement>('[part="cancel"]')!.click();
    const { detail } = await cancelled;
    expect(detail.token).to.equal(start.token);
    await until(() => deepText(el).includes(en['identify.cancelled']), 'the cancelled state');
    await expect(el).to.be.accessible();
    const client = new EsignClient({ endpoint: ENDPOINT, lang: 'en' });
    let code = '';
    await until(() => requestsTo('/esign/en/api/mobile/session/') === 1, 'the removal request');
    await client.mobileLoginStatus(start.token).catch((error) => (code = error.code));
    expect(code).to.equal('session-not-found');
  });

  it("on esign-proxy's login page: names the site beside the method while waiting, and its cancel button says it stops the request (the page has its own way back)", async () => {
    const waitingOf = async (el: EsignIdentify) => {
      await type(el, 'code', '39001010607');
      const started = oneEvent(el, 'esign-started');
      submitButton(el).click();
      await started;
      await el.updateComplete;
      const status = el.shadowRoot!.querySelector('esign-status')!;
      await status.updateComplete;
      const shown = {
        cancel: plain(status.shadowRoot!.querySelector('[part="cancel"]')!.textContent.trim()),
        detail: plain(status.shadowRoot!.querySelector('.detail [aria-hidden="true"]')!.textContent.trim()),
        spoken: plain(status.shadowRoot!.querySelector('.detail .visually-hidden')!.textContent.trim()),
      };
      await expect(el).to.be.accessible();
      await el.cancel();
      return shown;
    };
    const hosted = await fixture<EsignIdentify>(
      html`<esign-identify endpoint=${ENDPOINT} lang="lt" interaction="/esign/oidc/interaction/not-continued" site-name="Baltijas Banka"></esign-identify>`,
    );
    expect(await waitingOf(hosted)).to.deep.equal({
      cancel: plain(lt['identify.cancel-request']),
      detail: plain('Smart-ID ·\u00a03900••••607 ·\u00a0Baltijas Banka'),
      spoken: plain(`Smart-ID, ${lt['status.spoken-code'].replace('{digits}', '6 0 7')}, Baltijas Banka`),
    });
    const onSite = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="lt"></esign-identify>`);
    expect(await waitingOf(onSite)).to.deep.equal({
      cancel: plain(lt['action.cancel']),
      detail: plain('Smart-ID ·\u00a03900••••607'),
      spoken: plain(`Smart-ID, ${lt['status.spoken-code'].replace('{digits}', '6 0 7')}`),
    });
  });

  it('cancel() also works from code', async () => {
    const el = await identify();
    await type(el, 'code', '39001010607');
    const running = el.start().catch((error) => error.code);
    await oneEvent(el, 'esign-started');
    await el.cancel();
    expect(await running).to.equal('cancelled');
    expect(el.shadowRoot!.querySelector<EsignStatus>('esign-status')!.state).to.equal('cancelled');
  });

  it('starts one session however often submit is pressed', async () => {
    performance.clearResourceTimings();
    const el = await identify();
    await chooseMobile(el);
    await type(el, 'phone', '+37060000666');
    await type(el, 'code', '50001018865');
    let starts = 0;
    el.addEventListener('esign-started', () => starts++);
    const done = oneEvent(el, 'esign-authenticated');
    submitButton(el).click();
    submitButton(el).click();
    void el.start().catch(() => undefined);
    const form = personForm(el).shadowRoot!.querySelector<HTMLInputElement>('#code')!;
    form.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
    await done;
    expect(starts).to.equal(1);
    expect(requestsTo('/esign/en/mobile/login.json')).to.equal(1);
  });

  it('start() called three times at once: one session, one outcome, one of each event, one promise', async () => {
    performance.clearResourceTimings();
    const el = await identify();
    await type(el, 'code', '40504040001');
    const counts: Record<string, number> = {};
    for (const name of ['esign-started', 'esign-authenticated', 'esign-error', 'esign-cancelled']) {
      counts[name] = 0;
      el.addEventListener(name, () => counts[name]!++);
    }
    const first = el.start();
    const second = el.start();
    const third = el.start();
    expect(second).to.equal(first);
    expect(third).to.equal(first);
    const [a, b, c] = await Promise.all([first, second, third]);
    expect(a).to.equal(b);
    expect(b).to.equal(c);
    await el.updateComplete;
    expect(counts).to.deep.equal({ 'esign-started': 1, 'esign-authenticated': 1, 'esign-error': 0, 'esign-cancelled': 0 });
    expect(requestsTo('/esign/en/smartid/login.json')).to.equal(1);
    // after the outcome, start() is a new call, not the settled one
    const again = el.start();
    expect(again).not.to.equal(first);
    await again.catch(() => undefined);
  });

  it("start() on an invalid form rejects in the person's language, once", async () => {
    const el = await identify();
    el.lang = 'lt';
    await el.updateComplete;
    await type(el, 'code', '123');
    const errors = (await Promise.all(
      [el.start(), el.start()].map((p) =>
        p.then(
          () => null,
          (error: unknown) => error,
        ),
      ),
    )) as { code: string; message: string }[];
    expect(errors[0]).to.equal(errors[1]);
    expect(errors[0]!.code).to.equal('invalid-input');
    expect(errors[0]!.message).to.equal(lt['error.invalid-input']);
  });

  it('keeps the focus when a session starts: it moves to the control code, not to the page', async () => {
    const el = await identify();
    await type(el, 'code', '39001010607');
    submitButton(el).focus();
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    await until(() => deepActiveElement()?.classList.contains('box') === true, 'the focus on the control code');
    expect(document.activeElement).to.equal(el);
    await expect(el).to.be.accessible();
    await el.cancel();
  });

  it("reflects lang, and marks what it renders with its language when that differs from the page's", async () => {
    const el = await identify();
    const rendered = () => [...el.shadowRoot!.children].filter((c) => c.localName !== 'style');
    expect(el.hasAttribute('lang')).to.equal(true, 'the fixture set lang="en" on a page in English');
    expect(
      rendered().every((c) => !c.hasAttribute('lang')),
      'same as the page: nothing to mark',
    ).to.equal(true);
    el.lang = 'lt';
    await el.updateComplete;
    expect(el.getAttribute('lang')).to.equal('lt');
    expect(rendered().length).to.be.greaterThan(0);
    expect(rendered().every((c) => c.getAttribute('lang') === 'lt')).to.equal(true);
    el.lang = '';
    await el.updateComplete;
    expect(el.hasAttribute('lang')).to.equal(false, 'an empty lang leaves no attribute');
    expect(rendered().every((c) => !c.hasAttribute('lang'))).to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('stops polling when removed from the page while waiting', async () => {
    const el = await identify();
    await type(el, 'code', '39001010607');
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    const { detail } = await started;
    const path = `/esign/en/smartid/status/${detail.token}.json`;
    await until(() => requestsTo(path) > 0, 'a poll');
    el.remove();
    // a poll already on its way lands; none after it
    await new Promise((resolve) => setTimeout(resolve, 150));
    const after = requestsTo(path);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(requestsTo(path)).to.equal(after);
  });

  it('switches language while waiting, and follows the page language', async () => {
    const el = await identify();
    await type(el, 'code', '39001010607');
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    await until(() => deepText(el).includes(en['status.waiting']), 'the waiting words');
    el.lang = 'lt';
    await until(() => deepText(el).includes(lt['status.waiting']), 'Lithuanian words');
    expect(deepText(el)).to.contain(lt['code.smartid.login']);
    await expect(el).to.be.accessible();
    el.lang = '';
    document.documentElement.lang = 'lt';
    try {
      await until(() => deepText(el).includes(lt['action.cancel']), 'the page language');
    } finally {
      document.documentElement.lang = 'en';
    }
    await el.cancel();
  });

  it('chooses UCS-2 by itself for a Lithuanian phone message, and refuses one too long before sending', async () => {
    const el = await identify('message=Ačiū');
    await chooseMobile(el);
    await type(el, 'phone', '+37060000666');
    await type(el, 'code', '50001018865');
    const detail = await el.start();
    expect(detail.person.code).to.equal('50001018865');
    // the same person again on a page whose message is too long for one SMS in UCS-2
    const again = await identify();
    again.setAttribute('message', 'Prisijungimas prie banko sistemos ąčę');
    await chooseMobile(again);
    await type(again, 'phone', '+37060000666');
    await type(again, 'code', '50001018865');
    const failed = oneEvent(again, 'esign-error');
    again.start().catch(() => undefined);
    const { detail: error } = await failed;
    expect(error.code).to.equal('misconfigured');
    expect(error.field).to.equal('message');
  });

  it('lets the host rewrite error messages and override strings', async () => {
    const el = await identify();
    el.strings = { 'identify.submit': 'Prisijungti dabar' };
    el.errorMessage = (detail) => (detail.code === 'refused' ? 'Host words for a refusal' : undefined);
    await el.updateComplete;
    expect(submitButton(el).textContent.trim()).to.equal('Prisijungti dabar');
    await type(el, 'code', '30403039917');
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    expect((await failed).detail.message).to.equal('Host words for a refusal');
  });
});

describe('parts on their own', () => {
  it('esign-person-form takes part in a form: validity and value', async () => {
    const form = await fixture<HTMLFormElement>(html`<form><esign-person-form name="person" lang="en"></esign-person-form></form>`);
    const person = form.querySelector('esign-person-form')!;
    await person.updateComplete;
    expect(form.checkValidity()).to.equal(false);
    person.code = '40504040001';
    await person.updateComplete;
    expect(form.checkValidity()).to.equal(true);
    expect(JSON.parse(String(new FormData(form).get('person')))).to.deep.equal({ channel: 'smartid', code: '40504040001', country: 'LT' });
    await expect(person).to.be.accessible();
  });

  it('esign-control-code says the code digit by digit by its name, and what to do by its description, when it takes the focus', async () => {
    const el = await fixture<HTMLElement>(html`<esign-control-code lang="et" code="0421" channel="mobile" kind="sign"></esign-control-code>`);
    await expect(el).to.be.accessible();
    el.focus();
    const box = el.shadowRoot!.activeElement as HTMLElement;
    expect([box.className, box.getAttribute('role'), box.getAttribute('aria-label')]).to.deep.equal([
      'box',
      'group',
      et['code.announce'].replace('{digits}', '0 4 2 1'),
    ]);
    const [instruction, warning] = box
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => el.shadowRoot!.getElementById(id)!.textContent);
    expect(instruction).to.contain('PIN2');
    // and what to do when the phone shows another code: the anti-phishing line of every Baltic bank
    expect(warning).to.equal(et['code.warning']);
    // no live region that would be born holding the code (several screen readers skip such regions)
    expect(deepQuery(el.shadowRoot!, '[role="status"], [aria-live]')).to.equal(null);
    expect(getComputedStyle(box).outlineStyle, 'the focus shows').to.equal('solid');
    await expect(el).to.be.accessible();
  });

  it('esign-status shows elapsed time and asks to cancel', async () => {
    const el = await fixture<HTMLElement & { updateComplete: Promise<boolean> }>(
      html`<esign-status lang="ru" state="waiting" .since=${Date.now() - 65_000}></esign-status>`,
    );
    await expect(el).to.be.accessible();
    expect(deepText(el)).to.contain('1:05');
    const request = oneEvent(el, 'esign-cancel-request');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="cancel"]')!.click();
    await request;
    for (const state of ['success', 'error', 'cancelled']) {
      el.setAttribute('state', state);
      await el.updateComplete;
      await expect(el).to.be.accessible();
    }
  });
});

describe('esign-identify: dark theme', () => {
  it('keeps AA contrast in the dark theme in the form, invalid, waiting and error states', async () => {
    const el = await identify('theme=dark');
    await expect(el).to.be.accessible();
    submitButton(el).click();
    await until(() => deepText(el).includes(en['form.code.empty']), 'the field error');
    await expect(el).to.be.accessible();
    await type(el, 'code', '30403039917');
    const started = oneEvent(el, 'esign-started');
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    await started;
    await until(() => el.shadowRoot!.querySelector('esign-control-code') !== null, 'the control code');
    await expect(el).to.be.accessible();
    await failed;
    await until(() => deepText(el).includes(en['error.refused.smartid']), 'the error words');
    await expect(el).to.be.accessible();
  });
});

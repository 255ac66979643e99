import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/elements/identify/define.js';
import type { EsignErrorDetail } from '../../src/client/errors.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { en } from '../../src/i18n/en.js';
import { et } from '../../src/i18n/et.js';
import { lt } from '../../src/i18n/lt.js';
import { lv } from '../../src/i18n/lv.js';
import { ru } from '../../src/i18n/ru.js';
import { deepText, submitButton, type, until } from './helpers.js';

// A site that turns a finished login away for good (/esign-refusing: its onResult throws
// ResultRefused, as a webhook's 4xx does behind esign-proxy): the person is told in their language
// that the site did not accept it, once, with no action that brings the same refusal back, and no
// success is ever shown.

describe('a result the site refuses', () => {
  for (const [lang, words] of [
    ['en', en],
    ['lt', lt],
    ['lv', lv],
    ['et', et],
    ['ru', ru],
  ] as const) {
    it(`ends the login with the site's refusal, said in ${lang}, no success and no action that brings it back`, async () => {
      const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign-refusing" lang=${lang} country="EE" poll-interval="200"></esign-identify>`);
      const counts = { started: 0, authenticated: 0, error: 0 };
      el.addEventListener('esign-started', () => counts.started++);
      el.addEventListener('esign-authenticated', () => counts.authenticated++);
      el.addEventListener('esign-error', () => counts.error++);
      const failed = oneEvent(el, 'esign-error');
      await type(el, 'code', '40504040001');
      submitButton(el).click();
      const { detail } = (await failed) as CustomEvent<EsignErrorDetail>;
      expect([detail.code, detail.message, detail.retryable]).to.deep.equal(['site-refused', words['error.site-refused'], false]);
      await until(() => deepText(el).includes(words['error.site-refused']), 'the words');
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(counts).to.deep.equal({ started: 1, authenticated: 0, error: 1 });
      expect(el.shadowRoot!.querySelector('[part="retry"]'), 'no Try again').to.equal(null);
      await expect(el).to.be.accessible();
    });
  }
});

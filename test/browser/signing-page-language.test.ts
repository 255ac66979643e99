import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/signing-link/define.js';
import type { EsignSigningLink } from '../../src/elements/signing-link/signing-link.js';
import { lv } from '../../src/i18n/lv.js';
import { ENDPOINT, until } from './helpers.js';

// The service's signing pages speak Lithuanian and English.

const DOCUMENT = '5f0c2a4e-1b7d-4c39-9e21-7a1d3c8b6f00';

describe("the signing page's language", () => {
  it('is said on a page in another language (why it is Lithuanian or English); on a Lithuanian or English page, nothing', async () => {
    const latvian = await fixture<EsignSigningLink>(html`<esign-signing-link endpoint=${ENDPOINT} lang="lv" document-id=${DOCUMENT}></esign-signing-link>`);
    await until(() => latvian.shadowRoot!.querySelector('#language-hint') !== null, 'the hint');
    const select = latvian.shadowRoot!.querySelector<HTMLSelectElement>('select#language')!;
    expect([select.getAttribute('aria-describedby'), latvian.shadowRoot!.querySelector('#language-hint')!.textContent]).to.deep.equal([
      'language-hint',
      lv['slink.language-hint'],
    ]);
    expect(select.value).to.equal('en');
    await expect(latvian).to.be.accessible();
    for (const lang of ['lt', 'en']) {
      const el = await fixture<EsignSigningLink>(html`<esign-signing-link endpoint=${ENDPOINT} lang=${lang} document-id=${DOCUMENT}></esign-signing-link>`);
      await until(() => el.shadowRoot!.querySelector('select#language') !== null, 'the form');
      expect(el.shadowRoot!.querySelector('#language-hint'), lang).to.equal(null);
      expect(el.shadowRoot!.querySelector<HTMLSelectElement>('select#language')!.value, "the page's own language").to.equal(lang);
    }
  });
});

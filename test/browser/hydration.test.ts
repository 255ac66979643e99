// first: LitElement must find the hydration support when it loads
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { expect, oneEvent } from '@open-wc/testing';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import type { EsignStatus } from '../../src/elements/status/status.js';
import { deepActiveElement, deepText, personForm, submitButton, type, until } from './helpers.js';

/** Puts server-rendered HTML on the page as the parser would (declarative shadow roots included). */
async function serverRendered(name: string): Promise<EsignIdentify> {
  const markup = await (await fetch(`/__ssr/${name}`)).text();
  const host = document.createElement('div');
  (host as HTMLElement & { setHTMLUnsafe(html: string): void }).setHTMLUnsafe(markup);
  document.body.append(host);
  return host.querySelector<EsignIdentify>('esign-identify')!;
}

const radio = (el: EsignIdentify, value: string) => el.shadowRoot!.querySelector<HTMLInputElement>(`input[value="${value}"]`)!;

describe('server-rendered elements hydrate', () => {
  let english: EsignIdentify;
  let lithuanian: EsignIdentify;
  let before: { radio: HTMLInputElement; form: Element; status: Element; text: string }[];
  const errors: unknown[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.error);

  // the server's HTML is on the page before any element is defined, as on a server-rendered page
  beforeEach(async () => {
    if (english) return;
    english = await serverRendered('identify-en');
    lithuanian = await serverRendered('identify-lt');
    before = [english, lithuanian].map((el) => ({
      radio: radio(el, el === english ? 'smartid' : 'mobile'),
      form: el.shadowRoot!.querySelector('esign-person-form')!,
      status: el.shadowRoot!.querySelector('esign-status')!,
      text: deepText(el),
    }));
    window.addEventListener('error', onError);
    await import('../../src/elements/identify/define.js');
    for (const el of [english, lithuanian]) {
      await el.updateComplete;
      await personForm(el).updateComplete;
    }
    window.removeEventListener('error', onError);
  });

  it("the server rendered words in each page's language and the chosen channel checked", () => {
    expect(before[0]!.text).to.contain('Log in with').and.contain('Personal code').and.contain('Continue');
    expect(before[1]!.text).to.contain('Prisijungti su').and.contain('Telefono numeris').and.contain('Tęsti');
    expect(before.map((b) => b.radio.checked)).to.deep.equal([true, true]);
  });

  it("hydration keeps the server's nodes, makes them live and throws nothing", () => {
    expect(errors).to.deep.equal([]);
    [english, lithuanian].forEach((el, i) => {
      expect(radio(el, i === 0 ? 'smartid' : 'mobile')).to.equal(before[i]!.radio);
      expect(personForm(el)).to.equal(before[i]!.form);
      expect(el.shadowRoot!.querySelector('esign-status')).to.equal(before[i]!.status);
      expect(personForm(el).hasAttribute('defer-hydration')).to.equal(false);
      expect(deepText(el)).to.equal(before[i]!.text);
    });
    expect(radio(english, 'mobile').checked).to.equal(false);
    expect(radio(lithuanian, 'smartid').checked).to.equal(false);
  });

  it('the hydrated Smart-ID login completes: events, status words, focus, axe', async () => {
    const el = english;
    await type(el, 'code', '40504040001');
    const started = oneEvent(el, 'esign-started');
    const authenticated = oneEvent(el, 'esign-authenticated');
    submitButton(el).click();
    const { detail: start } = await started;
    expect(start.channel).to.equal('smartid');
    const { detail } = await authenticated;
    expect(detail.person).to.deep.equal({ name: 'OK', surname: 'TESTNUMBER', code: '40504040001', country: 'LT' });
    const status = el.shadowRoot!.querySelector<EsignStatus>('esign-status')!;
    await until(() => deepText(status).includes('Logged in as OK TESTNUMBER'), 'the success words in the hydrated status');
    // the text went into a text node, not into the part's closing marker
    const message = status.shadowRoot!.querySelector('.message')!;
    expect([...message.childNodes].filter((n) => n.nodeType === Node.COMMENT_NODE).map((n) => (n as Comment).data)).to.not.include(
      'Logged in as OK TESTNUMBER.',
    );
    await until(() => deepActiveElement()?.classList.contains('done') ?? false, 'focus on the success text');
    await expect(el).to.be.accessible();
  });

  it('the hydrated Lithuanian form switches channel', async () => {
    const el = lithuanian;
    expect(personForm(el).shadowRoot!.querySelector('#phone')).to.not.equal(null);
    radio(el, 'smartid').click();
    await el.updateComplete;
    await personForm(el).updateComplete;
    expect(el.channel).to.equal('smartid');
    expect(personForm(el).shadowRoot!.querySelector('#phone')).to.equal(null);
    expect(radio(el, 'mobile').checked).to.equal(false);
    expect(deepText(el)).to.contain('Asmens kodas');
  });
});

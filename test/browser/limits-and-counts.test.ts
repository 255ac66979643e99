import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { EsignClient, EsignError } from '../../src/client/index.js';
import '../../src/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { loadStrings, translate, type Language } from '../../src/i18n/index.js';
import { deepText, submitButton, type, until } from './helpers.js';
import { lt } from '../../src/i18n/lt.js';
import { en } from '../../src/i18n/en.js';

// /esign-limited is a proxy that allows one session start per visitor in its window.
const LIMITED = '/esign-limited';

describe('rate-limited session starts', () => {
  it("turns the proxy's 429 into rate-limited with retryAfter, shown in words with the minutes", async () => {
    const client = new EsignClient({ endpoint: LIMITED, lang: 'en' });
    // this browser's visitor may have used its one start in an earlier run of this file
    await client.smartIdLogin({ code: '40504040001', country: 'EE' }).catch(() => undefined);

    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${LIMITED} lang="en" channels="smartid"></esign-identify>`);
    await expect(el).to.be.accessible();
    await type(el, 'code', '40504040001');
    const errors: CustomEvent[] = [];
    el.addEventListener('esign-error', (e) => errors.push(e as CustomEvent));
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    const { detail } = await failed;
    expect(detail.code).to.equal('rate-limited');
    expect(detail.retryable).to.equal(true);
    expect(detail.retryAfter).to.be.within(1, 250);
    const minutes = Math.max(1, Math.ceil(detail.retryAfter / 60));
    const words = minutes === 1 ? 'minute' : 'minutes';
    expect(detail.message).to.equal(`Too many attempts. Try again in ${minutes} ${words}.`);
    await el.updateComplete;
    // no action that cannot work: no Try again while the limit lasts, the time left instead, focused
    const root = el.shadowRoot!;
    expect(root.querySelector('[part="retry"]')).to.equal(null);
    await until(() => root.querySelector('[part="retry-wait"]') !== null, 'the time left (loaded with the answer)');
    expect(root.querySelector('[part="retry"]')).to.equal(null);
    const wait = root.querySelector<HTMLElement>('[part="retry-wait"]')!;
    expect(wait.textContent.trim()).to.equal(`You can try again in ${minutes} ${words}.`);
    expect(wait.getAttribute('role')).to.equal('status');
    // the time left is said once: the status above says the cause, the line below the time
    expect(deepText(el).split(`${minutes} ${words}`).length - 1, 'the minutes said once').to.equal(1);
    expect(deepText(el)).to.contain(en['status.too-many']);
    await until(() => root.activeElement === wait, 'the focus on the time left');
    const enabled = [...root.querySelectorAll<HTMLButtonElement>('button')].filter((b) => !b.disabled && b.getClientRects().length > 0);
    expect(
      enabled.map((b) => b.textContent.trim()),
      'no enabled action',
    ).to.deep.equal([]);
    await expect(el).to.be.accessible();
    expect(errors.length).to.equal(1);
  });

  it('brings Try again back once the wait is over, saying the minutes left only as they change', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${LIMITED} lang="lt" channels="smartid"></esign-identify>`);
    await type(el, 'code', '40504040001');
    const failed = oneEvent(el, 'esign-error');
    const realNow = Date.now;
    submitButton(el).click();
    const { detail } = await failed;
    expect(detail.code).to.equal('rate-limited');
    const root = el.shadowRoot!;
    const waitText = () => root.querySelector('[part="retry-wait"]')?.textContent!.trim() ?? null;
    await until(() => waitText() !== null, 'the time left');
    const changes: string[] = [];
    new MutationObserver(() => changes.push(waitText() ?? 'gone')).observe(root, { subtree: true, characterData: true, childList: true });
    try {
      // the clock moves past the limit; the element looks each second
      Date.now = () => realNow() + (detail.retryAfter + 1) * 1000;
      await until(() => root.querySelector('[part="retry"]') !== null, 'Try again back', 3000);
    } finally {
      Date.now = realNow;
    }
    expect(root.querySelector('[part="retry-wait"]')).to.equal(null);
    expect(root.querySelector('[part="retry"]')!.textContent.trim()).to.equal(lt['action.retry']);
    // the words changed once (to the button), not once a second
    expect(changes.filter((c) => c !== 'gone').length).to.be.at.most(1);
    await expect(el).to.be.accessible();
  });

  it("says the wait with each language's plural forms", async () => {
    const expected: Record<Language, Record<number, string>> = {
      en: { 1: '1 minute', 2: '2 minutes', 5: '5 minutes', 21: '21 minutes' },
      lt: { 1: '1 minutės', 2: '2 minučių', 10: '10 minučių', 21: '21 minutės' },
      lv: { 1: '1 minūtes', 2: '2 minūtēm', 10: '10 minūtēm', 21: '21 minūtes' },
      et: { 1: '1 minuti', 4: '4 minuti', 21: '21 minuti' },
      ru: { 1: '1 минуту', 2: '2 минуты', 5: '5 минут', 21: '21 минуту', 11: '11 минут' },
    };
    for (const [lang, forms] of Object.entries(expected) as [Language, Record<number, string>][]) {
      await loadStrings(lang);
      for (const [n, form] of Object.entries(forms)) {
        const text = translate(lang, 'error.rate-limited', { minutes: Number(n) });
        expect(text, `${lang} ${n}`).to.contain(form);
        expect(text).not.to.contain('{');
      }
    }
  });

  it("reads Retry-After alone from a proxy of the host's own", async () => {
    const client = new EsignClient({
      endpoint: '/elsewhere',
      fetch: async () => new Response(JSON.stringify({ status: 'error', message: 'slow down' }), { status: 429, headers: { 'retry-after': '90' } }),
    });
    const error = await client.smartIdLogin({ code: '40504040001', country: 'EE' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(EsignError);
    expect((error as EsignError).code).to.equal('rate-limited');
    expect((error as EsignError).retryAfter).to.equal(90);
  });
});

describe('counts in the five languages', () => {
  it("says how many signatures are valid with each language's plural forms", async () => {
    const expected: Record<Language, [number, number, string][]> = {
      en: [
        [1, 1, '1 of 1 signature is valid.'],
        [0, 1, '0 of 1 signature is valid.'],
        [1, 3, '1 of 3 signatures are valid.'],
        [2, 3, '2 of 3 signatures are valid.'],
      ],
      lt: [
        [1, 1, 'Galioja 1 iš 1 parašo.'],
        [2, 3, 'Galioja 2 iš 3 parašų.'],
        [5, 21, 'Galioja 5 iš 21 parašo.'],
      ],
      lv: [
        [1, 1, 'Derīgi paraksti: 1 no 1.'],
        [2, 3, 'Derīgi paraksti: 2 no 3.'],
        [0, 10, 'Derīgi paraksti: 0 no 10.'],
      ],
      et: [
        [1, 1, 'Kehtib 1 allkiri 1-st.'],
        [2, 3, 'Kehtivad 2 allkirja 3-st.'],
      ],
      ru: [
        [1, 1, 'Действительна 1 из 1 подписи.'],
        [2, 5, 'Действительны 2 из 5 подписей.'],
        [3, 21, 'Действительны 3 из 21 подписи.'],
        [2, 2, 'Действительны 2 из 2 подписей.'],
      ],
    };
    for (const [lang, cases] of Object.entries(expected) as [Language, [number, number, string][]][]) {
      await loadStrings(lang);
      for (const [valid, total, text] of cases) expect(translate(lang, 'report.summary', { valid, total }), `${lang} ${valid}/${total}`).to.equal(text);
    }
  });

  it('writes byte counts in words with plural forms', async () => {
    const { formatSize } = await import('../../src/internal/documents/file-picker.js');
    // a number and its unit kept on one line
    expect(formatSize(965, 'en')).to.equal('965\u00a0bytes');
    expect(formatSize(1, 'en')).to.equal('1\u00a0byte');
    expect(formatSize(5, 'ru')).to.contain('байт');
    expect(formatSize(2048, 'en')).to.equal('2\u00a0kB');
    expect(formatSize(3 * 1024 * 1024, 'ru')).to.equal('3\u00a0МБ');
  });
});

import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../../src/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import type { EsignHashSign } from '../../src/elements/hash-sign/hash-sign.js';
import type { EsignStatus } from '../../src/elements/status/status.js';
import { en } from '../../src/i18n/en.js';
import { lv } from '../../src/i18n/lv.js';
import { ENDPOINT, deepActiveElement, deepText, personForm, plain, submitButton, type, until } from './helpers.js';

// What a person sees and hears while a session runs and as it ends: the time left, the country of
// the page's language, a missing account named with its country, the focus while it starts, a
// still spinner with reduced motion, brand names that never break, the control code said once.

/** The sandbox's slow identities: a session waits about a minute, long enough to look. */
const SLOW = { code: '39001010607', phone: '+37060000607' };

async function identify(attrs = ''): Promise<EsignIdentify> {
  const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="en" poll-interval="60000"></esign-identify>`);
  for (const part of attrs.split(' ').filter(Boolean)) {
    const [name, value = ''] = part.split('=');
    el.setAttribute(name!, value);
  }
  await el.updateComplete;
  await personForm(el).updateComplete;
  return el;
}

function statusOf(el: HTMLElement): EsignStatus {
  return el.shadowRoot!.querySelector('esign-status') as EsignStatus;
}

/** The text a screen reader reads: aria-hidden subtrees left out, visually hidden text kept. */
function spokenText(root: Node): string {
  let text = '';
  if (root instanceof Element && root.shadowRoot) text += ` ${spokenText(root.shadowRoot)} `;
  for (const node of root.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent;
    else if (node instanceof Element && node.localName !== 'style' && node.getAttribute('aria-hidden') !== 'true') text += ` ${spokenText(node)} `;
  }
  return plain(text.replace(/\s+/g, ' '));
}

const occurrences = (text: string, words: string) => text.split(words).length - 1;

describe('the time left', () => {
  it('at 0:00 says once that the time is up and the result is being checked, asks for no PIN, offers to start again', async () => {
    const deadline = Date.now() + 1_500;
    const status = await fixture<EsignStatus>(
      html`<esign-status lang="lv" state="waiting" message=${lv['status.waiting']} .since=${Date.now() - 60_000} .until=${deadline}></esign-status>`,
    );
    const code = await fixture<HTMLElement>(
      html`<esign-control-code lang="lv" code="3560" channel="smartid" kind="login" .until=${deadline}></esign-control-code>`,
    );
    expect(deepText(status)).to.contain(lv['status.waiting']);
    expect(deepText(code)).to.contain(lv['code.warning']);
    await until(() => deepText(status).includes(lv['status.time-up']), 'the time is up', 5_000);
    await until(() => !deepText(code).includes('PIN1'), 'no PIN asked for', 5_000);
    const live = status.shadowRoot!.querySelector('p.visually-hidden[aria-live]')!;
    expect(plain(live.textContent.trim()), 'said once, in place of what is no longer true').to.equal(lv['status.time-up']);
    expect(deepText(status)).not.to.contain(lv['status.waiting']);
    expect(plain(status.shadowRoot!.querySelector('[part="cancel"]')!.textContent.trim())).to.equal(lv['action.start-again']);
    const box = code.shadowRoot!.querySelector('.box')!;
    expect([box.hasAttribute('aria-describedby'), deepText(code).includes(lv['code.warning'])]).to.deep.equal([false, false]);
    expect(box.getAttribute('aria-label'), 'the code stays').to.contain('3 5 6 0');
    await expect(status).to.be.accessible();
    await expect(code).to.be.accessible();
  });

  it("is shown on Smart-ID's own limit of 3 minutes, as a timer and a draining bar, with no elapsed time", async () => {
    const el = await identify('channels=smartid');
    await type(el, 'code', SLOW.code);
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    const status = statusOf(el);
    await until(() => status.shadowRoot!.querySelector('[part="time-left"]') !== null, 'the time left');
    expect(status.until - status.since, "Smart-ID's limit").to.equal(180_000);
    const timer = status.shadowRoot!.querySelector('[part="time-left"]')!;
    expect(timer.getAttribute('role'), 'a timer: not read out every second').to.equal('timer');
    expect(timer.textContent.trim()).to.match(/^Time left (3:00|2:5\d)$/);
    expect(status.shadowRoot!.textContent).not.to.contain('Elapsed');
    const bar = status.shadowRoot!.querySelector<HTMLElement>('.drain-bar')!;
    const scale = new DOMMatrix(getComputedStyle(bar).transform).a;
    expect(scale, 'nearly full at the start').to.be.within(0.9, 1);
    expect(bar.parentElement!.getAttribute('aria-hidden')).to.equal('true');
    await expect(el).to.be.accessible();
    await el.cancel();
  });

  it("is shown on Mobile-ID's 2 minutes, or on the host's shorter time limit", async () => {
    const el = await identify('channels=mobile time-limit=60000');
    await type(el, 'phone', SLOW.phone);
    await type(el, 'code', SLOW.code);
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    await until(() => statusOf(el).until > 0, 'a deadline');
    expect(statusOf(el).until - statusOf(el).since, 'the host said a minute').to.equal(60_000);
    await el.cancel();
    el.timeLimit = 0;
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="retry"]')!.click();
    await el.updateComplete;
    submitButton(el).click();
    await until(() => statusOf(el).state === 'waiting' && statusOf(el).until > 0, 'waiting again');
    expect(statusOf(el).until - statusOf(el).since, "Mobile-ID's limit").to.equal(120_000);
    await el.cancel();
  });

  it('is said to a screen reader at one minute and at half a minute, each once, never as it counts', async () => {
    const status = await fixture<EsignStatus>(html`<esign-status lang="lt" state="waiting"></esign-status>`);
    const said: string[] = [];
    const live = () => status.shadowRoot!.querySelector('[aria-live="polite"].visually-hidden')?.textContent?.trim() ?? '';
    const watch = setInterval(() => {
      if (live() && said.at(-1) !== live()) said.push(live());
    }, 20);
    try {
      status.since = Date.now() - 60_000;
      status.until = Date.now() + 60_600;
      await until(() => said.length === 1, 'one minute left', 5000);
      expect(said).to.deep.equal(['Patvirtinti liko 1 minutė.']);
      // a new deadline: what is already behind it is not said late, the next moment is
      status.until = Date.now() + 30_600;
      await until(() => said.length === 2, 'half a minute left', 5000);
      expect(said[1]).to.equal('Patvirtinti liko 30 sekundžių.');
      const timer = status.shadowRoot!.querySelector('[part="time-left"]')!;
      expect(timer.hasAttribute('aria-live'), 'the clock itself is not live').to.equal(false);
      await expect(status).to.be.accessible();
    } finally {
      clearInterval(watch);
    }
    expect(said, 'each said once').to.have.length(2);
  });
});

describe('the country at rest', () => {
  for (const [lang, country] of [
    ['et', 'EE'],
    ['lv', 'LV'],
    ['lt', 'LT'],
    ['en', 'LT'],
    ['ru', 'LT'],
  ] as const) {
    it(`follows the page's language: ${lang} preselects ${country}`, async () => {
      const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang=${lang}></esign-identify>`);
      await personForm(el).updateComplete;
      expect(personForm(el).shadowRoot!.querySelector<HTMLSelectElement>('#country')!.value).to.equal(country);
    });
  }

  it("keeps the host's country, and a hash signer offers only its countries", async () => {
    const set = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="et" country="LT"></esign-identify>`);
    await personForm(set).updateComplete;
    expect(personForm(set).shadowRoot!.querySelector<HTMLSelectElement>('#country')!.value, "the host's").to.equal('LT');
    const estonian = await fixture<EsignHashSign>(html`<esign-hash-sign endpoint=${ENDPOINT} lang="et" hash=${'ab'.repeat(32)}></esign-hash-sign>`);
    await personForm(estonian as never).updateComplete;
    expect(personForm(estonian as never).shadowRoot!.querySelector<HTMLSelectElement>('#country')!.value).to.equal('EE');
    const latvian = await fixture<EsignHashSign>(html`<esign-hash-sign endpoint=${ENDPOINT} lang="lv" hash=${'ab'.repeat(32)}></esign-hash-sign>`);
    await personForm(latvian as never).updateComplete;
    expect(personForm(latvian as never).shadowRoot!.querySelector<HTMLSelectElement>('#country')!.value, 'Latvia not offered for a hash').to.equal('LT');
  });

  it('follows a language set later, until the person chooses', async () => {
    const el = await identify();
    const select = () => personForm(el).shadowRoot!.querySelector<HTMLSelectElement>('#country')!;
    el.lang = 'lv';
    await el.updateComplete;
    await personForm(el).updateComplete;
    expect(select().value).to.equal('LV');
    select().value = 'EE';
    select().dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    el.lang = 'lt';
    await el.updateComplete;
    await personForm(el).updateComplete;
    expect(select().value, "the person's choice stays").to.equal('EE');
  });
});

describe('no account in the country chosen', () => {
  it('names the method and the country, and offers to change the country, the focus then on it', async () => {
    const el = await identify('channels=smartid');
    const select = personForm(el).shadowRoot!.querySelector<HTMLSelectElement>('#country')!;
    select.value = 'EE';
    select.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    // a Lithuanian person's code, as the person meant it, in Estonia: the same format, no account there
    await type(el, 'code', '30303039914');
    el.pollInterval = 100;
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    const { detail } = await failed;
    // the proxy's id of the request that failed: what the host's log is searched for
    expect(detail.requestId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([detail.code, plain(detail.message)]).to.deep.equal([
      'not-a-user',
      'This person has no Smart-ID account in the chosen country (Estonia). Check the country and the personal code, or choose another method.',
    ]);
    await until(() => deepActiveElement()?.getAttribute('part') === 'retry', 'the focus on the action');
    const retry = deepActiveElement() as HTMLButtonElement;
    expect(retry.textContent.trim()).to.equal(en['action.change-country']);
    await expect(el).to.be.accessible();
    retry.click();
    await until(() => deepActiveElement()?.id === 'country', 'the focus on the country');
    expect((deepActiveElement() as HTMLSelectElement).value, 'as chosen: the person changes it').to.equal('EE');
  });
});

describe('starting', () => {
  afterEach(() => fetch('/__faults/start?hold=0'));

  it('keeps the focus on the button, says "Starting…", then shows the focus on the control code', async () => {
    await fetch('/__faults/start?hold=1');
    // the start is held until the request's own limit: long enough that a loaded machine sees it starting first
    const el = await identify('channels=smartid request-timeout=10000');
    await type(el, 'code', SLOW.code);
    personForm(el).shadowRoot!.querySelector<HTMLInputElement>('#code')!.focus();
    const failed = oneEvent(el, 'esign-error');
    await sendKeys({ press: 'Enter' });
    // the button may be drawn again between the key and the start (a loaded machine): waited for, not read once
    await until(() => el.shadowRoot!.querySelector('[part="submit"]')?.getAttribute('aria-disabled') === 'true', 'starting');
    await el.updateComplete;
    expect(deepActiveElement(), 'the focus is not dropped to the page').to.equal(submitButton(el));
    expect(submitButton(el).getAttribute('aria-disabled')).to.equal('true');
    expect(el.shadowRoot!.querySelector('form [role="status"]')!.textContent.trim()).to.equal(en['identify.starting']);
    // busy, not disabled: the button keeps its full colour, a small ring turns before its words
    expect(getComputedStyle(submitButton(el)).opacity).to.equal('1');
    expect(submitButton(el).querySelector('.busy-ring')?.getAttribute('aria-hidden')).to.equal('true');
    expect(plain(submitButton(el).textContent.trim())).to.equal(en['identify.starting']);
    await expect(el).to.be.accessible();
    // pressed again while it starts: nothing more starts
    submitButton(el).click();
    await failed;
    await fetch('/__faults/start?hold=0');
    (el.shadowRoot!.querySelector('[part="retry"]') as HTMLButtonElement).click();
    await el.updateComplete;
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    await until(() => el.shadowRoot!.activeElement?.localName === 'esign-control-code', 'the focus on the control code');
    const box = el.shadowRoot!.querySelector('esign-control-code')!.shadowRoot!.querySelector('.box')!;
    expect(getComputedStyle(box).outlineStyle, 'the focus shows').to.equal('solid');
    await el.cancel();
  });
});

describe('reduced motion', () => {
  afterEach(() => emulateMedia({ reducedMotion: 'no-preference' }).catch(() => undefined));

  it('stops the spinner (and still shows the time left)', async function () {
    const status = await fixture<EsignStatus>(html`<esign-status lang="en" state="waiting"></esign-status>`);
    const spinner = status.shadowRoot!.querySelector('.spinner')!;
    expect(getComputedStyle(spinner).animationName).to.equal('spin');
    await emulateMedia({ reducedMotion: 'reduce' }).catch(() => undefined);
    // an engine whose driver cannot emulate the preference has nothing to show here
    if (!matchMedia('(prefers-reduced-motion: reduce)').matches) this.skip();
    expect(getComputedStyle(spinner).animationName).to.equal('none');
  });
});

describe('brand names and the control code', () => {
  it('never breaks "Smart-ID" at its hyphen, even in a box one syllable wide', async () => {
    const el = await identify();
    const label = el.shadowRoot!.querySelector('label.channel')!;
    const words = label.textContent.trim();
    expect(words).to.equal('Smart\u2011ID');
    const box = document.createElement('div');
    box.style.cssText = 'inline-size: 3ch; font-size: 16px';
    box.textContent = `Use ${words} instead`;
    document.body.append(box);
    try {
      const range = document.createRange();
      const start = box.textContent.indexOf(words);
      range.setStart(box.firstChild!, start);
      range.setEnd(box.firstChild!, start + words.length);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      expect(lines.size, 'one line').to.equal(1);
    } finally {
      box.remove();
    }
  });

  it('says the control code and what to do once, also when the page is read from the top', async () => {
    const el = await identify('channels=smartid');
    await type(el, 'code', SLOW.code);
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    await el.updateComplete;
    const code = el.shadowRoot!.querySelector('esign-control-code')!;
    await (code as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    const instruction = en['code.smartid.login'];
    expect(occurrences(spokenText(el), instruction), spokenText(el)).to.equal(1);
    // and seen once on the screen
    expect(occurrences(plain(code.shadowRoot!.querySelector('[part="instruction"]')!.textContent), instruction)).to.equal(1);
    await el.cancel();
  });
});

describe('the method and country remembered', () => {
  const KEY = 'esign-elements:remembered';
  beforeEach(() => localStorage.removeItem(KEY));
  after(() => localStorage.removeItem(KEY));

  async function logInWithMobileId(attributes = ''): Promise<EsignIdentify> {
    const el = await fixture<EsignIdentify>(
      html`<esign-identify endpoint=${ENDPOINT} lang="en" poll-interval="100" channel="mobile" ?no-remember=${attributes === 'no-remember'}></esign-identify>`,
    );
    await type(el, 'phone', '+37060000666');
    await type(el, 'code', '50001018865');
    const done = oneEvent(el, 'esign-authenticated');
    submitButton(el).click();
    await done;
    await el.updateComplete;
    return el;
  }

  /**
   * A new login element, once what is remembered could have been read: after its first frames and
   * its session's code (loaded once for the page by the login before it).
   */
  async function fresh(template: ReturnType<typeof html>): Promise<EsignIdentify> {
    const el = await fixture<EsignIdentify>(template);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 100))));
    await el.updateComplete;
    return el;
  }

  it('keeps the method and country of a session that ended well (never the code or the phone), and preselects them next time where the host chose neither', async () => {
    await logInWithMobileId();
    expect(localStorage.getItem(KEY), 'the method and the country, nothing else').to.equal('{"channel":"mobile","country":"LT"}');
    // an Estonian page would preselect Estonia and Smart-ID; the person used Mobile-ID with a Lithuanian number
    const next = await fresh(html`<esign-identify endpoint=${ENDPOINT} lang="et"></esign-identify>`);
    await until(() => next.channel === 'mobile', 'the remembered method preselected');
    await next.updateComplete;
    expect([next.channel, next.country]).to.deep.equal(['mobile', 'LT']);
    expect(personForm(next).shadowRoot!.querySelector('#phone'), 'the phone form shown').to.not.equal(null);
    await expect(next).to.be.accessible();
    // the host's own choice stands
    const chosen = await fresh(html`<esign-identify endpoint=${ENDPOINT} lang="et" channel="smartid" country="EE"></esign-identify>`);
    expect([chosen.channel, chosen.country]).to.deep.equal(['smartid', 'EE']);
    // turned off: nothing read
    const off = await fresh(html`<esign-identify endpoint=${ENDPOINT} lang="et" no-remember></esign-identify>`);
    expect([off.channel, off.country]).to.deep.equal(['smartid', '']);
  });

  it("keeps the method and country of a session followed on after a reload that then ended well: its own, not the new page's", async () => {
    // the first poll held a moment at the test server: the page goes away while the person confirms
    await fetch('/__faults/poll?plan=stall');
    const first = await fixture<EsignIdentify>(
      html`<esign-identify id="kept-login" endpoint=${ENDPOINT} lang="en" poll-interval="100" channel="mobile"></esign-identify>`,
    );
    await type(first, 'phone', '+37060000666');
    await type(first, 'code', '50001018865');
    const starting = first.start().catch(() => undefined);
    const key = `esign-elements:session:${location.pathname}:esign-identify:kept-login`;
    await until(() => sessionStorage.getItem(key) !== null, 'the session kept while the person confirms');
    const record = sessionStorage.getItem(key)!;
    expect(JSON.parse(record)).to.deep.include({ channel: 'mobile', country: 'LT' });
    first.remove();
    await starting;
    sessionStorage.setItem(key, record);
    await fetch('/__faults/poll?plan=');
    // the page again, in Estonian: left to itself it would offer Estonia and Smart-ID
    const again = await fixture<EsignIdentify>(html`<esign-identify id="kept-login" endpoint=${ENDPOINT} lang="et" poll-interval="100"></esign-identify>`);
    const authenticated: Event[] = [];
    again.addEventListener('esign-authenticated', (e) => authenticated.push(e));
    await until(() => authenticated.length === 1, 'the session followed on to its end');
    await again.updateComplete;
    expect(localStorage.getItem(KEY)).to.equal('{"channel":"mobile","country":"LT"}');
    expect(sessionStorage.getItem(key), 'nothing kept once it ended').to.equal(null);
  });

  it('remembers nothing with no-remember, and nothing of a session that did not end well', async () => {
    await logInWithMobileId('no-remember');
    expect(localStorage.getItem(KEY)).to.equal(null);
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="en" poll-interval="100"></esign-identify>`);
    await type(el, 'code', '30403039983');
    const failed = oneEvent(el, 'esign-error');
    submitButton(el).click();
    await failed;
    await el.updateComplete;
    expect(localStorage.getItem(KEY)).to.equal(null);
  });

  it('changes nothing the person began: a code typed before it is read keeps the form as it is', async () => {
    localStorage.setItem(KEY, '{"channel":"mobile","country":"LT"}');
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="en"></esign-identify>`);
    el.code = '40504040001';
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300))));
    expect(el.channel).to.equal('smartid');
  });
});

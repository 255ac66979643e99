import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/elements/identify/define.js';
import '../../src/elements/sign/define.js';
import '../../src/elements/hash-sign/define.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import type { EsignStatus } from '../../src/elements/status/status.js';
import { submitButton, type, until } from './helpers.js';
import { en } from '../../src/i18n/en.js';
import { lt } from '../../src/i18n/lt.js';

// The test server breaks status polls on the way (dropped connections, a 502 HTML page, a stall):
// the element retries with backoff and completes once, or says clearly that the network failed.

async function faults(plan?: string): Promise<{ seen: number; faulted: number; left: number }> {
  const response = await fetch(`/__faults/poll${plan === undefined ? '' : `?plan=${plan}`}`);
  return response.json();
}

function counting(el: HTMLElement) {
  const counts = { started: 0, authenticated: 0, error: 0, cancelled: 0 };
  el.addEventListener('esign-started', () => counts.started++);
  el.addEventListener('esign-authenticated', () => counts.authenticated++);
  el.addEventListener('esign-error', () => counts.error++);
  el.addEventListener('esign-cancelled', () => counts.cancelled++);
  return counts;
}

describe('polling through network faults', () => {
  afterEach(() => faults(''));

  it('survives dropped connections, a 502 page and a stall, and completes once', async () => {
    await faults('drop,502,drop,502,stall');
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="en" poll-interval="100"></esign-identify>`);
    const counts = counting(el);
    await type(el, 'code', '40504040001');
    submitButton(el).click();
    await until(() => counts.authenticated + counts.error > 0, 'the outcome', 20_000);
    const seen = await faults();
    expect(seen.faulted).to.equal(5, 'every planned fault met a poll');
    expect(seen.left).to.equal(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(counts).to.deep.equal({ started: 1, authenticated: 1, error: 0, cancelled: 0 });
    expect(el.shadowRoot!.querySelector<EsignStatus>('esign-status')!.state).to.equal('success');
  });

  it('ends in a clear, retryable network error when the connection never comes back', async () => {
    await faults('always');
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="en" poll-interval="100" time-limit="2500"></esign-identify>`);
    const counts = counting(el);
    const errors: CustomEvent[] = [];
    el.addEventListener('esign-error', (e) => errors.push(e as CustomEvent));
    await type(el, 'code', '40504040001');
    submitButton(el).click();
    await until(() => errors.length > 0, 'the error', 20_000);
    const seen = await faults();
    await faults('');
    expect(seen.faulted).to.be.greaterThan(1, 'it retried');
    expect(errors[0]!.detail.code).to.equal('network');
    expect(errors[0]!.detail.retryable).to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(counts).to.deep.equal({ started: 1, authenticated: 0, error: 1, cancelled: 0 });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="retry"]')).to.not.equal(null);
    await expect(el).to.be.accessible();
  });

  it('one slow answer, or one failure, says nothing of the connection (a second in a row would)', async () => {
    // a poll answered past the slow mark (1.2 s of its 2.4 s); then, in another login, one that fails
    for (const plan of ['stall', '502']) {
      await faults(plan);
      const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="ru" poll-interval="100" request-timeout="2400"></esign-identify>`);
      const counts = counting(el);
      const said: string[] = [];
      const watch = setInterval(() => {
        const text = el.shadowRoot!.querySelector('[part="connection"]')?.textContent?.trim() ?? '';
        if (text && said.at(-1) !== text) said.push(text);
      }, 20);
      await type(el, 'code', '40504040001');
      submitButton(el).click();
      await until(() => counts.authenticated + counts.error > 0, 'the outcome', 20_000);
      clearInterval(watch);
      expect((await faults()).faulted, plan).to.equal(1);
      expect(said, `${plan}: nothing said of the connection`).to.deep.equal([]);
      expect(counts, plan).to.deep.equal({ started: 1, authenticated: 1, error: 0, cancelled: 0 });
    }
  });

  it('drops a poll that is never answered at its time limit, says the connection is lost and back, and completes once', async () => {
    // two polls in a row never answered: lost once the first had no answer in its time limit, and still while the second is held
    await faults('hold,hold');
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="en" poll-interval="100" request-timeout="1500"></esign-identify>`);
    const counts = counting(el);
    const said: string[] = [];
    const watch = setInterval(() => {
      const text = el.shadowRoot!.querySelector('[part="connection"]')?.textContent?.trim() ?? '';
      if (text && said.at(-1) !== text) said.push(text);
    }, 20);
    await type(el, 'code', '40504040001');
    const started = oneEvent(el, 'esign-started');
    submitButton(el).click();
    await started;
    // the lost line says by when to confirm: the start and Smart-ID's three minutes, as a clock time
    const deadline = new Date(el.shadowRoot!.querySelector<EsignStatus>('esign-status')!.since + 180_000).toLocaleTimeString('en', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const lost = en['session.offline'].replace('{time}', deadline);
    await until(() => said.includes(lost), 'the connection said lost', 10_000);
    // in the tone of a state that recovers by itself (the host's warning colour), not an error's
    const line = el.shadowRoot!.querySelector<HTMLElement>('[part="connection"]')!;
    el.style.setProperty('--esign-color-warning', 'rgb(1, 2, 3)');
    expect(getComputedStyle(line).borderInlineStartColor).to.equal('rgb(1, 2, 3)');
    el.style.removeProperty('--esign-color-warning');
    await expect(el).to.be.accessible();
    await until(() => counts.authenticated + counts.error > 0, 'the outcome', 20_000);
    clearInterval(watch);
    expect((await faults()).faulted).to.equal(2);
    expect(said[0]).to.equal(lost);
    expect(counts).to.deep.equal({ started: 1, authenticated: 1, error: 0, cancelled: 0 });
  });

  it('ends a start that is never answered in a retryable timeout whose words say the phone may show a request, and Try again works', async () => {
    await fetch('/__faults/start?hold=1');
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="lt" poll-interval="100" request-timeout="1500"></esign-identify>`);
    const counts = counting(el);
    const errors: CustomEvent[] = [];
    el.addEventListener('esign-error', (e) => errors.push(e as CustomEvent));
    await type(el, 'code', '40504040001');
    submitButton(el).click();
    await until(() => errors.length > 0, 'the error', 10_000);
    expect([errors[0]!.detail.code, errors[0]!.detail.message, errors[0]!.detail.retryable]).to.deep.equal(['timeout', lt['error.start-timeout'], true]);
    await el.updateComplete;
    await expect(el).to.be.accessible();
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="retry"]')!.click();
    await el.updateComplete;
    submitButton(el).click();
    await until(() => counts.authenticated > 0, 'the login', 20_000);
    expect(counts).to.deep.equal({ started: 1, authenticated: 1, error: 1, cancelled: 0 });
  });

  it('polls at once when the browser is online again, not when its back-off ends', async () => {
    await faults('always');
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="en" poll-interval="1000"></esign-identify>`);
    const counts = counting(el);
    await type(el, 'code', '40504040001');
    submitButton(el).click();
    // three failures: the back-off is now 2 s to 6 s
    await until(() => el.shadowRoot!.querySelector('[part="connection"]')?.classList.contains('lost') === true, 'the connection lost', 10_000);
    while ((await faults()).seen < 3) await new Promise((resolve) => setTimeout(resolve, 100));
    await faults('');
    window.dispatchEvent(new Event('online'));
    // the next poll after the back-off would be 2 s away at the soonest
    await until(() => counts.authenticated > 0, 'the login after online', 1_500);
    expect(counts).to.deep.equal({ started: 1, authenticated: 1, error: 0, cancelled: 0 });
  });
});

describe('an "ok" answer with nothing the result is made of (broken on the way)', () => {
  afterEach(() => faults(''));

  const cases: { tag: string; result: string; prepare: (el: HTMLElement & Record<string, unknown>) => void }[] = [
    { tag: 'esign-identify', result: 'esign-authenticated', prepare: () => undefined },
    {
      tag: 'esign-sign',
      result: 'esign-signed',
      prepare: (el) => (el['files'] = new File([samplePdf('Contract', 1) as BlobPart], 'contract.pdf', { type: 'application/pdf' })),
    },
    { tag: 'esign-hash-sign', result: 'esign-hash-signed', prepare: (el) => (el['hash'] = 'a'.repeat(64)) },
  ];
  for (const { tag, result, prepare } of cases) {
    it(`${tag}: a failure of the service's side with Try again, never a result with holes in it`, async () => {
      const el = document.createElement(tag) as EsignIdentify & Record<string, unknown>;
      Object.assign(el, { endpoint: '/esign', lang: 'en', pollInterval: 100 });
      prepare(el);
      document.body.append(el);
      try {
        await el.updateComplete;
        await type(el, 'code', '40504040001');
        const events: string[] = [];
        const codes: string[] = [];
        for (const name of ['esign-started', result, 'esign-error', 'esign-cancelled'])
          el.addEventListener(name, (event) => {
            events.push(name);
            if (name === 'esign-error') codes.push((event as CustomEvent<{ code: string }>).detail.code);
          });
        await faults('empty-ok');
        submitButton(el).click();
        await until(() => events.includes('esign-error'), 'the error', 10_000);
        await faults('');
        expect(events).to.deep.equal(['esign-started', 'esign-error']);
        expect(codes).to.deep.equal(['service-error']);
        await el.updateComplete;
        expect(el.shadowRoot!.querySelector<EsignStatus>('esign-status')!.state).to.equal('error');
        expect(el.shadowRoot!.querySelector('.done, [part="download"]')).to.equal(null);
        await until(() => el.shadowRoot!.activeElement?.getAttribute('part') === 'retry', 'the focus on Try again');
        await expect(el).to.be.accessible();
      } finally {
        el.remove();
      }
    });
  }
});

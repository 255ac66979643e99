import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define/identify.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { submitButton, type, until } from './helpers.js';

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
    expect(el.flow.state).to.equal('success');
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
});

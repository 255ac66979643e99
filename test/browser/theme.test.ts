import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/identify/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';

// The elements follow the page's color-scheme, unless their theme attribute says otherwise.

const DARK_TEXT = 'rgb(232, 234, 237)';
const LIGHT_TEXT = 'rgb(27, 31, 36)';

describe('theme follows the page', () => {
  afterEach(() => {
    document.documentElement.style.colorScheme = '';
  });

  it('is dark on a dark page and light on a light page, and theme= overrides both', async () => {
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="en"></esign-identify>`);
    const text = () => getComputedStyle(el).color;
    document.documentElement.style.colorScheme = 'dark';
    expect(text()).to.equal(DARK_TEXT);
    await expect(el).to.be.accessible();
    document.documentElement.style.colorScheme = 'light';
    expect(text()).to.equal(LIGHT_TEXT);
    el.theme = 'dark';
    await el.updateComplete;
    expect(text()).to.equal(DARK_TEXT);
    document.documentElement.style.colorScheme = 'dark';
    el.theme = 'light';
    await el.updateComplete;
    expect(text()).to.equal(LIGHT_TEXT);
    await expect(el).to.be.accessible();
  });

  it('passes the scheme on to the elements inside', async () => {
    document.documentElement.style.colorScheme = 'dark';
    const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="en"></esign-identify>`);
    const form = el.shadowRoot!.querySelector('esign-person-form')!;
    expect(getComputedStyle(form).color).to.equal(DARK_TEXT);
  });
});

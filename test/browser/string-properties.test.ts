import { expect, fixture } from '@open-wc/testing';
import type { LitElement } from 'lit';
import '../../src/define.js';
import { ELEMENTS } from '../../src/elements.js';

// Frameworks (React 19, Vue) set attributes' string forms as properties. Every property with an
// attribute form must read that string as the attribute would.

const SAMPLES: Record<string, string[]> = {
  channels: ['smartid mobile', 'mobile', 'smartid,mobile'],
  countries: ['LT EE', 'LV', 'LT,LV,EE'],
};
const BOOLEAN_SAMPLES = ['', 'true', 'false'];
const NUMBER_SAMPLES = ['500', '0'];

let total = 0;

describe("properties set to their attribute's string form", () => {
  for (const tag of Object.keys(ELEMENTS)) {
    it(`${tag}: every property reads its attribute form`, async () => {
      const ctor = customElements.get(tag) as unknown as typeof LitElement;
      let checked = 0;
      for (const [name, options] of ctor.elementProperties) {
        if (options.attribute === false || options.state || typeof name !== 'string') continue;
        const attribute = typeof options.attribute === 'string' ? options.attribute : name.toLowerCase();
        const samples = SAMPLES[name] ?? (options.type === Boolean ? BOOLEAN_SAMPLES : options.type === Number ? NUMBER_SAMPLES : null);
        if (!samples) continue;
        for (const sample of samples) {
          const byAttribute = await fixture<LitElement>(`<${tag}></${tag}>`);
          if (options.type === Boolean && sample === 'false') byAttribute.removeAttribute(attribute);
          else byAttribute.setAttribute(attribute, sample);
          await byAttribute.updateComplete;
          const byProperty = await fixture<LitElement>(`<${tag}></${tag}>`);
          (byProperty as unknown as Record<string, unknown>)[name] = sample;
          await byProperty.updateComplete;
          // "false" means false to a framework (an attribute can only say it by being absent)
          const expected = options.type === Boolean && sample === 'false' ? false : (byAttribute as unknown as Record<string, unknown>)[name];
          expect((byProperty as unknown as Record<string, unknown>)[name], `${tag}.${name} = ${JSON.stringify(sample)}`).to.deep.equal(expected);
          checked++;
        }
      }
      total += checked;
    });
  }

  it('checked the properties of the elements that have them', () => {
    expect(total).to.be.greaterThan(40);
  });

  it('esign-identify renders the channels and countries given as strings', async () => {
    const el = await fixture<LitElement>('<esign-identify lang="en"></esign-identify>');
    Object.assign(el, { channels: 'smartid mobile', countries: 'LT EE' });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('input[name="channel"]').length).to.equal(2);
    const form = el.shadowRoot!.querySelector('esign-person-form') as LitElement;
    await form.updateComplete;
    expect([...form.shadowRoot!.querySelectorAll('#country option')].map((o) => (o as HTMLOptionElement).value)).to.deep.equal(['LT', 'EE']);
  });
});

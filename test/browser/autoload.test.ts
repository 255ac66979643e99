import { expect } from '@open-wc/testing';
import { autoloader, type ElementLoaders } from '../../src/internal/element/autoload.js';

/** Loaders for test tags of this file alone: each counts its calls and defines its tag, or fails while told to. */
function loaders(tags: string[]) {
  const calls: Record<string, number> = Object.fromEntries(tags.map((tag) => [tag, 0]));
  const failing = new Set<string>();
  const made: ElementLoaders = Object.fromEntries(
    tags.map((tag) => [
      tag,
      async () => {
        calls[tag]!++;
        if (failing.has(tag)) throw new Error(`${tag} unavailable`);
        if (!customElements.get(tag)) customElements.define(tag, class extends HTMLElement {});
      },
    ]),
  );
  return { calls, failing, made };
}

const unique = (() => {
  let next = 0;
  return (name: string) => `autoload-${name}-${Date.now().toString(36)}-${next++}`;
})();

/** Mutation records are delivered in a microtask; two frames let the loaders' promises settle too. */
const settled = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

describe('the all-in-one autoloader', () => {
  let host: HTMLElement;
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
  });
  afterEach(() => host.remove());

  it('loads an element that is on the page, once, and no element that is not', async () => {
    const [present, absent] = [unique('present'), unique('absent')];
    const { calls, made } = loaders([present, absent]);
    host.innerHTML = `<${present}></${present}><section><${present}></${present}></section>`;
    autoloader(made).discover(host);
    await customElements.whenDefined(present);
    await settled();
    expect(calls).to.deep.equal({ [present]: 1, [absent]: 0 });
    expect(customElements.get(absent)).to.equal(undefined);
  });

  it('loads an element added later, as the element itself or inside what is added, once', async () => {
    const [alone, nested] = [unique('alone'), unique('nested')];
    const { calls, made } = loaders([alone, nested]);
    autoloader(made).discover(host);
    await settled();
    expect(calls).to.deep.equal({ [alone]: 0, [nested]: 0 });
    host.append(document.createElement(alone));
    const wrapper = document.createElement('article');
    wrapper.innerHTML = `<p><${nested}></${nested}></p>`;
    host.append(wrapper);
    await Promise.all([customElements.whenDefined(alone), customElements.whenDefined(nested)]);
    host.append(document.createElement(alone));
    await settled();
    expect(calls).to.deep.equal({ [alone]: 1, [nested]: 1 });
    expect(host.querySelector(alone)).to.be.instanceOf(customElements.get(alone)!);
  });

  it('asks again for an element whose load failed, when it next appears, and says so in the console', async () => {
    const tag = unique('flaky');
    const { calls, failing, made } = loaders([tag]);
    failing.add(tag);
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      host.innerHTML = `<${tag}></${tag}>`;
      autoloader(made).discover(host);
      await settled();
      expect(calls[tag]).to.equal(1);
      expect(customElements.get(tag)).to.equal(undefined);
      expect(logged).to.have.length(1);
      expect(String(logged[0]![0])).to.contain(`<${tag}> could not be loaded`);
      failing.delete(tag);
      host.append(document.createElement(tag));
      await customElements.whenDefined(tag);
      await settled();
      expect(calls[tag]).to.equal(2);
      expect(logged).to.have.length(1);
    } finally {
      console.error = original;
    }
  });

  it('asks again for an element whose load failed when the browser is back online, the element never re-added', async () => {
    const tag = unique('offline');
    const { calls, failing, made } = loaders([tag]);
    failing.add(tag);
    const original = console.error;
    console.error = () => undefined;
    try {
      host.innerHTML = `<${tag}></${tag}>`;
      autoloader(made).discover(host);
      await settled();
      expect(calls[tag]).to.equal(1);
      failing.delete(tag);
      window.dispatchEvent(new Event('online'));
      await customElements.whenDefined(tag);
      expect(calls[tag]).to.equal(2);
      expect(host.querySelector(tag)).to.be.instanceOf(customElements.get(tag)!);
      window.dispatchEvent(new Event('online'));
      await settled();
      expect(calls[tag], 'asked once more, not on every online').to.equal(2);
    } finally {
      console.error = original;
    }
  });

  it("finds elements in a host's own shadow root once that root is passed to it, not before", async () => {
    const tag = unique('shadowed');
    const { calls, made } = loaders([tag]);
    const loader = autoloader(made);
    loader.discover(host);
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = `<${tag}></${tag}>`;
    await settled();
    expect(calls[tag], 'a shadow root is not seen from the document').to.equal(0);
    loader.discover(root);
    await customElements.whenDefined(tag);
    expect(calls[tag]).to.equal(1);
  });
});

import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/identify/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { en } from '../../src/i18n/en.js';
import { deepText, until } from './helpers.js';

// The test server makes the Latvian strings fail to load (fault injection), then lets them through.

async function fault(fail: string): Promise<void> {
  await fetch(`/__faults/lang?fail=${fail}`);
}

describe('a language file that fails to load', () => {
  after(() => fault(''));

  // (a later render asks again: Chromium then loads the language; Firefox keeps a failed module
  // import for the page's life, so there it comes with the next page load)
  it('says the form words it came with, English instead of keys for the rest, and says so once', async () => {
    // the Latvian words in this browser's cache, as a file run before this one leaves them: the page
    // must still ask for them, and so meet the fault
    for (const file of ['lv.ts', 'lv-session.ts', 'lv-documents.ts']) expect((await fetch(`/src/i18n/${file}`)).ok).to.equal(true);
    await fault('lv');
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args[0]);
    try {
      const el = await fixture<EsignIdentify>(html`<esign-identify endpoint="/esign" lang="lv"></esign-identify>`);
      // the form at rest in Latvian: its words came with the element's modules, loaded before the fault
      const { strings: lvForm } = await import('../../src/i18n/lv-form.js');
      expect(deepText(el)).to.contain(lvForm['identify.submit']);
      // a message of the session part (the empty personal code's), in English instead of a key
      await el.start().catch(() => undefined);
      await until(() => deepText(el).includes(en['form.code.empty']), `English words instead of keys: ${deepText(el)}`);
      expect(deepText(el)).not.to.contain('form.code.empty');
      el.requestUpdate();
      await el.updateComplete;
      el.requestUpdate();
      await el.updateComplete;
      expect(warnings.filter((w) => String(w).includes('the lv strings')).length).to.equal(1);
      await expect(el).to.be.accessible();
    } finally {
      console.warn = warn;
    }
  });
});

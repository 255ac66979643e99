/**
 * Renders the pages of the hydration test with @lit-labs/ssr from the sources (the browser suite
 * loads the same sources, so the templates match) and prints them as JSON: `{ name: html }`.
 */
import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { html } from 'lit';
import { loadStrings } from '../../src/i18n/index.js';
import '../../src/define.js';

// on the server an element sees no ancestors: a language other than English is given on the element
export const SSR_PAGES: Record<string, { lang: 'lt' | 'en'; markup: string }> = {
  'identify-en': { lang: 'en', markup: '<esign-identify endpoint="/esign" poll-interval="100" channels="smartid mobile"></esign-identify>' },
  'identify-lt': {
    lang: 'lt',
    markup: '<esign-identify lang="lt" endpoint="/esign" poll-interval="100" channels="mobile smartid" channel="mobile"></esign-identify>',
  },
};

const pages: Record<string, string> = {};
for (const [name, { lang, markup }] of Object.entries(SSR_PAGES)) {
  await loadStrings(lang);
  pages[name] = collectResultSync(render(html`<div lang=${lang}>${unsafeHTML(markup)}</div>`));
}
process.stdout.write(JSON.stringify(pages));

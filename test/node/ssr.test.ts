import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
// the server-rendering DOM shim comes first, then the elements as a host's server imports them
import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { html } from 'lit';

type Strings = Record<string, string>;
let loadStrings: (lang: 'lt' | 'en' | 'lv' | 'et' | 'ru') => Promise<Strings>;
let tags: string[];

/** The markup an element is rendered from where it needs more than an endpoint; every other element is `<esign-x endpoint="/esign">`. */
const TEMPLATES: Record<string, string> = {
  'esign-identify': '<esign-identify endpoint="/esign" channels="smartid mobile"></esign-identify>',
  'esign-sign': '<esign-sign endpoint="/esign" channels="mobile smartid" channel="mobile"></esign-sign>',
  'esign-signer-list': '<esign-signer-list endpoint="/esign" document-id="abc"></esign-signer-list>',
  'esign-validation-report': '<esign-validation-report endpoint="/esign" document-id="abc"></esign-validation-report>',
  'esign-signing-link': '<esign-signing-link endpoint="/esign" document-id="abc" callback-url="https://host.example/done"></esign-signing-link>',
  'esign-document': '<esign-document endpoint="/esign" document-id="abc"></esign-document>',
  'esign-person-form': '<esign-person-form channel="mobile"></esign-person-form>',
  'esign-control-code': '<esign-control-code code="1234"></esign-control-code>',
  'esign-status': '<esign-status state="waiting"></esign-status>',
  // a preview draws in the browser only: on the server it is an empty, hydratable shadow root
  'esign-document-preview': '<esign-document-preview page="2"></esign-document-preview>',
};

function renderToString(markup: string, lang: string): string {
  return collectResultSync(render(html`<div lang=${lang}>${unsafeHTML(markup.replace('>', ` lang="${lang}">`))}</div>`));
}

/** The text a person reads: no styles, no comments, no tags. */
function visibleText(markup: string): string {
  return markup
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('server rendering with @lit-labs/ssr', () => {
  let en: Strings;
  let lt: Strings;

  before(async () => {
    ({ loadStrings } = (await import('esign-elements')) as unknown as { loadStrings: typeof loadStrings });
    const { ELEMENTS } = (await import('esign-elements')) as unknown as { ELEMENTS: Record<string, unknown> };
    await import('esign-elements/define');
    tags = Object.keys(ELEMENTS);
    en = await loadStrings('en');
    lt = await loadStrings('lt');
  });

  it("every element renders in the page's language, words and no string keys", () => {
    assert.ok(tags.length >= 12 && Object.keys(TEMPLATES).every((tag) => tags.includes(tag)), tags.join(', '));
    const keyPattern = new RegExp(
      `(^|\\s)(${Object.keys(en)
        .map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|')})(\\s|$)`,
    );
    for (const tag of tags) {
      const markup = TEMPLATES[tag] ?? `<${tag} endpoint="/esign"></${tag}>`;
      for (const lang of ['lt', 'en'] as const) {
        const output = renderToString(markup, lang);
        assert.match(output, new RegExp(`<${tag}[^>]*><template shadowroot(mode)?="open"`), `${tag} renders a declarative shadow root`);
        const text = visibleText(output);
        assert.doesNotMatch(text, keyPattern, `${tag} in ${lang} shows a string key: ${text}`);
        assert.ok(text.length > 0 || tag === 'esign-status' || tag === 'esign-document-preview', `${tag} in ${lang} renders words`);
      }
    }
  });

  it('the login renders the chosen channel checked and the other not, with the words of lt and en', () => {
    for (const [lang, strings] of [
      ['lt', lt],
      ['en', en],
    ] as const) {
      const output = renderToString(TEMPLATES['esign-identify']!, lang);
      const radios = [...output.matchAll(/<input type="radio" name="channel" value="(\w+)"([^>]*)>/g)].map((m) => ({ value: m[1], attributes: m[2] ?? '' }));
      assert.deepEqual(
        radios.map((r) => [r.value, /\schecked(\s|=|\/|$)/.test(r.attributes)]),
        [
          ['smartid', true],
          ['mobile', false],
        ],
      );
      assert.doesNotMatch(output, /checked="false"/);
      const text = visibleText(output);
      for (const key of ['identify.channel', 'identify.submit', 'form.code']) {
        assert.ok(text.includes(strings[key]!), `${lang}: "${strings[key]}" (${key}) in ${text}`);
      }
    }
    const mobile = renderToString(TEMPLATES['esign-sign']!, 'en');
    assert.match(mobile, /value="mobile" checked/);
    assert.doesNotMatch(mobile, /value="smartid" checked/);
    assert.ok(visibleText(mobile).includes(en['form.phone']!));
  });

  it('empty text properties leave no attribute', () => {
    const output = renderToString('<esign-person-form></esign-person-form>', 'en');
    const open = /<esign-person-form([^>]*)>/.exec(output)?.[1] ?? '';
    assert.doesNotMatch(open, /\s(theme|name)(\s|=""|$)/);
  });
});

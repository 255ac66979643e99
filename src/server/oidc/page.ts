/*
 * The hosted login page and its ended and refused pages: the site's logo, address and name in a
 * header, a language switch, `<esign-identify>` in the page's language, and always a way back. No
 * inline script or style: the pages keep to their strict CSP (scripts and styles of this origin).
 */
import type { Country } from '../../protocol/types.js';
import { PAGE_LANGUAGES, WORDS, type PageLanguage, type PageWords, type RefusalKind } from './page-words.js';

export { PAGE_LANGUAGES, type PageLanguage } from './page-words.js';

/** The site as its registration names it: each part may be missing. */
export interface SiteLook {
  name: string | null;
  /** `logo_uri`: drawn above the heading, and the page's icon. */
  logo: string | null;
  /** Where "back to the site" goes: `client_uri`, else the origin of the registered redirect. */
  home: string | null;
}

export const NO_SITE: SiteLook = { name: null, logo: null, home: null };

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The brand names kept whole at their hyphen wherever a line breaks. */
const withBrands = (escaped: string): string => escaped.replace(/(Smart-ID|Mobile-ID|Mobiil-ID)/g, '<span class="brand">$1</span>');

/** A sentence with the site's name in it: the name in its own span, so that it wraps anywhere. */
function withSite(words: PageWords, named: (words: PageWords) => (site: string) => string, unnamed: string, site: string | null): string {
  if (!site) return escapeHtml(unnamed);
  const name = escapeHtml(site);
  return escapeHtml(named(words)(site)).replace(name, `<span class="site">${name}</span>`);
}

const titleOf = (words: PageWords, site: string | null): string => (site ? words.title(site) : words.titleNoName);

function head(language: PageLanguage, mount: string, title: string, site: SiteLook, extra = ''): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${escapeHtml(site.logo ?? 'data:,')}">
<link rel="stylesheet" href="${mount}/page.css">
${extra}</head>`;
}

/** The language switch: each language in its own name and voice, the current one marked; `at`, the page's own address ('': this one). */
function languageSwitch(language: PageLanguage, at: string): string {
  const links = PAGE_LANGUAGES.map(
    (each) =>
      `<li><a href="${at}?lang=${each}" lang="${each}" hreflang="${each}"${each === language ? ' aria-current="true"' : ''}>${escapeHtml(WORDS[each].name)}</a></li>`,
  ).join('');
  return `<nav class="languages" aria-label="${escapeHtml(WORDS[language].languages)}"><ul>${links}</ul></nav>`;
}

/** The site's logo and address, as the site registered them, and the language switch. */
function header(language: PageLanguage, site: SiteLook, withSwitch: boolean, at = ''): string {
  const logo = site.logo ? `<img class="logo" src="${escapeHtml(site.logo)}" alt="${escapeHtml(site.name ?? '')}">` : '';
  const home = site.home && URL.canParse(site.home) ? `<a class="home" href="${escapeHtml(site.home)}">${escapeHtml(new URL(site.home).host)}</a>` : '';
  const brand = logo || home ? `<div class="site-mark">${logo}${home}</div>` : '';
  const languages = withSwitch ? languageSwitch(language, at) : '';
  return brand || languages ? `<header class="site-header">${brand}${languages}</header>` : '';
}

const footer = (words: PageWords): string => `<footer class="methods"><p>${withBrands(escapeHtml(words.methods))}</p></footer>`;

export interface LoginPage {
  language: PageLanguage;
  /** The country the widget preselects; null: its own choice by the language. */
  country: Country | null;
  site: SiteLook;
  /** What the phone shows beside the request (the site's name, where it fits the phone's limits); null: the service's own. */
  phoneMessage: string | null;
  /** The proxy's prefix: the widget's script-tag files. */
  prefix: string;
  /** The provider's path: its page stylesheet, the site's look. */
  mount: string;
  /** This interaction's path, where the page lives and the widget's requests go. */
  interaction: string;
  hasLook: boolean;
}

export function loginPage(page: LoginPage): string {
  const words = WORDS[page.language];
  const { interaction } = page;
  // the widget's requests go through the interaction, so that its cookie comes with them: the poll that finds the login verified continues it
  const attributes = [
    `endpoint="${interaction}"`,
    `lang="${page.language}"`,
    `interaction="${interaction}"`,
    page.country ? `country="${page.country}"` : '',
    page.phoneMessage ? `message="${escapeHtml(page.phoneMessage)}"` : '',
    page.site.name ? `site-name="${escapeHtml(page.site.name)}"` : '',
  ].filter(Boolean);
  const look = page.hasLook ? `<link rel="stylesheet" href="${page.mount}/look.css">\n` : '';
  return `${head(page.language, page.mount, titleOf(words, page.site.name), page.site, `${look}<script type="module" src="${page.prefix}/cdn/esign-identify.js"></script>\n`)}
<body>
${header(page.language, page.site, true, interaction)}
<main>
<h1>${withSite(words, (w) => w.title, words.titleNoName, page.site.name)}</h1>
<esign-identify ${attributes.join(' ')}></esign-identify>
<form method="post" action="${interaction}/abort" class="back">
<button type="submit">${withSite(words, (w) => w.back, words.backNoName, page.site.name)}</button>
</form>
</main>
${footer(words)}
</body>
</html>`;
}

/** The way back from a page that cannot go on: to the site where it is known, else the browser's previous page. */
function wayBack(words: PageWords, site: SiteLook): string {
  if (site.home && URL.canParse(site.home))
    return `<p class="actions"><a class="action" href="${escapeHtml(site.home)}">${withSite(words, (w) => w.toSite, words.previous, site.name ?? new URL(site.home).host)}</a></p>`;
  // shown by page.js where there is a page to go back to (no script: the sentence above says what to do)
  return `<p class="actions"><button type="button" class="action" data-back hidden>${escapeHtml(words.previous)}</button></p>`;
}

/** Where a message page is served and what it draws: the provider's path, the site, whether the site's look file is linked. */
export interface PageSetting {
  mount: string;
  site: SiteLook;
  hasLook: boolean;
}

interface MessagePage extends PageSetting {
  language: PageLanguage;
  heading: string;
  text: string;
  technical?: string;
  withSwitch: boolean;
}

function messagePage(page: MessagePage): string {
  const words = WORDS[page.language];
  const technical = page.technical
    ? `<details class="technical"><summary>${escapeHtml(words.technical)}</summary><p><code>${escapeHtml(page.technical)}</code></p></details>\n`
    : '';
  const look = page.hasLook ? `<link rel="stylesheet" href="${page.mount}/look.css">\n` : '';
  return `${head(page.language, page.mount, page.heading, page.site, `${look}<script type="module" src="${page.mount}/page.js"></script>\n`)}
<body>
${header(page.language, page.site, page.withSwitch)}
<main>
<h1>${escapeHtml(page.heading)}</h1>
<p>${escapeHtml(page.text)}</p>
${wayBack(words, page.site)}
${technical}</main>
${footer(words)}
</body>
</html>`;
}

/** A login that is gone (expired, opened again, its cookie missing): what to do, in the page's language, and the way back. */
export function endedPage(language: PageLanguage, setting: PageSetting): string {
  const words = WORDS[language];
  return messagePage({ ...setting, language, heading: words.expired, text: words.expiredHint, withSwitch: true });
}

/** A request refused without a redirect (an unknown client, an unregistered redirect URI): said in the person's words, the library's in the details. */
export function refusedPage(language: PageLanguage, setting: PageSetting, kind: RefusalKind, technical: string): string {
  const words = WORDS[language];
  return messagePage({ ...setting, language, heading: words.failed, text: words.refusal[kind], technical, withSwitch: false });
}

/** The pages' one script: the "previous page" button, where the browser has a page to go back to. */
export const PAGE_SCRIPT = `for (const button of document.querySelectorAll('button[data-back]')) {
  if (history.length > 1) button.hidden = false;
  button.addEventListener('click', () => history.back());
}
`;

/**
 * The pages' own look: calm, centred, light and dark. It takes the widget's custom properties, set
 * on :root by the site's stylesheet, so that one look file styles the page and the widget alike.
 */
export const PAGE_CSS = `:root {
  color-scheme: light dark;
  --_page-accent: var(--esign-color-accent, light-dark(#0a58a6, #7ab8ff));
  --_page-text: var(--esign-color-text, light-dark(#1b1f24, #e8eaed));
  --_page-muted: var(--esign-color-text-muted, light-dark(#515a64, #aab3bd));
  --_page-focus: var(--esign-color-focus, light-dark(#0a58a6, #a8d1ff));
  font-family: var(--esign-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
  line-height: 1.5;
}
body { margin: 0; background: var(--esign-page-background, light-dark(#f4f5f7, #101215)); color: var(--_page-text); }
a, .back button, .action { color: var(--_page-accent); }
a:focus-visible, button:focus-visible, summary:focus-visible { outline: 3px solid var(--_page-focus); outline-offset: 2px; border-radius: 2px; }
.site-header { box-sizing: border-box; max-inline-size: 36rem; margin: 0 auto; padding: 1rem 1rem 0; display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.75rem 1rem; }
.site-mark { display: flex; align-items: center; gap: 0.75rem; min-inline-size: 0; }
.logo { display: block; max-block-size: 2.5rem; max-inline-size: 10rem; inline-size: auto; block-size: auto; object-fit: contain; }
.home { color: var(--_page-muted); font-size: 0.875rem; overflow-wrap: anywhere; }
.languages ul { display: flex; flex-wrap: wrap; gap: 0 0.25rem; list-style: none; margin: 0 -0.375rem; padding: 0; font-size: 0.875rem; }
.languages a { display: inline-block; padding: 0.5rem 0.375rem; min-block-size: 1.5rem; text-decoration: none; }
.languages a:hover { text-decoration: underline; }
.languages a[aria-current] { color: var(--_page-text); font-weight: 600; text-decoration: underline; text-underline-offset: 0.3em; }
main { box-sizing: border-box; max-inline-size: 36rem; margin: 0 auto; padding: 1rem 1rem 2rem; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0.5rem 0 1.25rem; overflow-wrap: anywhere; }
esign-identify { margin-block-end: 1.5rem; }
.back { margin: 0; }
.back button, button.action { font: inherit; background: none; border: 0; padding: 0.5rem 0; text-decoration: underline; cursor: pointer; min-block-size: 2.75rem; text-align: start; }
.actions { margin: 1.5rem 0; }
a.action { display: inline-block; padding: 0.5rem 0; min-block-size: 1.75rem; }
.technical { color: var(--_page-muted); font-size: 0.875rem; margin-block-start: 2rem; }
.technical summary { cursor: pointer; padding: 0.25rem 0; }
.technical code { overflow-wrap: anywhere; }
.site { overflow-wrap: anywhere; }
.brand { white-space: nowrap; }
.methods { box-sizing: border-box; max-inline-size: 36rem; margin: 0 auto; padding: 0 1rem 2rem; color: var(--_page-muted); font-size: 0.8125rem; }
.methods p { margin: 0; }
`;

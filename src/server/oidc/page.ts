/*
 * The hosted login page: `<esign-identify>` in the language the client asked for (`ui_locales`),
 * the site's name, the site's look, and a way back to the site without logging in. No inline
 * script or style: the page keeps to its strict CSP.
 */

export const PAGE_LANGUAGES = ['en', 'lt', 'lv', 'et', 'ru'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

interface PageWords {
  title: (site: string) => string;
  back: (site: string) => string;
  expired: string;
  expiredHint: string;
  failed: string;
}

const WORDS: Record<PageLanguage, PageWords> = {
  en: {
    title: (site) => `Log in to ${site}`,
    back: (site) => `Cancel and return to ${site}`,
    expired: 'This login has ended',
    expiredHint: 'Go back to the site and start the login again.',
    failed: 'The login cannot go on',
  },
  lt: {
    title: (site) => `Prisijungimas prie ${site}`,
    back: (site) => `Atšaukti ir grįžti į ${site}`,
    expired: 'Šis prisijungimas baigėsi',
    expiredHint: 'Grįžkite į svetainę ir pradėkite prisijungimą iš naujo.',
    failed: 'Prisijungti nepavyko',
  },
  lv: {
    title: (site) => `Pieteikšanās: ${site}`,
    back: (site) => `Atcelt un atgriezties: ${site}`,
    expired: 'Šī pieteikšanās ir beigusies',
    expiredHint: 'Atgriezieties vietnē un sāciet pieteikšanos no jauna.',
    failed: 'Pieteikšanos nevar turpināt',
  },
  et: {
    title: (site) => `Sisselogimine: ${site}`,
    back: (site) => `Katkesta ja naase: ${site}`,
    expired: 'See sisselogimine on lõppenud',
    expiredHint: 'Minge tagasi saidile ja alustage sisselogimist uuesti.',
    failed: 'Sisselogimist ei saa jätkata',
  },
  ru: {
    title: (site) => `Вход: ${site}`,
    back: (site) => `Отменить и вернуться: ${site}`,
    expired: 'Этот вход завершён',
    expiredHint: 'Вернитесь на сайт и начните вход заново.',
    failed: 'Вход невозможно продолжить',
  },
};

/** The first of the client's `ui_locales` this page speaks; English when none is. */
export function pageLanguage(uiLocales: unknown): PageLanguage {
  const asked = typeof uiLocales === 'string' ? uiLocales.split(/\s+/) : [];
  for (const tag of asked) {
    const primary = tag.toLowerCase().split('-')[0];
    const found = PAGE_LANGUAGES.find((language) => language === primary);
    if (found) return found;
  }
  return 'en';
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface LoginPage {
  language: PageLanguage;
  site: string;
  /** The proxy's prefix: the widget's endpoint and its script-tag files. */
  prefix: string;
  /** The provider's path: its page stylesheet, the site's look, this interaction. */
  mount: string;
  uid: string;
  hasLook: boolean;
}

export function loginPage(page: LoginPage): string {
  const words = WORDS[page.language];
  const site = escapeHtml(page.site);
  const interaction = `${page.mount}/interaction/${encodeURIComponent(page.uid)}`;
  return `<!doctype html>
<html lang="${page.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(words.title(page.site))}</title>
<link rel="stylesheet" href="${page.mount}/page.css">
${page.hasLook ? `<link rel="stylesheet" href="${page.mount}/look.css">\n` : ''}<script type="module" src="${page.prefix}/cdn/esign-identify.js"></script>
</head>
<body>
<main>
<h1>${escapeHtml(words.title(page.site))}</h1>
<esign-identify endpoint="${page.prefix}" lang="${page.language}" interaction="${interaction}"></esign-identify>
<form method="post" action="${interaction}/abort" class="back">
<button type="submit">${escapeHtml(words.back(page.site)).replace(site, `<span class="site">${site}</span>`)}</button>
</form>
</main>
</body>
</html>`;
}

/** A page that only says something: a heading and a sentence, in the page's language and look. */
function messagePage(language: PageLanguage, mount: string, heading: string, text: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(heading)}</title>
<link rel="stylesheet" href="${mount}/page.css">
</head>
<body>
<main>
<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
</main>
</body>
</html>`;
}

/** A page for an interaction that is gone (expired, or its cookie missing): what to do, in the page's language. */
export const endedPage = (language: PageLanguage, mount: string): string => messagePage(language, mount, WORDS[language].expired, WORDS[language].expiredHint);

/** A request the provider refuses without a redirect (an unregistered redirect URI, an unknown client): said, never sent on. */
export const refusedPage = (language: PageLanguage, mount: string, reason: string): string => messagePage(language, mount, WORDS[language].failed, reason);

/** The page's own look: calm, centred, light and dark; the element's look is its custom properties. */
export const PAGE_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; background: light-dark(#f4f5f7, #15171a); color: light-dark(#1b1d21, #e8eaed); }
main { box-sizing: border-box; max-inline-size: 36rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 1.25rem; overflow-wrap: anywhere; }
esign-identify { margin-block-end: 1.5rem; }
.back { margin: 0; }
.back button { font: inherit; background: none; border: 0; padding: 0.5rem 0; color: light-dark(#1a56b8, #8ab4f8); text-decoration: underline; cursor: pointer; min-block-size: 2.75rem; text-align: start; }
.back button:focus-visible { outline: 3px solid light-dark(#1a56b8, #8ab4f8); outline-offset: 2px; }
.site { overflow-wrap: anywhere; }
`;

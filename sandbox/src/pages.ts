import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocumentStore, StoredDocument } from './documents.js';

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE =
  'font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color-scheme:light dark;' +
  'background:light-dark(#fafbfc,#111418);color:light-dark(#1b1f24,#e8eaed)';

function page(lang: string, title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>${head}</head><body style="${STYLE}"><main><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

const WORDS = {
  en: {
    notFound: 'This signing link does not exist, or its document was removed.',
    expired: 'This signing link has expired.',
    title: 'Sign {file}',
    invited: '{name}, you are invited to sign {file}.',
    link: 'You can sign {file} until {until}.',
    sandbox: 'This page is served by the esign-elements sandbox: signatures made here are not valid.',
    noWidget: 'The widget bundle is not built: run npm run build.',
  },
  lt: {
    notFound: 'Tokios pasirašymo nuorodos nėra arba jos dokumentas pašalintas.',
    expired: 'Šios pasirašymo nuorodos galiojimas baigėsi.',
    title: 'Pasirašyti {file}',
    invited: '{name}, esate kviečiami pasirašyti {file}.',
    link: 'Galite pasirašyti {file} iki {until}.',
    sandbox: 'Šį puslapį teikia esign-elements smėlio dėžė: čia sukurti parašai negalioja.',
    noWidget: 'Valdiklio rinkinys nesukurtas: paleiskite npm run build.',
  },
} satisfies Record<'en' | 'lt', Record<string, string>>;

type Words = Record<keyof (typeof WORDS)['en'], string>;

function say(words: Words, key: keyof Words, values: Record<string, string> = {}): string {
  return escapeHtml(words[key]).replace(/\{(\w+)\}/g, (_, name: string) => `<strong>${escapeHtml(values[name] ?? '')}</strong>`);
}

/**
 * Where the widget's script-tag files are: the directory given, else the `esign-elements`
 * package installed beside the sandbox (an optional peer dependency), else none.
 */
export function findWidgetDir(configured?: string): string | null {
  if (configured) return existsSync(join(configured, 'esign-elements.js')) ? configured : null;
  try {
    const file = fileURLToPath(import.meta.resolve('esign-elements/cdn'));
    return existsSync(file) ? dirname(file) : null;
  } catch {
    return null;
  }
}

/**
 * The signing pages' own script: no data is ever written into script text; the page passes the
 * document's address and name in escaped attributes.
 */
export const SIGNING_PAGE_SCRIPT = `import '/assets/esign-elements.js';
const el = document.querySelector('esign-sign');
const response = await fetch(el.dataset.document);
el.files = new File([await response.blob()], el.dataset.filename);
`;

/** What the signing pages allow: their own scripts only, no plugins, no framing, no base change. */
export const SIGNING_PAGE_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** A file of the widget bundle, for the signing pages. */
export function widgetAsset(dir: string | null, name: string): Buffer | null {
  if (!dir || !/^esign-elements[\w.-]*\.js$/.test(name)) return null;
  const file = join(dir, name);
  return existsSync(file) ? readFileSync(file) : null;
}

function typeOf(doc: StoredDocument): string {
  const extension = doc.filename.split('.').pop()?.toLowerCase() ?? '';
  return ['pdf', 'asice', 'adoc', 'bdoc'].includes(extension) ? extension : 'asice';
}

function signingPage(kind: 'sign' | 'link', token: string, doc: StoredDocument, lang: 'lt' | 'en', intro: string, hasWidget: boolean): string {
  const words = WORDS[lang];
  const base = `/${kind}/${token}`;
  const widget = hasWidget
    ? `<esign-sign endpoint="${base}/esign" type="${typeOf(doc)}" lang="${lang}" data-document="${base}/document" data-filename="${escapeHtml(doc.filename)}"></esign-sign>
       <script type="module" src="/assets/signing-page.js"></script>`
    : `<p role="alert">${escapeHtml(words.noWidget)}</p>`;
  return page(
    lang,
    words.title.replace('{file}', doc.filename),
    `<p>${intro}</p><p style="color:light-dark(#515a64,#aab3bd)">${escapeHtml(words.sandbox)}</p>${widget}`,
  );
}

/** The pages behind invitation and temporary links: the document and esign-sign over it. */
export function linkPage(store: DocumentStore, kind: 'sign' | 'link', token: string, now: number, hasWidget: boolean): { status: number; html: string } {
  if (kind === 'sign') {
    const found = store.findByInvitation(token);
    if (!found) return { status: 404, html: page('en', 'Not found', `<p>${escapeHtml(WORDS.en.notFound)}</p>`) };
    const intro = say(WORDS.en, 'invited', { name: `${found.signer.name} ${found.signer.surname}`, file: found.doc.filename });
    return { status: 200, html: signingPage('sign', token, found.doc, 'en', intro, hasWidget) };
  }
  const found = store.findByLink(token);
  if (!found) return { status: 404, html: page('en', 'Not found', `<p>${escapeHtml(WORDS.en.notFound)}</p>`) };
  const words = WORDS[found.link.language];
  if (now >= found.link.validUntil) {
    return { status: 410, html: page(found.link.language, words.expired, `<p>${escapeHtml(words.expired)}</p>`) };
  }
  const until = new Date(found.link.validUntil).toLocaleString(found.link.language === 'lt' ? 'lt-LT' : 'en-GB', { timeZone: 'UTC' }) + ' UTC';
  const intro = say(words, 'link', { file: found.doc.filename, until });
  return { status: 200, html: signingPage('link', token, found.doc, found.link.language, intro, hasWidget) };
}

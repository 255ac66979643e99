import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocumentStore, StoredDocument } from '../service/documents.js';

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE =
  'font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color-scheme:light dark;' +
  'background:light-dark(#fafbfc,#111418);color:light-dark(#1b1f24,#e8eaed);overflow-wrap:anywhere';

/** The page; its heading is the title unless given as HTML (a long file name shortened in it). */
function page(lang: PageLanguage, title: string, body: string, heading = escapeHtml(title)): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title></head><body style="${STYLE}">${languageSwitch(lang)}<main><h1 style="font-size:1.4rem">${heading}</h1>${body}</main></body></html>`;
}

const HIDDEN = 'position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap';

/**
 * A file name as the pages show it: a long one shortened in the middle with its end and extension
 * kept (as the widget does), the whole name in its title and read by screen readers.
 */
function fileNameHtml(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= 60) return keepExtension(name);
  const short = `${chars.slice(0, 40).join('')}…${chars.slice(-19).join('')}`;
  return `<span title="${escapeHtml(name)}"><span style="${HIDDEN}">${escapeHtml(name)}</span><span aria-hidden="true">${keepExtension(short)}</span></span>`;
}

/** A name whose line may break anywhere but inside its last word and extension (`…contract.pdf`, never `….` / `pdf`). */
function keepExtension(name: string): string {
  const tail = /[^\s_-]*\.[^.\s]+$/.exec(name);
  if (!tail) return escapeHtml(name);
  return `${escapeHtml(name.slice(0, tail.index))}<span style="white-space:nowrap">${escapeHtml(tail[0])}</span>`;
}

/** The languages of the signing pages: the widget's five. */
export const PAGE_LANGUAGES = ['lt', 'lv', 'et', 'ru', 'en'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

const LOCALES: Record<PageLanguage, string> = { lt: 'lt-LT', lv: 'lv-LV', et: 'et-EE', ru: 'ru-RU', en: 'en-GB' };

/** The signing pages' words; the glossary test holds them to the widget's. */
export const PAGE_WORDS = {
  en: {
    notFound: 'This signing link does not exist, or its document was removed.',
    notFoundTitle: 'Link not found',
    expired: 'This signing link has expired.',
    title: 'Signing: {file}',
    invited: '{name}, you are invited to sign this document.',
    link: 'You can sign this document until {until}.',
    sandbox: 'This page is served by the esign-elements sandbox: signatures made here are not valid.',
    noWidget: 'The widget bundle is not built: run npm run build.',
    signed: 'Signed. You can close this page; the sender has been told.',
    copy: 'Download your copy of the signed document',
    languages: 'Language',
    name: 'English',
  },
  lt: {
    notFound: 'Tokios pasirašymo nuorodos nėra arba jos dokumentas pašalintas.',
    notFoundTitle: 'Nuoroda nerasta',
    expired: 'Šios pasirašymo nuorodos galiojimas baigėsi.',
    title: 'Pasirašymas: {file}',
    invited: '{name}, esate kviečiami pasirašyti šį dokumentą.',
    link: 'Šį dokumentą galite pasirašyti iki {until}.',
    sandbox: 'Šį puslapį teikia esign-elements smėlio dėžė: čia sukurti parašai negalioja.',
    noWidget: 'Valdiklio rinkinys nesukurtas: paleiskite npm run build.',
    signed: 'Pasirašyta. Šį puslapį galite uždaryti – siuntėjui pranešta.',
    copy: 'Atsisiųsti pasirašyto dokumento kopiją',
    languages: 'Kalba',
    name: 'Lietuvių',
  },
  lv: {
    notFound: 'Šāda parakstīšanas saite nepastāv vai tās dokuments ir izdzēsts.',
    notFoundTitle: 'Saite nav atrasta',
    expired: 'Šīs parakstīšanas saites derīguma termiņš ir beidzies.',
    title: 'Parakstīšana: {file}',
    invited: '{name}, jums ir uzaicinājums parakstīt šo dokumentu.',
    link: 'Šo dokumentu varat parakstīt līdz {until}.',
    sandbox: 'Šo lapu nodrošina esign-elements smilškaste: šeit veidotie paraksti nav derīgi.',
    noWidget: 'Logrīka pakotne nav izveidota: palaidiet npm run build.',
    signed: 'Parakstīts. Šo lapu varat aizvērt – sūtītājs ir informēts.',
    copy: 'Lejupielādēt parakstītā dokumenta kopiju',
    languages: 'Valoda',
    name: 'Latviešu',
  },
  et: {
    notFound: 'Sellist allkirjastamise linki ei ole või selle dokument on eemaldatud.',
    notFoundTitle: 'Linki ei leitud',
    expired: 'Selle allkirjastamise lingi kehtivus on lõppenud.',
    title: 'Allkirjastamine: {file}',
    invited: '{name}, teid on kutsutud seda dokumenti allkirjastama.',
    link: 'Selle dokumendi saate allkirjastada kuni {until}.',
    sandbox: 'Seda lehte pakub esign-elements liivakast: siin antud allkirjad ei kehti.',
    noWidget: 'Vidina failid on ehitamata: käivitage npm run build.',
    signed: 'Allkirjastatud. Võite selle lehe sulgeda – saatjat on teavitatud.',
    copy: 'Laadi alla allkirjastatud dokumendi koopia',
    languages: 'Keel',
    name: 'Eesti',
  },
  ru: {
    notFound: 'Такой ссылки для подписания нет, или её документ удалён.',
    notFoundTitle: 'Ссылка не найдена',
    expired: 'Срок действия этой ссылки для подписания истёк.',
    title: 'Подписание: {file}',
    invited: '{name}, вас приглашают подписать этот документ.',
    link: 'Подписать этот документ можно до {until}.',
    sandbox: 'Эту страницу показывает песочница esign-elements: созданные здесь подписи недействительны.',
    noWidget: 'Пакет виджета не собран: выполните npm run build.',
    signed: 'Подписано. Эту страницу можно закрыть — отправитель уведомлён.',
    copy: 'Скачать копию подписанного документа',
    languages: 'Язык',
    name: 'Русский',
  },
} satisfies Record<PageLanguage, Record<string, string>>;

/**
 * The language of a signing page: the one the person chose (`?lang=`), else the link's own,
 * else the first of the browser's languages the pages speak, else English.
 */
export function pageLanguage(query: string, preferred: PageLanguage | undefined, acceptLanguage: string | undefined): PageLanguage {
  const isPageLanguage = (value: string | null | undefined): value is PageLanguage => (PAGE_LANGUAGES as readonly string[]).includes(value ?? '');
  const chosen = new URLSearchParams(query).get('lang');
  if (isPageLanguage(chosen)) return chosen;
  if (preferred) return preferred;
  for (const range of (acceptLanguage ?? '').split(',')) {
    const primary = range.split(';')[0]!.trim().toLowerCase().split('-')[0];
    if (isPageLanguage(primary)) return primary;
  }
  return 'en';
}

function languageSwitch(current: PageLanguage): string {
  const items = PAGE_LANGUAGES.map((lang) => {
    const name = escapeHtml(PAGE_WORDS[lang].name);
    return lang === current
      ? `<li><a href="?lang=${lang}" lang="${lang}" hreflang="${lang}" aria-current="true" style="font-weight:700;color:inherit">${name}</a></li>`
      : `<li><a href="?lang=${lang}" lang="${lang}" hreflang="${lang}" style="color:light-dark(#0b57a4,#8cb8ff)">${name}</a></li>`;
  }).join('');
  return `<nav aria-label="${escapeHtml(PAGE_WORDS[current].languages)}"><ul style="list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:0 0 1rem">${items}</ul></nav>`;
}

type Words = Record<keyof (typeof PAGE_WORDS)['en'], string>;

function say(words: Words, key: keyof Words, values: Record<string, string> = {}): string {
  return escapeHtml(words[key]).replace(
    /\{(\w+)\}/g,
    (_, name: string) => `<strong>${name === 'file' ? fileNameHtml(values[name] ?? '') : escapeHtml(values[name] ?? '')}</strong>`,
  );
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
// a deadline in the person's own time zone, in the page's language
for (const time of document.querySelectorAll('time[data-local]')) {
  const at = new Date(time.dateTime);
  const lang = document.documentElement.lang;
  const zone = new Intl.DateTimeFormat(lang, { timeZoneName: 'short' }).formatToParts(at).find((part) => part.type === 'timeZoneName');
  time.textContent = at.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' }) + (zone ? ' ' + zone.value : '');
}
// a copy of the signed document for the person who signed it
el.addEventListener('esign-signed', (event) => {
  const copy = document.getElementById('copy');
  // signed: no more "you can sign until"
  document.getElementById('intro').hidden = true;
  copy.href = URL.createObjectURL(event.detail.file.blob);
  copy.download = event.detail.file.name;
  copy.hidden = false;
});
const response = await fetch(el.dataset.document);
el.files = new File([await response.blob()], el.dataset.filename);
`;

/** What the signing pages allow: their own scripts only, no plugins, no framing, no base change. */
export const SIGNING_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

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

function signingPage(kind: 'sign' | 'link', token: string, doc: StoredDocument, lang: PageLanguage, intro: string, hasWidget: boolean): string {
  const words = PAGE_WORDS[lang];
  const base = `/${kind}/${token}`;
  const widget = hasWidget
    ? `<esign-sign endpoint="${base}/esign" type="${typeOf(doc)}" lang="${lang}" data-document="${base}/document" data-filename="${escapeHtml(doc.filename)}"><div slot="success"><p>${escapeHtml(words.signed)}</p><p><a id="copy" hidden>${escapeHtml(words.copy)}</a></p></div></esign-sign>
       <script type="module" src="/assets/signing-page.js"></script>`
    : `<p role="alert">${escapeHtml(words.noWidget)}</p>`;
  return page(
    lang,
    words.title.replace('{file}', doc.filename),
    `<p id="intro">${intro}</p><p style="color:light-dark(#515a64,#aab3bd)">${escapeHtml(words.sandbox)}</p>${widget}`,
    escapeHtml(words.title).replace('{file}', fileNameHtml(doc.filename)),
  );
}

/** How the person asked for a signing page: the query and the browser's languages. */
export interface PageRequest {
  query: string;
  acceptLanguage?: string | undefined;
}

/** The pages behind invitation and temporary links: the document and esign-sign over it, in the person's language. */
export function linkPage(
  store: DocumentStore,
  kind: 'sign' | 'link',
  token: string,
  now: number,
  hasWidget: boolean,
  request: PageRequest = { query: '' },
): { status: number; html: string } {
  const found = kind === 'sign' ? store.findByInvitation(token) : store.findByLink(token);
  const lang = pageLanguage(request.query, found && 'link' in found ? found.link.language : undefined, request.acceptLanguage);
  const words = PAGE_WORDS[lang];
  if (!found) return { status: 404, html: page(lang, words.notFoundTitle, `<p>${escapeHtml(words.notFound)}</p>`) };
  if ('signer' in found) {
    const intro = say(words, 'invited', { name: `${found.signer.name} ${found.signer.surname}`, file: found.doc.filename });
    return { status: 200, html: signingPage('sign', token, found.doc, lang, intro, hasWidget) };
  }
  if (now >= found.link.validUntil) {
    return { status: 410, html: page(lang, words.expired, `<p>${escapeHtml(words.expired)}</p>`) };
  }
  // the widget's format (date medium, time short, 24 hours) in UTC, said so; the page's script puts
  // it into the person's own time zone (the datetime attribute is the moment itself)
  const validUntil = new Date(found.link.validUntil);
  const utc = validUntil.toLocaleString(LOCALES[lang], { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23', timeZone: 'UTC' }) + ' UTC';
  const intro = say(words, 'link', { file: found.doc.filename, until: '\u0000' }).replace(
    '\u0000',
    `<time datetime="${validUntil.toISOString()}" data-local>${escapeHtml(utc)}</time>`,
  );
  return { status: 200, html: signingPage('link', token, found.doc, lang, intro, hasWidget) };
}

import type { StringKey, Strings } from './en.js';
import { isOneOf } from '../protocol/checks.js';

export type { StringKey, Strings };

export const LANGUAGES = ['lt', 'en', 'lv', 'et', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The strings come in parts, each loaded on first use: `form` (the channel choice and the person
 * form of the session elements: its words in every language ride in the file of each session
 * element, see form-words.ts, so a login form is drawn without waiting for a language file),
 * `session` (errors, actions, messages, Mobile-ID and Smart-ID sessions: every element says some
 * of these) and `documents` (the document elements). A page that only logs people in never loads
 * the document words.
 */
export const STRING_PARTS = ['form', 'session', 'documents'] as const;
export type StringPart = (typeof STRING_PARTS)[number];

/** Each part's module, by language: the paths are written out, so that bundlers find every file. */
type PartLoader = () => Promise<{ strings: Partial<Strings> }>;
/**
 * The parts loaded on first use. The `form` part is not among them: it comes with the person form
 * itself (form-words.ts), in the five languages, so that a form is drawn without waiting for a file.
 */
const LOADERS: Record<Language, Record<Exclude<StringPart, 'form'>, PartLoader>> = {
  en: { session: () => import('./en-session.js'), documents: () => import('./en-documents.js') },
  lt: { session: () => import('./lt-session.js'), documents: () => import('./lt-documents.js') },
  lv: { session: () => import('./lv-session.js'), documents: () => import('./lv-documents.js') },
  et: { session: () => import('./et-session.js'), documents: () => import('./et-documents.js') },
  ru: { session: () => import('./ru-session.js'), documents: () => import('./ru-documents.js') },
};

/** Per language, the words of every part loaded so far. */
const loaded = new Map<Language, Partial<Strings>>();
const loadedParts = new Set<string>();
/** Parts that failed to load the last time they were asked for. */
const failedParts = new Set<string>();
const loading = new Map<string, Promise<void>>();
const overrides = new Map<Language, Partial<Strings>>();

/** `lt-LT` → `lt`; anything not among the five → null. Asked on every word said: each tag read once. */
const normalized = new Map<string, Language | null>();
export function normalizeLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  let language = normalized.get(tag);
  if (language === undefined) {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    language = isOneOf(LANGUAGES, base) ? base : null;
    // a page that sets odd tags without end keeps no endless list
    if (normalized.size < 64) normalized.set(tag, language);
  }
  return language;
}

/** Whether one of these parts of a language failed to load the last time it was asked for. */
export function stringsFailed(lang: Language, parts: readonly StringPart[] = STRING_PARTS): boolean {
  return parts.some((part) => failedParts.has(`${lang}/${part}`));
}

/** Whether these parts of a language (all, by default) are loaded. */
export function stringsLoaded(lang: Language, parts: readonly StringPart[] = STRING_PARTS): boolean {
  return parts.every((part) => loadedParts.has(`${lang}/${part}`));
}

function loadPart(lang: Language, part: StringPart): Promise<void> {
  const id = `${lang}/${part}`;
  if (loadedParts.has(id)) return Promise.resolve();
  // the form's words are there once the person form is: nothing to load for a page without one
  if (part === 'form') return Promise.resolve();
  let pending = loading.get(id);
  if (!pending) {
    pending = LOADERS[lang][part]().then(
      ({ strings }) => {
        loaded.set(lang, { ...loaded.get(lang), ...strings });
        loadedParts.add(id);
        failedParts.delete(id);
        loading.delete(id);
      },
      (error: unknown) => {
        // not kept as failed here, so a later render asks again (browsers may still keep a failed
        // module import for the page's life); said once per language, not on every render
        loading.delete(id);
        failedParts.add(id);
        if (!warned.has(lang)) {
          warned.add(lang);
          console.warn(`[esign-elements] the ${lang} strings could not be loaded; showing English words instead`, error);
        }
        throw error;
      },
    );
    loading.set(id, pending);
  }
  return pending;
}

/** Takes a part of a language's words that came in the script itself: no load, no wait. */
export function provideStrings(lang: Language, part: StringPart, strings: Partial<Strings>): void {
  loaded.set(lang, { ...loaded.get(lang), ...strings });
  loadedParts.add(`${lang}/${part}`);
}

/** Loads these parts of a language (every part, by default) and resolves with its words loaded so far. */
export async function loadStrings(lang: Language, parts: readonly StringPart[] = STRING_PARTS): Promise<Strings> {
  await Promise.all(parts.map((part) => loadPart(lang, part)));
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- asked only once the language is loaded
  return loaded.get(lang) as Strings;
}

const warned = new Set<Language>();

/** Host overrides for every element on the page, per language. */
export function setStringOverrides(lang: Language, strings: Partial<Strings>): void {
  overrides.set(lang, { ...overrides.get(lang), ...strings });
}

/** A string: element overrides, then page overrides, then the language, then English if loaded, then the key. */
export function translate(lang: Language, key: StringKey, params: Record<string, string | number> = {}, local?: Partial<Strings>): string {
  const text = local?.[key] ?? overrides.get(lang)?.[key] ?? loaded.get(lang)?.[key] ?? loaded.get('en')?.[key] ?? key;
  return noBreakInBrands(pluralize(text, lang, params).replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)));
}

/**
 * `Smart-ID`, `Mobile-ID`, `Mobiil-ID-d`, `SHA-256`, `ASiC-E`: one word on a narrow screen, their
 * hyphens non-breaking (U+2011).
 */
const BRAND = /\b(?:Smart|Mobile|Mobiil)[-\u2011]ID(?:-\p{L}+)?|\bSHA-\d{3}\b|\bASiC-[ES]\b/gu;
function noBreakInBrands(text: string): string {
  return /ID|SHA|ASiC/.test(text) ? text.replace(BRAND, (name) => name.replace(/-/g, '\u2011')) : text;
}

const rules = new Map<Language, Intl.PluralRules>();
function pluralRules(lang: Language): Intl.PluralRules {
  let found = rules.get(lang);
  if (!found) rules.set(lang, (found = new Intl.PluralRules(lang)));
  return found;
}

const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const PLURAL_FORM = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;

/**
 * Resolves `{n, plural, one {# file} few {# files} other {# files}}` by the language's plural
 * rules (`#` is the number), the one message syntax translators know from ICU.
 */
function pluralize(text: string, lang: Language, params: Record<string, string | number>): string {
  if (!text.includes(', plural,')) return text;
  return text.replace(PLURAL, (whole, name: string, forms: string) => {
    const value = Number(params[name]);
    if (!(name in params) || !Number.isFinite(value)) return whole;
    const options = new Map<string, string>();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- both groups of the pattern always match
    for (const [, category, form] of forms.matchAll(PLURAL_FORM)) options.set(category as string, form as string);
    const chosen = options.get(`=${value}`) ?? options.get(pluralRules(lang).select(value)) ?? options.get('other') ?? '';
    return chosen.replace(/#/g, String(value));
  });
}

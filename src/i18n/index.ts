import type { StringKey, Strings } from './en.js';

export type { StringKey, Strings };

export const LANGUAGES = ['lt', 'en', 'lv', 'et', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Every language loads on first use, so the script-tag bundle carries none of them. */
const LOADERS: Record<Language, () => Promise<Strings>> = {
  en: () => import('./en.js').then((m) => m.en),
  lt: () => import('./lt.js').then((m) => m.lt),
  lv: () => import('./lv.js').then((m) => m.lv),
  et: () => import('./et.js').then((m) => m.et),
  ru: () => import('./ru.js').then((m) => m.ru),
};

const loaded = new Map<Language, Strings>();
const loading = new Map<Language, Promise<Strings>>();
const overrides = new Map<Language, Partial<Strings>>();

/** `lt-LT` → `lt`; anything not among the five → null. */
export function normalizeLanguage(tag: string | null | undefined): Language | null {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Language) : null;
}

export function stringsLoaded(lang: Language): Strings | undefined {
  return loaded.get(lang);
}

export function loadStrings(lang: Language): Promise<Strings> {
  const ready = loaded.get(lang);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(lang);
  if (!pending) {
    pending = LOADERS[lang]().then(
      (strings) => {
        loaded.set(lang, strings);
        return strings;
      },
      (error: unknown) => {
        // not kept as failed here, so a later render asks again (browsers may still keep a failed
        // module import for the page's life); said once, not on every render
        loading.delete(lang);
        if (!warned.has(lang)) {
          warned.add(lang);
          console.warn(`[esign-elements] the ${lang} strings could not be loaded; showing English words instead`, error);
        }
        throw error;
      },
    );
    loading.set(lang, pending);
  }
  return pending;
}

const warned = new Set<Language>();

/** Host overrides for every element on the page, per language. */
export function setStringOverrides(lang: Language, strings: Partial<Strings>): void {
  overrides.set(lang, { ...overrides.get(lang), ...strings });
}

/** A string: element overrides, then page overrides, then the language, then English if loaded, then the key. */
export function translate(
  lang: Language,
  key: StringKey,
  params: Record<string, string | number> = {},
  local?: Partial<Strings>,
): string {
  const text = local?.[key] ?? overrides.get(lang)?.[key] ?? loaded.get(lang)?.[key] ?? loaded.get('en')?.[key] ?? key;
  return pluralize(text, lang, params).replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
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
    for (const [, category, form] of forms.matchAll(PLURAL_FORM)) options.set(category as string, form as string);
    const chosen = options.get(`=${value}`) ?? options.get(pluralRules(lang).select(value)) ?? options.get('other') ?? '';
    return chosen.replace(/#/g, String(value));
  });
}

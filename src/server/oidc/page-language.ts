import { COUNTRIES, type Country } from '../../protocol/types.js';
import { PAGE_LANGUAGES, type PageLanguage } from './page-words.js';

/*
 * Which language the hosted page speaks, and which country it preselects: the person's own choice
 * on the page first, then what the site asked for (`ui_locales`), then the browser
 * (Accept-Language), then the client's registered default, then English.
 */

export interface LanguageSources {
  /** The page's own switch (`?lang=`), or the choice it kept for this browser. */
  chosen?: string | null | undefined;
  /** The authorization request's `ui_locales`: BCP 47 tags by preference, space-separated. */
  uiLocales?: unknown;
  acceptLanguage?: string | undefined;
  /** The client's `default_ui_locales` in the clients file. */
  clientDefault?: string | undefined;
  /** The authorization request's `login_hint`: `country:LV` preselects a country. */
  loginHint?: unknown;
}

export interface PageLocale {
  language: PageLanguage;
  /** The country to preselect: the login hint's, else the region of the tag that chose the language; null: the widget's own. */
  country: Country | null;
}

const isPageLanguage = (value: string): value is PageLanguage => (PAGE_LANGUAGES as readonly string[]).includes(value);
const isCountry = (value: string): value is Country => (COUNTRIES as readonly string[]).includes(value);

/** Accept-Language's tags, most wanted first (a missing q is 1; equal q keeps the header's order; q=0 is refused). */
export function acceptedTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, q }) => q > 0 && /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

const spaced = (value: unknown): string[] => (typeof value === 'string' ? value.slice(0, 500).split(/\s+/).filter(Boolean) : []);

/** The first tag this page speaks, with the region it names (ru-LV: Russian, Latvia). */
function firstSpoken(tags: string[]): { language: PageLanguage; region: Country | null } | null {
  for (const tag of tags) {
    const [primary = '', ...rest] = tag.toLowerCase().split('-');
    if (!isPageLanguage(primary)) continue;
    const region = rest.map((subtag) => subtag.toUpperCase()).find(isCountry) ?? null;
    return { language: primary, region };
  }
  return null;
}

/** `country:LV` in the login hint (the hint may carry other words beside it). */
function hintedCountry(hint: unknown): Country | null {
  if (typeof hint !== 'string') return null;
  const country = /(?:^|\s)country:([A-Za-z]{2})(?:\s|$)/.exec(hint.slice(0, 200))?.[1]?.toUpperCase();
  return country && isCountry(country) ? country : null;
}

export function pageLocale(sources: LanguageSources): PageLocale {
  const chosen = sources.chosen?.toLowerCase();
  const asked = [spaced(sources.uiLocales), acceptedTags(sources.acceptLanguage), spaced(sources.clientDefault)].map(firstSpoken);
  const language = chosen && isPageLanguage(chosen) ? chosen : (asked.find((found) => found !== null)?.language ?? 'en');
  const region = asked.find((found) => found?.region)?.region ?? null;
  return { language, country: hintedCountry(sources.loginHint) ?? region };
}

import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { EsignError, type EsignErrorDetail } from '../../client/errors.js';
import {
  loadStrings,
  normalizeLanguage,
  stringsFailed,
  stringsLoaded,
  translate,
  type Language,
  type StringKey,
  type StringPart,
  type Strings,
} from '../../i18n/index.js';
import { theme } from './theme.js';
import { required } from '../../protocol/checks.js';

/** Rewrites the message of an error before it is shown and sent with `esign-error`. */
/** The package's events, as the elements declare them in `HTMLElementEventMap`. */
export type EsignEventName = Extract<keyof HTMLElementEventMap, `esign-${string}`>;
/** An event's detail, by its name. */
export type EventDetail<K extends keyof HTMLElementEventMap> = HTMLElementEventMap[K] extends CustomEvent<infer D> ? D : never;

export type ErrorMessageHook = (detail: EsignErrorDetail, language: Language) => string | undefined;

const connected = new Set<EsignElement>();
let languageObserver: MutationObserver | undefined;

function watchLanguages(): void {
  if (languageObserver || typeof MutationObserver === 'undefined') return;
  languageObserver = new MutationObserver(() => connected.forEach((el) => el.requestUpdate()));
  languageObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
}

/** The nearest `lang` above an element, crossing shadow roots. */
function inheritedLang(el: Element): string | null {
  let node: Node | null = el.parentNode ?? null;
  while (node) {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a node on the way up: an element answers getAttribute, a shadow root has a host; anything else reads as nothing
    if ((node as Element).getAttribute?.('lang')) return (node as Element).getAttribute('lang');
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a node on the way up: an element answers getAttribute, a shadow root has a host; anything else reads as nothing
    node = node.parentNode ?? (node as ShadowRoot).host ?? null;
  }
  return null;
}

/**
 * Loads these parts of a language unless they are here (undefined then); a language file that
 * fails: English. One that failed before is asked for again without holding the element up (a
 * browser may never settle a second import of a module it refused): English meanwhile, and the
 * element renders again once its own words came.
 */
function loadWords(element: EsignElement, language: Language, parts: readonly StringPart[]): Promise<unknown> | undefined {
  if (stringsLoaded(language, parts)) return undefined;
  if (stringsFailed(language, parts)) {
    void loadStrings(language, parts).then(
      () => element.requestUpdate(),
      () => undefined,
    );
    return stringsLoaded('en', parts) ? undefined : loadStrings('en', parts).catch(() => undefined);
  }
  return loadStrings(language, parts).catch(() => loadStrings('en', parts).catch(() => undefined));
}

/** A reflected text property whose empty value leaves no attribute (on the server too). */
export const OPTIONAL_TEXT = { fromAttribute: (value: string | null) => value ?? '', toAttribute: (value: string) => value || null };

/**
 * The base of every esign element: endpoint, language resolution (own `lang`, then the
 * closest `[lang]`, then `<html lang>`, then English), strings with host overrides, the
 * typed events and localised errors.
 *
 * @cssprop --esign-color-text - Main text colour.
 * @cssprop --esign-color-text-muted - Secondary text colour.
 * @cssprop --esign-color-surface - Background of the element.
 * @cssprop --esign-color-surface-subtle - Background of panels and fields.
 * @cssprop --esign-color-border - Borders of panels and cards.
 * @cssprop --esign-color-field-border - Boundaries of fields, choices and the drop zone (keep 3:1 against the surface).
 * @cssprop --esign-color-accent - Buttons, links and highlights.
 * @cssprop --esign-color-on-accent - Text on the accent colour.
 * @cssprop --esign-color-danger - Errors.
 * @cssprop --esign-color-warning - A state that recovers by itself: the connection lost while a person confirms.
 * @cssprop --esign-color-success - Success.
 * @cssprop --esign-color-focus - The focus ring.
 * @cssprop --esign-radius - Corner radius.
 * @cssprop --esign-font-family - Font family.
 * @cssprop --esign-space - The base spacing unit.
 */
export class EsignElement extends LitElement {
  static override styles = [theme];

  static override properties: PropertyDeclarations = {
    endpoint: { type: String },
    // reflected (an empty lang leaves no attribute), so assistive technology reads the right voice
    lang: { type: String, reflect: true, converter: OPTIONAL_TEXT },
    theme: { type: String, reflect: true, converter: OPTIONAL_TEXT },
    strings: { attribute: false },
    errorMessage: { attribute: false },
  };

  /** The parts of the strings the element says (the document elements add `documents`). */
  static stringParts: readonly StringPart[] = ['form', 'session'];

  /** Base URL of the host's proxy. */
  declare endpoint: string;
  /** lt, en, lv, et or ru; empty means inherited. */
  declare lang: string;
  /** `light` or `dark` to fix the scheme; empty follows the page. */
  declare theme: string;
  /** Per-element string overrides. */
  declare strings: Partial<Strings> | undefined;
  /** Host hook that may rewrite error messages. */
  declare errorMessage: ErrorMessageHook | undefined;

  constructor() {
    super();
    this.endpoint = '';
    this.lang = '';
    this.theme = '';
  }

  /** The language the element speaks now. */
  get language(): Language {
    return (
      normalizeLanguage(this.lang) ??
      normalizeLanguage(this.isConnected ? inheritedLang(this) : null) ??
      normalizeLanguage(typeof document === 'undefined' ? null : document.documentElement.lang) ??
      'en'
    );
  }

  /** A string in the element's language. */
  t(key: StringKey, params?: Record<string, string | number>): string {
    return translate(this.language, key, params, this.strings);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    connected.add(this);
    watchLanguages();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    connected.delete(this);
  }

  /** The class of this very instance (its statics: declared properties, the parts of its words). */
  get #ownClass(): typeof EsignElement {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- every instance's constructor is its class
    return this.constructor as typeof EsignElement;
  }

  /** The element's own shadow root, where Lit renders it. */
  protected get shadow(): ShadowRoot {
    return required(this.shadowRoot);
  }

  /**
   * A property set to its attribute's string form (as React 19 and Vue set them) is read as the
   * attribute would be: `channels = "smartid mobile"`, `peps = "false"`, `poll-interval = "500"`.
   */
  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const declared = this.#ownClass.elementProperties;
    for (const name of changed.keys()) {
      const options = declared.get(name);
      const value: unknown = Reflect.get(this, name);
      if (!options || typeof value !== 'string' || options.attribute === false || options.state || options.type === String) continue;
      const converter =
        typeof options.converter === 'object' ? options.converter.fromAttribute : typeof options.converter === 'function' ? options.converter : undefined;
      if (converter) Reflect.set(this, name, converter(value, options.type));
      else if (options.type === Boolean) Reflect.set(this, name, value !== 'false');
      else if (options.type === Number) Reflect.set(this, name, value.trim() === '' ? null : Number(value));
    }
  }

  /**
   * Marks what the element rendered with its language when that differs from the language
   * around it (its own `lang`, or English where the page's language is not one of the five).
   */
  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const around = normalizeLanguage(inheritedLang(this) ?? (typeof document === 'undefined' ? null : document.documentElement.lang));
    const own = this.language === around ? null : this.language;
    for (const child of this.renderRoot.children) {
      if (child.localName === 'style') continue;
      if (own) child.setAttribute('lang', own);
      else child.removeAttribute('lang');
    }
  }

  /** The parts of its language the element needs before it renders now (its state may need fewer than it ever says). */
  protected wordsNeeded(): readonly StringPart[] {
    return this.#ownClass.stringParts;
  }

  /** Waits for the element's language before rendering, so no other language flashes. */
  protected override async scheduleUpdate(): Promise<void> {
    // only a language not loaded yet delays the update; otherwise children update with their parent
    // a language file that fails leaves English words meanwhile (translate falls back to them)
    const loading = loadWords(this, this.language, this.wordsNeeded());
    if (loading) await loading;
    await super.scheduleUpdate();
  }

  /** Every word the element may say, loaded: for what words a message outside a render (an event's message, say). */
  protected async everyWord(): Promise<void> {
    await loadWords(this, this.language, this.#ownClass.stringParts);
  }

  /** Dispatches a bubbling, composed event of the package, its detail typed by its name; returns false when a listener prevented it. */
  protected emit<K extends EsignEventName>(name: K, detail: EventDetail<K>, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  /** An error as the `esign-error` detail, its message localised and passed through the host hook. */
  protected errorDetail(error: unknown): EsignErrorDetail {
    const esignError = error instanceof EsignError ? error : new EsignError('unknown', 'Unexpected failure', { cause: error });
    const params = esignError.retryAfter === undefined ? undefined : { minutes: Math.max(1, Math.ceil(esignError.retryAfter / 60)) };
    const base = esignError.toDetail(this.t(`error.${esignError.code}` as StringKey, params));
    return { ...base, message: this.errorMessage?.(base, this.language) ?? base.message };
  }
}

import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { COUNTRIES, type Country } from '../../protocol/types.js';
import { stringsLoaded, type StringKey, type StringPart } from '../../i18n/index.js';
// its events on HTMLElementEventMap wherever its class is named (the framework types too)
import './events.js';
import { EsignElement, OPTIONAL_TEXT } from '../../internal/element/base-element.js';
import { controls } from '../../internal/element/controls.styles.js';
import { theme } from '../../internal/element/theme.js';
import { checkPersonalCode, personalCodeCountries } from '../../internal/validation/personal-code.js';
import { normalizePhone } from '../../internal/validation/phone.js';
import type { PersonChannel, PersonField, PersonForm, PersonValue } from '../../internal/data/person.js';
import { personFormStyles } from './person-form.styles.js';
import { textOrNothing } from '../../internal/element/text-or-nothing.js';
import { afterPaint } from '../../internal/element/after-paint.js';
import { maskCode, maskPhone } from '../../protocol/mask.js';
import { readonlyStyles } from '../../internal/element/readonly.styles.js';
import { provideFormWords } from '../../i18n/form-words.js';
import { firstOf, isOneOf } from '../../protocol/checks.js';

export type { PersonChannel, PersonField, PersonValue };

/**
 * The person's details for a session: personal code and country (Smart-ID) or phone and
 * personal code (Mobile-ID). Form-associated: inside a `<form>` it takes part in validation
 * and submits its value as JSON under its `name`. Checks as the person types, after a field
 * was left once or a submit was tried.
 *
 * @fires esign-person-submit - Enter was pressed in a field and no form took the submit.
 * @fires change - A field's value was committed (the country chosen, a field left changed), as on a native field.
 * @csspart field - Each field's wrapper.
 * @csspart input - The inputs and the select.
 * @csspart readonly - A value the site set (masked), or the only country offered.
 * @csspart error - A field's error message.
 *
 * @tag esign-person-form
 */
export class EsignPersonForm extends EsignElement implements PersonForm {
  static {
    // the form's words in the five languages, with the form: drawn without waiting for a file
    provideFormWords();
  }
  static formAssociated = true;
  static override styles = [theme, controls, readonlyStyles, personFormStyles];

  static override properties: PropertyDeclarations = {
    channel: { type: String, reflect: true },
    country: { type: String },
    countries: {
      converter: { fromAttribute: (value: string | null) => (value ?? '').split(/[\s,]+/).filter(Boolean) },
    },
    code: { type: String },
    phone: { type: String },
    name: { type: String, reflect: true, converter: OPTIONAL_TEXT },
    disabled: { type: Boolean, reflect: true },
    fixed: { type: Array },
    novalidate: { type: Boolean, reflect: true },
    _touched: { state: true },
    _serviceErrors: { state: true },
  };

  declare channel: PersonChannel;
  declare country: Country;
  /** Countries offered for Smart-ID. */
  declare countries: Country[];
  declare code: string;
  declare phone: string;
  declare name: string;
  declare disabled: boolean;
  /**
   * Fields the site set (the person logged in, when a site signs only as them): read-only and
   * masked, their hint saying the site set them. Attribute: JSON, \`["code", "phone"]\`; a fixed
   * country is the one offered.
   */
  declare fixed: PersonField[];
  /** Sends the fields as typed and leaves every check to the service (its errors land on the fields). */
  declare novalidate: boolean;
  declare _touched: Set<PersonField>;
  declare _serviceErrors: Partial<Record<PersonField, string>>;

  readonly #internals: ElementInternals | undefined;

  constructor() {
    super();
    this.channel = 'smartid';
    this.country = 'LT';
    this.countries = ['LT', 'LV', 'EE'];
    this.code = '';
    this.phone = '';
    this.name = '';
    this.disabled = false;
    this.fixed = [];
    this.novalidate = false;
    this._touched = new Set();
    this._serviceErrors = {};
    this.#internals = typeof this.attachInternals === 'function' ? this.attachInternals() : undefined;
  }

  get form(): HTMLFormElement | null {
    return this.#internals?.form ?? null;
  }

  /** The value as it will be sent, or null while a field is invalid. */
  get value(): PersonValue | null {
    if (this.#problems().length) return null;
    const code = checkPersonalCode(this.code, this.#codeCountry());
    const value: PersonValue = { channel: this.channel, code: code.valid ? code.code : this.code, country: this.#codeCountry() };
    if (this.channel === 'mobile') {
      const phone = normalizePhone(this.phone);
      value.phone = phone.valid ? phone.phone : this.phone.trim();
    }
    if (this.novalidate && !code.valid) value.code = this.code.trim();
    return value;
  }

  /** Shows every field's problem and (unless told not to) focuses the first invalid field; true when all is valid. */
  validate(focus = true): boolean {
    this._touched = new Set(['code', 'phone', 'country']);
    const problems = this.#problems();
    const first = problems[0];
    if (first && focus) void this.updateComplete.then(() => this.focusField(first.field));
    return problems.length === 0;
  }

  /** Puts an error from the service on a field (for 40001 / 40004 / 40005) and focuses it. */
  setFieldError(field: PersonField, message: string): void {
    this._serviceErrors = { ...this._serviceErrors, [field]: message };
    this._touched = new Set([...this._touched, field]);
    void this.updateComplete.then(() => this.focusField(field));
  }

  /** Focuses a field the person can change: this one, else the first such; false when there is none. */
  focusField(field: PersonField): boolean {
    const fields = [...this.renderRoot.querySelectorAll<HTMLElement>('input, select')];
    const target = fields.find((f) => f.id === field) ?? fields[0];
    target?.focus();
    return target !== undefined;
  }

  /** Forgets touched fields and service errors (a new attempt). */
  reset(): void {
    this._touched = new Set();
    this._serviceErrors = {};
  }

  #phoneCountry(): Country {
    return this.phone.replace(/\D/g, '').startsWith('372') ? 'EE' : 'LT';
  }

  #codeCountry(): Country {
    return this.channel === 'mobile' ? this.#phoneCountry() : this.country;
  }

  #problems(): { field: PersonField; key: StringKey; params?: Record<string, string> }[] {
    const problems: { field: PersonField; key: StringKey }[] = [];
    if (this.novalidate) return problems;
    if (this.channel === 'mobile') {
      const phone = normalizePhone(this.phone);
      if (!phone.valid) problems.push({ field: 'phone', key: `form.phone.${phone.problem}` as StringKey });
    }
    const code = checkPersonalCode(this.code, this.#codeCountry());
    if (!code.valid) {
      // a Latvian code for Mobile-ID, which Latvia does not have: that is what is wrong, not its digits
      const latvianForMobile = this.channel === 'mobile' && personalCodeCountries(this.code).join() === 'LV';
      const key = latvianForMobile
        ? 'form.code.mobile-lv'
        : code.problem === 'format' && this.#codeCountry() === 'LV'
          ? 'form.code.format-lv'
          : `form.code.${code.problem}`;
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the table has a key for each value of the closed list it is built from
      problems.push({ field: 'code', key: key as StringKey });
    }
    return problems;
  }

  #errorOf(field: PersonField): string | undefined {
    const service = this._serviceErrors[field];
    if (service) return service;
    if (!this._touched.has(field)) return undefined;
    const problem = this.#problems().find((p) => p.field === field);
    return problem ? this.t(problem.key) : undefined;
  }

  /**
   * The fields at rest say only words of the form part (in the element's file); a message on a
   * field, and the hint of a field the site fixed, wait for the session part.
   */
  protected override wordsNeeded(): readonly StringPart[] {
    return this._touched.size || this.fixed.length || Object.values(this._serviceErrors).some(Boolean) ? super.wordsNeeded() : ['form'];
  }

  protected override firstUpdated(changed: PropertyValues): void {
    super.firstUpdated(changed);
    // the fields' messages, the form's validity message among them, once the fields are on screen
    if (!stringsLoaded(this.language, ['session'])) afterPaint(() => void this.everyWord().then(() => this.requestUpdate()));
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const value = this.value;
    this.#internals?.setFormValue(value ? JSON.stringify(value) : null);
    const first = this.#problems()[0];
    if (first) {
      const anchor = this.renderRoot.querySelector<HTMLElement>(`#${first.field}`) ?? undefined;
      this.#internals?.setValidity({ customError: true }, this.t(first.key), anchor);
    } else {
      this.#internals?.setValidity({});
    }
  }

  formResetCallback(): void {
    this.code = '';
    this.phone = '';
    this.reset();
  }

  formDisabledCallback(disabled: boolean): void {
    this.disabled = disabled;
  }

  #onInput(field: 'code' | 'phone', event: Event): void {
    if (event.target instanceof HTMLInputElement) this[field] = event.target.value;
    if (this._serviceErrors[field]) this._serviceErrors = { ...this._serviceErrors, [field]: undefined };
  }

  /**
   * On the select's `input`, which crosses the shadow root before its `change` (that does not): a
   * listener on this element reads the country the select shows, however the person changed it.
   */
  #onCountry(event: Event): void {
    const chosen = event.target instanceof HTMLSelectElement ? event.target.value : '';
    if (isOneOf(COUNTRIES, chosen)) this.country = chosen;
    this._serviceErrors = { ...this._serviceErrors, code: undefined, country: undefined };
    if (event.type === 'change') this.#relayChange();
  }

  /** A field's `change` stays inside the shadow root: this element says it, as a native field would. */
  #relayChange(): void {
    this.dispatchEvent(new Event('change', { bubbles: true }));
  }

  #onKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    if (this.form) this.form.requestSubmit();
    else this.emit('esign-person-submit', this.value);
  }

  /**
   * A value the site set, or the only country offered: shown and read like the hash above it (a
   * label, then the value), not a box to type in. A masked value has a spoken form: "ending in 9 1 4".
   */
  #readOnly(field: PersonField, label: string, hint: string, shown: string, spoken = shown) {
    const error = this.#errorOf(field);
    return html`<div class="field" part="field">
      <span class="label" id="${field}-label">${label}</span>
      <span class="hint" id="${field}-hint">${textOrNothing(hint)}</span>
      <p class="readonly-value" part="readonly" id=${field}>
        ${spoken === shown ? shown : html`<span aria-hidden="true">${shown}</span><span class="visually-hidden">${spoken}</span>`}
      </p>
      ${error ? html`<span class="field-error" id="${field}-error" part="error">${error}</span>` : nothing}
    </div>`;
  }

  /** The spoken form of a masked code or number: its last three digits, one by one. */
  #spokenMask(field: 'code' | 'phone'): string {
    const value = this[field].replace(/[\s-]/g, '');
    const ending = this.t('form.masked', { digits: value.slice(-3).split('').join(' ') });
    return field === 'phone' ? `${value.slice(0, 4)}, ${ending}` : ending;
  }

  #field(field: 'code' | 'phone', label: string, hint: string, attrs: { type: string; inputmode: string; autocomplete: string }) {
    const error = this.#errorOf(field);
    if (this.fixed.includes(field))
      return this.#readOnly(field, label, this.t('form.fixed'), (field === 'code' ? maskCode : maskPhone)(this[field]), this.#spokenMask(field));
    return html`<div class="field" part="field">
      <label for=${field}>${label}</label>
      <span class="hint" id="${field}-hint">${textOrNothing(hint)}</span>
      <input
        id=${field}
        part="input"
        type=${attrs.type}
        inputmode=${attrs.inputmode}
        autocomplete=${attrs.autocomplete}
        spellcheck="false"
        .value=${this[field]}
        ?disabled=${this.disabled}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby="${field}-hint${error ? ` ${field}-error` : ''}"
        @input=${(e: Event) => this.#onInput(field, e)}
        @change=${() => this.#relayChange()}
        @keydown=${this.#onKeydown}
      />
      ${error ? html`<span class="field-error" id="${field}-error" part="error">${error}</span>` : nothing}
    </div>`;
  }

  override render() {
    const lv = this.#codeCountry() === 'LV';
    const code = this.#field('code', this.t('form.code'), this.t(lv ? 'form.code.hint-lv' : 'form.code.hint'), {
      type: 'text',
      inputmode: lv ? 'text' : 'numeric',
      autocomplete: 'off',
    });
    if (this.channel === 'mobile') {
      return html`<div class="wrap">
        ${this.#field('phone', this.t('form.phone'), this.t('form.phone.hint'), { type: 'tel', inputmode: 'tel', autocomplete: 'tel' })}
        ${code}
      </div>`;
    }
    const known = this.countries.filter((c) => COUNTRIES.includes(c));
    const offered = known.length ? known : COUNTRIES;
    const countryError = this.#errorOf('country');
    const fixedCountry = this.fixed.includes('country');
    if (fixedCountry || offered.length < 2) {
      // set by the site, as the code is, or the only one offered: read like the other values, said so
      const country = fixedCountry || offered.includes(this.country) ? this.country : firstOf(offered);
      return html`<div class="wrap"><div class="row two">
        ${this.#readOnly('country', this.t('form.country'), fixedCountry ? this.t('form.fixed') : '', this.t(`country.${country}` as StringKey))}
        ${code}
      </div></div>`;
    }
    return html`<div class="wrap"><div class="row two">
      <div class="field" part="field">
        <label for="country">${this.t('form.country')}</label>
        <span class="hint spacer" aria-hidden="true">&nbsp;</span>
        <select
          id="country"
          part="input"
          .value=${this.country}
          ?disabled=${this.disabled}
          aria-invalid=${countryError ? 'true' : 'false'}
          aria-describedby=${countryError ? 'country-error' : nothing}
          @input=${this.#onCountry}
          @change=${this.#onCountry}
        >
          ${offered.map((c) => html`<option value=${c} ?selected=${c === this.country}>${this.t(`country.${c}` as StringKey)}</option>`)}
        </select>
        ${countryError ? html`<span class="field-error" id="country-error" part="error">${countryError}</span>` : nothing}
      </div>
      ${code}
    </div></div>`;
  }
}

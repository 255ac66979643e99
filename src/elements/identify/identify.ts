import { html, nothing, type PropertyDeclarations } from 'lit';
import { camelCased } from '../../client/camel.js';
import { DEFAULT_TIME_LIMIT, type Channel } from '../../client/client.js';
import { EsignError } from '../../client/errors.js';
import type { Country, IdentificationStatusResponse, MessageFormat, PhoneLanguage } from '../../client/types.js';
import type { Language } from '../../i18n/index.js';
import { EsignElement } from '../../internal/base-element.js';
import { controls } from '../../internal/controls.styles.js';
import { defineElement } from '../../internal/define.js';
import { SessionFlow } from '../../internal/session-flow.js';
import { theme } from '../../internal/theme.js';
import { checkMessage } from '../../internal/validation/message.js';
import { EsignControlCode } from '../control-code/control-code.js';
import { EsignPersonForm, type PersonField } from '../person-form/person-form.js';
import { EsignStatus } from '../status/status.js';
import type { AuthenticatedDetail, CancelledDetail, StartedDetail } from './events.js';
import { identifyStyles } from './identify.styles.js';

const PHONE_LANGUAGE: Record<Language, PhoneLanguage> = { lt: 'LIT', en: 'ENG', lv: 'ENG', et: 'EST', ru: 'RUS' };
const CHANNELS: Channel[] = ['smartid', 'mobile'];

const listOf = (value: string | null): Channel[] =>
  (value ?? '').split(/[\s,]+/).filter((c): c is Channel => (CHANNELS as string[]).includes(c));

/**
 * Authentication with Smart-ID or Mobile-ID: channel choice, the person's details, the
 * control code, waiting, and the result.
 *
 * @fires esign-started - The session exists and the control code is known.
 * @fires esign-authenticated - The person is identified.
 * @fires esign-cancelled - The person or the host cancelled.
 * @fires esign-error - The session failed; the detail says why and whether trying again can help.
 * @csspart base - The frame.
 * @csspart submit - The submit button.
 * @csspart retry - The try-again button.
 */
export class EsignIdentify extends EsignElement {
  static override styles = [theme, controls, identifyStyles];

  static override properties: PropertyDeclarations = {
    ...EsignElement.properties,
    channels: { converter: { fromAttribute: listOf, toAttribute: (value: Channel[]) => value.join(' ') } },
    channel: { type: String, reflect: true },
    country: { type: String },
    countries: { converter: { fromAttribute: (v: string | null) => (v ?? '').split(/[\s,]+/).filter(Boolean) } },
    phoneLanguage: { type: String, attribute: 'phone-language' },
    message: { type: String },
    messageFormat: { type: String, attribute: 'message-format' },
    peps: { type: Boolean },
    sanctions: { type: Boolean },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    timeLimit: { type: Number, attribute: 'time-limit' },
    code: { type: String },
    phone: { type: String },
    hideSuccess: { type: Boolean, attribute: 'hide-success' },
  };

  /** Channels offered, in order: `smartid`, `mobile`. */
  declare channels: Channel[];
  /** The channel chosen now (preselect with the attribute). */
  declare channel: Channel;
  declare country: Country;
  declare countries: Country[];
  /** Language of the phone screen (LIT, ENG, RUS, EST); follows the UI language when unset. */
  declare phoneLanguage: PhoneLanguage | '';
  /** Text shown on the phone. */
  declare message: string;
  /** GSM-7 or UCS-2; chosen from the text when unset. */
  declare messageFormat: MessageFormat | '';
  declare peps: boolean;
  declare sanctions: boolean;
  /** Wait between status polls, ms. */
  declare pollInterval: number;
  /** Give up after this many ms; 0 uses the channel's default. */
  declare timeLimit: number;
  /** Prefilled personal code. */
  declare code: string;
  /** Prefilled phone number. */
  declare phone: string;
  /** Render nothing in the success state (the host shows its own). */
  declare hideSuccess: boolean;

  readonly flow = new SessionFlow(this);
  #result: IdentificationStatusResponse | undefined;

  constructor() {
    super();
    this.channels = [...CHANNELS];
    this.channel = 'smartid';
    this.country = 'LT';
    this.countries = ['LT', 'LV', 'EE'];
    this.phoneLanguage = '';
    this.message = '';
    this.messageFormat = '';
    this.peps = false;
    this.sanctions = false;
    this.pollInterval = 1000;
    this.timeLimit = 0;
    this.code = '';
    this.phone = '';
    this.hideSuccess = false;
  }

  override connectedCallback(): void {
    defineElement('esign-person-form', EsignPersonForm);
    defineElement('esign-control-code', EsignControlCode);
    defineElement('esign-status', EsignStatus);
    super.connectedCallback();
  }

  get #form(): EsignPersonForm | null {
    return this.renderRoot.querySelector('esign-person-form');
  }

  get #activeChannel(): Channel {
    const offered = this.channels.length ? this.channels : CHANNELS;
    return offered.includes(this.channel) ? this.channel : (offered[0] as Channel);
  }

  /** Starts the session with the form's details; resolves when the person is identified. */
  async start(): Promise<AuthenticatedDetail> {
    if (this.flow.busy) return this.#pending as Promise<AuthenticatedDetail>;
    this.#pending = this.#start();
    return this.#pending;
  }

  #pending: Promise<AuthenticatedDetail> | undefined;

  async #start(): Promise<AuthenticatedDetail> {
    await this.updateComplete;
    const form = this.#form;
    if (!form || !form.validate()) {
      throw new EsignError('invalid-input', 'The form has invalid fields', { field: form ? 'form' : 'unknown' });
    }
    const person = form.value!;
    const channel = this.#activeChannel;
    this.code = person.code;
    if (person.phone) this.phone = person.phone;
    const client = this.client;
    const common = { peps: this.peps, sanctions: this.sanctions, ...(this.message ? { message: this.message } : {}) };
    try {
      const raw = await this.flow.run({
        client,
        channel,
        kind: 'login',
        interval: this.pollInterval,
        timeLimit: this.timeLimit || DEFAULT_TIME_LIMIT[channel],
        start: (signal) => {
          if (channel === 'smartid') return client.smartIdLogin({ code: person.code, country: person.country, ...common }, { signal });
          const check = checkMessage(this.message, this.messageFormat || undefined);
          if (this.message && check.problem) {
            throw new EsignError('misconfigured', `The phone message does not fit ${check.format} (${check.length}/${check.limit})`, { field: 'message' });
          }
          return client.mobileLogin(
            {
              phone: person.phone as string,
              code: person.code,
              language: this.phoneLanguage || PHONE_LANGUAGE[this.language],
              ...common,
              ...(this.message ? { message_format: check.format } : {}),
            },
            { signal },
          );
        },
        onStarted: (started) => {
          this.emit<StartedDetail>('esign-started', { token: started.token, channel, controlCode: started.control_code, kind: 'login' });
          void this.#focusLater('esign-status');
        },
      });
      this.#result = raw;
      this.requestUpdate();
      const detail: AuthenticatedDetail = {
        person: { name: raw.name, surname: raw.surname, code: raw.code, country: raw.country },
        certificate: camelCased(raw.certificate),
        token: raw.token,
        channel,
        pepsData: camelCased(raw.peps_data ?? []),
        sanctionsData: camelCased(raw.sanctions_data ?? []),
        result: camelCased(raw),
        raw,
      };
      this.emit('esign-authenticated', detail);
      void this.#focusLater('.done');
      return detail;
    } catch (error) {
      this.#handleFailure(error, channel);
      throw error;
    }
  }

  #handleFailure(error: unknown, channel: Channel): void {
    if (!(error instanceof EsignError)) return;
    if (error.code === 'cancelled') {
      if (this.isConnected) this.emit<CancelledDetail>('esign-cancelled', { token: this.flow.token, channel });
      void this.#focusLater('[part="retry"]');
      return;
    }
    const detail = this.errorDetail(error);
    this.emit('esign-error', detail);
    const field = this.#formField(error);
    if (field) {
      // a field the person can fix: back to the form, the message on the field
      this.flow.reset();
      void this.updateComplete.then(() => this.#form?.setFieldError(field, this.#fieldMessage(field)));
    } else {
      void this.#focusLater('[part="retry"]');
    }
  }

  #formField(error: EsignError): PersonField | null {
    if (error.code !== 'invalid-input') return null;
    if (error.field === 'phone' || error.serviceCode === 40004) return 'phone';
    if (error.field === 'code' || error.serviceCode === 40005) return 'code';
    if (error.field === 'country') return 'country';
    return null;
  }

  #fieldMessage(field: PersonField): string {
    return this.t(field === 'phone' ? 'form.phone.service' : field === 'code' ? 'form.code.service' : 'form.country.service');
  }

  async #focusLater(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Cancels the running session (removing it at the service). */
  async cancel(): Promise<void> {
    await this.flow.cancel();
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    this.start().catch(() => undefined);
  }

  #retry(): void {
    this.flow.reset();
    this.#form?.reset();
    void this.updateComplete.then(() => this.#form?.focusField(this.#activeChannel === 'mobile' ? 'phone' : 'code'));
  }

  #chooseChannel(channel: Channel): void {
    this.channel = channel;
    this.#form?.reset();
  }

  #renderChannels(channel: Channel) {
    const offered = this.channels.length ? this.channels : CHANNELS;
    if (offered.length < 2) return nothing;
    return html`<fieldset>
      <legend>${this.t('identify.channel')}</legend>
      <div class="channels">
        ${offered.map(
          (c) => html`<label class="channel">
            <input type="radio" name="channel" value=${c} .checked=${c === channel} @change=${() => this.#chooseChannel(c)} />
            ${this.t(`channel.${c}`)}
          </label>`,
        )}
      </div>
    </fieldset>`;
  }

  #renderForm(channel: Channel) {
    const starting = this.flow.state === 'starting';
    return html`<form novalidate @submit=${this.#onSubmit} aria-busy=${starting ? 'true' : 'false'}>
      ${this.#renderChannels(channel)}
      <esign-person-form
        .lang=${this.language}
        .theme=${this.theme}
        .strings=${this.strings}
        .channel=${channel}
        .country=${this.country}
        .countries=${this.countries}
        .code=${this.code}
        .phone=${this.phone}
        ?disabled=${starting}
        @input=${(e: Event) => this.#keepTyped(e)}
        @change=${(e: Event) => this.#keepTyped(e)}
      ></esign-person-form>
      <div class="actions">
        <button class="primary" part="submit" type="submit" ?disabled=${starting}>
          ${starting ? this.t('identify.starting') : this.t('identify.submit')}
        </button>
      </div>
    </form>`;
  }

  /** Keeps what the person typed, so nothing is lost when the form comes back. */
  #keepTyped(event: Event): void {
    const form = event.currentTarget as EsignPersonForm;
    this.code = form.code;
    this.phone = form.phone;
    this.country = form.country;
  }

  #statusMessage(): string {
    switch (this.flow.state) {
      case 'waiting':
        return this.t('status.waiting');
      case 'success':
        return this.#result ? this.t('identify.success', { name: `${this.#result.name} ${this.#result.surname}` }) : '';
      case 'error':
        return this.flow.error ? this.errorDetail(this.flow.error).message : '';
      case 'cancelled':
        return this.t('identify.cancelled');
      default:
        return '';
    }
  }

  override render() {
    const channel = this.#activeChannel;
    const state = this.flow.state;
    if (state === 'success' && this.hideSuccess) return nothing;
    const statusState = state === 'starting' ? 'idle' : state;
    return html`<section class="base" part="base">
      ${state === 'idle' || state === 'starting' ? this.#renderForm(channel) : nothing}
      ${state === 'waiting'
        ? html`<esign-control-code .lang=${this.language} .theme=${this.theme} .strings=${this.strings} .code=${this.flow.controlCode} .channel=${channel} kind="login"></esign-control-code>`
        : nothing}
      <esign-status
        .lang=${this.language}
        .theme=${this.theme}
        .strings=${this.strings}
        .state=${statusState}
        .since=${this.flow.since}
        .message=${this.#statusMessage()}
        @esign-cancel-request=${(e: Event) => {
          e.stopPropagation();
          void this.cancel();
        }}
      ></esign-status>
      ${state === 'success' ? html`<p class="done" tabindex="-1">${this.t('identify.done')}</p>` : nothing}
      ${state === 'error' || state === 'cancelled'
        ? html`<div class="actions">
            <button class="primary" part="retry" type="button" @click=${this.#retry}>${this.t('action.retry')}</button>
          </div>`
        : nothing}
    </section>`;
  }
}

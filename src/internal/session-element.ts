import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { Channel, ProxyCaller, SessionKind } from '../client/caller.js';
import type { NoBody, Operation } from '../protocol/operations.js';
import { EsignError, type EsignErrorDetail } from '../client/errors.js';
import type { Country, MessageFormat, WaitingResponse } from '../protocol/types.js';
import type { StringKey, StringPart } from '../i18n/index.js';
import type { PersonField, PersonForm, PersonValue } from './person.js';
import { EsignElement } from './base-element.js';
import { controls } from './controls.styles.js';
import { SessionFlow, type FlowStart, type FlowState } from './session-flow.js';
import type { SessionHost } from './session-host.js';
import type { SessionRuntime } from './session-runtime.js';
import { later } from './session-later-load.js';
import { sessionStyles } from './session.styles.js';
import { theme } from './theme.js';
import { afterPaint } from './after-paint.js';
import { fixedFields, type SignerPerson } from './signer.js';
import { PERSON_TIME_LIMIT } from '../protocol/time-limits.js';

export const CHANNELS: Channel[] = ['smartid', 'mobile'];

const listOf = (value: string | null): Channel[] =>
  (value ?? '').split(/[\s,]+/).filter((c): c is Channel => (CHANNELS as string[]).includes(c));

/**
 * What authentication, file signing and hash signing share: the channel choice, the person's
 * details, the control code, waiting, cancel, the end states, focus and events. Subclasses
 * add their own inputs, start their kind of session and build their result.
 */
export abstract class EsignSessionElement<Detail, Raw extends { status: string }> extends EsignElement {
  static override styles = [theme, controls, sessionStyles];

  static override properties: PropertyDeclarations = {
    channels: { converter: { fromAttribute: listOf, toAttribute: (value: Channel[]) => value.join(' ') } },
    channel: { type: String, reflect: true },
    country: { type: String },
    countries: { converter: { fromAttribute: (v: string | null) => (v ?? '').split(/[\s,]+/).filter(Boolean) } },
    message: { type: String },
    messageFormat: { type: String, attribute: 'message-format' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    timeLimit: { type: Number, attribute: 'time-limit' },
    code: { type: String },
    phone: { type: String },
    hideSuccess: { type: Boolean, attribute: 'hide-success' },
    novalidate: { type: Boolean, reflect: true },
    noResume: { type: Boolean, attribute: 'no-resume' },
    requestTimeout: { type: Number, attribute: 'request-timeout' },
  };

  /** Channels offered, in order: `smartid`, `mobile`. */
  declare channels: Channel[];
  /** The channel chosen now (preselect with the attribute). */
  declare channel: Channel;
  /**
   * The country preselected for Smart-ID. Unset (''), it follows the page's language where the
   * language names one (et: Estonia, lv: Latvia, lt: Lithuania), else Lithuania.
   */
  declare country: Country | '';
  /** Countries offered for Smart-ID. */
  declare countries: Country[];
  /** Text shown on the phone. */
  declare message: string;
  /** GSM-7 or UCS-2 (Mobile-ID); chosen from the text when unset. */
  declare messageFormat: MessageFormat | '';
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
  /**
   * As on a form: the person's fields are sent as typed and checked by the service alone, whose
   * field errors (40004 phone, 40005 code, 40001) then land on their fields.
   */
  declare novalidate: boolean;
  /**
   * Do not keep a waiting session in the tab's sessionStorage. By default a page reloaded while the
   * person confirms on their phone (a phone reloads a discarded tab) follows the same session on.
   */
  declare noResume: boolean;
  /**
   * A request's time limit, ms, on a bad network: a start past it ends in a retryable error, a
   * status poll past it (or 10 s, the shorter) is dropped and the next goes at once; a file adds
   * 10 s a megabyte. 0: 30 s.
   */
  declare requestTimeout: number;

  readonly flow = new SessionFlow(this, later);

  #client: ProxyCaller | undefined;

  /**
   * What sends operations to the proxy at the current endpoint, in the current language (its code
   * is loaded after the form is on screen).
   */
  async #caller(): Promise<ProxyCaller> {
    const { proxyClient } = await later();
    return (this.#client = proxyClient(this.#client, this.endpoint, this.language, this.requestTimeout));
  }

  /** What runs a session, once its code is loaded (after the form is on screen, or at the first start). */
  #runtime: SessionRuntime<Raw, Detail> | undefined;

  async #loadRuntime(): Promise<SessionRuntime<Raw, Detail>> {
    const { SessionRuntime } = await later();
    return (this.#runtime ??= new SessionRuntime<Raw, Detail>(this.#sessionHost()));
  }

  /** The element as its session runtime sees it: its own members, checked by the compiler. */
  #sessionHost(): SessionHost<Raw, Detail> {
    const element = this;
    return {
      element,
      controllers: element,
      flow: element.flow,
      get kind() {
        return element.kind;
      },
      get noResume() {
        return element.noResume;
      },
      get pollInterval() {
        return element.pollInterval;
      },
      get timeLimit() {
        return element.timeLimit;
      },
      get activeChannel() {
        return element.activeChannel;
      },
      get offeredChannels() {
        return element.offeredChannels;
      },
      get personForm() {
        return element.personForm;
      },
      setChannel: (channel) => {
        element.channel = channel;
      },
      keepPerson: (person) => {
        element.code = person.code;
        if (person.phone) element.phone = person.phone;
      },
      setResult: (raw) => {
        element.result = raw;
        element.requestUpdate();
      },
      caller: () => element.#caller(),
      statusOperation: (channel) => element.statusOperation(channel),
      startSession: (client, channel, person, signal) => element.startSession(client, channel, person, signal),
      completed: (raw, channel) => element.completed(raw, channel),
      recordExtra: () => element.recordExtra(),
      restoreExtra: (extra) => element.restoreExtra(extra),
      waitingSubject: () => element.waitingSubject(),
      successMessage: () => element.successMessage(),
      cancelledMessage: () => element.cancelledMessage(),
      emit: (name, detail) => element.emit(name, detail),
      errorDetail: (error) => element.errorDetail(error),
      focusLater: (selector) => element.focusLater(selector),
      focusWaiting: () => element.#focusWaiting(),
    };
  }

  protected result: Raw | undefined;
  #pending: Promise<Detail> | undefined;

  protected abstract readonly kind: SessionKind;
  /** Starts the session at the service. */
  protected abstract startSession(client: ProxyCaller, channel: Channel, person: PersonValue, signal: AbortSignal): Promise<FlowStart>;
  /** The operation that answers the status of this kind of session on a channel. */
  protected abstract statusOperation(channel: Channel): Operation<NoBody, Raw | WaitingResponse>;
  /** Builds the result detail and fires the completion event. */
  protected abstract completed(raw: Raw, channel: Channel): Detail | Promise<Detail>;
  protected abstract successMessage(): string;
  protected abstract cancelledMessage(): string;
  protected abstract submitLabel(): string;

  /** Checks the element's own inputs; throws an EsignError (`invalid-input` with a field) when one is wrong. */
  protected async checkInputs(): Promise<void> {}
  /** The element's own inputs, above the person's details. */
  protected renderInputs(): TemplateResult | typeof nothing {
    return nothing;
  }
  /** Extra content of the success state (a download, say). */
  protected renderSuccess(): TemplateResult | typeof nothing {
    return nothing;
  }
  /** The person the site fixed (a signing element's `signer`): shown, not typed. */
  protected fixedPerson(): SignerPerson | null {
    return null;
  }
  /** Countries offered for this kind of session. */
  protected offeredCountries(): Country[] {
    return this.countries;
  }

  constructor() {
    super();
    this.channels = [...CHANNELS];
    this.channel = 'smartid';
    this.country = '';
    this.countries = ['LT', 'LV', 'EE'];
    this.message = '';
    this.messageFormat = '';
    this.pollInterval = 1000;
    this.timeLimit = 0;
    this.code = '';
    this.phone = '';
    this.hideSuccess = false;
    this.novalidate = false;
    this.noResume = false;
    this.requestTimeout = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // after the frame that shows the form: the session's runtime (it hears the page's comings and
    // goings, which matter once a session waits), its words, and the tab's first sessionStorage
    // read (slow on a phone) come once the form is on screen, never before it
    void this.updateComplete.then(() =>
      afterPaint(() => {
        if (!this.isConnected) return;
        void this.#resumeIfKept().catch(() => undefined);
      }),
    );
  }

  /**
   * What the form at rest says: the form part, which comes in the element's file. An element whose
   * own inputs say more (a file to sign, a hash) adds the session part.
   */
  protected formWords: readonly StringPart[] = ['form'];

  /** At rest the form alone, drawn at once; every other state (and a message on an input) waits for its words. */
  protected override wordsNeeded(): readonly StringPart[] {
    return this.flow.state === 'idle' && !this.inputError ? this.formWords : super.wordsNeeded();
  }

  /** What this kind of element keeps beside the session to build its result after a reload. */
  protected recordExtra(): Record<string, string> | undefined {
    return undefined;
  }

  /** Takes back what {@link recordExtra} kept. */
  protected restoreExtra(_extra: Record<string, string>): void {}

  /** A session this element was waiting for when its page went away: followed on, never started again. */
  async #resumeIfKept(): Promise<void> {
    if (typeof location === 'undefined') return;
    const [runtime] = await Promise.all([this.#loadRuntime(), this.everyWord()]);
    await runtime.resumeKept();
  }

  protected get personForm(): PersonForm | null {
    return this.renderRoot.querySelector('esign-person-form');
  }

  /** The channels the person may choose from (all when the host named none). */
  protected get offeredChannels(): Channel[] {
    return this.channels.length ? this.channels : CHANNELS;
  }

  protected get activeChannel(): Channel {
    const offered = this.offeredChannels;
    return offered.includes(this.channel) ? this.channel : (offered[0] as Channel);
  }

  /**
   * The phone message and its format for Mobile-ID, checked before anything is sent. The check
   * (GSM-7's alphabet) is loaded only when a host sets a message.
   */
  protected async mobileMessage(): Promise<{ message?: string; message_format?: MessageFormat }> {
    return this.message ? (await import('./phone-message.js')).phoneMessage(this.message, this.messageFormat) : {};
  }

  /** Starts a session with the details entered; resolves with the result, rejects with an EsignError. */
  start(): Promise<Detail> {
    // the same promise until it settles: however often start is called (or pressed) before the
    // first call's first await, one session, one outcome, one event
    if (this.#pending) return this.#pending;
    const pending = this.#start().finally(() => {
      if (this.#pending === pending) this.#pending = undefined;
    });
    this.#pending = pending;
    return pending;
  }

  /** Cancels the running session (removing it at the service). */
  async cancel(): Promise<void> {
    await this.flow.cancel();
  }

  /** What is being signed, named while waiting (empty for a login). */
  protected waitingSubject(): string {
    return '';
  }

  async #start(): Promise<Detail> {
    // what a failure or an input problem says is worded outside a render: every word first
    await Promise.all([this.updateComplete, this.everyWord()]);
    const form = this.personForm;
    const channel = this.activeChannel;
    try {
      await this.checkInputs();
    } catch (error) {
      if (error instanceof EsignError && error.group === 'caller') throw await this.#setupProblem(error);
      this.#reportInputProblem(error);
      // every problem is shown at once; the focus stays on the first one (the element's own input)
      form?.validate(false);
      throw error;
    }
    if (!form || !form.validate()) {
      throw new EsignError('invalid-input', this.t('error.invalid-input'), { field: 'form' });
    }
    const person = form.value!;
    // the fields are disabled while it starts: a focus in one moves to the button (it stays enabled, said busy)
    if (form.matches(':focus-within')) this.renderRoot.querySelector<HTMLElement>('[part="submit"]')?.focus();
    // a session started before the form's first frame (by script) hears the page too: the runtime listens once loaded
    let runtime: SessionRuntime<Raw, Detail>;
    try {
      runtime = await this.#loadRuntime();
    } catch (cause) {
      throw this.#couldNotLoad(cause);
    }
    return runtime.run(person, channel);
  }

  /**
   * The site's own setup is wrong (a hash it gave, say): an end the person cannot change, said as
   * a failure with the event, the developer's words in the console; nothing was sent.
   */
  async #setupProblem(error: EsignError): Promise<EsignError> {
    await this.#loadRuntime().catch(() => undefined);
    this.flow.fail(error);
    this.emit('esign-error', this.errorDetail(error));
    console.warn(`esign-elements: ${error.code}: ${error.message}`);
    void this.focusLater('esign-status');
    return error;
  }

  /** The session's code could not be loaded: said plainly, with Try again; nothing was sent. */
  #couldNotLoad(cause: unknown): EsignError {
    const error = new EsignError('unknown', String(cause), { cause });
    this.flow.fail(error);
    this.emit('esign-error', this.errorDetail(error));
    void this.focusLater('[part="retry"]');
    // the status may still come (a file of its own): then it says the failure, and the words in its place go
    if (!customElements.get('esign-status')) void customElements.whenDefined('esign-status').then(() => this.requestUpdate());
    return error;
  }

  /** A failure in the words of its code, or of what this session knows more (see below). */
  protected override errorDetail(error: unknown): EsignErrorDetail {
    const detail = super.errorDetail(error);
    const words = this.#ownWords(detail);
    if (!words) return detail;
    const message = this.t(...words);
    return { ...detail, message: this.errorMessage?.({ ...detail, message }, this.language) ?? message };
  }

  /**
   * Where a session knows more than the code: a start that got no answer may still have reached
   * the service; Smart-ID's refusal covers a person who declined and one who chose another code.
   */
  #ownWords(detail: EsignErrorDetail): [StringKey, Record<string, string>?] | null {
    if (detail.code === 'timeout' && !this.flow.token) return ['error.start-timeout'];
    if (detail.code === 'refused' && this.flow.channel === 'smartid') return ['error.refused.smartid'];
    // no account: for which method and in which country, so a wrong country is seen at once
    if (detail.code === 'not-a-user') {
      const channel = this.flow.channel;
      return ['error.not-a-user', { channel: this.t(`channel.${channel}`), country: this.t(`country.${this.#sessionCountry(channel)}`) }];
    }
    return null;
  }

  /** The country the person's session was for: Mobile-ID's by the phone's prefix, Smart-ID's as chosen. */
  #sessionCountry(channel: Channel): Country {
    const fixed = this.fixedPerson();
    if (channel === 'mobile') return (fixed?.phone ?? this.phone).replace(/[\s-]/g, '').startsWith('+372') ? 'EE' : 'LT';
    return fixed?.country ?? this.#chosenCountry();
  }

  /** The Smart-ID country in the form: the host's or the person's choice, else the page language's, among those offered. */
  #chosenCountry(): Country {
    const countries = this.offeredCountries();
    const country = this.country || countryOfLanguage(this.language);
    return countries.includes(country) ? country : (countries[0] as Country);
  }

  /** The host shows its own success content (slot `success`): the status then takes the focus. */
  get #hostSuccess(): boolean {
    return this.querySelector('[slot="success"]') !== null;
  }

  /** An input problem found before sending: said by the element, no event (nothing failed yet). */
  #reportInputProblem(error: unknown): void {
    // the element's own checks already speak the person's language
    this.inputError = error instanceof EsignError && error.code === 'invalid-input' ? error.message : this.errorDetail(error).message;
    this.requestUpdate();
  }

  /** The words of an input problem of the element's own inputs, shown beside them. */
  protected inputError = '';

  protected async focusLater(selector: string): Promise<void> {
    await this.updateComplete;
    const target = this.renderRoot.querySelector<HTMLElement>(selector);
    if (this.flow.state !== 'error' && this.flow.state !== 'cancelled') {
      target?.focus();
      return;
    }
    // an end: what it says comes into view first (at 400% zoom the words and the action below them
    // may not fit together), then the focused action too where both fit
    target?.focus({ preventScroll: true });
    const status = this.renderRoot.querySelector('esign-status');
    if (!status) return;
    const box = status.getBoundingClientRect();
    status.scrollIntoView({ block: box.height > innerHeight ? 'start' : 'nearest' });
    if (target && target !== status && target.getBoundingClientRect().bottom - status.getBoundingClientRect().top <= innerHeight) target.scrollIntoView({ block: 'nearest' });
  }

  /**
   * The focus on the waiting status (a screen reader says it), without scrolling to it: the page
   * scrolls to the control code instead, which the person compares with their phone and which
   * sits above the status (at 400% zoom the two do not fit on the screen together).
   */
  async #focusWaiting(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('esign-status')?.focus({ preventScroll: true });
    this.renderRoot.querySelector('esign-control-code')?.scrollIntoView({ block: 'nearest' });
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    this.start().catch(() => undefined);
  }

  /** Back to the form on the other channel (after a failure that channel may not meet). */
  #switchTo(channel: Channel): void {
    this.channel = channel;
    this.#retry();
  }

  /** Back to the form after an end state, the focus on the field to check first. */
  #retry(field?: PersonField): void {
    this.#runtime?.reset();
    this.flow.reset();
    this.personForm?.reset();
    void this.updateComplete.then(() => {
      // every field set by the site: the focus on the button that starts again
      if (!this.personForm?.focusField(field ?? (this.activeChannel === 'mobile' ? 'phone' : 'code'))) this.renderRoot.querySelector<HTMLElement>('[part="submit"]')?.focus();
    });
  }

  /** No Smart-ID account in the country chosen, where the person may choose another: changing it may help. */
  #countryMayHelp(): boolean {
    const error = this.flow.error;
    return this.flow.state === 'error' && error?.code === 'not-a-user' && this.flow.channel === 'smartid' && !this.fixedPerson()?.country && this.offeredCountries().length > 1;
  }

  #chooseChannel(channel: Channel): void {
    this.channel = channel;
    this.personForm?.reset();
  }

  /** Keeps what the person typed, so nothing is lost when the form comes back. */
  #keepTyped(event: Event): void {
    const form = event.currentTarget as PersonForm;
    this.code = form.code;
    this.phone = form.phone;
    this.country = form.country;
  }

  /** The connection as last drawn: a line that just said "lost" is brought into view. */
  #connectionShown: '' | 'lost' | 'back' = '';

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const connection = this.flow.state === 'waiting' ? this.flow.connection : '';
    if (connection === 'lost' && this.#connectionShown !== 'lost') this.renderRoot.querySelector('[part="connection"]')?.scrollIntoView({ block: 'nearest' });
    this.#connectionShown = connection;
    // the attribute renders on the server; the live state follows a channel set after the person chose
    const channel = this.activeChannel;
    for (const radio of this.renderRoot.querySelectorAll<HTMLInputElement>('input[name="channel"]')) radio.checked = radio.value === channel;
  }

  #renderChannels(channel: Channel) {
    const offered = this.offeredChannels;
    if (offered.length < 2) return nothing;
    return html`<fieldset>
      <legend>${this.t(this.kind === 'login' ? 'identify.channel' : 'sign.channel')}</legend>
      <div class="channels">
        ${offered.map(
          (c) => html`<label class="channel">
            <input type="radio" name="channel" value=${c} ?checked=${c === channel} @change=${() => this.#chooseChannel(c)} />
            ${this.t(`channel.${c}`)}
          </label>`,
        )}
      </div>
    </fieldset>`;
  }

  #renderForm(channel: Channel) {
    const starting = this.flow.state === 'starting';
    const countries = this.offeredCountries();
    const fixed = this.fixedPerson();
    return html`<form novalidate @submit=${this.#onSubmit} aria-busy=${starting ? 'true' : 'false'}>
      ${this.renderInputs()} ${this.#renderChannels(channel)}
      <esign-person-form
        .lang=${this.language}
        .theme=${this.theme}
        .strings=${this.strings}
        .channel=${channel}
        .country=${fixed?.country ?? this.#chosenCountry()}
        .countries=${fixed?.country ? [fixed.country] : countries}
        .code=${fixed?.code ?? this.code}
        .phone=${fixed?.phone ?? this.phone}
        .fixed=${fixedFields(fixed)}
        ?disabled=${starting}
        ?novalidate=${this.novalidate}
        exportparts="field, input, error"
        @input=${(e: Event) => this.#keepTyped(e)}
        @change=${(e: Event) => this.#keepTyped(e)}
      ></esign-person-form>
      <div class="actions">
        <button class="primary" part="submit" type="submit" aria-disabled=${starting ? 'true' : 'false'}>
          ${starting ? this.t('identify.starting') : this.submitLabel()}
        </button>
      </div>
      <p class="visually-hidden" role="status">${starting ? this.t('identify.starting') : nothing}</p>
    </form>`;
  }

  /**
   * What the status says: nothing at rest; the words of the session's code once it runs (every
   * other state comes after it loaded), or plainly the failure when that code could not be loaded.
   */
  #statusWords(state: FlowState): { heading: string; detail: string; spoken?: string } {
    if (state === 'idle' || state === 'starting') return { heading: '', detail: '' };
    if (this.#runtime) return this.#runtime.statusWords();
    return {
      heading: this.t(this.kind === 'login' ? 'identify.failed' : 'sign.failed'),
      detail: this.flow.error ? this.errorDetail(this.flow.error).message : '',
    };
  }

  /**
   * After a failure or a cancel: what can help, and the words themselves should the status element
   * (defined with the session's code) be missing because that code could not be loaded.
   */
  #renderEnd(words: { heading: string; detail: string }) {
    const said = customElements.get('esign-status') ? nothing : html`<p role="alert">${words.heading}. ${words.detail}</p>`;
    return html`${said}${this.#renderActions()}`;
  }

  /**
   * What can help after a failure or a cancel, as the session runtime chooses (Try again when it
   * could not be loaded): the other channel, trying again or changing the details, or while a
   * rate limit lasts the time left instead.
   */
  #renderActions() {
    const { other, retryable, wait, deadEnd } = this.#runtime?.endChoices() ?? { other: null, retryable: true, wait: undefined, deadEnd: false };
    const country = this.#countryMayHelp();
    // nothing that can help: no empty row of actions under the words either
    if (deadEnd && !other && !wait) return nothing;
    return html`<div class="actions">
      ${other
        ? html`<button class="primary" part="other-channel" type="button" @click=${() => this.#switchTo(other)}>
            ${this.t('action.use-channel', { channel: this.t(`channel.${other}`) })}
          </button>`
        : nothing}
      ${wait
        ? html`<p class="wait" part="retry-wait" role="status" tabindex="-1">${wait}</p>`
        : deadEnd
          ? nothing
          : html`<button class=${other ? 'secondary' : 'primary'} part="retry" type="button" @click=${() => this.#retry(country ? 'country' : undefined)}>
              ${this.t(country ? 'action.change-country' : retryable ? 'action.retry' : 'action.edit')}
            </button>`}
    </div>`;
  }

  /** When the person's time to confirm ends: the provider's limit, or the host's shorter one. */
  #deadline(): number {
    const limit = Math.min(PERSON_TIME_LIMIT[this.flow.channel], this.timeLimit > 0 ? this.timeLimit : Infinity);
    return this.flow.since ? this.flow.since + limit : 0;
  }

  /** Lost: said with the time by which to confirm (a clock time, which stays true as the seconds pass). */
  #connectionWords(): string {
    if (this.flow.connection !== 'lost') return this.t('session.online');
    const time = new Date(this.#deadline()).toLocaleTimeString(this.language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    return this.t('session.offline', { time });
  }

  override render() {
    const channel = this.activeChannel;
    const state = this.flow.state;
    if (state === 'success' && this.hideSuccess) return nothing;
    const words = this.#statusWords(state);
    return html`<section class="base" part="base">
      ${state === 'idle' || state === 'starting' ? this.#renderForm(channel) : nothing}
      ${state === 'waiting'
        ? html`<esign-control-code
            .lang=${this.language}
            .theme=${this.theme}
            .strings=${this.strings}
            .code=${this.flow.controlCode}
            .channel=${channel}
            .kind=${this.kind === 'login' ? 'login' : 'sign'}
            exportparts="code, instruction"
          ></esign-control-code>`
        : nothing}
      ${state === 'waiting'
        ? html`<p class="connection ${this.flow.connection}" part="connection" role="status">${this.flow.connection ? this.#connectionWords() : nothing}</p>`
        : nothing}
      <esign-status
        .lang=${this.language}
        .theme=${this.theme}
        .strings=${this.strings}
        .state=${state === 'starting' ? 'idle' : state}
        .since=${this.flow.since}
        .until=${state === 'waiting' ? this.#deadline() : 0}
        .quiet=${(state === 'waiting' && !this.#runtime?.cameBack) || (state === 'success' && this.#hostSuccess)}
        .message=${words.heading}
        .detail=${words.detail}
        .spokenDetail=${words.spoken ?? ''}
        exportparts="status, cancel"
        @esign-cancel-request=${(e: Event) => {
          e.stopPropagation();
          void this.cancel();
        }}
      ></esign-status>
      ${state === 'success'
        ? html`<slot name="success"><p class="done" tabindex="-1">${this.t(this.kind === 'login' ? 'identify.done' : `${this.kind}.done`)}</p>${this.renderSuccess()}</slot>`
        : nothing}
      ${state === 'error' || state === 'cancelled' ? this.#renderEnd(words) : nothing}
    </section>`;
  }
}

/** The country a page's language names, for the Smart-ID country at rest: Lithuania for any other. */
function countryOfLanguage(language: string): Country {
  return language === 'et' ? 'EE' : language === 'lv' ? 'LV' : 'LT';
}

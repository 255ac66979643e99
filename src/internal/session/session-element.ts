import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { StatusAnswers } from '../../protocol/operations.js';
import { EsignError, type EsignErrorDetail } from '../../client/errors.js';
import { CHANNELS, COUNTRIES, type Channel, type Country, type MessageFormat, type SessionKind } from '../../protocol/types.js';
import type { StringKey, StringPart } from '../../i18n/index.js';
import type { PersonField, PersonForm } from '../data/person.js';
import { EsignSessionSettings } from './session-settings.js';
import { controls } from '../element/controls.styles.js';
import type { ByState, EndChoices, SessionSpec, SessionState, StartRequest } from './session-controller.js';
import { SessionHandle } from './session-handle.js';
import { loadOnce } from '../element/load-once.js';
import { defineLater } from '../element/define.js';
import { sessionStyles } from './session.styles.js';
import { focusWaiting, focusWhenDrawn } from './session-focus.js';
import { renderEndActions, type EndFix } from './session-end-actions.js';
import { chosenCountry, sessionCountry } from './session-country.js';
import { checkChosenChannel, renderChannelChoice } from './session-channels.js';
import { DETAIL_SEPARATOR, NO_WORDS, connectionWords, failedHeading, waitingWords, type StatusWords } from './session-words.js';
import { theme } from '../element/theme.js';
import { afterPaint } from '../element/after-paint.js';
import { readRemembered, writeRemembered } from './remembered.js';
import { fixedFields, type SignerPerson } from '../documents/signer.js';
import { firstOf, isOneOf } from '../../protocol/checks.js';

/** What the success state says, by the kind of session. */
const DONE_WORDS = { login: 'identify.done', sign: 'sign.done', hash: 'hash.done' } as const satisfies Record<SessionKind, StringKey>;

/** The session's controller (session-controller.ts), loaded once for every session element of the page. */
const loadController = loadOnce(() => import('./session-controller.js').then((module) => module.SessionController));

/**
 * What authentication, file signing and hash signing share: the channel choice, the person's
 * details, the control code, waiting, cancel, the end states, focus and events. Subclasses
 * add their own inputs, start their kind of session and build their result.
 */
export abstract class EsignSessionElement<Detail, K extends SessionKind> extends EsignSessionSettings {
  static override styles = [theme, controls, sessionStyles];

  /** The session: its controller once the code came (after the form is on screen, or at the first start), or the failure to load it. */
  readonly #session = new SessionHandle<K, Detail>(
    async () => {
      // with the children the element declared for later (an element's own file may leave out what shows nothing before a session)
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the class of this very instance
      const [Controller] = await Promise.all([loadController(), defineLater(this.constructor as CustomElementConstructor)]);
      return () => new Controller<K, Detail>(this, { ...this.session, describe: (error) => this.errorDetail(error) });
    },
    (error) => this.#couldNotLoad(error),
  );

  /** Where the session is: the form until its code is loaded, a failure when it could not be. */
  get #state(): SessionState {
    return this.#session.state;
  }

  /** The answer of the session that ended well. */
  protected get result(): StatusAnswers[K] | undefined {
    return this.#session.controller?.result;
  }

  /** This kind of session: how it starts and what its finished answer means. */
  protected abstract readonly session: SessionSpec<K, Detail>;
  protected abstract successMessage(): string;
  protected abstract cancelledMessage(): string;
  protected abstract submitLabel(): string;

  /** Checks the element's own inputs; throws an EsignError (`invalid-input` with a field) when one is wrong. */
  protected async checkInputs(): Promise<void> {}
  /** The element's own inputs, above the person's details. */
  protected renderInputs(): TemplateResult | typeof nothing {
    return nothing;
  }
  /** What was being signed, kept above the words of a failure or a cancel ("what was I signing?"). */
  protected renderEndSubject(): TemplateResult | typeof nothing {
    return nothing;
  }
  /** Under the success heading: what the person should know of the result (a signature's level and time, say). */
  protected successDetail(): string {
    return '';
  }
  /** Extra content of the success state (a download, say). */
  protected renderSuccess(): TemplateResult | typeof nothing {
    return nothing;
  }
  /** The person the site fixed (a signing element's `signer`): shown, not typed. */
  protected fixedPerson(): SignerPerson | null {
    return null;
  }
  /** Countries offered for this kind of session: the host's that exist, or all of them when it lists none. */
  protected offeredCountries(): Country[] {
    const known = this.countries.filter((country) => isOneOf(COUNTRIES, country));
    return known.length ? known : [...COUNTRIES];
  }

  override connectedCallback(): void {
    // what the host chose, before a first update reflects the channel into its attribute
    this.#hostChose ??= { channel: this.hasAttribute('channel') || this.channel !== 'smartid', country: this.country !== '' };
    super.connectedCallback();
    // after the frame that shows the form: the session's controller (it hears the page's comings
    // and goings, which matter once a session waits), its words, and the tab's first sessionStorage
    // read (slow on a phone) come once the form is on screen, never before it
    void this.updateComplete.then(() =>
      afterPaint(() => {
        if (this.isConnected) void this.#resumeIfKept().catch(() => undefined);
      }),
    );
  }

  /** Whether the host set the channel and the country itself (then nothing remembered replaces them). */
  #hostChose: { channel: boolean; country: boolean } | undefined;

  /** The method and country that ended well last time here, where the host chose nothing and the person has not begun. */
  #preselectRemembered(): void {
    if (this.noRemember || this.#state !== 'idle' || this.code || this.matches(':focus-within')) return;
    const remembered = readRemembered();
    if (!remembered) return;
    // the country first: which methods are offered follows it (no Mobile-ID in Latvia)
    if (!this.#hostChose?.country && this.offeredCountries().includes(remembered.country)) this.country = remembered.country;
    if (!this.#hostChose?.channel && this.offeredChannels.includes(remembered.channel)) this.channel = remembered.channel;
  }

  /**
   * What the form at rest says: the form part, which comes in the element's file. An element whose
   * own inputs say more (a file to sign, a hash) adds the session part.
   */
  protected formWords: readonly StringPart[] = ['form'];

  /** At rest the form alone, drawn at once; every other state (and a message on an input) waits for its words. */
  protected override wordsNeeded(): readonly StringPart[] {
    return this.#state === 'idle' && !this.inputError ? this.formWords : super.wordsNeeded();
  }

  /** A session this element was waiting for when its page went away: followed on, never started again. */
  async #resumeIfKept(): Promise<void> {
    if (typeof location === 'undefined') return;
    const [session] = await Promise.all([this.#session.loaded(), this.everyWord()]);
    // the page's storage read once the session's code came, as the kept session's: never in the frames that show the form
    this.#preselectRemembered();
    await session.resumeKept();
  }

  /** A session is starting: the element's own inputs stay as they are until it waits or ends. */
  protected get starting(): boolean {
    return this.#state === 'starting';
  }

  protected get personForm(): PersonForm | null {
    return this.renderRoot.querySelector('esign-person-form');
  }

  /**
   * The channels the person may choose from (all when the host named none), among those that can
   * serve the country: Mobile-ID exists in Lithuania and Estonia only, so it is not offered for a
   * Latvian person (unless it is all the host offers).
   */
  protected get offeredChannels(): readonly Channel[] {
    const listed = this.channels.length ? this.channels : CHANNELS;
    const serving = listed.filter((channel) => channel !== 'mobile' || this.#mobileMayServe());
    return serving.length ? serving : listed;
  }

  /** Whether Mobile-ID can serve the person: not in Latvia, where it does not exist. */
  #mobileMayServe(): boolean {
    return (this.fixedPerson()?.country ?? this.#chosenCountry()) !== 'LV';
  }

  protected get activeChannel(): Channel {
    const offered = this.offeredChannels;
    return offered.includes(this.channel) ? this.channel : firstOf(offered);
  }

  /**
   * The phone message and its format for Mobile-ID, checked before anything is sent. The check
   * (GSM-7's alphabet) is loaded only when a host sets a message.
   */
  protected async mobileMessage(): Promise<{ message?: string; message_format?: MessageFormat }> {
    return this.message ? (await import('./phone-message.js')).phoneMessage(this.message, this.messageFormat) : {};
  }

  /**
   * Starts a session with the details entered; resolves with the result, rejects with an
   * EsignError. However often it is called (or submit pressed) while one runs: that one.
   */
  start(): Promise<Detail> {
    return this.#session.start(this.#prepare);
  }

  /** Cancels the running session (removing it at the service). */
  async cancel(): Promise<void> {
    await this.#session.controller?.cancel();
  }

  /**
   * The person and the channel of a start, once every input is checked: an input problem is shown
   * here and thrown (nothing is sent); the site's own setup problem is thrown for the controller to end on.
   */
  #prepare = async (): Promise<StartRequest> => {
    // what a failure or an input problem says is worded outside a render: every word first
    await Promise.all([this.updateComplete, this.everyWord()]);
    const form = this.personForm;
    const channel = this.activeChannel;
    try {
      await this.checkInputs();
    } catch (error) {
      if (!(error instanceof EsignError && error.group === 'caller')) {
        this.#reportInputProblem(error);
        // every problem is shown at once; the focus stays on the first one (the element's own input)
        form?.validate(false);
      }
      throw error;
    }
    const person = form?.validate() ? form.value : null;
    if (!person) throw new EsignError('invalid-input', this.t('error.invalid-input'), { field: 'form' });
    // kept for the form when it comes back
    this.code = person.code;
    if (person.phone) this.phone = person.phone;
    // the fields are disabled while it starts: a focus in one moves to the button (it stays enabled, said busy)
    if (form?.matches(':focus-within')) this.renderRoot.querySelector<HTMLElement>('[part="submit"]')?.focus();
    return { person, channel };
  };

  /** The session's code could not be loaded: said plainly (once), with Try again; nothing was sent. */
  #couldNotLoad(error: EsignError): void {
    this.emit('esign-error', this.errorDetail(error));
    this.requestUpdate();
    // the status may still come (a file of its own): then it says the failure, and the words in its place go
    if (!customElements.get('esign-status')) void customElements.whenDefined('esign-status').then(() => this.requestUpdate());
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
    // the session's channel once it started (the host may set another for the next one), else the one chosen
    const channel = this.#session.controller?.channel ?? this.activeChannel;
    if (detail.code === 'timeout' && !this.#session.controller?.token) return ['error.start-timeout'];
    if (detail.code === 'refused' && channel === 'smartid') return ['error.refused.smartid'];
    // the product people know by name, not "the identity provider"
    if (detail.code === 'provider-error') return ['error.provider-error.channel', { channel: this.t(`channel.${channel}`) }];
    // no account: for which method and in which country, so a wrong country is seen at once
    if (detail.code === 'not-a-user')
      return [
        'error.not-a-user',
        { channel: this.t(`channel.${channel}`), country: this.t(`country.${sessionCountry(channel, this.fixedPerson(), this.phone, this.#chosenCountry())}`) },
      ];
    return null;
  }

  #chosenCountry(): Country {
    return chosenCountry(this.country, this.language, this.offeredCountries());
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

  /** Once drawn: the focus on what `selector` finds (at an end, its words come into view first). */
  protected focusLater(selector: string): Promise<void> {
    const state = this.#state;
    return focusWhenDrawn(this, selector, state === 'error' || state === 'cancelled');
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

  /** Back to the form after an end state, the focus on the field to check first (the file's picker when the file is what failed). */
  #retry(field?: PersonField | 'file'): void {
    this.#session.reset();
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const picker = field === 'file' ? this.renderRoot.querySelector<HTMLElement>('[part="pick"]') : null;
      if (picker) return picker.focus();
      // every field set by the site: the focus on the button that starts again
      if (!this.personForm?.focusField(field === 'file' || !field ? (this.activeChannel === 'mobile' ? 'phone' : 'code') : field))
        this.renderRoot.querySelector<HTMLElement>('[part="submit"]')?.focus();
    });
  }

  /** What the person may change to get on after a failure: the country, the file, or nothing in particular. */
  #fix(): EndFix {
    if (this.#countryMayHelp()) return 'country';
    return this.#fileFailed() && this.filesMayChange() ? 'file' : null;
  }

  /** While a session starts: what its busy button says, and what a screen reader is told. */
  protected startingWords(): { button: string; said: string } {
    const words = this.t('identify.starting');
    return { button: words, said: words };
  }

  /** Whether the person chose the files here (and may choose others): the signing element's, unless the host set them. */
  protected filesMayChange(): boolean {
    return false;
  }

  /** The file failed: one the service cannot read, or too large for it. */
  #fileFailed(): boolean {
    const code = this.#state === 'error' ? this.#session.error?.code : undefined;
    return code === 'document-corrupted' || code === 'request-too-large';
  }

  /** No Smart-ID account in the country chosen, where the person may choose another: changing it may help. */
  #countryMayHelp(): boolean {
    const session = this.#session.controller;
    return (
      session?.state === 'error' &&
      session.error?.code === 'not-a-user' &&
      session.channel === 'smartid' &&
      !this.fixedPerson()?.country &&
      this.offeredCountries().length > 1
    );
  }

  #chooseChannel(channel: Channel): void {
    this.channel = channel;
    this.personForm?.reset();
  }

  /** Keeps what the person typed, so nothing is lost when the form comes back. */
  #keepTyped(event: Event): void {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the listener sits on that element
    const form = event.currentTarget as PersonForm;
    const before = this.offeredChannels;
    this.code = form.code;
    this.phone = form.phone;
    this.country = form.country;
    // a method that appears above the field the person is on (Mobile-ID, a country changed to one that has it) is said, once
    const added = this.offeredChannels.filter((channel) => !before.includes(channel));
    this.#channelsNote = added.length ? this.t('form.channel-added', { channel: added.map((channel) => this.t(`channel.${channel}`)).join(', ') }) : '';
  }

  /** That a method was added to the choice by the person's own change, said once in the form's status line. */
  #channelsNote = '';

  /** The state and the connection as last drawn: a new state moves the focus, a line that just said "lost" comes into view. */
  #drawn: SessionState = 'idle';
  #lostShown = false;

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const state = this.#state;
    if (state !== this.#drawn) {
      this.#drawn = state;
      this.#session.render(this.#views).focus?.();
    }
    const lost = state === 'waiting' && this.#session.controller?.connection === 'lost';
    if (lost && !this.#lostShown) this.renderRoot.querySelector('[part="connection"]')?.scrollIntoView({ block: 'nearest' });
    this.#lostShown = lost;
    checkChosenChannel(this.renderRoot, this.activeChannel);
  }

  #renderForm(channel: Channel, starting: boolean) {
    const countries = this.offeredCountries();
    const fixed = this.fixedPerson();
    return html`<form novalidate @submit=${this.#onSubmit} aria-busy=${starting ? 'true' : 'false'}>
      ${this.renderInputs()}
      ${renderChannelChoice(this.t.bind(this), this.session.kind === 'login' ? 'identify.channel' : 'sign.channel', this.offeredChannels, channel, (chosen) => this.#chooseChannel(chosen))}
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
        <button class=${starting ? 'primary busy' : 'primary'} part="submit" type="submit" aria-disabled=${starting ? 'true' : 'false'}>
          ${starting ? html`<span class="busy-ring" aria-hidden="true"></span>${this.startingWords().button}` : this.submitLabel()}
        </button>
      </div>
      <p class="visually-hidden" role="status">${starting ? this.startingWords().said : this.#channelsNote || nothing}</p>
    </form>`;
  }

  /**
   * Each state in one place: what it draws above and below the status, what the status says, and
   * where the focus goes once the state is drawn (`render` and `updated` pick the entry of the
   * state the session is in).
   */
  readonly #views: ByState<StateView> = {
    idle: {
      above: () => this.#renderForm(this.activeChannel, false),
      // a field the service refused: the form is back, the service's words on that field
      focus: () => this.#showRefusedField(),
    },
    starting: { above: () => this.#renderForm(this.activeChannel, true) },
    waiting: {
      above: () => this.#renderWaiting(),
      words: () => this.#waitingWords(),
      focus: () => void focusWaiting(this),
    },
    success: {
      words: () => this.#successWords(),
      below: () => html`<slot name="success"><p class="done" tabindex="-1">${this.t(DONE_WORDS[this.session.kind])}</p>${this.renderSuccess()}</slot>`,
      focus: () => this.#succeeded(),
    },
    error: {
      above: () => this.renderEndSubject(),
      words: () => this.#failureWords(),
      below: (words) => this.#renderEnd(words),
      focus: () => void this.focusLater(this.#helpAfterFailure()),
    },
    cancelled: {
      above: () => this.renderEndSubject(),
      words: () => ({ heading: this.cancelledMessage(), detail: '' }),
      below: (words) => this.#renderEnd(words),
      focus: () => void this.focusLater('[part="retry"]'),
    },
  };

  #showRefusedField(): void {
    const field = this.#session.controller?.fieldError;
    if (field)
      this.personForm?.setFieldError(field, this.t(field === 'phone' ? 'form.phone.service' : field === 'code' ? 'form.code.service' : 'form.country.service'));
  }

  /** The success drawn: its method and country remembered for next time here (also of a session followed on after a reload), the focus on it. */
  #succeeded(): void {
    const session = this.#session.controller;
    if (!this.noRemember && session?.country) writeRemembered({ channel: session.channel, country: session.country });
    void this.focusLater(this.#hostSuccess ? 'esign-status' : '.done');
  }

  /** What can help after a failure, to focus: the time left, the fix, another method (the country first, where it may have been the wrong one), the words at a dead end, else Try again. */
  #helpAfterFailure(): string {
    const { wait, other, deadEnd, elsewhere } = this.#endChoices();
    if (wait) return '[part="retry-wait"]';
    if (this.#fix()) return '[part="retry"]';
    if (other) return '[part="other-channel"]';
    return deadEnd || elsewhere ? 'esign-status' : '[part="retry"]';
  }

  /** The control code, and the connection line while it is said. */
  #renderWaiting() {
    const waiting = this.#session.controller;
    if (!waiting) return nothing;
    const hash = this.session.kind === 'hash';
    return html`<esign-control-code
        .lang=${this.language}
        .theme=${this.theme}
        .strings=${this.strings}
        .code=${waiting.controlCode}
        .channel=${waiting.channel}
        .kind=${this.session.kind === 'login' ? 'login' : 'sign'}
        .until=${waiting.deadline}
        .subject=${hash ? waiting.subject : ''}
        exportparts=${hash ? 'code, instruction, warning, confirming' : 'code, instruction, warning'}
      ></esign-control-code>
      <p class="connection ${waiting.connection}" part="connection" role="status">${waiting.connection ? connectionWords(this.t.bind(this), this.language, waiting.connection === 'lost', waiting.deadline) : nothing}</p>`;
  }

  /** Waiting: the method, the person and what is signed, quiet (the control code is what is said) unless the person came back. */
  #waitingWords(): StatusWords {
    const session = this.#session.controller;
    if (!session) return NO_WORDS;
    // a hash signing's subject stands beside the code (what is confirmed), not in the small print below
    const shown = this.session.kind === 'hash' ? { channel: session.channel, who: session.who, subject: '', cameBack: session.cameBack } : session;
    return { ...waitingWords(this.t.bind(this), this.session.kind, shown), quiet: !session.cameBack };
  }

  #successWords(): StatusWords {
    if (!this.result) return NO_WORDS;
    const detail = this.successDetail();
    // said as a list, not with its dots; quiet where the host shows its own success (the status has the focus)
    return {
      heading: this.successMessage(),
      detail,
      quiet: this.#hostSuccess,
      ...(detail.includes(DETAIL_SEPARATOR) ? { spoken: detail.split(DETAIL_SEPARATOR).join(', ') } : {}),
    };
  }

  #failureWords(): StatusWords {
    const t = this.t.bind(this);
    const error = this.#session.error;
    // after a rate limit the time left is said once, in its own line (the end choices), never here
    const message = this.#session.controller?.expired
      ? t('status.resume-expired')
      : error?.code === 'rate-limited'
        ? t('status.too-many')
        : error
          ? this.errorDetail(error).message
          : '';
    return { heading: failedHeading(t, this.session.kind), detail: message };
  }

  /** What can help after a failure or a cancel, as the controller sees it (Try again when its code could not be loaded). */
  #endChoices(): EndChoices {
    const choices = this.#session.controller?.endChoices() ?? { other: null, retryable: true, wait: undefined, deadEnd: false, elsewhere: false };
    // a file the site gave that the service cannot use: nothing the person changes or retries helps
    if (this.#fileFailed() && !this.filesMayChange()) return { ...choices, other: null, retryable: false, deadEnd: true };
    // never the way to a method that cannot serve the person's country
    return choices.other && !this.offeredChannels.includes(choices.other) ? { ...choices, other: null } : choices;
  }

  /**
   * After a failure or a cancel: what can help, and the words themselves should the status element
   * (defined with the session's code) be missing because that code could not be loaded.
   */
  #renderEnd(words: StatusWords) {
    const said = customElements.get('esign-status') ? nothing : html`<p role="alert">${words.heading}. ${words.detail}</p>`;
    const actions = { switchTo: (channel: Channel) => this.#switchTo(channel), retry: (fix: EndFix) => this.#retry(fix ?? undefined) };
    return html`${said}${renderEndActions(this.t.bind(this), this.#endChoices(), this.#fix(), actions)}`;
  }

  /** The waiting state's cancel button: what it ends (an element on a page that has its own way back names it closer). */
  protected cancelLabel(): string {
    return this.t('action.cancel');
  }

  override render() {
    const state = this.#state;
    if (state === 'success' && this.hideSuccess) return nothing;
    const view = this.#session.render(this.#views);
    const words = view.words?.() ?? NO_WORDS;
    const session = this.#session.controller;
    return html`<section class="base" part="base">
      ${view.above?.() ?? nothing}
      <esign-status
        .lang=${this.language}
        .theme=${this.theme}
        .strings=${this.strings}
        .state=${state === 'starting' ? 'idle' : state}
        .since=${session?.since ?? 0}
        .until=${state === 'waiting' ? (session?.deadline ?? 0) : 0}
        .quiet=${words.quiet ?? false}
        .message=${words.heading}
        .detail=${words.detail}
        .spokenDetail=${words.spoken ?? ''}
        .cancelLabel=${this.cancelLabel()}
        exportparts="status, cancel"
        @esign-cancel-request=${(e: Event) => {
          e.stopPropagation();
          void this.cancel();
        }}
      ></esign-status>
      ${view.below?.(words) ?? nothing}
    </section>`;
  }
}

/** One state of a session element: what it draws above and below the status, the status's words, and where the focus goes once drawn. */
interface StateView {
  above?: () => TemplateResult | typeof nothing;
  words?: () => StatusWords;
  below?: (words: StatusWords) => TemplateResult | typeof nothing;
  focus?: () => void;
}

import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { StatusAnswers } from '../../protocol/operations.js';
import { EsignError, type EsignErrorDetail } from '../../client/errors.js';
import { CHANNELS, COUNTRIES, type Channel, type Country, type MessageFormat, type SessionKind } from '../../protocol/types.js';
import type { StringKey, StringPart } from '../../i18n/index.js';
import type { PersonField, PersonForm } from '../data/person.js';
import { EsignSessionSettings } from './session-settings.js';
import { controls } from '../element/controls.styles.js';
import type { EndChoices, SessionController, SessionSpec, SessionState, StartRequest } from './session-controller.js';
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

/** How long "the connection is back" stays on screen, ms: it was said as it came. */
const BACK_SHOWN_MS = 5_000;

/** The session's controller (session-controller.ts), loaded once for every session element of the page. */
const loadController = loadOnce(() => import('./session-controller.js').then((module) => module.SessionController));

/**
 * What authentication, file signing and hash signing share: the channel choice, the person's
 * details, the control code, waiting, cancel, the end states, focus and events. Subclasses
 * add their own inputs, start their kind of session and build their result.
 */
export abstract class EsignSessionElement<Detail, K extends SessionKind> extends EsignSessionSettings {
  static override styles = [theme, controls, sessionStyles];

  /** The session's controller, once its code is loaded (after the form is on screen, or at the first start). */
  #session: SessionController<K, Detail> | undefined;
  /** The session's code could not be loaded: said as a failure, with Try again. */
  #loadFailure: EsignError | undefined;

  async #controller(): Promise<SessionController<K, Detail>> {
    if (this.#session) return this.#session;
    // with the children the element declared for later (an element's own file may leave out what shows nothing before a session)
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the class of this very instance
    const [Controller] = await Promise.all([loadController(), defineLater(this.constructor as CustomElementConstructor)]);
    return (this.#session ??= new Controller<K, Detail>(this, { ...this.session, describe: (error) => this.errorDetail(error) }));
  }

  /** Where the session is: the form until its code is loaded, a failure when it could not be. */
  get #state(): SessionState {
    return this.#session?.state ?? (this.#loadFailure ? 'error' : 'idle');
  }

  /** The answer of the session that ended well. */
  protected get result(): StatusAnswers[K] | undefined {
    return this.#session?.result;
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
    const [session] = await Promise.all([this.#controller(), this.everyWord()]);
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
    if (this.#firstStart) return this.#firstStart;
    if (this.#session) return this.#session.start(this.#prepare);
    const first = this.#controller().then(
      (session) => session.start(this.#prepare),
      (cause: unknown) => {
        throw this.#couldNotLoad(cause);
      },
    );
    this.#firstStart = first;
    void first.catch(() => undefined).finally(() => (this.#firstStart = undefined));
    return first;
  }

  /** A start asked for before the controller's code came: the one promise every start() returns until it settles. */
  #firstStart: Promise<Detail> | undefined;

  /** Cancels the running session (removing it at the service). */
  async cancel(): Promise<void> {
    await this.#session?.cancel();
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
  #couldNotLoad(cause: unknown): EsignError {
    if (this.#loadFailure) return this.#loadFailure;
    const error = new EsignError('unknown', String(cause), { cause });
    this.#loadFailure = error;
    this.emit('esign-error', this.errorDetail(error));
    this.requestUpdate();
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
    const channel = this.#session?.channel ?? this.activeChannel;
    if (detail.code === 'timeout' && !this.#session?.token) return ['error.start-timeout'];
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

  /**
   * Where the focus goes once a new state is drawn: the waiting status, the success, what can help
   * at an end (the time left, the other channel, the status at a dead end, else Try again), or the
   * field the service refused.
   */
  #focusFor(state: SessionState): void {
    if (state === 'waiting') void focusWaiting(this);
    else if (state === 'success') void this.focusLater(this.#hostSuccess ? 'esign-status' : '.done');
    else if (state === 'cancelled') void this.focusLater('[part="retry"]');
    else if (state === 'error') {
      const { wait, other, deadEnd, elsewhere } = this.#endChoices();
      // another country first where the person may have chosen the wrong one, else the other method
      void this.focusLater(
        wait
          ? '[part="retry-wait"]'
          : this.#fix()
            ? '[part="retry"]'
            : other
              ? '[part="other-channel"]'
              : deadEnd || elsewhere
                ? 'esign-status'
                : '[part="retry"]',
      );
    } else if (state === 'idle') {
      const field = this.#session?.fieldError;
      if (field)
        this.personForm?.setFieldError(
          field,
          this.t(field === 'phone' ? 'form.phone.service' : field === 'code' ? 'form.code.service' : 'form.country.service'),
        );
    }
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
    this.#loadFailure = undefined;
    this.#session?.reset();
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
    const code = this.#session?.state === 'error' ? this.#session.error?.code : undefined;
    return (code === 'document-corrupted' || code === 'request-too-large') && this.filesMayChange() ? 'file' : null;
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

  /** No Smart-ID account in the country chosen, where the person may choose another: changing it may help. */
  #countryMayHelp(): boolean {
    const session = this.#session;
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
    this.code = form.code;
    this.phone = form.phone;
    this.country = form.country;
  }

  /** The state and the connection as last drawn: a new state moves the focus, a line that just said "lost" comes into view. */
  #drawn: SessionState = 'idle';
  #connectionShown: '' | 'lost' | 'back' = '';
  /** When "the connection is back" was first drawn: it was said then, and goes after a few seconds. */
  #backSince = 0;
  #backTimer: ReturnType<typeof setTimeout> | undefined;

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const state = this.#state;
    if (state !== this.#drawn) {
      this.#drawn = state;
      this.#focusFor(state);
      // the session's own method and country, also one followed on after a reload (started on the page before)
      const session = this.#session;
      if (state === 'success' && !this.noRemember && session?.country) writeRemembered({ channel: session.channel, country: session.country });
    }
    const connection = state === 'waiting' ? (this.#session?.connection ?? '') : '';
    if (connection === 'lost' && this.#connectionShown !== 'lost') this.renderRoot.querySelector('[part="connection"]')?.scrollIntoView({ block: 'nearest' });
    if (connection === 'back' && this.#connectionShown !== 'back') {
      clearTimeout(this.#backTimer);
      this.#backTimer = setTimeout(() => this.requestUpdate(), BACK_SHOWN_MS + 50);
    }
    this.#connectionShown = connection;
    checkChosenChannel(this.renderRoot, this.activeChannel);
  }

  /** Whether the connection line shows: "lost" while it lasts, "back" for a few seconds (it was said as it came). */
  #connectionShownNow(connection: '' | 'lost' | 'back'): boolean {
    if (connection !== 'back') {
      this.#backSince = 0;
      return connection === 'lost';
    }
    this.#backSince ||= Date.now();
    return Date.now() - this.#backSince < BACK_SHOWN_MS;
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
      <p class="visually-hidden" role="status">${starting ? this.startingWords().said : nothing}</p>
    </form>`;
  }

  /** What the status says: nothing at rest, then the session's state in words (a failure to load its code too). */
  #statusWords(state: SessionState): StatusWords {
    const session = this.#session;
    const t = this.t.bind(this);
    // a hash signing's subject stands beside the code (what is confirmed), not in the small print below
    if (state === 'waiting' && session)
      return waitingWords(
        t,
        this.session.kind,
        this.session.kind === 'hash' ? { channel: session.channel, who: session.who, subject: '', cameBack: session.cameBack } : session,
      );
    if (state === 'success') {
      if (!this.result) return NO_WORDS;
      const detail = this.successDetail();
      // said as a list, not with its dots
      return { heading: this.successMessage(), detail, ...(detail.includes(DETAIL_SEPARATOR) ? { spoken: detail.split(DETAIL_SEPARATOR).join(', ') } : {}) };
    }
    if (state === 'cancelled') return { heading: this.cancelledMessage(), detail: '' };
    if (state !== 'error') return NO_WORDS;
    const error = session?.error ?? this.#loadFailure;
    // after a rate limit the time left is said once, in its own line (the end choices), never here
    const message = session?.expired
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
    const choices = this.#session?.endChoices() ?? { other: null, retryable: true, wait: undefined, deadEnd: false, elsewhere: false };
    // a file the site gave that the service cannot use: nothing the person changes or retries helps
    const code = this.#session?.state === 'error' ? this.#session.error?.code : undefined;
    if ((code === 'document-corrupted' || code === 'request-too-large') && !this.filesMayChange())
      return { ...choices, other: null, retryable: false, deadEnd: true };
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

  override render() {
    const channel = this.activeChannel;
    const state = this.#state;
    if (state === 'success' && this.hideSuccess) return nothing;
    const session = this.#session;
    const waiting = state === 'waiting' && session ? session : undefined;
    const words = this.#statusWords(state);
    return html`<section class="base" part="base">
      ${state === 'idle' || state === 'starting' ? this.#renderForm(channel, state === 'starting') : nothing}
      ${
        waiting
          ? html`<esign-control-code
              .lang=${this.language}
              .theme=${this.theme}
              .strings=${this.strings}
              .code=${waiting.controlCode}
              .channel=${waiting.channel}
              .kind=${this.session.kind === 'login' ? 'login' : 'sign'}
              .until=${waiting.deadline}
              .subject=${this.session.kind === 'hash' ? waiting.subject : ''}
              exportparts=${this.session.kind === 'hash' ? 'code, instruction, warning, confirming' : 'code, instruction, warning'}
            ></esign-control-code>
            <p class="connection ${waiting.connection}" part="connection" role="status">${this.#connectionShownNow(waiting.connection) ? connectionWords(this.t.bind(this), this.language, waiting.connection === 'lost', waiting.deadline) : nothing}</p>`
          : nothing
      }
      ${state === 'error' || state === 'cancelled' ? this.renderEndSubject() : nothing}
      <esign-status
        .lang=${this.language}
        .theme=${this.theme}
        .strings=${this.strings}
        .state=${state === 'starting' ? 'idle' : state}
        .since=${session?.since ?? 0}
        .until=${waiting?.deadline ?? 0}
        .quiet=${(waiting !== undefined && !waiting.cameBack) || (state === 'success' && this.#hostSuccess)}
        .message=${words.heading}
        .detail=${words.detail}
        .spokenDetail=${words.spoken ?? ''}
        exportparts="status, cancel"
        @esign-cancel-request=${(e: Event) => {
          e.stopPropagation();
          void this.cancel();
        }}
      ></esign-status>
      ${
        state === 'success'
          ? html`<slot name="success"><p class="done" tabindex="-1">${this.t(DONE_WORDS[this.session.kind])}</p>${this.renderSuccess()}</slot>`
          : nothing
      }
      ${state === 'error' || state === 'cancelled' ? this.#renderEnd(words) : nothing}
    </section>`;
  }
}

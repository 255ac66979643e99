import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { inviteSigner, listSigners, removeTemporarySigner } from '../../protocol/operations.js';
import { EsignError } from '../../client/errors.js';
import type { SignerEntry } from '../../protocol/types.js';
import type { StringKey } from '../../i18n/index.js';
import { EsignDocumentElement } from '../../internal/documents/document-element.js';
import { emptySigner, signerFields, signerInput, signerProblems, type SignerDraft } from '../document-upload/signer-fields.js';
import { textOrNothing } from '../../internal/element/text-or-nothing.js';
import type { SignerInvitedDetail, TemporarySignerName } from './events.js';
import { signerListStyles } from './signer-list.styles.js';

const KNOWN_STATES = ['pending', 'signed', 'rejected', 'reviewing', 'reviewed', 'confirmed', 'denied'];

/**
 * The signers of a stored document and their states; refresh on demand or on an interval;
 * invite a signer; remove a temporary signer after confirmation.
 *
 * @fires esign-signers-loaded - The list was (re)loaded.
 * @fires esign-signer-invited - A signer was invited: the invitation links.
 * @fires esign-signer-removed - A temporary signer was removed.
 * @fires esign-error - Loading, inviting or removing failed.
 * @fires esign-confirm-open - A removal confirmation opened (bubbles, not composed: lets a container
 * such as esign-document close its own, so one confirmation is open at a time).
 * @csspart base - The frame.
 * @csspart refresh - The refresh button.
 * @csspart invite - The button that opens the invitation form.
 * @csspart error - Error messages.
 *
 * @tag esign-signer-list
 */
export class EsignSignerList extends EsignDocumentElement {
  static override styles = [...EsignDocumentElement.styles, signerListStyles];

  static override properties: PropertyDeclarations = {
    refreshInterval: { type: Number, attribute: 'refresh-interval' },
    noInvite: { type: Boolean, attribute: 'no-invite' },
    noRemove: { type: Boolean, attribute: 'no-remove' },
    temporarySigners: { attribute: false },
    signedNames: { attribute: false },
    _signers: { state: true },
    _updated: { state: true },
    _invite: { state: true },
    _inviteSubmitted: { state: true },
    _confirm: { state: true },
    _notice: { state: true },
  };

  /** Reload every this many ms while on the page; 0 for never. */
  declare refreshInterval: number;
  /** Hide the invitation form. */
  declare noInvite: boolean;
  /** Hide the remove buttons. */
  declare noRemove: boolean;
  /**
   * The signers added with a temporary link, the only ones the service can remove: removal is
   * offered for them alone (`esign-document` knows those added through its own link form).
   */
  declare temporarySigners: TemporarySignerName[];
  /**
   * The names on the document's signatures (its validation gives them; `esign-document` passes
   * them). A signed entry whose signature bears another name shows both, where that can be told.
   */
  declare signedNames: string[];
  declare _signers: SignerEntry[] | null;
  declare _updated: Date | null;
  declare _invite: SignerDraft | null;
  declare _inviteSubmitted: boolean;
  declare _confirm: number | null;
  declare _notice: string;

  #timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.refreshInterval = 0;
    this.signedNames = [];
    this.noInvite = false;
    this.noRemove = false;
    this.temporarySigners = [];
    this._signers = null;
    this._updated = null;
    this._invite = null;
    this._inviteSubmitted = false;
    this._confirm = null;
    this._notice = '';
  }

  /** The signers as last loaded. */
  get signers(): SignerEntry[] {
    return this._signers ?? [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#schedule();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('documentId') && this.documentId) this._signers = null;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // after this update, not inside it: loading changes what is shown
    if (changed.has('documentId') && this.documentId) queueMicrotask(() => this.refresh().catch(() => undefined));
    if (changed.has('refreshInterval')) this.#schedule();
  }

  #schedule(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.isConnected && this.refreshInterval > 0) {
      this.#timer = setInterval(() => {
        if (!this.busy && this.documentId) this.refresh().catch(() => undefined);
      }, this.refreshInterval);
    }
  }

  /** Loads the signers. */
  protected override failedHeading(action: string): string {
    if (action === 'load') return this.t('failed.signers');
    if (action === 'invite') return this.t('failed.invite');
    return action === 'remove' ? this.t('failed.remove-signer') : '';
  }

  async refresh(): Promise<SignerEntry[]> {
    this.requireDocument();
    const documentId = this.documentId;
    const answer = await this.act('load', (signal) => this.client.call(listSigners, {}, { documentId }, { signal }));
    this._signers = answer.signers;
    this._updated = new Date();
    this.emit('esign-signers-loaded', { documentId, signers: answer.signers });
    return answer.signers;
  }

  /** Invites the signer entered in the form. */
  async invite(): Promise<SignerInvitedDetail> {
    this.requireDocument();
    const draft = this._invite ?? emptySigner();
    this._inviteSubmitted = true;
    const problems = signerProblems(draft);
    const first = Object.keys(problems)[0];
    if (first) {
      void this.focusLater(`#invite-${first}`);
      throw new EsignError('invalid-input', this.t('error.invalid-input'), { field: first });
    }
    const documentId = this.documentId;
    const answer = await this.act('invite', (signal) => this.client.call(inviteSigner, { signer: signerInput(draft) }, { documentId }, { signal }));
    const detail: SignerInvitedDetail = { documentId, signers: answer.signers };
    this._invite = null;
    this._inviteSubmitted = false;
    this._notice = this.t('signers.invited', { name: `${draft.name} ${draft.surname}` });
    this.emit('esign-signer-invited', detail);
    await this.refresh().catch(() => undefined);
    void this.focusLater('[part="invite"]');
    return detail;
  }

  /** Removes a temporary signer, identified by name and surname. */
  async removeSigner(signer: Pick<SignerEntry, 'name' | 'surname'>): Promise<void> {
    this.requireDocument();
    const documentId = this.documentId;
    await this.act('remove', (signal) => this.client.call(removeTemporarySigner, { name: signer.name, surname: signer.surname }, { documentId }, { signal }));
    this._confirm = null;
    this._notice = this.t('signers.removed', { name: `${signer.name} ${signer.surname}` });
    this.emit('esign-signer-removed', { documentId, name: signer.name, surname: signer.surname });
    await this.refresh().catch(() => undefined);
    void this.focusLater('[part="refresh"]');
  }

  #stateWords(state: string): string {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the table has a key for each value of the closed list it is built from
    return KNOWN_STATES.includes(state) ? this.t(`sign-status.${state}` as StringKey) : state;
  }

  /**
   * Who signed for an entry, where it differs from who was invited: told only when one signed
   * entry and one signature's name are left unmatched by name (a person's link signed by another
   * certificate's name); never guessed among several.
   */
  #signedAs(): Map<SignerEntry, string> {
    const full = (s: SignerEntry) => `${s.name} ${s.surname}`.trim().toLocaleUpperCase();
    const names = (this.signedNames ?? []).map((n) => n.trim()).filter(Boolean);
    const signed = (this._signers ?? []).filter((s) => s.signStatus === 'signed');
    const signers = signed.filter((s) => !names.some((n) => n.toLocaleUpperCase() === full(s)));
    const others = names.filter((n) => !signed.some((s) => n.toLocaleUpperCase() === full(s)));
    const [signer, other] = [signers[0], others[0]];
    return new Map(signers.length === 1 && others.length === 1 && signer && other ? [[signer, other]] : []);
  }

  #renderSigner(signer: SignerEntry, index: number, signedAs: Map<SignerEntry, string>) {
    const name = `${signer.name} ${signer.surname}`.trim();
    const known = KNOWN_STATES.includes(signer.signStatus);
    const badge = signer.signStatus === 'signed' || signer.signStatus === 'rejected' || signer.signStatus === 'denied' ? signer.signStatus : 'other';
    const busy = this.busy !== '';
    return html`<li class="signer">
      <div class="signer-top">
        <span class="signer-name">${name}</span>
        <span class="badge ${known ? badge : 'other'}">${this.#stateWords(signer.signStatus)}</span>
      </div>
      <span class="muted">
        ${this.t('signers.col.signature')}:
        ${signer.signStatus === 'signed' ? this.t(signer.isSignatureValid === 'true' ? 'signers.valid' : 'signers.invalid') : this.t('signers.no-signature')}
      </span>
      ${signedAs.has(signer) ? html`<span class="muted">${this.t('signers.signed-as', { name: signedAs.get(signer) ?? '' })}</span>` : nothing}
      ${signer.rejectionReason ? html`<span>${this.t('signers.reason', { reason: signer.rejectionReason })}</span>` : nothing}
      ${
        this.noRemove || signer.signStatus === 'signed' || !this.#isTemporary(signer)
          ? nothing
          : this._confirm === index
            ? html`<div class="confirm" role="group" aria-labelledby="confirm-${index}" @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.#cancelConfirm(index)}>
              <span id="confirm-${index}">${this.t('signers.confirm-remove', { name })}</span>
              <div class="inline">
                <button type="button" class="danger small" part="confirm" ?disabled=${busy} @click=${() => this.removeSigner(signer).catch(() => undefined)}>${this.t('action.remove')}</button>
                <button type="button" class="secondary small keep" @click=${() => this.#cancelConfirm(index)}>${this.t('action.keep')}</button>
              </div>
            </div>`
            : html`<div class="row-actions">
              <button type="button" class="secondary small destructive" id="remove-${index}" ?disabled=${busy} @click=${() => this.#askConfirm(index)}>
                ${this.t('signers.remove', { name })}
              </button>
            </div>`
      }
    </li>`;
  }

  #isTemporary(signer: SignerEntry): boolean {
    const same = (a: string, b: string) => a.trim().toLocaleUpperCase() === b.trim().toLocaleUpperCase();
    return (this.temporarySigners ?? []).some((t) => same(t.name, signer.name) && same(t.surname, signer.surname));
  }

  /** Closes an open removal confirmation (a container opened one of its own). */
  closeConfirmation(): void {
    this._confirm = null;
  }

  #askConfirm(index: number): void {
    this._confirm = index;
    const signer = this._signers?.[index];
    this.dispatchEvent(
      new CustomEvent<TemporarySignerName>('esign-confirm-open', { detail: { name: signer?.name ?? '', surname: signer?.surname ?? '' }, bubbles: true }),
    );
    void this.focusLater('.keep');
  }

  #cancelConfirm(index: number): void {
    this._confirm = null;
    void this.focusLater(`#remove-${index}`);
  }

  #renderInvite() {
    if (this.noInvite) return nothing;
    if (!this._invite) {
      return html`<div><button type="button" class="secondary" part="invite" @click=${this.#openInvite}>${this.t('signers.invite')}</button></div>`;
    }
    const draft = this._invite;
    const problems = this._inviteSubmitted ? signerProblems(draft) : {};
    const busy = this.busy !== '';
    return html`<form
      novalidate
      @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.#closeInvite()}
      @submit=${(e: Event) => {
        e.preventDefault();
        this.invite().catch(() => undefined);
      }}
    >
      <fieldset>
        <legend>${this.t('signers.invite')}</legend>
        ${signerFields(
          'invite',
          draft,
          (field) => (problems[field] ? this.t(problems[field]) : undefined),
          (key) => this.t(key),
          (patch) => (this._invite = { ...draft, ...patch }),
          busy,
        )}
        <div class="actions">
          <button class="primary" type="submit" ?disabled=${busy}>${this.t('signers.invite-submit')}</button>
          <button class="secondary" type="button" @click=${this.#closeInvite}>${this.t('action.cancel')}</button>
        </div>
      </fieldset>
    </form>`;
  }

  #openInvite(): void {
    this._invite = emptySigner();
    void this.focusLater('#invite-name');
  }

  #closeInvite(): void {
    this._invite = null;
    this._inviteSubmitted = false;
    void this.focusLater('[part="invite"]');
  }

  override render() {
    const loading = this.busy === 'load' && this._signers === null;
    const notFound = this.failure?.code === 'document-not-found';
    const signedAs = this.#signedAs();
    const time = this._updated?.toLocaleTimeString(this.language, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    return html`<section class="base" part="base" aria-busy=${this.busy ? 'true' : 'false'}>
      <div class="head">
        <h2>${this.t('signers.title')}</h2>
        <button type="button" class="secondary small" part="refresh" ?disabled=${!this.documentId} aria-disabled=${this.busy ? 'true' : 'false'} @click=${() => this.busy || this.refresh().catch(() => undefined)}>
          ${this.t('signers.refresh')}
        </button>
      </div>
      <p class="muted" role="status">${textOrNothing(loading ? this.t('signers.loading') : this._notice || (time ? this.t('signers.updated', { time }) : ''))}</p>
      ${this.renderFailure()}
      ${
        notFound || this._signers === null
          ? nothing
          : this._signers.length
            ? html`<ul class="signers">${this._signers.map((s, i) => this.#renderSigner(s, i, signedAs))}</ul>`
            : html`<p class="message">${this.t('signers.empty')}</p>`
      }
      ${notFound ? nothing : this.#renderInvite()}
    </section>`;
  }
}

import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { checkDocumentStatus, downloadDocument, removeDocument } from '../../protocol/operations.js';
import type { Dependency } from '../../internal/element/define.js';
import { EsignDocumentElement } from '../../internal/documents/document-element.js';
import { EsignSignerList } from '../signer-list/define.js';
import { EsignSigningLink } from '../signing-link/define.js';
import { EsignValidationReport } from '../validation-report/define.js';
import type { DocumentDownloadedDetail, DocumentRemovedDetail } from './events.js';
import type { TemporarySignerName } from '../signer-list/events.js';
import type { SigningLinkCreatedDetail } from '../signing-link/events.js';
import { EsignError } from '../../client/errors.js';
import { textOrNothing } from '../../internal/element/text-or-nothing.js';
import { fileName, fileNameStyles } from '../../internal/documents/file-name.js';
import { CopyController } from '../../internal/element/copy-controller.js';
import type { ValidatedDetail } from '../validation-report/events.js';
import type { SignersLoadedDetail } from '../signer-list/events.js';
import { documentElementStyles } from './document.styles.js';
import { readReport } from '../validation-report/read-report.js';

/**
 * One stored document: its signers, its validation, a temporary signing link, and removal
 * after confirmation.
 *
 * @fires esign-document-removed - The document was removed at the service.
 * @fires esign-error - Removal (or one of the parts) failed.
 * @csspart base - The frame.
 * @fires esign-document-downloaded - The file arrived (cancelable: a host that calls preventDefault saves it itself).
 * @csspart remove - The remove button.
 * @csspart download - The download button.
 * @csspart state - The document's state (a badge).
 * @csspart copy-id - The button that copies the document's id.
 * @csspart signers-base - The signer list's frame (forwarded; also signers-refresh, signers-invite, signers-error).
 * @csspart signers-refresh - The signer list's refresh button (forwarded).
 * @csspart signers-invite - The signer list's invite button (forwarded).
 * @csspart signers-error - The signer list's error messages (forwarded).
 * @csspart report-base - The validation report's frame (forwarded).
 * @csspart report-validate - The validate button (forwarded).
 * @csspart report-signature - Each signature's panel (forwarded).
 * @csspart link-base - The signing-link form's frame (forwarded).
 * @csspart link-submit - The create-link button (forwarded).
 * @csspart link-link - The created link (forwarded).
 *
 * @tag esign-document
 */
export class EsignDocument extends EsignDocumentElement {
  static override styles = [...EsignDocumentElement.styles, fileNameStyles, documentElementStyles];

  // each child's class from its define entry: a bundle keeps an element's class and its entry in one file
  static dependencies: Record<string, Dependency> = {
    'esign-signer-list': EsignSignerList,
    'esign-signing-link': EsignSigningLink,
    'esign-validation-report': EsignValidationReport,
  };

  static override properties: PropertyDeclarations = {
    callbackUrl: { type: String, attribute: 'callback-url' },
    fileName: { type: String, attribute: 'file-name' },
    _learnedName: { state: true },
    _signedNames: { state: true },
    temporarySigners: { attribute: false },
    _confirm: { state: true },
    _created: { state: true },
    _missing: { state: true },
    _checked: { state: true },
    _removed: { state: true },
    _state: { state: true },
  };

  /** Prefilled callback URL of the signing-link form. */
  declare callbackUrl: string;
  /**
   * The document's file name, its title (the upload's event gives it). Without it the title is
   * the name the service gives with a validation or a download, and "Document" until then.
   */
  declare fileName: string;
  declare _learnedName: string;
  /** The names on the signatures of the last validation, for the signer list. */
  declare _signedNames: string[];
  #signedCount = -1;
  /**
   * Signers the host knows were added with a temporary link (the only ones the service removes);
   * those added through this element's own link form are known without it.
   */
  declare temporarySigners: TemporarySignerName[];
  declare _confirm: boolean;
  /** Temporary signers added through the link form while on the page. */
  declare _created: TemporarySignerName[];
  /** The service does not know the document (removed elsewhere, or a wrong id). */
  declare _missing: boolean;
  /** The first state check of this document is done: its parts are shown only then (a missing one shows none). */
  declare _checked: boolean;
  declare _removed: boolean;
  /** The document's state as the service says it (`saved`, `signing`, `signed`, or another). */
  declare _state: string | null;
  #stateRequest: AbortController | undefined;
  #copy = new CopyController(this);

  constructor() {
    super();
    this.callbackUrl = '';
    this.fileName = '';
    this._learnedName = '';
    this._signedNames = [];
    this.temporarySigners = [];
    this._created = [];
    this._missing = false;
    this._checked = false;
    this._confirm = false;
    this._removed = false;
    this._state = null;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('documentId')) {
      this._missing = false;
      this._checked = false;
      this._created = [];
      this._learnedName = '';
      this._signedNames = [];
      this.#signedCount = -1;
      this.failure = null;
    }
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (changed.has('documentId')) void this.refreshState();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stateRequest?.abort();
  }

  protected override failedHeading(action: string): string {
    if (action === 'download') return this.t('failed.download');
    if (action === 'remove') return this.t('failed.remove-document');
    return action === 'state' ? this.t('failed.document') : '';
  }

  /** Asks the service for the document's state; done with every reload of the signer list too. */
  async refreshState(): Promise<void> {
    this.#stateRequest?.abort();
    if (!this.documentId) return;
    const controller = new AbortController();
    this.#stateRequest = controller;
    try {
      const answer = await this.client.call(checkDocumentStatus, {}, { documentId: this.documentId }, { signal: controller.signal });
      this._state = answer.data.document_status;
      this._checked = true;
      if (this._missing) {
        this._missing = false;
        this.failure = null;
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      this._state = null;
      this._checked = true;
      // a missing document is said once, here, in place of everything that needs it; other
      // failures are said by the signer list beside it
      if (error instanceof EsignError && error.code === 'document-not-found' && !this._missing) {
        this._missing = true;
        this.fail(error, 'state');
      }
    }
  }

  /** Downloads the stored (signed, once signed) file; offers it to save unless a listener prevents that. */
  async download(): Promise<DocumentDownloadedDetail> {
    this.requireDocument();
    const documentId = this.documentId;
    const file = await this.act('download', (signal) => this.client.call(downloadDocument, {}, { documentId }, { signal }));
    const detail = { documentId, file };
    this._learnedName ||= file.name;
    if (this.emit('esign-document-downloaded', detail, true)) {
      const url = URL.createObjectURL(file);
      const link = Object.assign(document.createElement('a'), { href: url, download: file.name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    }
    return detail;
  }

  #stateWords(state: string): string {
    return state === 'saved' || state === 'signing' || state === 'signed' ? this.t(`document.state.${state}`) : state;
  }

  /** Removes the document at the service. */
  async removeDocument(): Promise<DocumentRemovedDetail> {
    this.requireDocument();
    const documentId = this.documentId;
    await this.act('remove', (signal) => this.client.call(removeDocument, {}, { documentId }, { signal }));
    this._removed = true;
    this._confirm = false;
    const detail = { documentId };
    this.emit('esign-document-removed', detail);
    void this.focusLater('.done');
    return detail;
  }

  /** The signer list (re)loaded: the state with it, and the validation again once someone more has signed. */
  #signersLoaded = (e: CustomEvent<SignersLoadedDetail>): void => {
    void this.refreshState();
    const signed = e.detail.signers.filter((s) => s.signStatus === 'signed').length;
    if (this.#signedCount >= 0 && signed > this.#signedCount)
      this.renderRoot
        .querySelector<EsignValidationReport>('esign-validation-report')
        ?.validate()
        .catch(() => undefined);
    this.#signedCount = signed;
  };

  #validated = (e: CustomEvent<ValidatedDetail>): void => {
    this._learnedName ||= e.detail.report.simpleReport?.documentFilename ?? '';
    this._signedNames = readReport(e.detail.report).signatures.map((s) => s.signedBy);
  };

  /** A link made for named signers adds them: the list shows them at once. */
  #linkCreated = (e: CustomEvent<SigningLinkCreatedDetail>): void => {
    this._created = [...this._created, ...e.detail.signers];
    if (e.detail.signers.length)
      this.renderRoot
        .querySelector<EsignSignerList>('esign-signer-list')
        ?.refresh()
        .catch(() => undefined);
  };

  #ask(): void {
    // one confirmation open at a time: the signer list's closes
    this.renderRoot.querySelector<EsignSignerList>('esign-signer-list')?.closeConfirmation();
    this._confirm = true;
    // on the way that keeps the document: two presses of Enter never remove it
    void this.focusLater('.keep');
  }

  #keep(): void {
    this._confirm = false;
    void this.focusLater('[part="remove"]');
  }

  #renderTitle(state?: unknown) {
    const name = this.fileName || this._learnedName;
    return html`<div class="title">
      <h2>${name ? fileName(name) : this.t('document.title')}</h2>
      ${state ?? nothing}
      <details class="more">
        <summary>${this.t('document.id-label')}</summary>
        <div class="inline">
          <span class="id">${this.documentId}</span>
          <button type="button" class="secondary small" part="copy-id" @click=${() => this.#copy.copy(this.documentId, 'id')}>${this.t('document.copy-id')}</button>
          <span role="status" class="muted">${textOrNothing(this.#copy.status('id', this.t('document.id-copied'), this.t('link.copy-failed')))}</span>
        </div>
      </details>
    </div>`;
  }

  /** Not found: the reason first, then what can help after it, as every element's failure reads. */
  #renderMissing() {
    return html`<section class="base" part="base">
      <div class="header">${this.#renderTitle()}</div>
      ${this.renderFailure()}
      <div class="actions">
        <button type="button" class="secondary" part="check" @click=${() => void this.refreshState()}>${this.t('document.check-again')}</button>
      </div>
    </section>`;
  }

  override render() {
    if (this._missing && !this._removed) return this.#renderMissing();
    if (this._removed) {
      return html`<section class="base" part="base"><p class="message done" tabindex="-1" role="status"><span class="text">${this.t('document.removed')}</span></p></section>`;
    }
    const shared = { lang: this.language, theme: this.theme, strings: this.strings, endpoint: this.endpoint };
    const busy = this.busy !== '';
    return html`<section class="base" part="base">
      <div class="header">
        ${this.#renderTitle(
          html`<p class="state ${this._state ?? ''}" part="state" aria-live="polite">${textOrNothing(this._state && this.#stateWords(this._state))}</p>`,
        )}
        <button type="button" class="secondary" part="download" ?disabled=${!this.documentId} aria-disabled=${busy ? 'true' : 'false'} @click=${() => busy || this.download().catch(() => undefined)}>
          ${this.busy === 'download' ? this.t('document.downloading') : this.t(this._state === 'signed' ? 'sign.download' : 'document.download')}
        </button>
      </div>
      ${
        this._checked
          ? html`<div class="parts">
          <esign-signer-list exportparts="base: signers-base, refresh: signers-refresh, invite: signers-invite, error: signers-error" @esign-signers-loaded=${this.#signersLoaded} @esign-confirm-open=${() => (this._confirm = false)} .lang=${shared.lang} .theme=${shared.theme} .strings=${shared.strings} .endpoint=${shared.endpoint} .documentId=${this.documentId} .temporarySigners=${[...this.temporarySigners, ...this._created]} .signedNames=${this._signedNames}></esign-signer-list>
          <esign-validation-report @esign-validated=${this.#validated} exportparts="base: report-base, validate: report-validate, signature: report-signature" .lang=${shared.lang} .theme=${shared.theme} .strings=${shared.strings} .endpoint=${shared.endpoint} .documentId=${this.documentId}></esign-validation-report>
          <section aria-labelledby="link-title">
            <h2 id="link-title" class="section-title">${this.t('document.link')}</h2>
            <esign-signing-link exportparts="base: link-base, submit: link-submit, link: link-link" @esign-signing-link-created=${this.#linkCreated} .lang=${shared.lang} .theme=${shared.theme} .strings=${shared.strings} .endpoint=${shared.endpoint} .documentId=${this.documentId} .callbackUrl=${this.callbackUrl}></esign-signing-link>
          </section>
        </div>`
          : html`<p class="muted" role="status">${this.t('document.loading')}</p>`
      }
      ${this.renderFailure()}
      ${
        this._confirm
          ? html`<div class="confirm" role="group" aria-labelledby="confirm-text" @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.#keep()}>
            <span id="confirm-text">${this.t('document.confirm-remove')}</span>
            <div class="inline">
              <button type="button" class="danger" part="confirm" ?disabled=${busy} @click=${() => this.removeDocument().catch(() => undefined)}>${this.t('action.remove')}</button>
              <button type="button" class="secondary keep" @click=${this.#keep}>${this.t('action.keep')}</button>
            </div>
          </div>`
          : html`<div class="actions">
            <button type="button" class="secondary destructive" part="remove" ?disabled=${!this.documentId} @click=${this.#ask}>${this.t('document.remove')}</button>
          </div>`
      }
      ${nothing}
    </section>`;
  }
}

import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { uploadDocument } from '../../protocol/operations.js';
import { EsignError } from '../../client/errors.js';
import type { DocumentAccess } from '../../protocol/types.js';
import { blobToBase64 } from '../../internal/data/base64.js';
import { CopyController } from '../../internal/element/copy-controller.js';
import { EsignDocumentElement } from '../../internal/documents/document-element.js';
import { filePicker, formatSize } from '../../internal/documents/file-picker.js';
import { fileName } from '../../internal/documents/file-name.js';
import { filePickerStyles } from '../../internal/documents/file-picker.styles.js';
import { isHttpUrl } from '../../internal/data/form-fields.js';
import { extensionOf, FILE_ACCEPT, FILE_TYPES, toSignFiles, type SignFile, type SignInput } from '../../internal/documents/sign-files.js';
import type { DocumentUploadedDetail } from './events.js';
import { emptySigner, signerFields, signerInput, signerProblems, type SignerDraft } from './signer-fields.js';
import { textOrNothing } from '../../internal/element/text-or-nothing.js';
import { isRecord, required } from '../../protocol/checks.js';
import { documentsSent, transferProgress, transferSaid, type Transfer } from '../../internal/documents/transfer-progress.js';
import { sendWithProgress } from '../../client/upload-progress.js';

/**
 * Uploads a document with its signers and shows each signer's invitation link.
 *
 * @fires esign-document-uploaded - The document is stored: its uuid and the signers with their invitation links.
 * @fires esign-error - The upload failed.
 * @csspart base - The frame.
 * @csspart pick - The button that opens the file picker.
 * @csspart submit - The upload button.
 * @csspart progress - The document's way up: the words and the bar while it is read and sent.
 * @csspart field - Each field's wrapper.
 * @csspart input - The inputs.
 * @csspart error - Error messages.
 *
 * @tag esign-document-upload
 */
export class EsignDocumentUpload extends EsignDocumentElement {
  static override styles = [...EsignDocumentElement.styles, filePickerStyles];

  static override properties: PropertyDeclarations = {
    file: { attribute: false },
    access: { type: String },
    callbackUrl: { type: String, attribute: 'callback-url' },
    maxSize: { type: Number, attribute: 'max-size' },
    signers: { attribute: false },
    _picked: { state: true },
    _dragging: { state: true },
    _submitted: { state: true },
    _result: { state: true },
    _removed: { state: true },
    _progress: { state: true },
  };

  /** The document, set by the host; the person picks when unset. */
  declare file: SignInput | null;
  declare access: DocumentAccess;
  declare callbackUrl: string;
  /** Largest file in bytes; 0 for no limit. */
  declare maxSize: number;
  /** The signers being entered (prefill as a property). */
  declare signers: SignerDraft[];
  declare _picked: SignFile | null;
  declare _dragging: boolean;
  declare _submitted: boolean;
  declare _result: DocumentUploadedDetail | null;
  /** The uploaded document was removed since (by an esign-document on the page): its links no longer work. */
  declare _removed: boolean;
  /** The document on its way up, while it is. */
  declare _progress: Transfer | null;

  readonly #copy = new CopyController(this);
  #hostFile: SignFile | null = null;
  #fileError = '';

  constructor() {
    super();
    this.file = null;
    this.access = 'private';
    this.callbackUrl = '';
    this.maxSize = 0;
    this.signers = [emptySigner()];
    this._picked = null;
    this._dragging = false;
    this._submitted = false;
    this._result = null;
    this._removed = false;
    this._progress = null;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('file')) this.#hostFile = toSignFiles(this.file)[0] ?? null;
  }

  get #document(): SignFile | null {
    return this.#hostFile ?? this._picked;
  }

  #checkFile(): string {
    const file = this.#document;
    if (!file) return this.t('upload.no-file');
    if (!(FILE_TYPES as string[]).includes(extensionOf(file.name))) return this.t('sign.wrong-type');
    if (this.maxSize > 0 && file.size > this.maxSize) return this.t('sign.too-large', { name: file.name, limit: formatSize(this.maxSize, this.language) });
    return '';
  }

  protected override failedHeading(action: string): string {
    return action === 'upload' ? this.t('failed.upload') : '';
  }

  /** Uploads; resolves with the uuid and signers, rejects with an EsignError. */
  async upload(): Promise<DocumentUploadedDetail> {
    this._submitted = true;
    this.#fileError = this.#checkFile();
    const signerError = this.signers.findIndex((s) => Object.keys(signerProblems(s)).length > 0);
    const firstWrong = this.signers[signerError];
    if (this.#fileError || firstWrong) {
      this.requestUpdate();
      const target = this.#fileError || !firstWrong ? '[part="pick"]' : `#signer-${signerError}-${Object.keys(signerProblems(firstWrong))[0]}`;
      void this.focusLater(target);
      throw new EsignError('invalid-input', this.#fileError || this.t('error.invalid-input'), { field: this.#fileError ? 'file' : 'signers' });
    }
    // the host's, not the person's: no field in the form
    if (this.callbackUrl.trim() && !isHttpUrl(this.callbackUrl.trim())) this.setupProblem('callbackUrl', 'upload');
    if (this.signers.some((s) => s.successUrl.trim() && !isHttpUrl(s.successUrl.trim()))) this.setupProblem('signers.successUrl', 'upload');
    const file = required(this.#document);
    const detail = await this.act('upload', async (signal) => {
      try {
        this._progress = { fraction: 0 };
        let since = 0;
        const content = file.base64 ?? (await blobToBase64(required(file.blob), (fraction) => (this._progress = { fraction }), signal));
        const answer = await this.client.call(
          uploadDocument,
          {
            access: this.access,
            file: { filename: file.name, content, ...(this.callbackUrl.trim() ? { callbackUrl: this.callbackUrl.trim() } : {}) },
            signers: this.signers.map(signerInput),
          },
          {},
          {
            signal,
            uploadSender: sendWithProgress,
            onUploadProgress: (sent, total) => {
              const now = Date.now();
              since ||= now;
              this._progress = documentsSent(sent, total, file.size, since, now);
            },
          },
        );
        return { uuid: answer.document.uuid, fileName: file.name, signers: answer.signers };
      } finally {
        this._progress = null;
      }
    });
    this._result = detail;
    this._removed = false;
    this.emit('esign-document-uploaded', detail);
    void this.focusLater('.done');
    return detail;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.ownerDocument.addEventListener('esign-document-removed', this.#onRemoved);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.ownerDocument.removeEventListener('esign-document-removed', this.#onRemoved);
  }

  /** The document just uploaded was removed elsewhere on the page: its invitation links are withdrawn, and said so. */
  #onRemoved = (event: Event): void => {
    const detail: unknown = event instanceof CustomEvent ? event.detail : undefined;
    const removed = isRecord(detail) ? detail['documentId'] : undefined;
    if (this._result && removed === this._result.uuid) this._removed = true;
  };

  /** Back to an empty form for the next document. */
  reset(): void {
    this._result = null;
    this._picked = null;
    this._submitted = false;
    this.signers = [emptySigner()];
    this.failure = null;
    void this.focusLater('[part="pick"]');
  }

  #change(index: number, patch: Partial<SignerDraft>): void {
    this.signers = this.signers.map((s, i) => (i === index ? { ...s, ...patch } : s));
  }

  #addSigner(): void {
    this.signers = [...this.signers, emptySigner()];
    void this.focusLater(`#signer-${this.signers.length - 1}-name`);
  }

  #removeSigner(index: number): void {
    this.signers = this.signers.filter((_, i) => i !== index);
    void this.focusLater('[part="add-signer"]');
  }

  #renderSigner(signer: SignerDraft, index: number) {
    const problems = this._submitted ? signerProblems(signer) : {};
    const busy = this.busy !== '';
    return html`<fieldset>
      <legend>${this.t('signer.legend', { n: index + 1 })}</legend>
      ${signerFields(
        `signer-${index}`,
        signer,
        (field) => (problems[field] ? this.t(problems[field]) : undefined),
        (key) => this.t(key),
        (patch) => this.#change(index, patch),
        busy,
      )}
      <div class="row-actions">
        <button type="button" class="secondary small" ?disabled=${busy} @click=${() => this.#removeSigner(index)}>
          ${this.t('signer.remove', { n: index + 1 })}
        </button>
      </div>
    </fieldset>`;
  }

  #renderResult(result: DocumentUploadedDetail) {
    if (this._removed) {
      return html`<p class="message" role="status">${this.t('upload.removed')}</p>
        <p class="uploaded">${fileName(result.fileName)}</p>
        <div class="actions"><button type="button" class="secondary" @click=${() => this.reset()}>${this.t('upload.another')}</button></div>`;
    }
    return html`<p class="message done" tabindex="-1" role="status"><span class="text">${this.t('upload.done')}</span></p>
      <p class="uploaded">${fileName(result.fileName)}<span class="muted">${this.t('document.id-label')} <span class="id">${result.uuid}</span></span></p>
      ${
        result.signers.length
          ? html`<ul class="links" aria-label=${this.t('upload.signers')}>
            ${result.signers.map((signer, i) => {
              const name = `${signer.name} ${signer.surname}`;
              return html`<li>
                <strong>${name}</strong>
                ${
                  signer.invitationUrl
                    ? html`<a class="url" href=${signer.invitationUrl} target="_blank" rel="noopener">${signer.invitationUrl}</a>
                      <div class="inline">
                        <button type="button" class="secondary small" aria-label=${this.t('link.copy-for', { name })} @click=${() => this.#copy.copy(signer.invitationUrl ?? '', String(i))}>
                          ${this.t('link.copy')}
                        </button>
                        <span role="status" class="muted">${textOrNothing(this.#copy.status(String(i), this.t('link.copied'), this.t('link.copy-failed')))}</span>
                      </div>`
                    : html`<span class="muted">${this.t('link.none')}</span>`
                }
              </li>`;
            })}
          </ul>`
          : nothing
      }
      <div class="actions"><button type="button" class="secondary" @click=${() => this.reset()}>${this.t('upload.another')}</button></div>`;
  }

  override render() {
    if (this._result) return html`<section class="base" part="base">${this.#renderResult(this._result)}</section>`;
    const busy = this.busy !== '';
    const file = this.#document;
    if (this._submitted) this.#fileError = this.#checkFile();
    return html`<section class="base" part="base">
      <form novalidate @submit=${(e: Event) => {
        e.preventDefault();
        if (!busy) this.upload().catch(() => undefined);
      }} aria-busy=${busy ? 'true' : 'false'}>
        ${filePicker({
          label: this.t('sign.file'),
          files: file ? [file] : [],
          fixed: this.#hostFile !== null,
          multiple: false,
          accept: FILE_ACCEPT,
          hint: this.t('sign.types'),
          pickLabel: this.t('sign.pick'),
          pickOther: this.t('sign.pick-other'),
          dropLabel: this.t('sign.drop'),
          error: this._submitted ? this.#fileError : '',
          dragging: this._dragging,
          removeLabel: (name) => this.t('sign.remove', { name }),
          size: (bytes) => formatSize(bytes, this.language),
          onFiles: (list) => (this._picked = toSignFiles(list[0] ?? null)[0] ?? null),
          onRemove: () => {
            this._picked = null;
            void this.focusLater('[part="pick"]');
          },
          onDragging: (dragging) => (this._dragging = dragging),
          busy,
        })}
        ${this._progress ? transferProgress(this._progress, this.t.bind(this), this.language) : nothing}
        <fieldset>
          <legend>${this.t('upload.access')}</legend>
          ${(['private', 'public'] as const).map(
            (access) => html`<label class="choice">
              <input type="radio" name="access" value=${access} .checked=${this.access === access} ?disabled=${busy} @change=${() => (this.access = access)} />
              ${this.t(`upload.access.${access}`)}
            </label>`,
          )}
        </fieldset>
        <h3>${this.t('upload.signers')}</h3>
        ${this.signers.map((signer, i) => this.#renderSigner(signer, i))}
        <div><button type="button" class="secondary" part="add-signer" ?disabled=${busy} @click=${this.#addSigner}>${this.t('signer.add')}</button></div>
        ${this.renderFailure()}
        <div class="actions">
          <button class="primary" part="submit" type="submit" aria-disabled=${busy ? 'true' : 'false'}>${busy ? this.t('upload.uploading') : this.t('upload.submit')}</button>
        </div>
        <p class="visually-hidden" role="status">${transferSaid(this._progress, this.t.bind(this), this.language)}</p>
      </form>
    </section>`;
  }
}

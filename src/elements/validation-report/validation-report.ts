import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { validateDocument, validateFile } from '../../client/operations.js';
import { css } from 'lit';
import type { ValidationReport } from '../../client/types.js';
import type { StringKey } from '../../i18n/index.js';
import { EsignDocumentElement } from '../../internal/document-element.js';
import type { ValidatedDetail } from './events.js';
import { readReport, type ReadSignature } from './read-report.js';
import { textOrNothing } from '../../internal/text-or-nothing.js';
import { blobToBase64 } from '../../internal/base64.js';
import { filePicker, formatSize } from '../../internal/file-picker.js';
import { filePickerStyles } from '../../internal/file-picker.styles.js';
import { FILE_ACCEPT, FILE_TYPES, extensionOf, toSignFiles, type SignFile } from '../../internal/sign-files.js';
import { EsignError } from '../../client/errors.js';

const INDICATIONS = ['TOTAL_PASSED', 'INDETERMINATE', 'TOTAL_FAILED'];
const SUB_INDICATIONS = ['HASH_FAILURE', 'SIG_CRYPTO_FAILURE', 'FORMAT_FAILURE', 'NO_CERTIFICATE_CHAIN_FOUND', 'REVOKED', 'EXPIRED', 'NOT_YET_VALID', 'SIGNED_DATA_NOT_FOUND', 'TRY_LATER'];

const styles = css`
  .summary {
    font-weight: 700;
    margin: 0;
  }
  .signature {
    border: 1px solid var(--_border);
    border-inline-start: 4px solid var(--_muted);
    border-radius: calc(var(--_radius) * 0.8);
    padding: 0.75rem var(--_space);
  }
  .signature.TOTAL_PASSED {
    border-inline-start-color: var(--_success);
  }
  .signature.TOTAL_FAILED {
    border-inline-start-color: var(--_danger);
  }
  dl {
    display: grid;
    grid-template-columns: minmax(7rem, auto) 1fr;
    gap: 0.25rem 0.9rem;
    margin: 0.5rem 0 0;
  }
  dt {
    color: var(--_muted);
  }
  @container (max-width: 26rem) {
    dl {
      grid-template-columns: 1fr;
    }
    dd + dt {
      margin-block-start: 0.4rem;
    }
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ul.notes {
    margin: 0.25rem 0 0;
    padding-inline-start: 1.2rem;
  }
  details summary {
    cursor: pointer;
    font-weight: 600;
    padding-block: 0.6rem;
  }
  pre {
    max-block-size: 20rem;
    overflow: auto;
    font-size: 0.8rem;
    background: var(--_bg-subtle);
    padding: 0.75rem;
    border-radius: calc(var(--_radius) * 0.8);
  }
`;

/**
 * The validation of a stored document (by `document-id`), of a file the person picks or drops
 * (without a `document-id`: checked by the service without being stored), or of a report set as `report`:
 * how many signatures are valid, and per signature who signed, when, the format and level,
 * the verdict in plain words, errors and warnings; the full report folded away.
 *
 * @fires esign-validated - A report was loaded from the service.
 * @fires esign-error - Validation failed.
 * @csspart base - The frame.
 * @csspart validate - The validate button.
 * @csspart pick - The button that opens the file picker (without a document-id).
 * @csspart signature - Each signature's panel.
 *
 * @tag esign-validation-report
 */
export class EsignValidationReport extends EsignDocumentElement {
  static override styles = [...EsignDocumentElement.styles, filePickerStyles, styles];

  static override properties: PropertyDeclarations = {
    ...EsignDocumentElement.properties,
    report: { attribute: false },
    manual: { type: Boolean },
    _file: { state: true },
    _fileError: { state: true },
    _dragging: { state: true },
  };

  /** The report; loaded from the service for `document-id`, or set by the host. */
  declare report: ValidationReport | null;
  /** Validate only when the person asks (a button) instead of as soon as the id is set. */
  declare manual: boolean;
  /** The file checked without storing it (no document-id). */
  declare _file: SignFile | null;
  declare _fileError: string;
  declare _dragging: boolean;

  constructor() {
    super();
    this.report = null;
    this.manual = false;
    this._file = null;
    this._fileError = '';
    this._dragging = false;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // after this update, not inside it: validating changes what is shown
    if (changed.has('documentId') && this.documentId && !this.manual) queueMicrotask(() => this.validate().catch(() => undefined));
  }

  /** Validates the document at the service. */
  async validate(): Promise<ValidationReport> {
    this.requireDocument();
    const documentId = this.documentId;
    const answer = await this.act('validate', (signal) => this.client.call(validateDocument, {}, { documentId }, { signal }));
    this.report = answer.data;
    const { valid, total } = readReport(answer.data);
    this.emit<ValidatedDetail>('esign-validated', { documentId, report: answer.data, validSignatures: valid, signatures: total });
    return answer.data;
  }

  /**
   * Checks a signed file (pdf, asice, bdoc, adoc) at the service without storing it; the proxy
   * must allow `validateFile`. Resolves with the report, rejects with an EsignError.
   */
  async validateFile(file: File): Promise<ValidationReport> {
    const [picked] = toSignFiles([file]);
    this._file = picked ?? null;
    this.report = null;
    this._fileError = '';
    if (!(FILE_TYPES as string[]).includes(extensionOf(file.name))) {
      this._fileError = this.t('sign.wrong-type');
      this._file = null;
      void this.focusLater('[part="pick"]');
      throw new EsignError('invalid-input', this._fileError, { field: 'file' });
    }
    const answer = await this.act('file', async (signal) => this.client.call(validateFile, { file: { filename: file.name, content: await blobToBase64(file, undefined, signal) } }, {}, { signal }));
    this.report = answer.data;
    const { valid, total } = readReport(answer.data);
    this.emit<ValidatedDetail>('esign-validated', { documentId: '', fileName: file.name, report: answer.data, validSignatures: valid, signatures: total });
    void this.focusLater('.summary');
    return answer.data;
  }

  #renderFilePicker() {
    return filePicker({
      label: this.t('report.check-file'),
      files: this._file ? [this._file] : [],
      fixed: false,
      multiple: false,
      accept: FILE_ACCEPT,
      hint: this.t('sign.types'),
      pickLabel: this._file ? this.t('report.pick-other') : this.t('sign.pick'),
      dropLabel: this.t('sign.drop'),
      error: this._fileError,
      dragging: this._dragging,
      removeLabel: (name) => this.t('sign.remove', { name }),
      size: (bytes) => formatSize(bytes, this.language),
      onFiles: (list) => {
        if (this.busy) return;
        const file = list[0];
        if (file) this.validateFile(file).catch(() => undefined);
      },
      onRemove: () => {
        this._file = null;
        this.report = null;
        void this.focusLater('[part="pick"]');
      },
      onDragging: (dragging) => (this._dragging = dragging),
    });
  }

  #time(date: Date | null): string {
    return date ? date.toLocaleString(this.language, { dateStyle: 'medium', timeStyle: 'short' }) : this.t('report.unknown');
  }

  #verdict(signature: ReadSignature): string {
    const indication = INDICATIONS.includes(signature.indication)
      ? this.t(`indication.${signature.indication}` as StringKey)
      : signature.indication || this.t('report.unknown');
    if (!signature.subIndication) return indication;
    const sub = SUB_INDICATIONS.includes(signature.subIndication) ? this.t(`sub.${signature.subIndication}` as StringKey) : signature.subIndication;
    return `${indication}: ${sub}`;
  }

  #renderSignature(signature: ReadSignature, index: number) {
    return html`<li class="signature ${signature.indication}" part="signature">
      <h3>${this.t('report.signature', { n: index + 1 })}</h3>
      <dl>
        <dt>${this.t('report.verdict')}</dt>
        <dd><strong>${this.#verdict(signature)}</strong></dd>
        <dt>${this.t('report.signed-by')}</dt>
        <dd>${signature.signedBy || this.t('report.unknown')}</dd>
        <dt>${this.t('report.time')}</dt>
        <dd>${this.#time(signature.signingTime)}</dd>
        <dt>${this.t('report.format')}</dt>
        <dd>${signature.format || this.t('report.unknown')}</dd>
        <dt>${this.t('report.level')}</dt>
        <dd>${signature.level || this.t('report.unknown')}</dd>
        ${signature.errors.length
          ? html`<dt>${this.t('report.errors')}</dt>
              <dd><ul class="notes">${signature.errors.map((e) => html`<li>${e}</li>`)}</ul></dd>`
          : nothing}
        ${signature.warnings.length
          ? html`<dt>${this.t('report.warnings')}</dt>
              <dd><ul class="notes">${signature.warnings.map((w) => html`<li>${w}</li>`)}</ul></dd>`
          : nothing}
      </dl>
    </li>`;
  }

  override render() {
    const read = this.report ? readReport(this.report) : null;
    return html`<section class="base" part="base" aria-busy=${this.busy ? 'true' : 'false'}>
      <div class="head">
        <h2>${this.t('report.title')}</h2>
        ${this.documentId
          ? html`<button type="button" class="secondary small" part="validate" aria-disabled=${this.busy ? 'true' : 'false'} @click=${() => this.busy || this.validate().catch(() => undefined)}>
              ${this.t('report.validate')}
            </button>`
          : nothing}
      </div>
      ${this.documentId ? nothing : this.#renderFilePicker()}
      <p class="muted" role="status">${textOrNothing(this.busy && this.t('report.loading'))}</p>
      ${this.renderFailure()}
      ${read
        ? html`<p class="summary" role="status" tabindex="-1">${read.total ? this.t('report.summary', { valid: read.valid, total: read.total }) : this.t('report.none')}</p>
            ${read.signatures.length ? html`<ol class="links">${read.signatures.map((s, i) => this.#renderSignature(s, i))}</ol>` : nothing}
            <details>
              <summary>${this.t('report.raw')}</summary>
              <pre tabindex="0" aria-label=${this.t('report.raw')}>${JSON.stringify(this.report, null, 2)}</pre>
            </details>`
        : nothing}
    </section>`;
  }
}

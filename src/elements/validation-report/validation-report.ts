import { adoptStyles, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { validateDocument, validateFile } from '../../protocol/operations.js';
import type { ValidationReport } from '../../protocol/types.js';
import { EsignDocumentElement } from '../../internal/documents/document-element.js';
import { readReport } from './read-report.js';
import { loadOnce } from '../../internal/element/load-once.js';
import { textOrNothing } from '../../internal/element/text-or-nothing.js';
import { blobToBase64 } from '../../internal/data/base64.js';
import { filePicker, formatSize } from '../../internal/documents/file-picker.js';
import { filePickerStyles } from '../../internal/documents/file-picker.styles.js';
import { FILE_ACCEPT, FILE_TYPES, extensionOf, toSignFiles, type SignFile } from '../../internal/documents/sign-files.js';
import { validationReportStyles } from './validation-report.styles.js';
import { EsignError } from '../../client/errors.js';
import { thrownMessage } from '../../protocol/checks.js';

/** The signatures and the technical report: loaded with the first report, beside its request. */
const loadReportView = loadOnce(() => import('./report-view.js'));

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
  static override styles = [...EsignDocumentElement.styles, filePickerStyles, validationReportStyles];

  static override properties: PropertyDeclarations = {
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

  /** The view of a report's signatures, once loaded. */
  #view: typeof import('./report-view.js') | undefined;

  /** Loads the report's view (asked for as soon as a report is, so both arrive together). */
  async #loadView(): Promise<void> {
    if (this.#view) return;
    try {
      const view = await loadReportView();
      if (this.#view) return;
      this.#view = view;
      adoptStyles(this.shadow, [...EsignValidationReport.elementStyles, view.reportStyles]);
      this.requestUpdate();
    } catch (cause) {
      // the summary is shown; the signatures cannot be, and the person is told so
      this.fail(new EsignError('network', thrownMessage(cause) ?? 'The report could not be shown', { cause }), 'validate');
    }
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('report') && this.report && !this.#view) void this.#loadView();
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // after this update, not inside it: validating changes what is shown
    if (changed.has('documentId') && this.documentId && !this.manual) queueMicrotask(() => this.validate().catch(() => undefined));
  }

  /** Validates the document at the service. */
  protected override failedHeading(action: string): string {
    return action === 'validate' || action === 'file' ? this.t('failed.validate') : '';
  }

  async validate(): Promise<ValidationReport> {
    this.requireDocument();
    const documentId = this.documentId;
    void this.#loadView();
    const answer = await this.act('validate', (signal) => this.client.call(validateDocument, {}, { documentId }, { signal }));
    this.report = answer.data;
    const { valid, total } = readReport(answer.data);
    this.emit('esign-validated', { documentId, report: answer.data, validSignatures: valid, signatures: total });
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
    void this.#loadView();
    const answer = await this.act('file', async (signal) =>
      this.client.call(validateFile, { file: { filename: file.name, content: await blobToBase64(file, undefined, signal) } }, {}, { signal }),
    );
    this.report = answer.data;
    const { valid, total } = readReport(answer.data);
    this.emit('esign-validated', { documentId: '', fileName: file.name, report: answer.data, validSignatures: valid, signatures: total });
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
      pickLabel: this.t('sign.pick'),
      pickOther: this.t('sign.pick-other'),
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

  override render() {
    const report = this.report;
    const read = report ? readReport(report) : null;
    return html`<section class="base" part="base" aria-busy=${this.busy ? 'true' : 'false'}>
      <div class="head">
        <h2>${this.t('report.title')}</h2>
        ${
          this.documentId
            ? html`<button type="button" class="secondary small" part="validate" aria-disabled=${this.busy ? 'true' : 'false'} @click=${() => this.busy || this.validate().catch(() => undefined)}>
              ${this.t('report.validate')}
            </button>`
            : nothing
        }
      </div>
      ${this.documentId ? nothing : this.#renderFilePicker()}
      <p class="muted" role="status">${textOrNothing(this.busy && this.t('report.loading'))}</p>
      ${this.renderFailure()}
      ${
        read && report
          ? html`<p class="summary" role="status" tabindex="-1">${read.total ? this.t('report.summary', { valid: read.valid, total: read.total }) : this.t('report.none')}</p>
            ${this.#view?.renderReport(this, read.signatures, report) ?? nothing}`
          : nothing
      }
    </section>`;
  }
}

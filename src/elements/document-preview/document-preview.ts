import { adoptStyles, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { EsignError } from '../../client/errors.js';
import { EsignElement } from '../../internal/element/base-element.js';
import { STRING_PARTS, type StringPart } from '../../i18n/index.js';
import { loadOnce } from '../../internal/element/load-once.js';
import { controls } from '../../internal/element/controls.styles.js';
import { documentStyles } from '../../internal/documents/documents.styles.js';
import { theme } from '../../internal/element/theme.js';
import type { ContainerEntry } from './engine.js';
import { previewStyles } from './document-preview.styles.js';
import type { PreviewStatus, PreviewViewer } from './viewer.js';
import { thrownMessage } from '../../protocol/checks.js';

const loadViewer = loadOnce(() => import('./viewer.js'));

/**
 * The pages of a PDF drawn in the page (Mozilla's PDF.js, loaded only when a preview is shown),
 * with page navigation, zoom that fits the width, and a text layer that screen readers and search
 * read; for a container (ASiC-E, BDOC, ADOC), the list of files inside and the preview of each
 * PDF among them. Nothing leaves the page: the file is read where it is. What reads and draws
 * (the viewer, PDF.js and its worker) loads with the first file shown.
 *
 * Under Trusted Types the worker is created through the `esign-elements` policy: a page that
 * names its allowed policies (`trusted-types`) adds that name.
 *
 * @fires esign-preview-loaded - A file was read: its name and pages (0 when it has no preview).
 * @fires esign-error - The file could not be read (`document-corrupted`) or the preview not loaded.
 * @csspart base - The frame.
 * @csspart toolbar - Page navigation and zoom.
 * @csspart previous - The previous-page button.
 * @csspart next - The next-page button.
 * @csspart position - "Page 2 of 10".
 * @csspart zoom-out - The zoom-out button.
 * @csspart fit - The fit-width button.
 * @csspart zoom-in - The zoom-in button.
 * @csspart open - The link that opens the shown PDF in a new tab, in the browser's own viewer (a phone's zoom works there).
 * @csspart viewport - The scrolling area around the page.
 * @csspart page - The page.
 * @csspart files - A container's list of files.
 * @csspart shown - Which file of a container the page below shows.
 * @csspart error - A failure, said in words.
 * @cssprop --esign-preview-height - The tallest the preview grows before it scrolls (default 70vh; 40vh in the signing card on a screen under 40rem wide).
 *
 * @tag esign-document-preview
 */
export class EsignDocumentPreview extends EsignElement {
  static override styles = [theme, controls, documentStyles, previewStyles];
  static override stringParts: readonly StringPart[] = STRING_PARTS;

  static override properties: PropertyDeclarations = {
    file: { attribute: false },
    src: { type: String },
    page: { type: Number, reflect: true },
    zoom: { type: Number },
    workerSrc: { type: String, attribute: 'worker-src' },
    _status: { state: true },
    _pages: { state: true },
    _entries: { state: true },
    _shown: { state: true },
    _scale: { state: true },
    _error: { state: true },
  };

  /** The file to show (a PDF or a container). */
  declare file: Blob | null;
  /** Or the address of the file to show, fetched from the page's own origin. */
  declare src: string;
  /** The page shown, from 1. */
  declare page: number;
  /** Zoom as a share of the page's size; 0 fits the page to the width. */
  declare zoom: number;
  /** Where PDF.js's worker is; by default `esign-elements-pdf-worker.js` beside the widget's files. */
  declare workerSrc: string;
  declare _status: PreviewStatus;
  declare _pages: number;
  declare _entries: ContainerEntry[];
  declare _shown: string;
  declare _scale: number;
  declare _error: string;

  #viewer: PreviewViewer | undefined;
  #starting: Promise<void> | undefined;

  constructor() {
    super();
    this.file = null;
    this.src = '';
    this.page = 1;
    this.zoom = 0;
    this.workerSrc = '';
    this._status = 'empty';
    this._pages = 0;
    this._entries = [];
    this._shown = '';
    this._scale = 1;
    this._error = '';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#viewer?.disconnected();
    // a file still set is read again when the element comes back
    this._status = 'empty';
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (typeof this.page !== 'number' || !Number.isFinite(this.page)) this.page = 1;
    if (typeof this.zoom !== 'number' || !Number.isFinite(this.zoom) || this.zoom < 0) this.zoom = 0;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (!this.isConnected) return;
    if (this.#viewer) this.#viewer.updated(changed);
    // a viewer that failed to load is asked for again with the next file, not in a loop
    else if ((this.file || this.src) && (this._status === 'empty' || changed.has('file') || changed.has('src'))) this.#starting ??= this.#startViewer();
  }

  /** Loads the viewer with the first file; it then reads the file the element has by then. */
  async #startViewer(): Promise<void> {
    // after the update that asked for it, never inside it
    await Promise.resolve();
    this._status = 'loading';
    try {
      const { PreviewViewer, VIEWER_STYLES } = await loadViewer();
      if (!this.#viewer) {
        this.#viewer = new PreviewViewer(this, { emit: (name, detail) => this.emit(name, detail), errorDetail: (error) => this.errorDetail(error) });
        // the viewer's styles come with it: a page that shows no file never loads them
        adoptStyles(this.shadow, [...EsignDocumentPreview.elementStyles, ...VIEWER_STYLES]);
      }
      if (this.isConnected) this.#viewer.read();
      else this._status = 'empty';
    } catch (cause) {
      const detail = this.errorDetail(new EsignError('network', thrownMessage(cause) ?? 'The preview could not be loaded', { cause }));
      this._error = detail.message;
      this._status = 'error';
      this.emit('esign-error', detail);
    } finally {
      this.#starting = undefined;
    }
  }

  /** Shows another page (clamped to the document). */
  goTo(page: number): void {
    this.page = Math.min(Math.max(1, Math.round(page)), Math.max(1, this._pages));
  }

  override render() {
    const status = this._status;
    if (status === 'empty') return nothing;
    return html`<section class="base" part="base">
      ${this.#viewer?.render() ?? nothing}
      ${status === 'loading' ? html`<p class="muted" role="status">${this.t('preview.loading')}</p>` : nothing}
      ${
        status === 'error'
          ? html`<p class="message error" part="error" role="alert"><span class="text"><strong class="title">${this.t('preview.failed')}</strong> <span class="detail">${this._error}</span></span></p>`
          : nothing
      }
    </section>`;
  }
}

import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { EsignError } from '../../client/errors.js';
import { EsignElement } from '../../internal/base-element.js';
import { controls } from '../../internal/controls.styles.js';
import { documentStyles } from '../../internal/documents.styles.js';
import { formatSize } from '../../internal/file-picker.js';
import { extensionOf } from '../../internal/sign-files.js';
import { theme } from '../../internal/theme.js';
import type { ContainerEntry, PdfView } from './engine.js';
import { previewStyles } from './document-preview.styles.js';
import type { PreviewLoadedDetail } from './events.js';

type Engine = typeof import('./engine.js');
type Status = 'empty' | 'loading' | 'ready' | 'unsupported' | 'error';

/** Zoom steps, as a share of the page's own size. */
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
/** The most a file inside a container may inflate to, for its preview. */
const MAX_INNER_FILE = 100 * 1024 * 1024;
const PDF_MAGIC = '%PDF-';
const ZIP_MAGIC = 'PK\u0003\u0004';

let engine: Promise<Engine> | undefined;
function loadEngine(): Promise<Engine> {
  engine ??= import('./engine.js').catch((error: unknown) => {
    engine = undefined;
    throw error;
  });
  return engine;
}

function startsWith(bytes: Uint8Array, magic: string): boolean {
  return [...magic].every((ch, i) => bytes[i] === ch.charCodeAt(0));
}

/** The files of a container a person signs (its own signatures and manifest left out). */
function dataFiles(entries: ContainerEntry[]): ContainerEntry[] {
  return entries.filter((entry) => entry.name !== 'mimetype' && !entry.name.startsWith('META-INF/'));
}

const isPdfName = (name: string) => extensionOf(name) === 'pdf';

/**
 * The pages of a PDF drawn in the page (Mozilla's PDF.js, loaded only when a preview is shown),
 * with page navigation, zoom that fits the width, and a text layer that screen readers and search
 * read; for a container (ASiC-E, BDOC, ADOC), the list of files inside and the preview of each
 * PDF among them. Nothing leaves the page: the file is read where it is.
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
 * @csspart viewport - The scrolling area around the page.
 * @csspart page - The page.
 * @csspart files - A container's list of files.
 * @csspart error - A failure, said in words.
 * @cssprop --esign-preview-height - The tallest the preview grows before it scrolls (default 70vh).
 *
 * @tag esign-document-preview
 */
export class EsignDocumentPreview extends EsignElement {
  static override styles = [theme, controls, documentStyles, previewStyles];

  static override properties: PropertyDeclarations = {
    ...EsignElement.properties,
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
  declare _status: Status;
  declare _pages: number;
  declare _entries: ContainerEntry[];
  declare _shown: string;
  declare _scale: number;
  declare _error: string;

  #view: PdfView | undefined;
  #loads = 0;
  #resize: ResizeObserver | undefined;
  #fitWidth = 0;

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
    this.#resize?.disconnect();
    this.#resize = undefined;
    this.#view?.destroy();
    this.#view = undefined;
    // a file still set is read again when the element comes back
    this._status = 'empty';
  }

  get #name(): string {
    return this._shown || (this.file as File | null)?.name || decodeURIComponent(this.src.split(/[?#]/)[0]!.split('/').pop() ?? '');
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (typeof this.page !== 'number' || !Number.isFinite(this.page)) this.page = 1;
    if (typeof this.zoom !== 'number' || !Number.isFinite(this.zoom) || this.zoom < 0) this.zoom = 0;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (!this.isConnected) return;
    if (changed.has('file') || changed.has('src') || (this._status === 'empty' && (this.file || this.src))) {
      void this.#load();
      return;
    }
    if (this._status === 'ready' && this.#view && (changed.has('page') || changed.has('zoom') || changed.has('_status') || changed.has('_shown'))) {
      void this.#draw();
    }
  }

  /** Reads the file, and the first PDF inside a container. */
  async #load(): Promise<void> {
    const load = ++this.#loads;
    // after the update that asked for it, never inside it
    await Promise.resolve();
    if (load !== this.#loads) return;
    this.#view?.destroy();
    this.#view = undefined;
    this._entries = [];
    this._shown = '';
    this._pages = 0;
    this._error = '';
    if (!this.file && !this.src) {
      this._status = 'empty';
      return;
    }
    this._status = 'loading';
    try {
      const bytes = await this.#bytes();
      if (load !== this.#loads) return;
      if (startsWith(bytes, PDF_MAGIC)) {
        await this.#openPdf(bytes, load);
      } else if (startsWith(bytes, ZIP_MAGIC)) {
        const { readContainer } = await loadEngine();
        const entries = dataFiles(readContainer(bytes));
        if (load !== this.#loads) return;
        this._entries = entries;
        const first = entries.find((entry) => isPdfName(entry.name));
        if (first) await this.#showEntry(first, load);
        else this.#loaded(0);
      } else {
        this._status = 'unsupported';
        this.#loaded(0);
      }
    } catch (error) {
      if (load !== this.#loads) return;
      this.#fail(error);
    }
  }

  async #bytes(): Promise<Uint8Array> {
    if (this.file) return new Uint8Array(await this.file.arrayBuffer());
    const url = new URL(this.src, location.href);
    if (url.origin !== location.origin) throw new EsignError('misconfigured', `The preview reads files of the page's own origin only: ${url.origin}`);
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new EsignError(response.status === 404 ? 'document-not-found' : 'service-error', `HTTP ${response.status}`, { httpStatus: response.status });
    return new Uint8Array(await response.arrayBuffer());
  }

  async #openPdf(bytes: Uint8Array, load: number): Promise<void> {
    const { PdfView } = await loadEngine();
    let view: PdfView;
    try {
      view = await PdfView.open(bytes, this.workerSrc);
    } catch (cause) {
      throw cause instanceof EsignError ? cause : new EsignError('document-corrupted', (cause as Error)?.message ?? 'Unreadable PDF', { cause, retryable: false });
    }
    if (load !== this.#loads) {
      view.destroy();
      return;
    }
    this.#view = view;
    this._pages = view.pages;
    this.page = Math.min(Math.max(1, Math.round(this.page)), view.pages);
    this._status = 'ready';
    this.#loaded(view.pages);
  }

  async #showEntry(entry: ContainerEntry, load = this.#loads): Promise<void> {
    this.#view?.destroy();
    this.#view = undefined;
    this._shown = entry.name;
    this.page = 1;
    this._status = 'loading';
    const bytes = await entry.read(MAX_INNER_FILE);
    if (load !== this.#loads) return;
    await this.#openPdf(bytes, load);
  }

  #loaded(pages: number): void {
    if (this._status === 'loading') this._status = 'ready';
    this.emit<PreviewLoadedDetail>('esign-preview-loaded', { fileName: this.#name, pages });
  }

  #fail(error: unknown): void {
    const esignError = error instanceof EsignError ? error : new EsignError('document-corrupted', (error as Error)?.message ?? 'Unreadable file', { cause: error, retryable: false });
    const detail = this.errorDetail(esignError);
    this._error = detail.message;
    this._status = 'error';
    this.emit('esign-error', detail);
  }

  /** The scale the page is drawn at: the chosen zoom, or the width available. */
  async #scaleFor(view: PdfView): Promise<number> {
    if (this.zoom > 0) return this.zoom;
    const { width } = await view.size(this.page);
    const viewport = this.renderRoot.querySelector<HTMLElement>('.viewport');
    if (!viewport) return 1;
    const style = getComputedStyle(viewport);
    const available = viewport.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
    return available > 0 ? Math.min(available / width, ZOOMS.at(-1)!) : 1;
  }

  async #draw(): Promise<void> {
    const view = this.#view;
    const canvas = this.renderRoot.querySelector('canvas');
    const textLayer = this.renderRoot.querySelector<HTMLElement>('.textLayer');
    if (!view || !canvas || !textLayer) return;
    this.#watchWidth();
    try {
      const scale = await this.#scaleFor(view);
      this._scale = scale;
      await view.draw(this.page, scale, canvas, textLayer);
    } catch (error) {
      if (view === this.#view) this.#fail(error);
    }
  }

  /** Fitted to the width, the page follows the element's width (a phone turned, a window resized). */
  #watchWidth(): void {
    if (this.#resize || typeof ResizeObserver === 'undefined') return;
    const viewport = this.renderRoot.querySelector('.viewport');
    if (!viewport) return;
    this.#resize = new ResizeObserver(([entry]) => {
      const width = Math.round(entry?.contentRect.width ?? 0);
      if (width === this.#fitWidth) return;
      const first = this.#fitWidth === 0;
      this.#fitWidth = width;
      // drawn in the next frame: a draw inside the observer's callback would resize what it observes
      if (!first && this.zoom === 0 && this._status === 'ready') requestAnimationFrame(() => void this.#draw());
    });
    this.#resize.observe(viewport);
  }

  /** Shows another page (clamped to the document). */
  goTo(page: number): void {
    this.page = Math.min(Math.max(1, Math.round(page)), Math.max(1, this._pages));
  }

  #zoomBy(direction: 1 | -1): void {
    const current = this.zoom || this._scale;
    const next = direction > 0 ? ZOOMS.find((z) => z > current + 0.01) : [...ZOOMS].reverse().find((z) => z < current - 0.01);
    if (next !== undefined) this.zoom = next;
  }

  #onKeydown(event: KeyboardEvent): void {
    const moves: Record<string, number> = { PageDown: this.page + 1, PageUp: this.page - 1, Home: 1, End: this._pages };
    const target = moves[event.key];
    if (target === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    this.goTo(target);
  }

  #renderToolbar() {
    const first = this.page <= 1;
    const last = this.page >= this._pages;
    const percent = new Intl.NumberFormat(this.language, { style: 'percent', maximumFractionDigits: 0 }).format(this.zoom || this._scale);
    return html`<div class="toolbar" part="toolbar" role="toolbar" aria-label=${this.t('preview.title')}>
      <div class="group">
        <button type="button" class="secondary" part="previous" aria-label=${this.t('preview.previous')} aria-disabled=${first ? 'true' : 'false'} @click=${() => first || this.goTo(this.page - 1)}>‹</button>
        <span class="position" part="position" aria-live="polite">${this.t('preview.page', { page: this.page, pages: this._pages })}</span>
        <button type="button" class="secondary" part="next" aria-label=${this.t('preview.next')} aria-disabled=${last ? 'true' : 'false'} @click=${() => last || this.goTo(this.page + 1)}>›</button>
      </div>
      <div class="group zoom">
        <button type="button" class="secondary" part="zoom-out" aria-label=${this.t('preview.zoom-out')} @click=${() => this.#zoomBy(-1)}>−</button>
        <button type="button" class="secondary" part="fit" aria-pressed=${this.zoom === 0 ? 'true' : 'false'} @click=${() => (this.zoom = 0)}>${this.t('preview.fit')} · ${percent}</button>
        <button type="button" class="secondary" part="zoom-in" aria-label=${this.t('preview.zoom-in')} @click=${() => this.#zoomBy(1)}>+</button>
      </div>
    </div>`;
  }

  #renderFiles() {
    if (!this._entries.length) return nothing;
    return html`<h3 id="files-title">${this.t('preview.files', { count: this._entries.length })}</h3>
      <ul class="files" part="files" aria-labelledby="files-title">
        ${this._entries.map(
          (entry) => html`<li>
            <span class="name">${entry.name}</span>
            <span class="size">${formatSize(entry.size, this.language)}</span>
            ${isPdfName(entry.name)
              ? html`<button type="button" class="secondary" aria-pressed=${entry.name === this._shown ? 'true' : 'false'} @click=${() => this.#show(entry)}>
                  ${this.t('preview.show')}<span class="visually-hidden"> ${entry.name}</span>
                </button>`
              : nothing}
          </li>`,
        )}
      </ul>`;
  }

  #show(entry: ContainerEntry): void {
    if (entry.name === this._shown && this._status === 'ready') return;
    const load = ++this.#loads;
    this.#showEntry(entry, load).catch((error: unknown) => load === this.#loads && this.#fail(error));
  }

  override render() {
    const status = this._status;
    if (status === 'empty') return nothing;
    const showsPdf = this.#view !== undefined && status === 'ready';
    return html`<section class="base" part="base">
      ${this.#renderFiles()}
      ${status === 'loading' ? html`<p class="muted" role="status">${this.t('preview.loading')}</p>` : nothing}
      ${status === 'unsupported' ? html`<p class="message" role="status">${this.t('preview.unsupported')}</p>` : nothing}
      ${status === 'ready' && !showsPdf && this._entries.length ? html`<p class="message" role="status">${this.t('preview.no-pdf')}</p>` : nothing}
      ${status === 'error'
        ? html`<p class="message error" part="error" role="alert"><strong>${this.t('preview.failed')}</strong> <span>${this._error}</span></p>`
        : nothing}
      ${showsPdf
        ? html`${this.#renderToolbar()}
            <div class="viewport" part="viewport" tabindex="0" role="region" aria-label=${this.t('preview.label', { name: this.#name })} @keydown=${this.#onKeydown}>
              <div class="page" part="page">
                <canvas aria-hidden="true"></canvas>
                <div class="textLayer"></div>
              </div>
            </div>`
        : nothing}
    </section>`;
  }
}

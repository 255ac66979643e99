import { html, nothing, type PropertyValues } from 'lit';
import { fileName, fileNameStyles } from '../../internal/documents/file-name.js';
import { viewerStyles } from './viewer.styles.js';
import { EsignError, type EsignErrorDetail } from '../../client/errors.js';
import { formatSize } from '../../internal/documents/file-picker.js';
import { loadOnce } from '../../internal/element/load-once.js';
import { extensionOf } from '../../internal/documents/sign-files.js';
import type { StringKey } from '../../i18n/index.js';
import type { ContainerEntry, PdfView } from './engine.js';
import type { EventDetail } from '../../internal/element/base-element.js';
import { thrownMessage, thrownName } from '../../protocol/checks.js';

type Engine = typeof import('./engine.js');
export type PreviewStatus = 'empty' | 'loading' | 'ready' | 'unsupported' | 'error';

/** What the viewer reads and sets on its element (the element's reactive state). */
export interface PreviewHost extends HTMLElement {
  file: Blob | null;
  src: string;
  page: number;
  zoom: number;
  workerSrc: string;
  _status: PreviewStatus;
  _pages: number;
  _entries: ContainerEntry[];
  _shown: string;
  _scale: number;
  _error: string;
  readonly language: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
  t(key: StringKey, params?: Record<string, string | number>): string;
  goTo(page: number): void;
}

/** What only the element may do, handed to its viewer. */
export interface PreviewHostActions {
  emit<K extends 'esign-preview-loaded' | 'esign-error'>(name: K, detail: EventDetail<K>): void;
  errorDetail(error: unknown): EsignErrorDetail;
}

/** Zoom steps, as a share of the page's own size. */
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
/** The most a file inside a container may inflate to, for its preview. */
const MAX_INNER_FILE = 100 * 1024 * 1024;
const PDF_MAGIC = '%PDF-';
const ZIP_MAGIC = 'PK\u0003\u0004';

const loadEngine = loadOnce((): Promise<Engine> => import('./engine.js'));

function startsWith(bytes: Uint8Array, magic: string): boolean {
  return [...magic].every((ch, i) => bytes[i] === ch.charCodeAt(0));
}

/** The files of a container a person signs (its own signatures and manifest left out). */
function dataFiles(entries: ContainerEntry[]): ContainerEntry[] {
  return entries.filter((entry) => entry.name !== 'mimetype' && !entry.name.startsWith('META-INF/'));
}

const isPdfName = (name: string) => extensionOf(name) === 'pdf';
/** The name of engine.ts's error for a worker that cannot start (named here: the engine loads only when needed). */
const WORKER_FAILED = 'PreviewWorkerError';

/** The viewer's own styles, added to the element's when the viewer arrives. */
export const VIEWER_STYLES = [fileNameStyles, viewerStyles];

/**
 * Everything esign-document-preview does once a file is given: reading it (a PDF, or the files of
 * a container), drawing pages with PDF.js, paging, zoom and fitting the width, and the toolbar,
 * list and page it renders. Loaded with the first file, as the preview's engine is.
 */
export class PreviewViewer {
  #view: PdfView | undefined;
  #loads = 0;
  #resize: ResizeObserver | undefined;
  #fitWidth = 0;
  /** The page last drawn: another page starts at its top. */
  #drawnPage = 0;
  /** The shown PDF as an address the browser's own viewer opens, where a phone's zoom works. */
  #openUrl = '';

  constructor(
    private readonly host: PreviewHost,
    private readonly actions: PreviewHostActions,
  ) {}

  disconnected(): void {
    this.#forgetOpenUrl();
    this.#resize?.disconnect();
    this.#resize = undefined;
    this.#view?.destroy();
    this.#view = undefined;
  }

  get #name(): string {
    const host = this.host;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a file shown is a File when the host gave one (a Blob has no name: the fallback)
    return host._shown || (host.file as File | null)?.name || decodeURIComponent(host.src.split(/[?#]/)[0]?.split('/').pop() ?? '');
  }

  /** Reads the element's file (or address) now. */
  read(): void {
    void this.#load();
  }

  updated(changed: PropertyValues): void {
    const host = this.host;
    if (changed.has('file') || changed.has('src') || (host._status === 'empty' && (host.file || host.src))) {
      void this.#load();
      return;
    }
    if (host._status === 'ready' && this.#view && (changed.has('page') || changed.has('zoom') || changed.has('_status') || changed.has('_shown'))) {
      void this.#draw();
    }
  }

  /** Reads the file, and the first PDF inside a container. */
  async #load(): Promise<void> {
    const host = this.host;
    const load = ++this.#loads;
    // after the update that asked for it, never inside it
    await Promise.resolve();
    if (load !== this.#loads) return;
    this.#view?.destroy();
    this.#view = undefined;
    this.#forgetOpenUrl();
    this.#drawnPage = 0;
    host._entries = [];
    host._shown = '';
    host._pages = 0;
    host._error = '';
    if (!host.file && !host.src) {
      host._status = 'empty';
      return;
    }
    host._status = 'loading';
    try {
      const bytes = await this.#bytes();
      if (load !== this.#loads) return;
      if (startsWith(bytes, PDF_MAGIC)) {
        await this.#openPdf(bytes, load);
      } else if (startsWith(bytes, ZIP_MAGIC)) {
        const { readContainer } = await loadEngine();
        const entries = dataFiles(readContainer(bytes));
        if (load !== this.#loads) return;
        host._entries = entries;
        const first = entries.find((entry) => isPdfName(entry.name));
        if (first) await this.#showEntry(first, load);
        else this.#loaded(0);
      } else {
        host._status = 'unsupported';
        this.#loaded(0);
      }
    } catch (error) {
      if (load !== this.#loads) return;
      this.fail(error);
    }
  }

  async #bytes(): Promise<Uint8Array> {
    const { file, src } = this.host;
    if (file) return new Uint8Array(await file.arrayBuffer());
    const url = new URL(src, location.href);
    if (url.origin !== location.origin) throw new EsignError('misconfigured', `The preview reads files of the page's own origin only: ${url.origin}`);
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok)
      throw new EsignError(response.status === 404 ? 'document-not-found' : 'service-error', `HTTP ${response.status}`, { httpStatus: response.status });
    return new Uint8Array(await response.arrayBuffer());
  }

  #forgetOpenUrl(): void {
    if (this.#openUrl) URL.revokeObjectURL(this.#openUrl);
    this.#openUrl = '';
  }

  async #openPdf(bytes: Uint8Array, load: number): Promise<void> {
    const host = this.host;
    // the Blob keeps its own copy: made before PDF.js takes the bytes to its worker
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- bytes of an ArrayBuffer, which a Blob takes (the DOM types ask for a narrower buffer)
    const blob = new Blob([bytes as BlobPart], { type: 'application/pdf' });
    const { PdfView } = await loadEngine();
    let view: PdfView;
    try {
      view = await PdfView.open(bytes, host.workerSrc);
    } catch (cause) {
      if (cause instanceof EsignError) throw cause;
      const message = thrownMessage(cause) ?? 'Unreadable PDF';
      // the file may be fine: the page does not serve PDF.js's worker where the preview looks for it
      if (thrownName(cause) === WORKER_FAILED) throw new EsignError('misconfigured', message, { cause, retryable: false });
      throw new EsignError('document-corrupted', message, { cause, retryable: false });
    }
    if (load !== this.#loads) {
      view.destroy();
      return;
    }
    this.#view = view;
    this.#forgetOpenUrl();
    this.#openUrl = URL.createObjectURL(blob);
    host._pages = view.pages;
    host.page = Math.min(Math.max(1, Math.round(host.page)), view.pages);
    host._status = 'ready';
    this.#loaded(view.pages);
  }

  async #showEntry(entry: ContainerEntry, load = this.#loads): Promise<void> {
    const host = this.host;
    this.#view?.destroy();
    this.#view = undefined;
    this.#forgetOpenUrl();
    host._shown = entry.name;
    host.page = 1;
    host._status = 'loading';
    const bytes = await entry.read(MAX_INNER_FILE);
    if (load !== this.#loads) return;
    await this.#openPdf(bytes, load);
  }

  #loaded(pages: number): void {
    if (this.host._status === 'loading') this.host._status = 'ready';
    this.actions.emit('esign-preview-loaded', { fileName: this.#name, pages });
  }

  /** A failure said in the preview and sent as `esign-error`. */
  fail(error: unknown): void {
    const esignError =
      error instanceof EsignError ? error : new EsignError('document-corrupted', thrownMessage(error) ?? 'Unreadable file', { cause: error, retryable: false });
    const detail = this.actions.errorDetail(esignError);
    this.host._error = detail.message;
    this.host._status = 'error';
    this.actions.emit('esign-error', detail);
  }

  /** The scale the page is drawn at: the chosen zoom, or the width available. */
  async #scaleFor(view: PdfView): Promise<number> {
    const host = this.host;
    if (host.zoom > 0) return host.zoom;
    const { width } = await view.size(host.page);
    const viewport = host.renderRoot.querySelector<HTMLElement>('.viewport');
    if (!viewport) return 1;
    const style = getComputedStyle(viewport);
    const available = viewport.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
    return available > 0 ? Math.min(available / width, ZOOMS.at(-1) ?? 1) : 1;
  }

  async #draw(): Promise<void> {
    const host = this.host;
    const view = this.#view;
    const canvas = host.renderRoot.querySelector('canvas');
    const textLayer = host.renderRoot.querySelector<HTMLElement>('.textLayer');
    if (!view || !canvas || !textLayer) return;
    this.#watchWidth();
    try {
      const scale = await this.#scaleFor(view);
      host._scale = scale;
      const page = host.page;
      await view.draw(page, scale, canvas, textLayer);
      if (page !== this.#drawnPage) host.renderRoot.querySelector('.viewport')?.scrollTo({ top: 0, behavior: 'instant' });
      this.#drawnPage = page;
    } catch (error) {
      if (view === this.#view) this.fail(error);
    }
  }

  /** Fitted to the width, the page follows the element's width (a phone turned, a window resized). */
  #watchWidth(): void {
    if (this.#resize || typeof ResizeObserver === 'undefined') return;
    const host = this.host;
    const viewport = host.renderRoot.querySelector('.viewport');
    if (!viewport) return;
    this.#resize = new ResizeObserver(([entry]) => {
      const width = Math.round(entry?.contentRect.width ?? 0);
      if (width === this.#fitWidth) return;
      const first = this.#fitWidth === 0;
      this.#fitWidth = width;
      // drawn in the next frame: a draw inside the observer's callback would resize what it observes
      if (!first && host.zoom === 0 && host._status === 'ready') requestAnimationFrame(() => void this.#draw());
    });
    this.#resize.observe(viewport);
  }

  #zoomBy(direction: 1 | -1): void {
    const host = this.host;
    const current = host.zoom || host._scale;
    const next = direction > 0 ? ZOOMS.find((z) => z > current + 0.01) : [...ZOOMS].reverse().find((z) => z < current - 0.01);
    if (next !== undefined) host.zoom = next;
  }

  #onKeydown = (event: KeyboardEvent): void => {
    const host = this.host;
    const moves: Record<string, number> = { PageDown: host.page + 1, PageUp: host.page - 1, Home: 1, End: host._pages };
    const target = moves[event.key];
    if (target === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    host.goTo(target);
  };

  #renderToolbar() {
    const host = this.host;
    const first = host.page <= 1;
    const last = host.page >= host._pages;
    const percent = new Intl.NumberFormat(host.language, { style: 'percent', maximumFractionDigits: 0 }).format(host.zoom || host._scale);
    return html`<div class="toolbar" part="toolbar" role="toolbar" aria-label=${host.t('preview.title')}>
      <div class="group">
        <button type="button" class="secondary" part="previous" aria-label=${host.t('preview.previous')} aria-disabled=${first ? 'true' : 'false'} @click=${() => first || host.goTo(host.page - 1)}>‹</button>
        <span class="position" part="position" aria-live="polite"
          ><span aria-hidden="true">${host.page} / ${host._pages}</span><span class="visually-hidden">${host.t('preview.page', { page: host.page, pages: host._pages })}</span></span
        >
        <button type="button" class="secondary" part="next" aria-label=${host.t('preview.next')} aria-disabled=${last ? 'true' : 'false'} @click=${() => last || host.goTo(host.page + 1)}>›</button>
      </div>
      <div class="group zoom">
        <button type="button" class="secondary" part="zoom-out" aria-label=${host.t('preview.zoom-out')} @click=${() => this.#zoomBy(-1)}>−</button>
        <button type="button" class="secondary" part="fit" aria-label=${`${host.t('preview.fit')} ${percent}`} aria-pressed=${host.zoom === 0 ? 'true' : 'false'} @click=${() => (host.zoom = 0)}>${percent}</button>
        <button type="button" class="secondary" part="zoom-in" aria-label=${host.t('preview.zoom-in')} @click=${() => this.#zoomBy(1)}>+</button>
      </div>
    </div>`;
  }

  #renderFiles() {
    const host = this.host;
    if (!host._entries.length) return nothing;
    return html`<h3 id="files-title">${host.t('preview.files', { count: host._entries.length })}</h3>
      <ul class="files" part="files" aria-labelledby="files-title">
        ${host._entries.map(
          (entry) => html`<li>
            ${fileName(entry.name)}
            <span class="size">${formatSize(entry.size, host.language)}</span>
            ${
              isPdfName(entry.name)
                ? html`<button type="button" class="secondary" aria-pressed=${entry.name === host._shown ? 'true' : 'false'} @click=${() => this.#show(entry)}>
                  ${host.t('preview.show')}<span class="visually-hidden"> ${entry.name}</span>
                </button>`
                : nothing
            }
          </li>`,
        )}
      </ul>`;
  }

  #show(entry: ContainerEntry): void {
    if (entry.name === this.host._shown && this.host._status === 'ready') return;
    const load = ++this.#loads;
    this.#showEntry(entry, load).catch((error: unknown) => load === this.#loads && this.fail(error));
  }

  /** What the preview shows inside its frame, its loading and failure messages aside. */
  render() {
    const host = this.host;
    const status = host._status;
    const showsPdf = this.#view !== undefined && status === 'ready';
    return html`${this.#renderFiles()}
    ${status === 'unsupported' ? html`<p class="message" role="status">${host.t('preview.unsupported')}</p>` : nothing}
    ${status === 'ready' && !showsPdf && host._entries.length ? html`<p class="message" role="status">${host.t('preview.no-pdf')}</p>` : nothing}
    ${
      showsPdf
        ? html`${host._entries.length ? html`<p class="shown" part="shown">${host.t('preview.shown')} ${fileName(this.#name)}</p>` : nothing}
          ${this.#renderToolbar()}
          <div class="viewport" part="viewport" tabindex="0" role="region" aria-label=${host.t('preview.label', { name: this.#name })} @keydown=${this.#onKeydown}>
            <div class="page" part="page">
              <canvas aria-hidden="true"></canvas>
              <div class="textLayer"></div>
            </div>
          </div>
          <a class="open" part="open" href=${this.#openUrl} download=${this.#name}>${host.t('preview.open', { name: this.#name })}</a>`
        : nothing
    }`;
  }
}

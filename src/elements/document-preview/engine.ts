/**
 * What draws a preview, loaded only when one is shown: Mozilla's PDF.js (beside the widget's
 * files as `esign-elements-pdf.js`, its worker as `esign-elements-pdf-worker.js`) and the
 * container reader.
 */
import { PDFWorker, TextLayer, VerbosityLevel, getDocument, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist/legacy/build/pdf.mjs';

export { readContainer, type ContainerEntry } from './zip.js';

/** A canvas's 2D context: a browser that will not give one (out of memory, say) fails the page's drawing, said as any failure to draw. */
function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  const context = canvas.getContext('2d');
  if (!context) throw new Error('the browser gave no 2D context for the preview');
  return context;
}

/** The worker beside this module, in the package and in the script-tag files alike. */
const DEFAULT_WORKER = new URL(/* @vite-ignore */ './esign-elements-pdf-worker.js', import.meta.url).href;
/** The most pixels one page's canvas may hold (phones refuse larger canvases). */
const MAX_CANVAS_PIXELS = 16_000_000;

interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}
let policy: ScriptUrlPolicy | undefined;

/**
 * The worker's URL as Trusted Types require it where a page enforces them (`esign-elements`
 * policy); only a URL of the page's own origin or of the widget's passes.
 */
function trustedWorkerUrl(url: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- trustedTypes is in no DOM types every TypeScript has; the parts of it used here
  const types = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: { createScriptURL(url: string): string }): ScriptUrlPolicy } })
    .trustedTypes;
  if (!types) return url;
  policy ??= types.createPolicy('esign-elements', {
    createScriptURL: (candidate) => {
      const origin = new URL(candidate, location.href).origin;
      if (origin !== location.origin && origin !== new URL(import.meta.url).origin) throw new TypeError(`Refused worker ${candidate}`);
      return candidate;
    },
  });
  return policy.createScriptURL(url);
}

/** A worker of the document's own, created here so Trusted Types can allow it; ended with the document. */
function startWorker(src: string): { port: Worker; worker: PDFWorker } {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a TrustedScriptURL is what the Worker takes under Trusted Types, typed as a string for the DOM types without it
  const port = new Worker(trustedWorkerUrl(src) as string, { type: 'module' });
  // the declared type of `port` is narrower than what PDF.js takes (a Worker or a MessagePort)
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- PDF.js's worker port takes a Worker, typed by PDF.js more narrowly
  return { port, worker: new PDFWorker({ port: port as never }) };
}

/** The name of the error a worker that cannot start is opened with (viewer.ts knows it). */
const WORKER_FAILED = 'PreviewWorkerError';

export interface PageSize {
  width: number;
  height: number;
}

/** An opened PDF: its page count, each page's size, and drawing a page with its text layer. */
export class PdfView {
  readonly pages: number;
  readonly #doc: PDFDocumentProxy;
  readonly #worker: { port: Worker; worker: PDFWorker };
  #task: RenderTask | undefined;
  /** Counts draws: only the newest one touches the canvas and the text layer. */
  #draws = 0;

  private constructor(doc: PDFDocumentProxy, worker: { port: Worker; worker: PDFWorker }) {
    this.#doc = doc;
    this.#worker = worker;
    this.pages = doc.numPages;
  }

  static async open(bytes: Uint8Array, workerSrc = ''): Promise<PdfView> {
    const src = workerSrc || DEFAULT_WORKER;
    const worker = startWorker(src);
    // a worker that cannot start (not found, not a script) says so: PDF.js alone would wait for it forever
    const unstarted = new Promise<never>((_, reject) =>
      worker.port.addEventListener('error', (event) => {
        event.preventDefault();
        reject(Object.assign(new Error(`The PDF worker could not be started: ${src}`), { name: WORKER_FAILED }));
      }),
    );
    // the worker takes the bytes it is given: a copy, so the caller keeps its own
    const task = getDocument({ data: bytes.slice(), worker: worker.worker, verbosity: VerbosityLevel.ERRORS });
    try {
      return new PdfView(await Promise.race([task.promise, unstarted]), worker);
    } catch (error) {
      void task.destroy();
      worker.worker.destroy();
      worker.port.terminate();
      throw error;
    }
  }

  /** A page's size at scale 1, in CSS pixels. */
  async size(pageNumber: number): Promise<PageSize> {
    const { width, height } = (await this.#doc.getPage(pageNumber)).getViewport({ scale: 1 });
    return { width, height };
  }

  /**
   * Draws a page at a scale into the canvas (sharp on dense screens) and its text into the text
   * layer, so screen readers and search read the document. A newer draw cancels an older one.
   */
  async draw(pageNumber: number, scale: number, canvas: HTMLCanvasElement, textLayer: HTMLElement): Promise<boolean> {
    const draw = ++this.#draws;
    const page = await this.#doc.getPage(pageNumber);
    if (draw !== this.#draws) return false;
    // one render on a canvas at a time: the older one stops here
    this.#task?.cancel();
    const viewport = page.getViewport({ scale });
    const dense = Math.min(globalThis.devicePixelRatio || 1, 3, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
    canvas.width = Math.floor(viewport.width * dense);
    canvas.height = Math.floor(viewport.height * dense);
    canvas.style.width = `${Math.floor(viewport.width)}px`;
    canvas.style.height = `${Math.floor(viewport.height)}px`;
    const task = page.render({ canvas, canvasContext: context2d(canvas), viewport, ...(dense === 1 ? {} : { transform: [dense, 0, 0, dense, 0, 0] }) });
    this.#task = task;
    try {
      await task.promise;
    } catch (error) {
      // PDF.js's own exception; this chunk imports nothing but PDF.js (one engine for every element's file)
      if (typeof error === 'object' && error !== null && 'name' in error && error.name === 'RenderingCancelledException') return false;
      throw error;
    }
    if (draw !== this.#draws) return false;
    textLayer.replaceChildren();
    textLayer.style.setProperty('--total-scale-factor', String(scale));
    await new TextLayer({ textContentSource: page.streamTextContent(), container: textLayer, viewport }).render();
    // PDF.js measures text on canvases it appends to the page's body, outside every landmark: gone once a layer is drawn
    TextLayer.cleanup();
    return draw === this.#draws;
  }

  destroy(): void {
    this.#task?.cancel();
    void this.#doc.destroy().finally(() => {
      this.#worker.worker.destroy();
      this.#worker.port.terminate();
    });
  }
}

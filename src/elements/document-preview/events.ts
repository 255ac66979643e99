// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
export interface PreviewLoadedDetail {
  /** The name of the file shown (inside a container: of the PDF shown). */
  fileName: string;
  /** Its pages; 0 when there is nothing to draw (another type, or a container without a PDF). */
  pages: number;
}

declare global {
  interface HTMLElementEventMap {
    'esign-preview-loaded': CustomEvent<PreviewLoadedDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-preview-loaded': CustomEvent<PreviewLoadedDetail>;
  }
}

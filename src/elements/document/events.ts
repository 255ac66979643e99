// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
export interface DocumentRemovedDetail {
  documentId: string;
}

export interface DocumentDownloadedDetail {
  documentId: string;
  /** The stored file (the signed one, once signed), named and typed. */
  file: File;
}

declare global {
  interface HTMLElementEventMap {
    'esign-document-removed': CustomEvent<DocumentRemovedDetail>;
    'esign-document-downloaded': CustomEvent<DocumentDownloadedDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-document-removed': CustomEvent<DocumentRemovedDetail>;
    'esign-document-downloaded': CustomEvent<DocumentDownloadedDetail>;
  }
}

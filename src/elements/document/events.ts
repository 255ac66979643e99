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
}

export interface DocumentRemovedDetail {
  documentId: string;
}

declare global {
  interface HTMLElementEventMap {
    'esign-document-removed': CustomEvent<DocumentRemovedDetail>;
  }
}

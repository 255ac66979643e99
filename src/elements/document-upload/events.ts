// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
import type { InvitedSigner } from '../../protocol/types.js';

export interface DocumentUploadedDetail {
  uuid: string;
  /** The uploaded file's name (the service keeps it; a host can give it to esign-document as file-name). */
  fileName: string;
  signers: InvitedSigner[];
}

declare global {
  interface HTMLElementEventMap {
    'esign-document-uploaded': CustomEvent<DocumentUploadedDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-document-uploaded': CustomEvent<DocumentUploadedDetail>;
  }
}

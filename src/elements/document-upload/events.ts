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
}

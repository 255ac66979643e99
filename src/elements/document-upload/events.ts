import type { InvitedSigner } from '../../client/types.js';

export interface DocumentUploadedDetail {
  uuid: string;
  signers: InvitedSigner[];
}

declare global {
  interface HTMLElementEventMap {
    'esign-document-uploaded': CustomEvent<DocumentUploadedDetail>;
  }
}

import type { InvitedSigner, SignerEntry } from '../../client/types.js';

export interface SignersLoadedDetail {
  documentId: string;
  signers: SignerEntry[];
}

export interface SignerInvitedDetail {
  documentId: string;
  signers: InvitedSigner[];
}

export interface SignerRemovedDetail {
  documentId: string;
  name: string;
  surname: string;
}

declare global {
  interface HTMLElementEventMap {
    'esign-signers-loaded': CustomEvent<SignersLoadedDetail>;
    'esign-signer-invited': CustomEvent<SignerInvitedDetail>;
    'esign-signer-removed': CustomEvent<SignerRemovedDetail>;
  }
}

// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
import type { InvitedSigner, SignerEntry } from '../../protocol/types.js';

export interface SignersLoadedDetail {
  documentId: string;
  signers: SignerEntry[];
}

export interface SignerInvitedDetail {
  documentId: string;
  signers: InvitedSigner[];
}

/** A signer added with a temporary link, as the service identifies it for removal. */
export interface TemporarySignerName {
  name: string;
  surname: string;
}

export interface SignerRemovedDetail {
  documentId: string;
  name: string;
  surname: string;
}

declare global {
  interface HTMLElementEventMap {
    /** A removal confirmation opened for this signer (bubbles, not composed). */
    'esign-confirm-open': CustomEvent<TemporarySignerName>;
    'esign-signers-loaded': CustomEvent<SignersLoadedDetail>;
    'esign-signer-invited': CustomEvent<SignerInvitedDetail>;
    'esign-signer-removed': CustomEvent<SignerRemovedDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    /** A removal confirmation opened for this signer (bubbles, not composed). */
    'esign-confirm-open': CustomEvent<TemporarySignerName>;
    'esign-signers-loaded': CustomEvent<SignersLoadedDetail>;
    'esign-signer-invited': CustomEvent<SignerInvitedDetail>;
    'esign-signer-removed': CustomEvent<SignerRemovedDetail>;
  }
}

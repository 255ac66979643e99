import type { TemporarySigningLink, TemporarySigningLinkResponse } from '../../protocol/types.js';
import type { TemporarySignerName } from '../signer-list/events.js';

export interface SigningLinkCreatedDetail {
  documentId: string;
  links: TemporarySigningLink[];
  /** The temporary signers given with the link (by name, as the service removes them). */
  signers: TemporarySignerName[];
  raw: TemporarySigningLinkResponse;
}

declare global {
  interface HTMLElementEventMap {
    'esign-signing-link-created': CustomEvent<SigningLinkCreatedDetail>;
  }
}

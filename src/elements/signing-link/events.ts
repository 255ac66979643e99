// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
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
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-signing-link-created': CustomEvent<SigningLinkCreatedDetail>;
  }
}

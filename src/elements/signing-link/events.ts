import type { TemporarySigningLink, TemporarySigningLinkResponse } from '../../client/types.js';

export interface SigningLinkCreatedDetail {
  documentId: string;
  links: TemporarySigningLink[];
  raw: TemporarySigningLinkResponse;
}

declare global {
  interface HTMLElementEventMap {
    'esign-signing-link-created': CustomEvent<SigningLinkCreatedDetail>;
  }
}

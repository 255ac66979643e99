// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
import type { Channel } from '../../client/client.js';
import type { HashAlgorithm, HashSignStatusResponse } from '../../protocol/types.js';

export interface HashSignedDetail {
  /** Base64; raw r||s for an ECDSA P-256 key. */
  signatureValue: string;
  /** Lowercase hex of the signed hash. */
  hash: string;
  hashAlgorithm: HashAlgorithm;
  token: string;
  channel: Channel;
  raw: HashSignStatusResponse;
}

declare global {
  interface HTMLElementEventMap {
    'esign-hash-signed': CustomEvent<HashSignedDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-hash-signed': CustomEvent<HashSignedDetail>;
  }
}

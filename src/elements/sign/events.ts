// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
import type { CamelCased } from '../../protocol/camel.js';
import type { Channel } from '../../client/client.js';
import type { PepsRecord, SanctionsRecord, SignStatusResponse } from '../../protocol/types.js';

export interface SignedDetail {
  /**
   * The signed file: base64 `content`, and `blob`, a File with the right name and MIME type. `name` is
   * in the person's language (`contract (signed).pdf`); the service's own is `raw.file.name`.
   */
  file: { name: string; content: string; digest: string; type: string; blob: File };
  signatureId: string;
  person: { name: string; surname: string };
  pepsData: CamelCased<PepsRecord>[];
  sanctionsData: CamelCased<SanctionsRecord>[];
  token: string;
  channel: Channel;
  result: CamelCased<SignStatusResponse>;
  raw: SignStatusResponse;
}

declare global {
  interface HTMLElementEventMap {
    'esign-signed': CustomEvent<SignedDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-signed': CustomEvent<SignedDetail>;
  }
}

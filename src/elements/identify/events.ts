// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
import type { CamelCased } from '../../protocol/camel.js';
import type { Channel } from '../../client/client.js';
import type { CancelledDetail, StartedDetail } from '../../internal/session/session-events.js';
import type { Certificate, Country, IdentificationStatusResponse, PepsRecord, SanctionsRecord } from '../../protocol/types.js';

export type { CancelledDetail, StartedDetail };

export interface AuthenticatedDetail {
  /** A person is a country and a code: pass `country` and `code` on to a signing element's `signer` as they are. */
  person: { name: string; surname: string; code: string; country: Country };
  certificate: CamelCased<Certificate>;
  token: string;
  channel: Channel;
  pepsData: CamelCased<PepsRecord>[];
  sanctionsData: CamelCased<SanctionsRecord>[];
  /** The whole identification status answer in camelCase. */
  result: CamelCased<IdentificationStatusResponse>;
  /** The answer as the service sent it. */
  raw: IdentificationStatusResponse;
}

declare global {
  interface HTMLElementEventMap {
    'esign-authenticated': CustomEvent<AuthenticatedDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-authenticated': CustomEvent<AuthenticatedDetail>;
  }
}

import type { CamelCased } from '../../protocol/camel.js';
import type { Channel } from '../../client/client.js';
import type { EsignErrorDetail } from '../../client/errors.js';
import type { CancelledDetail, StartedDetail } from '../../internal/session-events.js';
import type { Certificate, IdentificationStatusResponse, PepsRecord, SanctionsRecord } from '../../protocol/types.js';

export type { CancelledDetail, StartedDetail };

export interface AuthenticatedDetail {
  person: { name: string; surname: string; code: string; country: string };
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
    'esign-started': CustomEvent<StartedDetail>;
    'esign-authenticated': CustomEvent<AuthenticatedDetail>;
    'esign-cancelled': CustomEvent<CancelledDetail>;
    'esign-error': CustomEvent<EsignErrorDetail>;
    'esign-cancel-request': CustomEvent<undefined>;
    'esign-person-submit': CustomEvent<unknown>;
  }
}

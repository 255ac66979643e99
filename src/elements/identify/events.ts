import type { CamelCased } from '../../client/camel.js';
import type { Channel } from '../../client/client.js';
import type { EsignErrorDetail } from '../../client/errors.js';
import type { Certificate, IdentificationStatusResponse, PepsRecord, SanctionsRecord } from '../../client/types.js';

export interface StartedDetail {
  token: string;
  channel: Channel;
  controlCode: string;
  kind: 'login' | 'sign' | 'hash';
}

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

export interface CancelledDetail {
  token: string;
  channel: Channel;
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

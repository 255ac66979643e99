import type { EsignErrorDetail } from '../../client/errors.js';
import type { CancelledDetail, StartedDetail } from '../session/session-events.js';

/*
 * The events every element of the package may fire, declared once: each element's events.ts
 * imports this, so a page that imports one element's entry alone gets them typed too.
 */

declare global {
  interface HTMLElementEventMap {
    'esign-error': CustomEvent<EsignErrorDetail>;
    'esign-started': CustomEvent<StartedDetail>;
    'esign-cancelled': CustomEvent<CancelledDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-error': CustomEvent<EsignErrorDetail>;
    'esign-started': CustomEvent<StartedDetail>;
    'esign-cancelled': CustomEvent<CancelledDetail>;
  }
}

export {};

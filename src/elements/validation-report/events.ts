// the events every element may fire (esign-error, esign-started, esign-cancelled), declared once
import '../../internal/element/shared-events.js';
import type { ValidationReport } from '../../protocol/types.js';

export interface ValidatedDetail {
  /** The stored document's uuid; empty for a file checked without storing it. */
  documentId: string;
  /** The checked file's name, for a file checked without storing it. */
  fileName?: string;
  report: ValidationReport;
  validSignatures: number;
  signatures: number;
}

declare global {
  interface HTMLElementEventMap {
    'esign-validated': CustomEvent<ValidatedDetail>;
  }
  /** The same events, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-validated': CustomEvent<ValidatedDetail>;
  }
}

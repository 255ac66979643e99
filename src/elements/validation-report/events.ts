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
}

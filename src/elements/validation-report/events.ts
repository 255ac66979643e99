import type { ValidationReport } from '../../client/types.js';

export interface ValidatedDetail {
  documentId: string;
  report: ValidationReport;
  validSignatures: number;
  signatures: number;
}

declare global {
  interface HTMLElementEventMap {
    'esign-validated': CustomEvent<ValidatedDetail>;
  }
}

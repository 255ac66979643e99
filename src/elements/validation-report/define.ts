/** Registers <esign-validation-report>; safe to import twice. */
import { EsignValidationReport } from './validation-report.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-validation-report', EsignValidationReport);

export { EsignValidationReport };

declare global {
  interface HTMLElementTagNameMap {
    'esign-validation-report': EsignValidationReport;
  }
}

/** Registers <esign-validation-report>; safe to import twice. */
import { EsignValidationReport } from './validation-report.js';
import { defineElement } from '../../internal/define.js';

defineElement('esign-validation-report', EsignValidationReport);

export { EsignValidationReport };

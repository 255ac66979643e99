/** Registers <esign-document> and the elements it is made of; safe to import twice. */
import { EsignDocument } from '../elements/document/document.js';
import { defineElement } from '../internal/define.js';
import './signer-list.js';
import './signing-link.js';
import './validation-report.js';

defineElement('esign-document', EsignDocument);

export { EsignDocument };

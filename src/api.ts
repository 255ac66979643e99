/** Everything the package offers, but the phone-message check (in index.ts; the script-tag files leave it out). */
export * from './api-shared.js';
export { ELEMENTS } from './elements.js';
export { EsignIdentify } from './elements/identify/identify.js';
export { EsignPersonForm } from './elements/person-form/person-form.js';
export { EsignControlCode } from './elements/control-code/control-code.js';
export { EsignStatus } from './elements/status/status.js';
export { EsignSign } from './elements/sign/sign.js';
export { EsignHashSign } from './elements/hash-sign/hash-sign.js';
export { EsignDocumentUpload } from './elements/document-upload/document-upload.js';
export { EsignSignerList } from './elements/signer-list/signer-list.js';
export { EsignValidationReport } from './elements/validation-report/validation-report.js';
export { EsignSigningLink } from './elements/signing-link/signing-link.js';
export { EsignDocument } from './elements/document/document.js';
export { EsignDocumentPreview } from './elements/document-preview/document-preview.js';
export { readReport } from './elements/validation-report/read-report.js';
export { EsignDocumentElement } from './internal/document-element.js';

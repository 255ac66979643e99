// Made from src/registry.ts by `npm run registry`: change the registry, not this file.
import { EsignIdentify } from './elements/identify/identify.js';
import { EsignSign } from './elements/sign/sign.js';
import { EsignHashSign } from './elements/hash-sign/hash-sign.js';
import { EsignDocumentUpload } from './elements/document-upload/document-upload.js';
import { EsignSignerList } from './elements/signer-list/signer-list.js';
import { EsignValidationReport } from './elements/validation-report/validation-report.js';
import { EsignSigningLink } from './elements/signing-link/signing-link.js';
import { EsignDocument } from './elements/document/document.js';
import { EsignDocumentPreview } from './elements/document-preview/document-preview.js';
import { EsignPersonForm } from './elements/person-form/person-form.js';
import { EsignControlCode } from './elements/control-code/control-code.js';
import { EsignStatus } from './elements/status/status.js';
// the event maps of every element, for a page (and its types) that imports the elements through this file
import './elements/identify/events.js';
import './elements/sign/events.js';
import './elements/hash-sign/events.js';
import './elements/document-upload/events.js';
import './elements/signer-list/events.js';
import './elements/validation-report/events.js';
import './elements/signing-link/events.js';
import './elements/document/events.js';
import './elements/document-preview/events.js';
import './elements/person-form/events.js';
import './elements/status/events.js';

export { EsignIdentify, EsignSign, EsignHashSign, EsignDocumentUpload, EsignSignerList, EsignValidationReport, EsignSigningLink, EsignDocument, EsignDocumentPreview, EsignPersonForm, EsignControlCode, EsignStatus };

/** Every element of the package, by tag name. */
export const ELEMENTS: Record<string, CustomElementConstructor> = {
  'esign-identify': EsignIdentify,
  'esign-sign': EsignSign,
  'esign-hash-sign': EsignHashSign,
  'esign-document-upload': EsignDocumentUpload,
  'esign-signer-list': EsignSignerList,
  'esign-validation-report': EsignValidationReport,
  'esign-signing-link': EsignSigningLink,
  'esign-document': EsignDocument,
  'esign-document-preview': EsignDocumentPreview,
  'esign-person-form': EsignPersonForm,
  'esign-control-code': EsignControlCode,
  'esign-status': EsignStatus,
};

declare global {
  interface HTMLElementTagNameMap {
    'esign-identify': EsignIdentify;
    'esign-sign': EsignSign;
    'esign-hash-sign': EsignHashSign;
    'esign-document-upload': EsignDocumentUpload;
    'esign-signer-list': EsignSignerList;
    'esign-validation-report': EsignValidationReport;
    'esign-signing-link': EsignSigningLink;
    'esign-document': EsignDocument;
    'esign-document-preview': EsignDocumentPreview;
    'esign-person-form': EsignPersonForm;
    'esign-control-code': EsignControlCode;
    'esign-status': EsignStatus;
  }
}

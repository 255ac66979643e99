// Made from src/registry.ts by `npm run registry`: change the registry, not this file.
/**
 * What each element takes in a framework's template, independent of the framework: its own
 * properties (list properties also in their attribute form), its attributes with a dash, and the
 * names of its events. React's JSX types and Vue's component types are made from this.
 */
import type { ElementSpec } from './element-spec.js';
import type { EsignControlCode } from '../elements/control-code/control-code.js';
import type { EsignDocument } from '../elements/document/document.js';
import type { EsignDocumentPreview } from '../elements/document-preview/document-preview.js';
import type { EsignDocumentUpload } from '../elements/document-upload/document-upload.js';
import type { EsignHashSign } from '../elements/hash-sign/hash-sign.js';
import type { EsignIdentify } from '../elements/identify/identify.js';
import type { EsignPersonForm } from '../elements/person-form/person-form.js';
import type { EsignSign } from '../elements/sign/sign.js';
import type { EsignSignerList } from '../elements/signer-list/signer-list.js';
import type { EsignSigningLink } from '../elements/signing-link/signing-link.js';
import type { EsignStatus } from '../elements/status/status.js';
import type { EsignValidationReport } from '../elements/validation-report/validation-report.js';

export type { ElementAttributes, ElementProperties, ElementSpec, WithAttributeForm } from './element-spec.js';

export interface EsignElementSpecs {
  'esign-identify': ElementSpec<EsignIdentify, { 'message-format': 'messageFormat'; 'poll-interval': 'pollInterval'; 'time-limit': 'timeLimit'; 'hide-success': 'hideSuccess'; 'phone-language': 'phoneLanguage' }, 'esign-started' | 'esign-cancelled' | 'esign-error' | 'esign-authenticated'>;
  'esign-sign': ElementSpec<EsignSign, { 'message-format': 'messageFormat'; 'poll-interval': 'pollInterval'; 'time-limit': 'timeLimit'; 'hide-success': 'hideSuccess'; 'signature-position': 'signaturePosition'; 'signature-page': 'signaturePage'; 'certificate-level': 'certificateLevel'; 'max-size': 'maxSize' }, 'esign-started' | 'esign-cancelled' | 'esign-error' | 'esign-signed'>;
  'esign-hash-sign': ElementSpec<EsignHashSign, { 'message-format': 'messageFormat'; 'poll-interval': 'pollInterval'; 'time-limit': 'timeLimit'; 'hide-success': 'hideSuccess'; 'hash-algorithm': 'hashAlgorithm' }, 'esign-started' | 'esign-cancelled' | 'esign-error' | 'esign-hash-signed'>;
  'esign-document-upload': ElementSpec<EsignDocumentUpload, { 'callback-url': 'callbackUrl'; 'max-size': 'maxSize'; 'document-id': 'documentId' }, 'esign-error' | 'esign-document-uploaded'>;
  'esign-signer-list': ElementSpec<EsignSignerList, { 'refresh-interval': 'refreshInterval'; 'no-invite': 'noInvite'; 'no-remove': 'noRemove'; 'document-id': 'documentId' }, 'esign-error' | 'esign-signers-loaded' | 'esign-signer-invited' | 'esign-signer-removed'>;
  'esign-validation-report': ElementSpec<EsignValidationReport, { 'document-id': 'documentId' }, 'esign-error' | 'esign-validated'>;
  'esign-signing-link': ElementSpec<EsignSigningLink, { 'expire-after': 'expireAfter'; 'delete-document-after': 'deleteAfter'; 'callback-url': 'callbackUrl'; 'page-language': 'pageLanguage'; 'document-id': 'documentId' }, 'esign-error' | 'esign-signing-link-created'>;
  'esign-document': ElementSpec<EsignDocument, { 'callback-url': 'callbackUrl'; 'document-id': 'documentId' }, 'esign-error' | 'esign-document-removed' | 'esign-document-downloaded'>;
  'esign-document-preview': ElementSpec<EsignDocumentPreview, { 'worker-src': 'workerSrc' }, 'esign-error' | 'esign-preview-loaded'>;
  'esign-person-form': ElementSpec<EsignPersonForm, {}, 'esign-person-submit'>;
  'esign-control-code': ElementSpec<EsignControlCode, {}, never>;
  'esign-status': ElementSpec<EsignStatus, {}, 'esign-cancel-request'>;
}

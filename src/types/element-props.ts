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
  'esign-identify': ElementSpec<EsignIdentify, { 'phone-language': 'phoneLanguage'; 'site-name': 'siteName'; 'message-format': 'messageFormat'; 'poll-interval': 'pollInterval'; 'time-limit': 'timeLimit'; 'hide-success': 'hideSuccess'; 'no-resume': 'noResume'; 'no-remember': 'noRemember'; 'request-timeout': 'requestTimeout' }, 'esign-started' | 'esign-authenticated' | 'esign-cancelled' | 'esign-error'>;
  'esign-sign': ElementSpec<EsignSign, { 'signature-position': 'signaturePosition'; 'signature-page': 'signaturePage'; 'certificate-level': 'certificateLevel'; 'max-size': 'maxSize'; 'no-preview': 'noPreview'; 'message-format': 'messageFormat'; 'poll-interval': 'pollInterval'; 'time-limit': 'timeLimit'; 'hide-success': 'hideSuccess'; 'no-resume': 'noResume'; 'no-remember': 'noRemember'; 'request-timeout': 'requestTimeout' }, 'esign-started' | 'esign-signed' | 'esign-cancelled' | 'esign-error'>;
  'esign-hash-sign': ElementSpec<EsignHashSign, { 'hash-algorithm': 'hashAlgorithm'; 'message-format': 'messageFormat'; 'poll-interval': 'pollInterval'; 'time-limit': 'timeLimit'; 'hide-success': 'hideSuccess'; 'no-resume': 'noResume'; 'no-remember': 'noRemember'; 'request-timeout': 'requestTimeout' }, 'esign-started' | 'esign-hash-signed' | 'esign-cancelled' | 'esign-error'>;
  'esign-document-upload': ElementSpec<EsignDocumentUpload, { 'callback-url': 'callbackUrl'; 'max-size': 'maxSize'; 'document-id': 'documentId' }, 'esign-document-uploaded' | 'esign-error'>;
  'esign-signer-list': ElementSpec<EsignSignerList, { 'refresh-interval': 'refreshInterval'; 'no-invite': 'noInvite'; 'no-remove': 'noRemove'; 'document-id': 'documentId' }, 'esign-confirm-open' | 'esign-signers-loaded' | 'esign-signer-invited' | 'esign-signer-removed' | 'esign-error'>;
  'esign-validation-report': ElementSpec<EsignValidationReport, { 'document-id': 'documentId' }, 'esign-validated' | 'esign-error'>;
  'esign-signing-link': ElementSpec<EsignSigningLink, { 'expire-after': 'expireAfter'; 'delete-document-after': 'deleteAfter'; 'callback-url': 'callbackUrl'; 'page-language': 'pageLanguage'; 'document-id': 'documentId' }, 'esign-signing-link-created' | 'esign-error'>;
  'esign-document': ElementSpec<EsignDocument, { 'callback-url': 'callbackUrl'; 'file-name': 'fileName'; 'document-id': 'documentId' }, 'esign-document-removed' | 'esign-error' | 'esign-document-downloaded'>;
  'esign-document-preview': ElementSpec<EsignDocumentPreview, { 'worker-src': 'workerSrc' }, 'esign-preview-loaded' | 'esign-error'>;
  'esign-person-form': ElementSpec<EsignPersonForm, {}, 'esign-person-submit'>;
  'esign-control-code': ElementSpec<EsignControlCode, {}, never>;
  'esign-status': ElementSpec<EsignStatus, { 'spoken-detail': 'spokenDetail'; 'cancel-label': 'cancelLabel' }, 'esign-cancel-request'>;
}

/**
 * What each element takes in a framework's template, independent of the framework: its own
 * properties (list properties also in their attribute form), its attributes with a dash, and the
 * names of its events. React's JSX types and Vue's component types are made from this.
 */
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

/**
 * A property's value, or its attribute form where it has one (the elements accept both): lists as
 * "smartid mobile", numbers as "1000", booleans as "" (present).
 */
export type WithAttributeForm<T> = T extends readonly unknown[] ? T | string : T extends number ? T | `${number}` : T extends boolean ? boolean | '' : T;
/** The element's own properties. */
export type ElementProperties<E> = {
  [K in keyof Omit<E, keyof HTMLElement>]?: WithAttributeForm<E[K]>;
};
/** Attributes with a dash, by the property they set. */
export type ElementAttributes<E, A extends Record<string, keyof E>> = { [K in keyof A]?: WithAttributeForm<E[A[K]]> | (E[A[K]] extends string ? string : never) };

/** One element: its class, its dashed attributes, its events. */
export interface ElementSpec<E extends HTMLElement, A extends Record<string, keyof E>, N extends keyof HTMLElementEventMap> {
  element: E;
  props: ElementProperties<E> & ElementAttributes<E, A>;
  events: N;
}

type SessionAttributes = {
  'message-format': 'messageFormat';
  'poll-interval': 'pollInterval';
  'time-limit': 'timeLimit';
  'hide-success': 'hideSuccess';
};
type SessionEvents = 'esign-started' | 'esign-cancelled' | 'esign-error';

export interface EsignElementSpecs {
  'esign-identify': ElementSpec<EsignIdentify, SessionAttributes & { 'phone-language': 'phoneLanguage' }, SessionEvents | 'esign-authenticated'>;
  'esign-sign': ElementSpec<
    EsignSign,
    SessionAttributes & {
      'signature-position': 'signaturePosition';
      'signature-page': 'signaturePage';
      'certificate-level': 'certificateLevel';
      'max-size': 'maxSize';
    },
    SessionEvents | 'esign-signed'
  >;
  'esign-hash-sign': ElementSpec<EsignHashSign, SessionAttributes & { 'hash-algorithm': 'hashAlgorithm' }, SessionEvents | 'esign-hash-signed'>;
  'esign-document-upload': ElementSpec<
    EsignDocumentUpload,
    { 'callback-url': 'callbackUrl'; 'max-size': 'maxSize'; 'document-id': 'documentId' },
    'esign-document-uploaded' | 'esign-error'
  >;
  'esign-signer-list': ElementSpec<
    EsignSignerList,
    { 'refresh-interval': 'refreshInterval'; 'no-invite': 'noInvite'; 'no-remove': 'noRemove'; 'document-id': 'documentId' },
    'esign-signers-loaded' | 'esign-signer-invited' | 'esign-signer-removed' | 'esign-error'
  >;
  'esign-validation-report': ElementSpec<EsignValidationReport, { 'document-id': 'documentId' }, 'esign-validated' | 'esign-error'>;
  'esign-signing-link': ElementSpec<
    EsignSigningLink,
    {
      'expire-after': 'expireAfter';
      'delete-document-after': 'deleteAfter';
      'callback-url': 'callbackUrl';
      'page-language': 'pageLanguage';
      'document-id': 'documentId';
    },
    'esign-signing-link-created' | 'esign-error'
  >;
  'esign-document': ElementSpec<
    EsignDocument,
    { 'callback-url': 'callbackUrl'; 'document-id': 'documentId' },
    'esign-document-removed' | 'esign-document-downloaded' | 'esign-error'
  >;
  'esign-document-preview': ElementSpec<EsignDocumentPreview, { 'worker-src': 'workerSrc' }, 'esign-preview-loaded' | 'esign-error'>;
  'esign-person-form': ElementSpec<EsignPersonForm, {}, 'esign-person-submit'>;
  'esign-control-code': ElementSpec<EsignControlCode, {}, never>;
  'esign-status': ElementSpec<EsignStatus, {}, 'esign-cancel-request'>;
}

/**
 * JSX types for the elements themselves in React 19, which sets custom-element props as
 * properties and takes `on<event>` props for their events:
 * `<esign-identify endpoint="/esign" channels="smartid mobile" onesign-authenticated={…} />`.
 * Brought by `esign-elements/react`, or alone with `import type {} from 'esign-elements/react/jsx'`.
 * React does not attach `on<event>` props of server-rendered elements after hydration (react#35446):
 * there, use the components of `esign-elements/react` or a ref and addEventListener.
 */
import type * as React from 'react';
import type { EsignControlCode } from '../elements/control-code/control-code.js';
import type { EsignDocument } from '../elements/document/document.js';
import type { EsignDocumentUpload } from '../elements/document-upload/document-upload.js';
import type { EsignHashSign } from '../elements/hash-sign/hash-sign.js';
import type { EsignIdentify } from '../elements/identify/identify.js';
import type { EsignPersonForm } from '../elements/person-form/person-form.js';
import type { EsignSign } from '../elements/sign/sign.js';
import type { EsignSignerList } from '../elements/signer-list/signer-list.js';
import type { EsignSigningLink } from '../elements/signing-link/signing-link.js';
import type { EsignStatus } from '../elements/status/status.js';
import type { EsignValidationReport } from '../elements/validation-report/validation-report.js';

/** The element's own properties; list properties also in their attribute form ("smartid mobile"). */
type Properties<E> = {
  [K in keyof Omit<E, keyof HTMLElement>]?: E[K] extends readonly unknown[] ? E[K] | string : E[K];
};
/** Attributes with a dash, by the property they set. */
type Attributes<E, A extends Record<string, keyof E>> = { [K in keyof A]?: E[A[K]] | string };
type Events<N extends keyof HTMLElementEventMap> = { [K in N as `on${K}`]?: (event: HTMLElementEventMap[K]) => void };

export type EsignElementJsx<E extends HTMLElement, A extends Record<string, keyof E>, N extends keyof HTMLElementEventMap> =
  React.DetailedHTMLProps<React.HTMLAttributes<E>, E> & Properties<E> & Attributes<E, A> & Events<N>;

type SessionAttributes = {
  'message-format': 'messageFormat';
  'poll-interval': 'pollInterval';
  'time-limit': 'timeLimit';
  'hide-success': 'hideSuccess';
};
type SessionEvents = 'esign-started' | 'esign-cancelled' | 'esign-error';

export interface EsignIntrinsicElements {
  'esign-identify': EsignElementJsx<EsignIdentify, SessionAttributes & { 'phone-language': 'phoneLanguage' }, SessionEvents | 'esign-authenticated'>;
  'esign-sign': EsignElementJsx<
    EsignSign,
    SessionAttributes & {
      'signature-position': 'signaturePosition';
      'signature-page': 'signaturePage';
      'certificate-level': 'certificateLevel';
      'max-size': 'maxSize';
    },
    SessionEvents | 'esign-signed'
  >;
  'esign-hash-sign': EsignElementJsx<EsignHashSign, SessionAttributes & { 'hash-algorithm': 'hashAlgorithm' }, SessionEvents | 'esign-hash-signed'>;
  'esign-document-upload': EsignElementJsx<
    EsignDocumentUpload,
    { 'callback-url': 'callbackUrl'; 'max-size': 'maxSize'; 'document-id': 'documentId' },
    'esign-document-uploaded' | 'esign-error'
  >;
  'esign-signer-list': EsignElementJsx<
    EsignSignerList,
    { 'refresh-interval': 'refreshInterval'; 'no-invite': 'noInvite'; 'no-remove': 'noRemove'; 'document-id': 'documentId' },
    'esign-signers-loaded' | 'esign-signer-invited' | 'esign-signer-removed' | 'esign-error'
  >;
  'esign-validation-report': EsignElementJsx<EsignValidationReport, { 'document-id': 'documentId' }, 'esign-validated' | 'esign-error'>;
  'esign-signing-link': EsignElementJsx<
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
  'esign-document': EsignElementJsx<
    EsignDocument,
    { 'callback-url': 'callbackUrl'; 'document-id': 'documentId' },
    'esign-document-removed' | 'esign-document-downloaded' | 'esign-error'
  >;
  'esign-person-form': EsignElementJsx<EsignPersonForm, {}, 'esign-person-submit'>;
  'esign-control-code': EsignElementJsx<EsignControlCode, {}, never>;
  'esign-status': EsignElementJsx<EsignStatus, {}, 'esign-cancel-request'>;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements extends EsignIntrinsicElements {}
  }
}

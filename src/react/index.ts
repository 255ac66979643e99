/**
 * React components for every element (made with @lit/react): properties as props, `esign-*`
 * events as `on…` props (`onAuthenticated`, `onError`, …) that work after hydration too, `ref`
 * to the element. Importing this module registers the elements and brings the JSX types of the
 * elements themselves (`<esign-identify onesign-authenticated={…}>` in React 19).
 */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import '../define.js';
import './jsx.js';
import { EsignControlCode as ControlCodeElement } from '../elements/control-code/control-code.js';
import { EsignDocument as DocumentElement } from '../elements/document/document.js';
import { EsignDocumentUpload as DocumentUploadElement } from '../elements/document-upload/document-upload.js';
import { EsignHashSign as HashSignElement } from '../elements/hash-sign/hash-sign.js';
import { EsignIdentify as IdentifyElement } from '../elements/identify/identify.js';
import { EsignPersonForm as PersonFormElement } from '../elements/person-form/person-form.js';
import { EsignSign as SignElement } from '../elements/sign/sign.js';
import { EsignSignerList as SignerListElement } from '../elements/signer-list/signer-list.js';
import { EsignSigningLink as SigningLinkElement } from '../elements/signing-link/signing-link.js';
import { EsignStatus as StatusElement } from '../elements/status/status.js';
import { EsignValidationReport as ValidationReportElement } from '../elements/validation-report/validation-report.js';

const on = <K extends keyof HTMLElementEventMap>(name: K) => name as EventName<HTMLElementEventMap[K]>;

const SESSION_EVENTS = {
  onStarted: on('esign-started'),
  onCancelled: on('esign-cancelled'),
  onError: on('esign-error'),
};

export const EsignIdentify = createComponent({
  react: React,
  tagName: 'esign-identify',
  elementClass: IdentifyElement,
  events: { ...SESSION_EVENTS, onAuthenticated: on('esign-authenticated') },
  displayName: 'EsignIdentify',
});

export const EsignSign = createComponent({
  react: React,
  tagName: 'esign-sign',
  elementClass: SignElement,
  events: { ...SESSION_EVENTS, onSigned: on('esign-signed') },
  displayName: 'EsignSign',
});

export const EsignHashSign = createComponent({
  react: React,
  tagName: 'esign-hash-sign',
  elementClass: HashSignElement,
  events: { ...SESSION_EVENTS, onHashSigned: on('esign-hash-signed') },
  displayName: 'EsignHashSign',
});

export const EsignDocumentUpload = createComponent({
  react: React,
  tagName: 'esign-document-upload',
  elementClass: DocumentUploadElement,
  events: { onDocumentUploaded: on('esign-document-uploaded'), onError: on('esign-error') },
  displayName: 'EsignDocumentUpload',
});

export const EsignSignerList = createComponent({
  react: React,
  tagName: 'esign-signer-list',
  elementClass: SignerListElement,
  events: {
    onSignersLoaded: on('esign-signers-loaded'),
    onSignerInvited: on('esign-signer-invited'),
    onSignerRemoved: on('esign-signer-removed'),
    onError: on('esign-error'),
  },
  displayName: 'EsignSignerList',
});

export const EsignValidationReport = createComponent({
  react: React,
  tagName: 'esign-validation-report',
  elementClass: ValidationReportElement,
  events: { onValidated: on('esign-validated'), onError: on('esign-error') },
  displayName: 'EsignValidationReport',
});

export const EsignSigningLink = createComponent({
  react: React,
  tagName: 'esign-signing-link',
  elementClass: SigningLinkElement,
  events: { onSigningLinkCreated: on('esign-signing-link-created'), onError: on('esign-error') },
  displayName: 'EsignSigningLink',
});

export const EsignDocument = createComponent({
  react: React,
  tagName: 'esign-document',
  elementClass: DocumentElement,
  events: {
    onDocumentRemoved: on('esign-document-removed'),
    onDocumentDownloaded: on('esign-document-downloaded'),
    onError: on('esign-error'),
  },
  displayName: 'EsignDocument',
});

export const EsignPersonForm = createComponent({
  react: React,
  tagName: 'esign-person-form',
  elementClass: PersonFormElement,
  events: { onPersonSubmit: on('esign-person-submit') },
  displayName: 'EsignPersonForm',
});

export const EsignControlCode = createComponent({
  react: React,
  tagName: 'esign-control-code',
  elementClass: ControlCodeElement,
  events: {},
  displayName: 'EsignControlCode',
});

export const EsignStatus = createComponent({
  react: React,
  tagName: 'esign-status',
  elementClass: StatusElement,
  events: { onCancelRequest: on('esign-cancel-request') },
  displayName: 'EsignStatus',
});

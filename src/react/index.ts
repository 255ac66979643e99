// Made from src/registry.ts by `npm run registry`: change the registry, not this file.
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
import { EsignDocumentPreview as DocumentPreviewElement } from '../elements/document-preview/document-preview.js';
import { EsignDocumentUpload as DocumentUploadElement } from '../elements/document-upload/document-upload.js';
import { EsignHashSign as HashSignElement } from '../elements/hash-sign/hash-sign.js';
import { EsignIdentify as IdentifyElement } from '../elements/identify/identify.js';
import { EsignPersonForm as PersonFormElement } from '../elements/person-form/person-form.js';
import { EsignSign as SignElement } from '../elements/sign/sign.js';
import { EsignSignerList as SignerListElement } from '../elements/signer-list/signer-list.js';
import { EsignSigningLink as SigningLinkElement } from '../elements/signing-link/signing-link.js';
import { EsignStatus as StatusElement } from '../elements/status/status.js';
import { EsignValidationReport as ValidationReportElement } from '../elements/validation-report/validation-report.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- @lit/react's name type for an event this package declares
const on = <K extends keyof HTMLElementEventMap>(name: K) => name as EventName<HTMLElementEventMap[K]>;

/** `esign-signer-list` → `EsignSignerList`, the component's name in React's tools. */
const displayName = (tag: string) => tag.replace(/(^|-)(\w)/g, (_, __, letter: string) => letter.toUpperCase());

function component<I extends HTMLElement, E extends Record<string, EventName | string>>(tagName: string, elementClass: new () => I, events: E) {
  return createComponent({ react: React, tagName, elementClass, events, displayName: displayName(tagName) });
}

export const EsignIdentify = component('esign-identify', IdentifyElement, { onStarted: on('esign-started'), onAuthenticated: on('esign-authenticated'), onCancelled: on('esign-cancelled'), onError: on('esign-error') });
export const EsignSign = component('esign-sign', SignElement, { onStarted: on('esign-started'), onSigned: on('esign-signed'), onCancelled: on('esign-cancelled'), onError: on('esign-error') });
export const EsignHashSign = component('esign-hash-sign', HashSignElement, { onStarted: on('esign-started'), onHashSigned: on('esign-hash-signed'), onCancelled: on('esign-cancelled'), onError: on('esign-error') });
export const EsignDocumentUpload = component('esign-document-upload', DocumentUploadElement, { onDocumentUploaded: on('esign-document-uploaded'), onError: on('esign-error') });
export const EsignSignerList = component('esign-signer-list', SignerListElement, { onConfirmOpen: on('esign-confirm-open'), onSignersLoaded: on('esign-signers-loaded'), onSignerInvited: on('esign-signer-invited'), onSignerRemoved: on('esign-signer-removed'), onError: on('esign-error') });
export const EsignValidationReport = component('esign-validation-report', ValidationReportElement, { onValidated: on('esign-validated'), onError: on('esign-error') });
export const EsignSigningLink = component('esign-signing-link', SigningLinkElement, { onSigningLinkCreated: on('esign-signing-link-created'), onError: on('esign-error') });
export const EsignDocument = component('esign-document', DocumentElement, { onDocumentRemoved: on('esign-document-removed'), onError: on('esign-error'), onDocumentDownloaded: on('esign-document-downloaded') });
export const EsignDocumentPreview = component('esign-document-preview', DocumentPreviewElement, { onPreviewLoaded: on('esign-preview-loaded'), onError: on('esign-error') });
export const EsignPersonForm = component('esign-person-form', PersonFormElement, { onPersonSubmit: on('esign-person-submit') });
export const EsignControlCode = component('esign-control-code', ControlCodeElement, {  });
export const EsignStatus = component('esign-status', StatusElement, { onCancelRequest: on('esign-cancel-request') });

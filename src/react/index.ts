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

const on = <K extends keyof HTMLElementEventMap>(name: K) => name as EventName<HTMLElementEventMap[K]>;

/** `esign-signer-list` → `EsignSignerList`, the component's name in React's tools. */
const displayName = (tag: string) => tag.replace(/(^|-)(\w)/g, (_, __, letter: string) => letter.toUpperCase());

function component<I extends HTMLElement, E extends Record<string, EventName | string>>(tagName: string, elementClass: new () => I, events: E) {
  return createComponent({ react: React, tagName, elementClass, events, displayName: displayName(tagName) });
}

export const EsignIdentify = component('esign-identify', IdentifyElement, { onStarted: on('esign-started'), onCancelled: on('esign-cancelled'), onError: on('esign-error'), onAuthenticated: on('esign-authenticated') });
export const EsignSign = component('esign-sign', SignElement, { onStarted: on('esign-started'), onCancelled: on('esign-cancelled'), onError: on('esign-error'), onSigned: on('esign-signed') });
export const EsignHashSign = component('esign-hash-sign', HashSignElement, { onStarted: on('esign-started'), onCancelled: on('esign-cancelled'), onError: on('esign-error'), onHashSigned: on('esign-hash-signed') });
export const EsignDocumentUpload = component('esign-document-upload', DocumentUploadElement, { onError: on('esign-error'), onDocumentUploaded: on('esign-document-uploaded') });
export const EsignSignerList = component('esign-signer-list', SignerListElement, { onError: on('esign-error'), onSignersLoaded: on('esign-signers-loaded'), onSignerInvited: on('esign-signer-invited'), onSignerRemoved: on('esign-signer-removed') });
export const EsignValidationReport = component('esign-validation-report', ValidationReportElement, { onError: on('esign-error'), onValidated: on('esign-validated') });
export const EsignSigningLink = component('esign-signing-link', SigningLinkElement, { onError: on('esign-error'), onSigningLinkCreated: on('esign-signing-link-created') });
export const EsignDocument = component('esign-document', DocumentElement, { onError: on('esign-error'), onDocumentRemoved: on('esign-document-removed'), onDocumentDownloaded: on('esign-document-downloaded') });
export const EsignDocumentPreview = component('esign-document-preview', DocumentPreviewElement, { onError: on('esign-error'), onPreviewLoaded: on('esign-preview-loaded') });
export const EsignPersonForm = component('esign-person-form', PersonFormElement, { onPersonSubmit: on('esign-person-submit') });
export const EsignControlCode = component('esign-control-code', ControlCodeElement, {  });
export const EsignStatus = component('esign-status', StatusElement, { onCancelRequest: on('esign-cancel-request') });

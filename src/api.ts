/** Everything the package offers, but the phone-message check (in index.ts; the script-tag file leaves it out, see cdn.ts). */
export * from './client/index.js';
export { EsignElement, type ErrorMessageHook } from './internal/base-element.js';
export { defineElement } from './internal/define.js';
export { theme } from './internal/theme.js';
export { ELEMENTS } from './elements.js';
export {
  LANGUAGES,
  loadStrings,
  STRING_PARTS,
  normalizeLanguage,
  setStringOverrides,
  translate,
  type Language,
  type StringKey,
  type StringPart,
  type Strings,
} from './i18n/index.js';
export { checkPersonalCode, checkDigit, personalCodeCountries, type PersonalCodeCheck } from './internal/validation/personal-code.js';
export { normalizePhone, type PhoneCheck } from './internal/validation/phone.js';
export { EsignIdentify } from './elements/identify/identify.js';
export { EsignPersonForm, type PersonValue, type PersonChannel, type PersonField } from './elements/person-form/person-form.js';
export { EsignControlCode } from './elements/control-code/control-code.js';
export { EsignStatus, type StatusState } from './elements/status/status.js';
export type { AuthenticatedDetail, StartedDetail, CancelledDetail } from './elements/identify/events.js';
export { SessionFlow, type FlowState, type FlowTools } from './internal/session-flow.js';
export { EsignSign } from './elements/sign/sign.js';
export { EsignHashSign } from './elements/hash-sign/hash-sign.js';
export type { SignInput, SignFile } from './internal/sign-files.js';
export type { SignedDetail } from './elements/sign/events.js';
export type { HashSignedDetail } from './elements/hash-sign/events.js';
export type { HashInput } from './elements/hash-sign/hash.js';
export { blobToBase64, base64ToBlob } from './internal/base64.js';
export { EsignSessionElement } from './internal/session-element.js';
export { EsignDocumentUpload } from './elements/document-upload/document-upload.js';
export { EsignSignerList } from './elements/signer-list/signer-list.js';
export { EsignValidationReport } from './elements/validation-report/validation-report.js';
export { EsignSigningLink } from './elements/signing-link/signing-link.js';
export { EsignDocument } from './elements/document/document.js';
export { EsignDocumentPreview } from './elements/document-preview/document-preview.js';
export type { PreviewLoadedDetail } from './elements/document-preview/events.js';
export { readReport, type ReadSignature } from './elements/validation-report/read-report.js';
export type { DocumentUploadedDetail } from './elements/document-upload/events.js';
export type { SignersLoadedDetail, SignerInvitedDetail, SignerRemovedDetail } from './elements/signer-list/events.js';
export type { ValidatedDetail } from './elements/validation-report/events.js';
export type { SigningLinkCreatedDetail } from './elements/signing-link/events.js';
export type { DocumentRemovedDetail } from './elements/document/events.js';
export { EsignDocumentElement } from './internal/document-element.js';

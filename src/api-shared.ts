/** What the package offers beside its elements' own classes: the client, the words, the checks, the base classes. */
export * from './client/index.js';
export { EsignElement, type ErrorMessageHook } from './internal/base-element.js';
export { defineElement } from './internal/define.js';
export { theme } from './internal/theme.js';
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

export { EsignSessionElement } from './internal/session-element.js';
export type { SessionSpec } from './internal/session-controller.js';
export type { StatusAnswers } from './protocol/operations.js';
export { blobToBase64, base64ToBlob } from './internal/base64.js';
export type { SignInput, SignFile } from './internal/sign-files.js';
export type { PersonValue, PersonChannel, PersonField } from './elements/person-form/person-form.js';
export type { SignerPerson } from './internal/signer.js';
export type { Country } from './protocol/types.js';
export type { StatusState } from './elements/status/status.js';
export type { AuthenticatedDetail, StartedDetail, CancelledDetail } from './elements/identify/events.js';
export type { SignedDetail } from './elements/sign/events.js';
export type { HashSignedDetail } from './elements/hash-sign/events.js';
export type { HashInput } from './elements/hash-sign/hash.js';
export type { PreviewLoadedDetail } from './elements/document-preview/events.js';
export type { ReadSignature } from './elements/validation-report/read-report.js';
export type { DocumentUploadedDetail } from './elements/document-upload/events.js';
export type { SignersLoadedDetail, SignerInvitedDetail, SignerRemovedDetail } from './elements/signer-list/events.js';
export type { ValidatedDetail } from './elements/validation-report/events.js';
export type { SigningLinkCreatedDetail } from './elements/signing-link/events.js';
export type { DocumentRemovedDetail } from './elements/document/events.js';

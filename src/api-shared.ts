/**
 * What the package offers beside its elements' own classes and the client: the errors, the words,
 * the checks, the base classes (what the elements bring with them, so the all-in-one script-tag
 * file exports it too; the client is a script-tag file of its own, esign-client.js).
 */
export * from './client/errors.js';
export { DEFAULT_TIME_LIMIT, PERSON_TIME_LIMIT } from './protocol/time-limits.js';
export type * from './protocol/types.js';
export { EsignElement, type ErrorMessageHook } from './internal/element/base-element.js';
export { defineElement } from './internal/element/define.js';
export { theme } from './internal/element/theme.js';
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

export { EsignSessionElement } from './internal/session/session-element.js';
export type { SessionSpec } from './internal/session/session-controller.js';
export type { StatusAnswers } from './protocol/operations.js';
export type { SignInput, SignFile } from './internal/documents/sign-files.js';
export type { PersonValue, PersonChannel, PersonField } from './elements/person-form/person-form.js';
export type { SignerPerson } from './internal/documents/signer.js';
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

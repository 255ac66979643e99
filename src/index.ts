export * from './client/index.js';
export { EsignElement, type ErrorMessageHook } from './internal/base-element.js';
export { defineElement } from './internal/define.js';
export { theme } from './internal/theme.js';
export { ELEMENTS } from './elements.js';
export {
  LANGUAGES,
  normalizeLanguage,
  setStringOverrides,
  translate,
  type Language,
  type StringKey,
  type Strings,
} from './i18n/index.js';
export { checkPersonalCode, checkDigit, personalCodeCountries, type PersonalCodeCheck } from './internal/validation/personal-code.js';
export { normalizePhone, type PhoneCheck } from './internal/validation/phone.js';
export { checkMessage, isGsm7, messageLength, MESSAGE_LIMITS, type MessageCheck } from './internal/validation/message.js';

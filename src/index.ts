export * from './api.js';
export { checkMessage, isGsm7, messageLength, MESSAGE_LIMITS, type MessageCheck } from './internal/validation/message.js';

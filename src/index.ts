export * from './api.js';
export { checkMessage, isGsm7, messageLength, MESSAGE_LIMITS, type MessageCheck } from './protocol/message.js';

export * from './errors.js';
export { errorFromResponse } from './error-from-response.js';
export { PARAM_PATTERN, isSafePathParam, type ServiceLocale } from '../protocol/paths.js';
// the operations one by one stay internal: `OPERATIONS.listSigners` is the same object
export { OPERATIONS, OPERATION_IDS, buildPath, type NoBody, type Operation, type OperationId, type OperationSpec } from '../protocol/operations.js';
export * from './client.js';
export * from './poll.js';
export type * from '../protocol/types.js';
export * from '../protocol/camel.js';

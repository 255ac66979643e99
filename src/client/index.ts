export * from './client.js';
export * from './errors.js';
// the operations one by one stay internal: `OPERATIONS.listSigners` is the same object
export {
  OPERATIONS,
  OPERATION_IDS,
  PARAM_PATTERN,
  buildPath,
  isSafePathParam,
  type NoBody,
  type Operation,
  type OperationId,
  type OperationSpec,
  type ServiceLocale,
} from './operations.js';
export * from './poll.js';
export type * from './types.js';
export * from './camel.js';

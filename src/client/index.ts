export * from './client.js';
export * from './errors.js';
export * from './operations.js';
export * from './poll.js';
export type * from './types.js';
export * from './camel.js';

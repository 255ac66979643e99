export { createProxyHandler, type NodeProxyHandler } from './node.js';
export { createFetchProxyHandler } from './fetch.js';
export { DEFAULT_BODY_LIMIT, DEFAULT_UPSTREAM_TIMEOUT, type ProxyOptions, type ProxyRequestInfo } from './core.js';
export type { MatchedOperation } from '../client/operation-match.js';
export type { OperationId } from '../client/operations.js';

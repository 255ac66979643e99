export { createProxyHandler, type NodeProxyHandler } from './node.js';
export { createFetchProxyHandler, fetchHandlerToNode, type FetchProxyHandler } from './fetch.js';
export { createProxyCore, SESSION_OPERATIONS, DOCUMENT_OPERATIONS, type IncomingProxyRequest, type ProxyCore, type ProxyHealth } from './core.js';
export type { ProxyAnswer } from './errors.js';
export type { EventPerson, FailureKind, HostHook, ProxyEvent, ProxyEventBase, RateLimitName, RefusalReason } from './events.js';
export { ResultRefused } from './hand-over.js';
export { eventLogger, type EventLogger } from './event-log.js';
export { proxyEventSchema } from './event-schema.js';
export { MemoryStore, type ProxyStore } from './store.js';
export { visitorFromCookie } from './visitor.js';
export {
  DEFAULT_ANSWER_LIMIT,
  DEFAULT_BODY_LIMIT,
  DEFAULT_BODY_TIMEOUT,
  DEFAULT_BODY_TIMEOUT_PER_MB,
  DEFAULT_MIN_POLL_INTERVAL,
  DEFAULT_RATE_LIMITS,
  DEFAULT_RESULT_TIMEOUT,
  DEFAULT_RESULT_WAIT,
  DEFAULT_SESSION_BODY_LIMIT,
  DEFAULT_SESSION_TTL,
  DEFAULT_STORE_TIMEOUT,
  DEFAULT_UPSTREAM_TIMEOUT,
  type OperationChoice,
  type ProxyLogLine,
  type ProxyOptions,
  type ProxyRequestInfo,
  type ProxyResult,
  type ProxySigner,
  type SignedAs,
  type ResultAnswer,
  type RateLimit,
} from './options.js';
export { OPERATION_FIELDS } from './fields.js';
export type { MatchedOperation } from '../protocol/operation-match.js';
export type { OperationId } from '../protocol/operations.js';
export type { Country } from '../protocol/types.js';

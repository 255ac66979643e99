import { OPERATION_IDS } from '../protocol/operations.js';
import type { FailureKind, HostHook, RateLimitName, RefusalReason } from './events.js';

/*
 * The events every esign-elements proxy writes (the Node proxy hands them to `onEvent`; the PHP
 * proxy writes them as JSON lines): one JSON Schema, so that the two proxies cannot drift
 * apart in a field's name or value. Each list below is a record over its type: the compiler
 * refuses a value the type has and the schema lacks.
 */

const REASONS: Record<RefusalReason, true> = {
  'cross-site': true,
  'content-type': true,
  'not-allowed': true,
  'invalid-field': true,
  'too-large': true,
  timeout: true,
  'rate-limited': true,
  'not-your-session': true,
  unauthorized: true,
  'signer-mismatch': true,
  'signer-unknown': true,
};
const FAILURES: Record<FailureKind, true> = {
  'service-unreachable': true,
  'service-timeout': true,
  'service-invalid': true,
  store: true,
  'access-token': true,
};
const LIMITS: Record<RateLimitName, true> = { visitor: true, person: true, address: true, node: true };
const HOOKS: Record<HostHook, true> = { visitor: true, clientAddress: true, authorize: true, signer: true, onResult: true };

const STATUS = { type: 'integer', minimum: 100, maximum: 599 } as const;

/** What every event may carry: who asked what, when, for how long; a person only masked or as a keyed digest. */
const BASE = {
  requestId: { type: 'string', minLength: 1, maxLength: 128 },
  at: { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$' },
  durationMs: { type: 'integer', minimum: 0 },
  operation: { enum: OPERATION_IDS },
  kind: { enum: ['login', 'sign', 'hash', 'document'] },
  channel: { enum: ['mobile', 'smartid'] },
  visitor: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  address: { type: 'string', minLength: 1 },
  userAgent: { type: 'string', maxLength: 256 },
  person: {
    type: 'object',
    // masked (the middle hidden) or a keyed digest (ESIGN_EVENT_SECRET): never a code or a number in clear
    properties: {
      code: { type: 'string', pattern: '^([0-9a-f]{64}|[^•]{0,4}•{3,4}[^•]{0,3})$' },
      phone: { type: 'string', pattern: '^([0-9a-f]{64}|\\+\\d{3}\u00a0\\d••\u00a0••\u00a0\\d{3}|•••)$' },
    },
    additionalProperties: false,
  },
} as const;

function variant(type: string, own: Record<string, object>, required: readonly string[]): object {
  return {
    type: 'object',
    properties: { ...BASE, type: { const: type }, ...own },
    required: ['requestId', 'at', 'durationMs', 'type', ...required],
    additionalProperties: false,
  };
}

/** The JSON Schema (2020-12) of a proxy event, whichever proxy wrote it. */
export function proxyEventSchema(): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'An event of an esign-elements proxy (Node or PHP)',
    oneOf: [
      variant('started', {}, []),
      variant('finished', { outcome: { type: 'string', minLength: 1 } }, ['outcome']),
      variant('refused', { reason: { enum: Object.keys(REASONS) }, status: STATUS, limit: { enum: Object.keys(LIMITS) } }, ['reason', 'status']),
      variant('failed', { failure: { enum: Object.keys(FAILURES) }, status: STATUS }, ['failure', 'status']),
      variant('host-error', { hook: { enum: Object.keys(HOOKS) }, status: STATUS }, ['hook', 'status']),
    ],
  };
}

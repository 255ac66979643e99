import { createHmac } from 'node:crypto';
import type { OperationId } from '../protocol/operations.js';
import type { ProxyErrorKind } from '../protocol/types.js';
import { FAILURE_KINDS, REFUSAL_REASONS } from '../protocol/proxy-rules.js';
import type { Channel } from '../protocol/types.js';
import { maskCode, maskPhone } from '../protocol/mask.js';

/** Why the proxy refused a request: what a security team alerts on. */
export type RefusalReason =
  | 'cross-site'
  | 'content-type'
  | 'not-allowed'
  | 'invalid-field'
  | 'too-large'
  | 'timeout'
  | 'rate-limited'
  | 'not-your-session'
  | 'unauthorized'
  | 'signer-mismatch'
  | 'signer-unknown';

/**
 * What could not be reached or answered wrongly: the service (by how), the proxy's store, or the
 * access token, which the service refused (40003: the host's configuration).
 */
export type FailureKind = 'service-unreachable' | 'service-timeout' | 'service-invalid' | 'store' | 'access-token';

/** Which start limit a `rate-limited` refusal met: per visitor, per person, or per network address. */
/** `node`: this node under a burst (too many starts in flight, or its event loop late), not a limit of anyone's. */
export type RateLimitName = 'visitor' | 'person' | 'address' | 'node';

/** The host hooks whose failure is a `host-error`. */
export type HostHook = 'visitor' | 'clientAddress' | 'authorize' | 'signer' | 'onResult';

/**
 * A person as events show them: with `eventSecret`, keyed digests (HMAC-SHA256, hex) the host can
 * match with its own records; without it, masked as the widget shows them. Never in clear.
 */
export interface EventPerson {
  code?: string;
  phone?: string;
}

/** What every event says, where it applies. Never the access token, a session token, a body, or a person in clear. */
export interface ProxyEventBase {
  /** The request's id: the `x-request-id` of its answer, in its log lines, and in the browser's `EsignError`. */
  requestId: string;
  /** When the request arrived (ISO 8601). */
  at: string;
  /** From its arrival to its answer, ms. */
  durationMs: number;
  /** The service operation, once the path matched one. */
  operation?: OperationId;
  kind?: 'login' | 'sign' | 'hash' | 'document';
  channel?: Channel;
  /**
   * The visitor (the `visitor` hook's answer, or the proxy's own cookie id) as a keyed digest:
   * HMAC-SHA256 with `eventSecret` (else the access token) of `visitor:<id>`, hex. The same for one
   * visitor, so lines can be joined; never the value itself, which may let a browser in.
   */
  visitor?: string;
  /** The browser's address, when the host gives `clientAddress`. */
  address?: string;
  /** The browser's User-Agent (at most 256 characters). */
  userAgent?: string;
  person?: EventPerson;
}

/** What the proxy did with one request: one event per request that ended in one of these. */
export type ProxyEvent =
  | (ProxyEventBase & { type: 'started' })
  | (ProxyEventBase & { type: 'finished'; outcome: 'ok' | string })
  | (ProxyEventBase & { type: 'refused'; reason: RefusalReason; status: number; limit?: RateLimitName })
  | (ProxyEventBase & { type: 'failed'; failure: FailureKind; status: number })
  | (ProxyEventBase & { type: 'host-error'; hook: HostHook; status: number });

/** The refusals and failures of the proxy's own answers, by their kind (the rulebook's tables). */
export const REFUSALS: Partial<Record<ProxyErrorKind, RefusalReason>> = REFUSAL_REASONS;
export const FAILURES: Partial<Record<ProxyErrorKind, FailureKind>> = FAILURE_KINDS;

/** The person of a session start's fields, as events may show them. */
export function eventPerson(fields: Record<string, unknown>, secret: string | undefined): EventPerson | undefined {
  const digest = (key: string, value: string) => createHmac('sha256', key).update(value).digest('hex');
  const person: EventPerson = {};
  const code = fields['code'];
  if (typeof code === 'string' && code) person.code = secret ? digest(secret, `code:${code.replace(/-/g, '')}`) : maskCode(code);
  const phone = fields['phone'];
  if (typeof phone === 'string' && phone) person.phone = secret ? digest(secret, `phone:${phone.replace(/\D/g, '')}`) : maskPhone(phone);
  return person.code || person.phone ? person : undefined;
}

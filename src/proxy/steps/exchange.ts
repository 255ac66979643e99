import type { MatchedOperation } from '../../protocol/operation-match.js';
import type { IncomingProxyRequest } from '../incoming.js';
import type { ProxyAnswer } from '../errors.js';
import type { EventPerson, FailureKind, HostHook, ProxyEventBase, RefusalReason } from '../events.js';
import type { Channel, SessionKind } from '../operation-kinds.js';
import type { ProxyRequestInfo } from '../options.js';
import type { RequestTelemetry } from '../telemetry.js';
import type { ProxySetup } from './setup.js';

/** The request as the `visitor` and `clientAddress` hooks get it. */
export type HookRequest = Omit<ProxyRequestInfo, 'visitor' | 'body'>;

/** A session token's owner and what it may be used for, as the store keeps it. */
export interface Binding {
  visitor: string;
  channel: Channel;
  kind: SessionKind;
  status: MatchedOperation['id'];
  /** The person as events show them (digests or masked): never in clear. */
  person?: EventPerson;
  /** With `signer`: the digest of the signed-in person's code the finished signature must name. */
  signer?: string;
}

/** What one request's event will say, filled in by the steps as the request is read and decided. */
export interface EventState {
  t0: number;
  base: Omit<ProxyEventBase, 'durationMs' | 'at'>;
  /** A session started, or a polled one ended (`ok` or the service's error code). */
  outcome?: { type: 'started' } | { type: 'finished'; outcome: string };
  why?: { reason?: RefusalReason; hook?: HostHook };
  /** A failure the service's answer says, not the proxy's own (the access token refused). */
  failure?: FailureKind;
}

/** The visitor: `id` as the host knows it, `key` as bindings and limits store it. */
export interface Visitor {
  id: string;
  key: string;
  /** A new visitor's cookie, set on whatever the answer is. */
  cookie?: string;
}

/** What the service answered, as the steps after `forward` read and change it. */
export interface ServiceAnswer {
  status: number;
  /** The answer's text as it came. */
  text: string;
  /** The parsed answer, the access token taken out (what the host's onResult gets). */
  value: Record<string, unknown>;
  /** The body the browser gets: `text` unless something was taken out of it. */
  body: string;
}

/**
 * One request on its way through the steps: each step reads what the ones before it found and
 * adds its own. A field is set by the step named beside it.
 */
export interface Exchange {
  request: IncomingProxyRequest;
  /** The path below the proxy's prefix (route). */
  path: string;
  event: EventState;
  telemetry: RequestTelemetry | null;
  /** route */
  operation: MatchedOperation;
  /** fields: the operation's fields, checked ({} for a GET) */
  fields: Record<string, unknown>;
  /** visitor */
  visitor: Visitor;
  /** visitor: what the host's hooks see of the request */
  asked: HookRequest;
  /** visitor: what authorize and onResult see */
  info: ProxyRequestInfo;
  /** visitor: the person of a session start, as events show them */
  person: EventPerson | undefined;
  /** binding: the session a status poll or a removal is about */
  binding: Binding | null;
  /** signer: the signed-in person's code digest a signing start was checked against */
  signer: string | undefined;
  /** limits: the person's counters a start was counted under, given back if the service refuses it */
  personCounters: string[];
  /** forward, filter */
  service: ServiceAnswer;
}

/** One step: nothing (go on), an answer that ends the request here, or a ProxyRefusal thrown. */
export type Step = (exchange: Exchange, setup: ProxySetup) => ProxyAnswer | void | Promise<ProxyAnswer | void>;

/** A new exchange for a request inside the prefix; the steps fill in the rest. */
export function newExchange(request: IncomingProxyRequest, path: string, telemetry: RequestTelemetry | null, t0 = Date.now()): Exchange {
  const userAgent = request.header('user-agent');
  // every field there from the start, the later steps' as undefined: one shape for every exchange
  return {
    request,
    path,
    event: { t0, base: userAgent ? { userAgent: userAgent.slice(0, 256) } : {} },
    telemetry,
    operation: undefined,
    fields: {},
    visitor: undefined,
    asked: undefined,
    info: undefined,
    person: undefined,
    binding: null,
    signer: undefined,
    personCounters: [],
    service: undefined,
  } as unknown as Exchange;
}

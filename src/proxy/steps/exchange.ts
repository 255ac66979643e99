import { randomUUID } from 'node:crypto';
import type { MatchedOperation } from '../../protocol/operation-match.js';
import type { IncomingProxyRequest } from '../incoming.js';
import type { ProxyAnswer } from '../errors.js';
import type { EventPerson, FailureKind, HostHook, ProxyEventBase, RateLimitName, RefusalReason } from '../events.js';
import type { Channel, SessionKind } from '../operation-kinds.js';
import type { ProxyRequestInfo, ProxySigner } from '../options.js';
import type { UploadPrint } from '../signed-by.js';
import type { RequestTelemetry } from '../telemetry.js';
import type { ProxySetup } from './setup.js';

/** The request as the `visitor` and `clientAddress` hooks get it. */
export type HookRequest = Omit<ProxyRequestInfo, 'visitor' | 'body' | 'requestId'>;

/** A session token's owner and what it may be used for, as the store keeps it. */
export interface Binding {
  visitor: string;
  channel: Channel;
  kind: SessionKind;
  status: MatchedOperation['id'];
  /** The person as events show them (digests or masked): never in clear. */
  person?: EventPerson;
  /** With `signer`: the digest of the signed-in person (country and code) the added signature must name. */
  signer?: string;
  /** A finished login's visitor before the proxy gave the browser a new id: its polls already on their way still get the answer. */
  rotatedFrom?: string;
  /** A signing's signer (country, code, and whence: the site's answer or the start), sealed: what its result names. */
  signedAs?: string;
  /** With `signer`, for a file signing: what the uploaded file held, so the end reads only the signature added. */
  upload?: UploadPrint;
}

/** What one request's event will say, filled in by the steps as the request is read and decided. */
export interface EventState {
  t0: number;
  base: Omit<ProxyEventBase, 'durationMs' | 'at'>;
  /** A session started, or a polled one ended (`ok` or the service's error code). */
  outcome?: { type: 'started' } | { type: 'finished'; outcome: string };
  why?: { reason?: RefusalReason; hook?: HostHook; limit?: RateLimitName };
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

/** What an exchange holds from its start (the fields with a default are changed by the steps named beside them). */
export interface ExchangeStart {
  request: IncomingProxyRequest;
  /** The request's id (its answer's `x-request-id`), for its event and its log lines. */
  requestId: string;
  /** The path below the proxy's prefix (route). */
  path: string;
  event: EventState;
  telemetry: RequestTelemetry | null;
  /** fields: the operation's fields, checked ({} for a GET) */
  fields: Record<string, unknown>;
  /** visitor: the person of a session start, as events show them */
  person: EventPerson | undefined;
  /** binding: the session a status poll or a removal is about */
  binding: Binding | null;
  /** signer: the signed-in person's digest (country and code) a signing start was checked against */
  signer: string | undefined;
  /** signer: what a file signing's upload held before the service signed it */
  upload: UploadPrint | undefined;
  /** signer: the person the site said is signed in, as it named them */
  signedIn: ProxySigner | undefined;
  /** limits: the person's counters a start was counted under, given back if the service refuses it */
  personCounters: string[];
  /** limits: ends this start's place among the node's starts in flight (run once the answer is made) */
  leaveStart: (() => void) | undefined;
  /** hand-over: `Set-Cookie` lines the host's result hook gave for this browser (a new session at a login) */
  hostCookies: string[];
}

/** What the steps find, each set by the step named beside it: there only after that step ran. */
export interface ExchangeFound {
  /** route */
  operation: MatchedOperation;
  /** visitor */
  visitor: Visitor;
  /** visitor: what the host's hooks see of the request */
  asked: HookRequest;
  /** visitor: what authorize and onResult see */
  info: ProxyRequestInfo;
  /** forward, filter */
  service: ServiceAnswer;
}

export type Found = keyof ExchangeFound;

/** One request on its way through the steps, with what the steps before found so far. */
export type Exchange = ExchangeStart & Partial<ExchangeFound>;

/** An exchange as a step sees it: what it needs of the steps before it is there. */
export type Has<Needs extends Found> = ExchangeStart & Pick<ExchangeFound, Needs> & Partial<ExchangeFound>;

/**
 * One step: nothing (go on), an answer that ends the request here, or a ProxyRefusal thrown.
 * `Needs`: what it reads of the steps before it; `Gives`: what it sets. The compiler checks the
 * order of the steps by them (see `InOrder`).
 */
export interface Step<Needs extends Found = never, Gives extends Found = never> {
  (exchange: Has<Needs>, setup: ProxySetup): StepResult;
  /** For the compiler only: never set. */
  readonly order?: { needs: Needs; gives: Gives };
}

type StepResult = ProxyAnswer | void | Promise<ProxyAnswer | void>;

/**
 * A step of any order, as the loop runs it: taken from a method so that its parameter is compared
 * both ways. The order itself is checked where the list is made (`InOrder`).
 */
export type AnyStep = { run(exchange: Exchange, setup: ProxySetup): StepResult }['run'];

/** `true` when every step comes after the steps that set what it needs; else what is missing, and where. */
export type InOrder<Steps extends readonly unknown[], Have extends Found = never> = Steps extends readonly [infer First, ...infer Rest]
  ? First extends Step<infer Needs, infer Gives>
    ? [Needs] extends [Have]
      ? InOrder<Rest, Have | Gives>
      : { missing: Exclude<Needs, Have>; before: First }
    : never
  : true;

/** A new exchange for a request inside the prefix; the steps find the rest. */
export function newExchange(
  request: IncomingProxyRequest,
  path: string,
  telemetry: RequestTelemetry | null,
  t0 = Date.now(),
  requestId: string = randomUUID(),
): Exchange {
  const userAgent = request.header('user-agent');
  return {
    request,
    requestId,
    path,
    event: { t0, base: { requestId, ...(userAgent ? { userAgent: userAgent.slice(0, 256) } : {}) } },
    telemetry,
    fields: {},
    person: undefined,
    binding: null,
    signer: undefined,
    upload: undefined,
    signedIn: undefined,
    personCounters: [],
    leaveStart: undefined,
    hostCookies: [],
  };
}

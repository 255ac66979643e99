import type { PressureLimits } from './pressure.js';
import type { CamelCased } from '../protocol/camel.js';
import type {
  Country,
  HashSignStatusResponse,
  IdentificationStatusResponse,
  InviteSignerResponse,
  OkResponse,
  RemoveDocumentResponse,
  SignStatusResponse,
  TemporarySigningLinkResponse,
  UploadDocumentResponse,
} from '../protocol/types.js';
import type { MatchedOperation } from '../protocol/operation-match.js';
import type { OperationId } from '../protocol/operations.js';
import type { RateLimit } from '../protocol/proxy-rules.js';
import type { ProxyStore } from './store.js';
import type { Channel } from '../protocol/types.js';
import type { ProxyEvent } from './events.js';

export interface ProxyRequestInfo<Raw = unknown> {
  method: string;
  /** The service path the browser asked for (without the mount prefix). */
  path: string;
  headers: Headers;
  /** The operation's own fields as they go to the service, without the access token. */
  body: Record<string, unknown>;
  /** Who is asking: the `visitor` hook's answer or the proxy's own visitor cookie (after a login, the new one). */
  visitor: string;
  /** The proxy's id of this request (its `x-request-id`, in its event and log lines): for the host's own log lines of it. */
  requestId: string;
  /**
   * The framework's own request object (IncomingMessage, Express's Request, or a fetch Request),
   * typed by the handler's type parameter: `createProxyHandler<express.Request>(...)`.
   */
  raw: Raw;
}

/** What every result handed to `onResult` has besides its kind's own answer. */
interface ResultOf<Kind extends string, Operation extends OperationId, Answer, Raw = unknown> {
  operation: Operation;
  /** `login`, `sign` and `hash` for sessions; `document` for document operations. */
  kind: Kind;
  /** The session token (sessions) or the document uuid (document operations). */
  token: string;
  /** The visitor who started the session or asked for the document operation. */
  visitor: string;
  /** The service's answer in camelCase, screening data included: typed by the operation. */
  result: CamelCased<Answer>;
  /** The service's answer as it came, screening data included. */
  raw: Record<string, unknown>;
  request: ProxyRequestInfo<Raw>;
  /** Aborted when the run passes `resultTimeoutMs` (it then counts as failed): stop the work it started. */
  signal: AbortSignal;
}

/** A finished session's result: its channel besides. */
type SessionResultOf<Kind extends string, Operation extends OperationId, Answer, Raw = unknown> = ResultOf<Kind, Operation, Answer, Raw> & {
  /** The session's channel. */
  channel: Channel;
};

/** A login: the person (`result.name`, `surname`, `code`, `country`) and their certificate. */
export type LoginResult<Raw = unknown> = SessionResultOf<'login', 'mobileLoginStatus' | 'smartIdLoginStatus', IdentificationStatusResponse, Raw>;
/**
 * Whom a signing was for: with the `signer` hook, the person the site said is signed in (the start
 * was checked against them: `from: 'site'`); without it, the country and code the start named
 * (`from: 'start'`).
 */
export interface SignedAs {
  country: Country;
  code: string;
  from: 'site' | 'start';
}

/** A signed file (`result.file.name`, `content` as base64, `digest`), its signer's name (`result.person`), and whom it was for (`signer`). */
export type SignResult<Raw = unknown> = SessionResultOf<'sign', 'mobileSignStatus' | 'smartIdSignStatus', SignStatusResponse, Raw> & { signer?: SignedAs };
/** A hash signature (`result.signatureValue`, base64), and whom it was for (`signer`). */
export type HashResult<Raw = unknown> = SessionResultOf<'hash', 'mobileHashSignStatus' | 'smartIdHashSignStatus', HashSignStatusResponse, Raw> & {
  signer?: SignedAs;
};
/** A document operation's success, typed by its `operation`. */
export type DocumentResult<Raw = unknown> =
  | ResultOf<'document', 'uploadDocument', UploadDocumentResponse, Raw>
  | ResultOf<'document', 'inviteSigner', InviteSignerResponse, Raw>
  | ResultOf<'document', 'removeDocument', RemoveDocumentResponse, Raw>
  | ResultOf<'document', 'generateTemporarySigningLink', TemporarySigningLinkResponse, Raw>
  | ResultOf<'document', 'removeTemporarySigner', OkResponse, Raw>;

/**
 * A result the service confirmed, handed to the host's server before the browser sees it: a union
 * by `kind` (and, for documents, by `operation`), so `result.result.name` of a login needs no cast
 * and a field its answer does not have is a type error.
 */
export type ProxyResult<Raw = unknown> = LoginResult<Raw> | SignResult<Raw> | HashResult<Raw> | DocumentResult<Raw>;

/** A result as the hand-over builds it, before its run's signal. */
export type ResultToHand = ProxyResult extends infer R ? (R extends ProxyResult ? Omit<R, 'signal'> : never) : never;

/**
 * What `onResult` may give back for the browser whose poll it ran in: `Set-Cookie` lines (a new
 * session of the host's at a login) that go on that poll's answer, beside the result.
 */
export interface ResultAnswer {
  setCookies?: readonly string[];
}

/**
 * The person signed in to the host's site, as `signer` names them: a country and a code (the same
 * digits in two countries are two people). Pass on the login result's `result.country` and
 * `result.code`.
 */
export interface ProxySigner {
  /** Their country: a start for another country (a Mobile-ID phone of another country too) is refused. */
  country: Country;
  /** Their personal code (a Latvian one with or without its hyphen). */
  code: string;
  /** Their Mobile-ID phone in international form (`+370…`), when the host knows it. */
  phone?: string;
}

export type { RateLimit } from '../protocol/proxy-rules.js';

export type OperationChoice = 'sessions' | 'all' | readonly OperationId[];

/**
 * The proxy's options. `Raw` is the framework's request object its hooks see as `request.raw`
 * (`createProxyHandler<express.Request>(...)`): the handler passes the request it was given.
 */
/** What the proxy knows of one of its log lines: how grave it is (a failure, or a mistake of the setup to fix), and its request. */
export interface ProxyLogLine {
  level: 'warn' | 'error';
  requestId?: string;
}

export interface ProxyOptions<Raw = unknown> {
  /** The service's base URL, e.g. `https://service.example`. Required. */
  baseUrl: string;
  /** The secret access token. Required. Never sent to the browser, never logged. */
  accessToken: string;
  /** Path the proxy is mounted at, e.g. `/esign`. Default: none (mounted at the root or stripped by the framework). */
  prefix?: string;
  /**
   * What is forwarded. `sessions` (default): logins, file and hash signing, their statuses and
   * session removal. `all`, or a list of operation ids, adds document operations, each of which
   * then needs `authorize`.
   */
  operations?: OperationChoice;
  /**
   * The host's decision per request; required for document operations, which get the document
   * uuid in `operation.params.documentId`. False answers 403; a throw answers 500 and is logged.
   */
  authorize?: (request: ProxyRequestInfo<Raw>, operation: MatchedOperation) => boolean | Promise<boolean>;
  /**
   * Sign only as the person signed in to your site: return them from your session, or null when
   * nobody is signed in (may be async). A person is `{ country, code }`: a person without a country
   * is a configuration error (500, said in the log). Every signing start (file and hash, Smart-ID
   * and Mobile-ID, both locales) for another person, the same digits in another country too, is
   * refused 403 `signer-mismatch`, and with null 403 `signer-unknown`, before anything is counted,
   * stored or forwarded; a phone you give must match too. Then, in depth: a finished file signing
   * is handed over only when the one signature the service added in this session (checked against
   * what the uploaded file already held) names that country and code by its certificate; anything
   * else reaches neither `onResult` nor the browser (403 `signer-mismatch`, logged). A hash
   * signing's answer names no one, so the start's check is what holds there.
   */
  signer?: (request: ProxyRequestInfo<Raw>) => ProxySigner | null | undefined | Promise<ProxySigner | null | undefined>;
  /**
   * Called for every finished session (status `ok`) and every successful document operation,
   * before the answer goes to the browser. No browser sees a session's result before a run of
   * it has returned: the poll that runs it, and other polls of that session, wait at most
   * `resultWaitMs` and are then told to keep waiting while the run goes on; a later poll gets
   * the result, with the cookies the run gave back (kept, sealed, for every later poll of that
   * browser while the finished session is remembered, so an answer lost on the way loses
   * nothing). A throw, a rejection or a run past `resultTimeoutMs` answers 500 (when its poll
   * still waits) and gives the claim back, so the next poll runs it again: it runs at least once
   * and may run more than once (a node that dies mid-run), so make it idempotent with `token` as
   * its key. Throw `ResultRefused` to turn the result away for good: the session ends with 409
   * `site-refused` for this poll and every later one.
   */
  onResult?: (result: ProxyResult<Raw>) => void | ResultAnswer | Promise<void | ResultAnswer>;
  /** onResult's time limit, ms; past it the run counts as failed and its `signal` aborts. Default 30 000. */
  resultTimeoutMs?: number;
  /** How long a poll waits for onResult of its session before it answers `waiting`, ms. Default 2 000, at most 3 000 (the widget calls a connection lost after 4 s). */
  resultWaitMs?: number;
  /**
   * Who the visitor is, e.g. the host's session id. Default: a random id in an HttpOnly,
   * SameSite=Strict cookie (Secure over https) that the proxy sets itself. Null refuses (403).
   */
  visitor?: (request: Omit<ProxyRequestInfo<Raw>, 'visitor' | 'body' | 'requestId'>) => string | null | undefined | Promise<string | null | undefined>;
  /**
   * The network address of the person's browser, for the per-address limit on session starts:
   * Express's `req.ip` with `trust proxy` set for your load balancer, `req.socket.remoteAddress`
   * when nothing stands in front, or the header your CDN sets. IPv6 addresses count by their /64.
   * Default none, so no per-address limit: the proxy cannot know which forwarded-for header to
   * trust, and a limit on a load balancer's address would stop everybody at once. Without it, a
   * script that drops its cookie is a new visitor at every start; the per-person limit still holds.
   */
  clientAddress?: (request: Omit<ProxyRequestInfo<Raw>, 'visitor' | 'body' | 'requestId'>) => string | null | undefined | Promise<string | null | undefined>;
  /**
   * The scheme the host's pages are served over, when TLS ends in front of this server (a load
   * balancer): the page's `Origin` must have it. Default: `https` when the request came over TLS;
   * over plain http, `https`, and `http` too on a loopback address (development) only. Set `http`
   * for a plain-http server reached on another address.
   */
  publicScheme?: 'https' | 'http';
  /**
   * Origins of other sites allowed to call the proxy (exact `https://app.example` strings). Default
   * none. The elements call their own origin only, and the proxy answers no CORS preflight
   * (decision 0011): this is for a host that answers CORS itself in front of the proxy.
   */
  allowedOrigins?: readonly string[];
  /**
   * Limits on session starts. Per person (default 6 in 10 minutes) stops a flood of pushes: it
   * counts whom a push reaches, the personal code's account for Smart-ID and the phone and code
   * together for Mobile-ID (the service pushes only to a matching pair), so nobody locks a
   * stranger out with their code alone. Per visitor (12) stops one browser going through people;
   * per network address (60, with `clientAddress`) stops a script that drops its cookie. `false`
   * turns them off.
   */
  rateLimit?: false | { perVisitor?: RateLimit | false; perPerson?: RateLimit | false; perAddress?: RateLimit | false };
  /** Pass `peps_data` and `sanctions_data` to the browser. Default false: only `onResult` gets them. */
  exposeScreening?: boolean;
  /** Bindings, counters and delivered results. Default: memory of this process. */
  store?: ProxyStore;
  /**
   * How long one call of the store may take, ms. Default 1 000. A store that fails or is late
   * refuses the request (503 `store-unavailable`, `Retry-After`): nothing it could not check is
   * forwarded. `health()` of the handler says whether the store answers.
   */
  storeTimeoutMs?: number;
  /**
   * A node under a burst turns new session starts away early, 429 `busy` with `Retry-After: 2`
   * (a `rate-limited` event whose `limit` is `node`; the widget says the service is away a moment), before its event loop falls behind the sessions it has:
   * when `maxStartsInFlight` starts (default 1000) are in flight on it, or its event loop was late by
   * more than `maxEventLoopDelayMs` (default 1000) in the last second or so. Polls, hand-overs and
   * removals are never turned away for it. `false` turns it off.
   */
  pressure?: PressureLimits | false;
  /** How long a started session stays bound to its visitor, ms. Default 30 minutes. */
  sessionTtlMs?: number;
  /** Largest request body in bytes. Default 80 MB (a 50 MB file as base64 with room to spare). */
  bodyLimit?: number;
  /** Largest body of a session operation that carries no file (logins, hash signing, polls, removal). Default 16 KB. */
  sessionBodyLimit?: number;
  /**
   * A poll of a session sooner than this after the previous one is answered `waiting` without
   * asking the service, ms. Default 500 (the widget polls every second). 0 turns it off.
   */
  minPollIntervalMs?: number;
  /** Time allowed for a request body: this many ms plus `bodyTimeoutPerMbMs` per MB. Default 10 000. */
  bodyTimeoutMs?: number;
  /** Default 2 000 ms per MB of body. */
  bodyTimeoutPerMbMs?: number;
  /** Largest answer read from the service. Default 120 MB (a signed file of the largest body, as base64 in JSON). */
  answerLimit?: number;
  /** How long to wait for the service, in ms. Default 60 000. */
  upstreamTimeout?: number;
  /** A fetch to reach the service instead of the pooled node:http client. */
  fetch?: typeof fetch;
  /**
   * The key the proxy signs its visitor cookie with, so that it adopts only ids it minted (a cookie
   * planted in a browser is replaced). Default: the access token. Give every node of one deployment
   * the same; read the cookie with `visitorFromCookie(header, { secure, secret })` and this secret.
   */
  visitorSecret?: string;
  /** Mark the visitor cookie Secure. Default: when the request came over https. */
  secureCookie?: boolean;
  /** The clock of the default store and the limits. Default `Date.now`. */
  now?: () => number;
  /**
   * Where the proxy's own lines go (a host hook that failed, the store away, a setup mistake; never
   * a token or a body): the sentence, and its level and request id as the proxy knows them.
   * Default console.error.
   */
  log?: (message: string, line: ProxyLogLine) => void;
  /**
   * What the proxy did, one event per request that was refused, failed, hit a failing host hook,
   * started a session or ended one (see `ProxyEvent`): for alerts, dashboards and an audit trail.
   * Called after the answer is on its way; a throw is logged, never changes the answer.
   */
  onEvent?: (event: ProxyEvent) => void | Promise<void>;
  /**
   * A secret for the person and the visitor in events: with it, the personal code and phone appear
   * as HMAC-SHA256 digests the host can compute for its own records; without it, masked as the
   * widget shows them. The visitor is always a keyed digest (`HMAC-SHA256(key, 'visitor:' + id)`,
   * hex), with this secret as the key, else the access token: never the value that lets a browser in.
   */
  eventSecret?: string;
  /**
   * The request id: each request gets one, answered in the `x-request-id` header, carried by its
   * event (`requestId`) and its log lines, and kept by the browser's `EsignError`, so a person's
   * "it failed" can be found in the host's log. By default the proxy mints it; name a header here
   * (`'x-request-id'`, set by the host's own edge, e.g. nginx's `$request_id`) to take that one when
   * it is 1 to 128 letters, digits and `._:-`. Only a header the host's edge sets and overwrites:
   * a browser can send any header.
   */
  trustRequestIdHeader?: string;
  /**
   * OpenTelemetry through `@opentelemetry/api` when the host has it (an optional peer): a span per
   * request, begun with it under the host's active span, with a child span for the service that is
   * active around the call; and metrics. The call to the service carries only that client span's
   * own `traceparent`: no `tracestate` or `baggage` a browser sent (a host's instrumentation may
   * have put them into the context) reaches the service. `{ propagate: 'all' }` opts in to the
   * host's whole propagation instead. Default true; false turns it off.
   */
  openTelemetry?: boolean | { propagate?: 'traceparent' | 'all' };
}

export {
  DEFAULT_ANSWER_LIMIT,
  DEFAULT_BODY_LIMIT,
  DEFAULT_MIN_POLL_INTERVAL,
  DEFAULT_RATE_LIMITS,
  DEFAULT_RESULT_TIMEOUT,
  DEFAULT_RESULT_WAIT,
  DEFAULT_SESSION_BODY_LIMIT,
  DEFAULT_SESSION_TTL,
  DEFAULT_UPSTREAM_TIMEOUT,
  FINISHED_SESSION_TTL,
  STORE_RETRY_AFTER,
} from '../protocol/proxy-rules.js';
export const DEFAULT_BODY_TIMEOUT = 10_000;
export const DEFAULT_STORE_TIMEOUT = 1_000;
export const DEFAULT_BODY_TIMEOUT_PER_MB = 2_000;

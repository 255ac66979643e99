import { ResultRefused } from '../hand-over.js';
import { STATUS_POLL_SLOW_AFTER } from '../../protocol/time-limits.js';
import { OPERATION_IDS, type OperationId } from '../../protocol/operations.js';
import { ProxyRefusal, proxyError } from '../errors.js';
import type { HostHook, RateLimitName } from '../events.js';
import { guardStore } from '../guarded-store.js';
import type { HandOverOptions } from '../hand-over.js';
import { DOCUMENT_OPERATIONS, SESSION_OPERATIONS } from '../operation-kinds.js';
import {
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
  FINISHED_SESSION_TTL,
  type ProxyLogLine,
  type ProxyOptions,
  type RateLimit,
} from '../options.js';
import { MemoryStore, type ProxyStore } from '../store.js';
import { Pressure } from '../pressure.js';
import { createUpstream, type Upstream } from '../upstream.js';

export const MIN_TOKEN_LENGTH = 8;

/** Setup mistakes the log says once each: a refused origin, a body parsed before the proxy, a visitor that changed between a start and its polls. */
export type SetupHint = 'cross-site' | 'parsed-body' | 'visitor-changed';

/** What every step of one proxy shares: its options read once, its store, the way to the service. */
export interface ProxySetup {
  options: ProxyOptions;
  enabled: ReadonlySet<OperationId>;
  token: string;
  /** What goes to the service for an operation without fields (a status poll): the token alone. */
  tokenOnlyBody: string;
  store: ProxyStore;
  upstream: Upstream;
  bodyLimit: number;
  sessionBodyLimit: number;
  /** How long a body of this many bytes may take to arrive, ms. */
  timeoutFor: (bytes: number) => number;
  minPollInterval: number;
  handOver: HandOverOptions;
  sessionTtl: number;
  limits: { perVisitor?: RateLimit | false; perPerson?: RateLimit | false; perAddress?: RateLimit | false };
  /** The key of the visitor cookie's MAC: `visitorSecret`, else the access token. */
  visitorSecret: string;
  /** The key of the digests events show a visitor by: `eventSecret`, else the access token. */
  eventKey: string;
  /** When the log last said that the service refused the access token (at most once a minute). */
  tokenRefusedSaidAt: number;
  /** The starts the start limits refused since the log last said so (at most once a minute), by limit. */
  limitRefusals: { saidAt: number; since: number; counts: Record<RateLimitName, number> };
  /** This node's load: new starts turned away under a burst (null: off). */
  pressure: Pressure | null;
  /** Writes a line for the host's operators, the token taken out. */
  /** A line for the host's log, at its level, with its request where there is one: the token never in it. */
  log: (level: ProxyLogLine['level'], message: string, requestId?: string) => void;
  /** Writes a line about the host's setup once per process for each `kind`: what points at a mistake of setup, said where the host looks. */
  hint: (kind: SetupHint, message: string) => void;
  /** Runs a host hook: a throw is the host's failure, logged without secrets and answered 500 (no denial). */
  askHost: <T>(hook: HostHook, call: () => T | Promise<T>, context?: string) => Promise<T>;
}

function checkOptions(options: ProxyOptions): void {
  if (!options || typeof options !== 'object') throw new TypeError('esign-elements proxy: options are required ({ baseUrl, accessToken })');
  if (typeof options.baseUrl !== 'string' || !/^https?:\/\/[^/]/.test(options.baseUrl) || !URL.canParse(options.baseUrl)) {
    throw new TypeError("esign-elements proxy: baseUrl must be the service's http(s) URL, e.g. https://service.example");
  }
  if (typeof options.accessToken !== 'string' || options.accessToken.trim() === '') {
    throw new TypeError("esign-elements proxy: accessToken is required (the service's secret token, from your server's configuration)");
  }
  // every occurrence of the token is taken out of answers; a token this short is also ordinary
  // text of answers, and is no secret anyway
  if (options.accessToken.length < MIN_TOKEN_LENGTH) {
    throw new TypeError(`esign-elements proxy: accessToken must have at least ${MIN_TOKEN_LENGTH} characters`);
  }
}

/** The operations this configuration forwards. */
function enabledOperations(options: ProxyOptions): Set<OperationId> {
  const choice = options.operations ?? 'sessions';
  const ids = choice === 'sessions' ? SESSION_OPERATIONS : choice === 'all' ? OPERATION_IDS : choice;
  for (const id of ids) if (!OPERATION_IDS.includes(id)) throw new TypeError(`esign-elements proxy: unknown operation ${String(id)}`);
  if (ids.some((id) => DOCUMENT_OPERATIONS.includes(id)) && !options.authorize) {
    throw new TypeError('esign-elements proxy: document operations need authorize(request, operation) to decide who may use which document');
  }
  return new Set(ids);
}

/** A host hook's failure for the log: its kind and message, never a request's body or token. */
export function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 300);
  return typeof error;
}

/** Reads and checks the options once; throws a TypeError that says what is wrong. */
export function createSetup(options: ProxyOptions): ProxySetup {
  checkOptions(options);
  const token = options.accessToken;
  // every call of a host's store bounded: one that fails or is late refuses the request (fails
  // closed); the process's own memory cannot be away
  const store: ProxyStore = MemoryStore.isOwn(options.store)
    ? options.store
    : options.store
      ? guardStore(options.store, options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT)
      : new MemoryStore(options.now ? { now: options.now } : {});
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const baseTimeout = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT;
  const perMb = options.bodyTimeoutPerMbMs ?? DEFAULT_BODY_TIMEOUT_PER_MB;
  const write = options.log ?? ((message: string) => console.error(message));
  // a host's error message could quote anything: the token never reaches a log line
  const log = (level: ProxyLogLine['level'], message: string, requestId?: string) =>
    write(message.split(token).join('[redacted]'), { level, ...(requestId ? { requestId } : {}) });
  const hinted = new Set<SetupHint>();
  return {
    options,
    enabled: enabledOperations(options),
    token,
    tokenOnlyBody: JSON.stringify({ access_token: token }),
    store,
    upstream: createUpstream({
      baseUrl: options.baseUrl,
      timeoutMs: options.upstreamTimeout ?? DEFAULT_UPSTREAM_TIMEOUT,
      answerLimit: options.answerLimit ?? DEFAULT_ANSWER_LIMIT,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
    bodyLimit,
    sessionBodyLimit: Math.min(bodyLimit, options.sessionBodyLimit ?? DEFAULT_SESSION_BODY_LIMIT),
    timeoutFor: (bytes) => baseTimeout + (perMb * bytes) / (1024 * 1024),
    minPollInterval: options.minPollIntervalMs ?? DEFAULT_MIN_POLL_INTERVAL,
    handOver: {
      store,
      timeoutMs: options.resultTimeoutMs ?? DEFAULT_RESULT_TIMEOUT,
      // a poll answers before the widget calls the connection lost, whatever the host asks
      waitMs: Math.min(options.resultWaitMs ?? DEFAULT_RESULT_WAIT, STATUS_POLL_SLOW_AFTER - 1_000),
      doneTtlMs: Math.min(options.sessionTtlMs ?? DEFAULT_SESSION_TTL, FINISHED_SESSION_TTL),
      secret: options.visitorSecret || token,
    },
    sessionTtl: options.sessionTtlMs ?? DEFAULT_SESSION_TTL,
    limits: options.rateLimit === false ? {} : { ...DEFAULT_RATE_LIMITS, ...options.rateLimit },
    visitorSecret: options.visitorSecret || token,
    eventKey: options.eventSecret || token,
    tokenRefusedSaidAt: -Infinity,
    limitRefusals: { saidAt: -Infinity, since: Date.now(), counts: { visitor: 0, person: 0, address: 0, node: 0 } },
    pressure: options.pressure === false ? null : new Pressure(options.pressure ?? {}),
    log,
    hint: (kind, message) => {
      if (hinted.has(kind)) return;
      hinted.add(kind);
      log('warn', message);
    },
    askHost: async (hook, call, context = '') => {
      try {
        return await call();
      } catch (error) {
        // the host's decision, not its failure: the run's outcome, said by its caller
        if (error instanceof ResultRefused) throw error;
        log('error', `[esign-proxy] ${hook}() failed${context}: ${describe(error)}`);
        throw new ProxyRefusal(proxyError('host-error'), { hook });
      }
    },
  };
}

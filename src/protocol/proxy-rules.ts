import { OPERATIONS, OPERATION_IDS, SESSION_STATUS, type OperationId } from './operations.js';
import { PARAM_PATTERN } from './paths.js';

/*
 * The proxy's rulebook: every table and number a proxy keeps, stated once. The Node proxy imports
 * it; `npm run proxy-rules` writes it as proxy-rules.json (shipped in the package, and beside the
 * Python and PHP proxies, which read it at start), so the three proxies cannot drift apart.
 */

import type { Channel, ProxyErrorKind, SessionKind } from './types.js';
import { COUNTRIES } from './types.js';
import { keysOf } from './checks.js';

export type { Channel, SessionKind } from './types.js';

/** A field's JSON type: only these go up to the service. */
export type FieldShape = 'string' | 'boolean' | 'integer' | { object: Record<string, FieldShape> } | { array: FieldShape };

const FILES: FieldShape = { object: { files: { array: { object: { name: 'string', content: 'string', digest: 'string' } } } } };
const SIGNER: FieldShape = { object: { name: 'string', surname: 'string', email: 'string', successUrl: 'string', noEmail: 'boolean' } };
const SCREENING = { peps: 'boolean', sanctions: 'boolean' } as const;
const SIGNING = {
  type: 'string',
  message: 'string',
  code: 'string',
  signature_position: 'string',
  signature_page: 'string',
  pdf: FILES,
  asice: FILES,
  adoc: FILES,
  bdoc: FILES,
  ...SCREENING,
} as const;
const NONE = {} as const;

/**
 * The fields each operation may carry, with their JSON types, from the service's interface and
 * what is known beyond it. Anything else the browser sends (an `access_token` in any spelling, a
 * URL parameter repeated in the body, a nested extra) is dropped; a known field of the wrong type
 * is refused with 400 naming it.
 */
const OPERATION_FIELDS_AS_WRITTEN = {
  mobileLogin: { phone: 'string', code: 'string', language: 'string', message: 'string', message_format: 'string', ...SCREENING },
  smartIdLogin: { code: 'string', country: 'string', message: 'string', ...SCREENING },
  mobileLoginStatus: NONE,
  smartIdLoginStatus: NONE,
  mobileSign: { ...SIGNING, phone: 'string', message_format: 'string' },
  smartIdSign: { ...SIGNING, country: 'string', certificate_level: 'string' },
  mobileSignStatus: NONE,
  smartIdSignStatus: NONE,
  mobileHashSign: { hash: 'string', hash_algorithm: 'string', phone: 'string', code: 'string', country: 'string', message: 'string' },
  smartIdHashSign: { hash: 'string', hash_algorithm: 'string', code: 'string', country: 'string', message: 'string' },
  mobileHashSignStatus: NONE,
  smartIdHashSignStatus: NONE,
  removeMobileSession: NONE,
  removeSmartIdSession: NONE,
  uploadDocument: {
    access: 'string',
    file: { object: { filename: 'string', content: 'string', callbackUrl: 'string' } },
    signers: { array: SIGNER },
  },
  inviteSigner: { signer: SIGNER },
  validateDocument: NONE,
  removeDocument: NONE,
  generateTemporarySigningLink: {
    document_id: 'string',
    file: { object: { filename: 'string', content: 'string' } },
    callback_url: 'string',
    expire_after: 'integer',
    delete_document_after: 'integer',
    signers: {
      array: {
        object: { name: 'string', surname: 'string', signature_type: 'string', phone_number: 'string', personal_code: 'string', email: 'string' },
      },
    },
    language: 'string',
  },
  removeTemporarySigner: { name: 'string', surname: 'string', email: 'string', personal_code: 'string' },
  listSigners: NONE,
  checkDocumentStatus: NONE,
  downloadDocument: NONE,
  validateFile: { file: { object: { filename: 'string', content: 'string' } } },
} satisfies Record<OperationId, Record<string, FieldShape>>;
export const OPERATION_FIELDS: Record<OperationId, Record<string, FieldShape>> = OPERATION_FIELDS_AS_WRITTEN;

/** Session starts, and what their tokens may then be used for. */
/** The id of a status operation, found in the table by the operation itself. */
function statusId(kind: SessionKind, channel: Channel): OperationId {
  const id = OPERATION_IDS.find((candidate) => OPERATIONS[candidate] === SESSION_STATUS[kind][channel]);
  if (!id) throw new Error(`no status operation for ${kind} on ${channel}`);
  return id;
}
const start = (channel: Channel, kind: SessionKind) => ({ channel, kind, status: statusId(kind, channel) });
export const STARTS: Partial<Record<OperationId, { channel: Channel; kind: SessionKind; status: OperationId }>> = {
  mobileLogin: start('mobile', 'login'),
  smartIdLogin: start('smartid', 'login'),
  mobileSign: start('mobile', 'sign'),
  smartIdSign: start('smartid', 'sign'),
  mobileHashSign: start('mobile', 'hash'),
  smartIdHashSign: start('smartid', 'hash'),
};
/** Session removals, by the channel whose sessions they end. */
export const REMOVALS: Partial<Record<OperationId, Channel>> = { removeMobileSession: 'mobile', removeSmartIdSession: 'smartid' };
/** Session starts that carry files, and so may be large; every other session operation is small. */
export const FILE_STARTS: ReadonlySet<OperationId> = new Set(['mobileSign', 'smartIdSign']);

/*
 * What a session start may carry, by the service's published rules, checked before anything of
 * the start is counted, stored or forwarded. Only shapes (lengths and characters); dates and check
 * digits are the service's to judge (it answers 40005).
 */
export const START_SHAPES = {
  /** EE and LT: 11 digits; LV: `DDMMYY-CNNNN` with the hyphen optional (also 11 digits then). */
  code: '^[0-9]{6}-?[0-9]{5}$',
  /** Mobile-ID numbers exist for Lithuania (+370 and 8 digits) and Estonia (+372 and 7 or 8). */
  phone: '^\\+37(?:0[0-9]{8}|2[0-9]{7,8})$',
  country: '^(?:LT|LV|EE)$',
  hash: '^[0-9a-fA-F]{64}(?:[0-9a-fA-F]{64})?$',
} as const;
/** The longest value of any other text field of a start (messages are 20–40 characters at the service). */
export const START_TEXT_LIMIT = 200;

export interface RateLimit {
  /** Session starts allowed in one window. */
  limit: number;
  windowMs: number;
}

/**
 * A person answers a push in 10–60 s. 6 starts in 10 minutes cover a login, retries after a
 * typo, a refusal or a time-out, and a few signatures; more pushes to one person than that is
 * spam. 12 per visitor leave room for a person signing for two people on one computer. 60 per
 * address leave room for an office or a mobile network sharing one address, and stop a script
 * that goes through personal codes.
 */
export const DEFAULT_RATE_LIMITS = {
  perVisitor: { limit: 12, windowMs: 10 * 60_000 },
  perPerson: { limit: 6, windowMs: 10 * 60_000 },
  perAddress: { limit: 60, windowMs: 10 * 60_000 },
} as const satisfies Record<string, RateLimit>;

export const DEFAULT_BODY_LIMIT = 80 * 1024 * 1024;
export const DEFAULT_SESSION_BODY_LIMIT = 16 * 1024;
export const DEFAULT_ANSWER_LIMIT = 120 * 1024 * 1024;
export const DEFAULT_UPSTREAM_TIMEOUT = 60_000;
export const DEFAULT_SESSION_TTL = 30 * 60_000;
/**
 * How long a finished session's marks stay (its binding and its done mark): what a late poll needs,
 * of another tab or a page reloaded after the end, to get the same answer. Then they go.
 */
export const FINISHED_SESSION_TTL = 5 * 60_000;
export const DEFAULT_MIN_POLL_INTERVAL = 500;
export const DEFAULT_RESULT_TIMEOUT = 30_000;
export const DEFAULT_RESULT_WAIT = 2_000;
/**
 * The claim on a result is a lease its holder renews: a node that dies, or loses its store, while
 * running the result hook delays the visitor by this much at most, however long a live run takes.
 */
export const RENEWED_LEASE_MS = 8_000;
/** How often a live holder renews its lease: several times within its life, so one late renewal loses nothing. */
export const RENEW_EVERY_MS = RENEWED_LEASE_MS / 4;
/** A lease nothing renews (a store without compare-and-extend, PHP without a process beside it) is held for the run's time limit and this much more. */
export const LEASE_MARGIN_MS = 1_000;
/** Seconds a browser is asked to wait after the proxy's state could not be read or written. */
export const STORE_RETRY_AFTER = 5;

/** The countries of the service: a person is one of them and a personal code. */
export { COUNTRIES };
/** The answer's fields of PEP and sanctions data: kept on the server, at any depth of the answer. */
export const SCREENING_FIELDS = ['peps_data', 'sanctions_data'] as const;
/**
 * A signed container's signature entries (`signatures<N>.xml` of ASiC-E and BDOC,
 * `signatures/signatures<N>.xml` of ADOC), how many an upload may bring, and how much one may inflate to.
 */
export const SIGNATURE_ENTRIES = { pattern: '^META-INF/(?:signatures/)?signatures\\d+\\.xml$', most: 64, inflateLimit: 16 * 1024 * 1024 } as const;

/**
 * The proxy's own answers by kind: the status and the words (`{status: "error", message, proxy_error:
 * kind}`), the same in every proxy, which answers by kind and never restates them.
 */
export const PROXY_ANSWERS = {
  'operation-not-allowed': [404, 'Not an operation of the service'],
  'operation-disabled': [403, 'This operation is not enabled on this proxy'],
  'cross-site': [403, 'Requests from other sites are not accepted'],
  'unsupported-media-type': [415, 'Request body must be application/json'],
  'malformed-json': [400, 'Request body must be a JSON object'],
  'invalid-field': [400, 'A field has the wrong type'],
  'request-too-large': [413, 'Request body is too large'],
  'body-timeout': [408, 'The request body did not arrive in time'],
  forbidden: [403, 'Not allowed for this request'],
  'signer-mismatch': [403, 'Signing is allowed only as the person signed in to this site'],
  'signer-unknown': [403, 'Nobody is signed in to this site to sign as'],
  'rate-limited': [429, 'Too many sessions started; try again later'],
  // this node under a burst, not the person: the widget says the service is away for a moment
  busy: [429, 'The server is busy; try again in a moment'],
  'host-error': [500, 'The host could not process this request'],
  'site-refused': [409, 'The site did not accept this result'],
  'store-unavailable': [503, 'The proxy cannot check this request right now; try again in a moment'],
  'upstream-unreachable': [502, 'The service could not be reached'],
  'upstream-timeout': [504, 'The service did not answer in time'],
  'upstream-invalid': [502, 'The service answered with something other than JSON'],
  'upstream-redirect': [502, 'The service answered with a redirect, which is not followed'],
  'upstream-too-large': [502, 'The service answered with more than the proxy accepts'],
} as const satisfies Record<ProxyErrorKind, readonly [status: number, message: string]>;

/**
 * A session token of another visitor is answered as the service answers a token it does not know
 * (nothing tells the prober the session exists): 404 with these words, and on a status poll the
 * service's own code too.
 */
export const NOT_YOUR_SESSION = { status: 404, message: 'Session for given token was not found', statusErrorCode: 40402 } as const;

/** The names of the events every proxy writes, one per request that made one. */
export const EVENT_TYPES = ['started', 'finished', 'refused', 'failed', 'host-error'] as const;
/** Why a proxy refused a request, by the kind of its own refusal: what a security team alerts on. */
export const REFUSAL_REASONS = {
  'operation-not-allowed': 'not-allowed',
  'operation-disabled': 'not-allowed',
  'cross-site': 'cross-site',
  'unsupported-media-type': 'content-type',
  'malformed-json': 'invalid-field',
  'invalid-field': 'invalid-field',
  'request-too-large': 'too-large',
  'body-timeout': 'timeout',
  forbidden: 'unauthorized',
  'signer-mismatch': 'signer-mismatch',
  'signer-unknown': 'signer-unknown',
  'rate-limited': 'rate-limited',
  busy: 'rate-limited',
} as const;
/** What failed, by the kind of a proxy's own failure answer. */
export const FAILURE_KINDS = {
  'upstream-unreachable': 'service-unreachable',
  'upstream-timeout': 'service-timeout',
  'upstream-invalid': 'service-invalid',
  'upstream-redirect': 'service-invalid',
  'upstream-too-large': 'service-invalid',
  'store-unavailable': 'store',
} as const;

/** The session operations: what a proxy forwards unless the host enables more. */
export const SESSION_OPERATION_IDS: readonly OperationId[] = [...keysOf(STARTS), ...Object.values(STARTS).map((start) => start.status), ...keysOf(REMOVALS)];

/** The rulebook as the Python and PHP proxies read it (proxy-rules.json): plain JSON, milliseconds and bytes. */
export function proxyRulesDocument() {
  const operations = Object.fromEntries(
    OPERATION_IDS.map((id) => {
      const spec = OPERATIONS[id];
      const start = STARTS[id];
      const ofStatus = Object.values(STARTS).find((s) => s.status === id);
      const removal = REMOVALS[id];
      const role = start
        ? { role: 'start', channel: start.channel, kind: start.kind, status: start.status }
        : ofStatus
          ? { role: 'status', channel: ofStatus.channel, kind: ofStatus.kind }
          : removal
            ? { role: 'remove', channel: removal }
            : { role: 'document' };
      return [
        id,
        { method: spec.method, path: spec.path, localized: spec.localized, fields: OPERATION_FIELDS[id], ...role, carriesFiles: FILE_STARTS.has(id) },
      ];
    }),
  );
  return {
    $comment: 'Generated from src/protocol/proxy-rules.ts by `npm run proxy-rules`: do not edit. The rules every esign-elements proxy keeps.',
    version: 1,
    paramPattern: PARAM_PATTERN,
    englishPrefix: '/en',
    operations,
    sessionOperations: SESSION_OPERATION_IDS,
    startShapes: START_SHAPES,
    startTextLimit: START_TEXT_LIMIT,
    rateLimits: DEFAULT_RATE_LIMITS,
    bodyLimit: DEFAULT_BODY_LIMIT,
    sessionBodyLimit: DEFAULT_SESSION_BODY_LIMIT,
    answerLimit: DEFAULT_ANSWER_LIMIT,
    upstreamTimeoutMs: DEFAULT_UPSTREAM_TIMEOUT,
    sessionTtlMs: DEFAULT_SESSION_TTL,
    finishedSessionTtlMs: FINISHED_SESSION_TTL,
    minPollIntervalMs: DEFAULT_MIN_POLL_INTERVAL,
    result: {
      timeoutMs: DEFAULT_RESULT_TIMEOUT,
      waitMs: DEFAULT_RESULT_WAIT,
      leaseMs: RENEWED_LEASE_MS,
      renewEveryMs: RENEW_EVERY_MS,
      leaseMarginMs: LEASE_MARGIN_MS,
    },
    storeRetryAfterSeconds: STORE_RETRY_AFTER,
    countries: COUNTRIES,
    screeningFields: SCREENING_FIELDS,
    signatureEntries: SIGNATURE_ENTRIES,
    events: { types: EVENT_TYPES, refusals: REFUSAL_REASONS, failures: FAILURE_KINDS },
    answers: Object.fromEntries(Object.entries(PROXY_ANSWERS).map(([kind, [status, message]]) => [kind, { status, message }])),
    notYourSession: NOT_YOUR_SESSION,
  };
}

/** The body an operation's request type says it sends. */
type BodyOf<O> = O extends { readonly types?: (body: infer Body, param: never) => unknown } ? Body : never;
/** A body's field names; none for an operation that sends no body (`NoBody`, keyed by any string). */
type BodyKeys<Id extends OperationId> = string extends keyof BodyOf<(typeof OPERATIONS)[Id]> ? never : keyof BodyOf<(typeof OPERATIONS)[Id]> & string;
/**
 * The allow-list and the request types agree, field by field: compiling fails on a field the list
 * allows that no request type has, or a field of a request type the list would drop.
 */
type FieldsAgree<Fields extends Record<OperationId, Record<string, FieldShape>>> = {
  [Id in OperationId]: [Exclude<keyof Fields[Id] & string, BodyKeys<Id>>] extends [never]
    ? [Exclude<BodyKeys<Id>, keyof Fields[Id] & string>] extends [never]
      ? true
      : { dropped: Exclude<BodyKeys<Id>, keyof Fields[Id] & string> }
    : { allowedButUntyped: Exclude<keyof Fields[Id] & string, BodyKeys<Id>> };
};
type AllTrue<T> = { [K in keyof T]: T[K] extends true ? never : K }[keyof T];
export type FieldsMatchTypes = [AllTrue<FieldsAgree<typeof OPERATION_FIELDS_AS_WRITTEN>>] extends [never]
  ? true
  : FieldsAgree<typeof OPERATION_FIELDS_AS_WRITTEN>;
/** Compiles only while {@link FieldsMatchTypes} holds. */
export const FIELDS_MATCH_TYPES: FieldsMatchTypes = true;

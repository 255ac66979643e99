import { DEFAULT_TIME_LIMIT, ProxyCaller, type Channel, type RequestOptions, type SessionKind } from './caller.js';
import { sendWithProgress } from './upload-progress.js';
import { OPERATIONS, OPERATION_IDS, SESSION_STATUS, type NoBody, type Operation, type OperationId, type StatusAnswers } from '../protocol/operations.js';
import { poll, type PollOptions } from './poll.js';
import type { WaitingResponse } from '../protocol/types.js';

export { readTemporarySigningLinks } from './temporary-links.js';
export {
  DEFAULT_TIME_LIMIT,
  PERSON_TIME_LIMIT,
  ProxyCaller,
  serviceLocale,
  type Channel,
  type EsignClientOptions,
  type RequestOptions,
  type SessionKind,
  type UploadSender,
} from './caller.js';
export { sendWithProgress } from './upload-progress.js';

type Status<T> = T | WaitingResponse;

/**
 * Typed client of the service through the host's proxy: one method per operation (and `call` of
 * {@link ProxyCaller} for an operation passed in). Every failure is an {@link EsignError}; the
 * JSON body is read whatever the HTTP status.
 */
export class EsignClient extends ProxyCaller {
  /** Sends one operation; a body whose progress is asked for (`onUploadProgress`) goes with `XMLHttpRequest`. */
  override call<Body, Answer>(
    operation: Operation<Body, Answer>,
    body: Body,
    params: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<Answer> {
    return super.call(operation, body, params, options.onUploadProgress && !options.uploadSender ? { ...options, uploadSender: sendWithProgress } : options);
  }

  /** The status endpoint for a session of this channel and kind. */
  status<K extends SessionKind>(channel: Channel, kind: K, token: string, options?: RequestOptions): Promise<Status<StatusAnswers[K]>> {
    return this.call(SESSION_STATUS[kind][channel], {}, { token }, options);
  }

  /** Polls a session until it ends; resolves with its `ok` answer, rejects with EsignError. */
  waitForResult<K extends SessionKind>(channel: Channel, kind: K, token: string, options: PollOptions = {}): Promise<StatusAnswers[K]> {
    return poll<StatusAnswers[K]>((signal) => this.status(channel, kind, token, signal ? { signal } : {}), {
      timeLimit: DEFAULT_TIME_LIMIT[channel],
      ...options,
    });
  }
}

/** The client method of an operation: `(param?, body?, options?)`, as its path parameter and body say. */
export type OperationMethod<O> =
  O extends Operation<infer Body, infer Answer, infer Param>
    ? [Param] extends [never]
      ? (body: Body, options?: RequestOptions) => Promise<Answer>
      : Body extends NoBody
        ? (param: string, options?: RequestOptions) => Promise<Answer>
        : (param: string, body: Body, options?: RequestOptions) => Promise<Answer>
    : never;

/** One method per operation of the table, typed by it. */
export type OperationMethods = { [K in keyof typeof OPERATIONS]: OperationMethod<(typeof OPERATIONS)[K]> };

// the class gets its operation methods below, from the same table
export interface EsignClient extends OperationMethods {}

/** Operations whose method takes a path parameter and then a body. */
type ParamAndBody = {
  [K in OperationId]: Parameters<OperationMethods[K]> extends [string, infer B, ...unknown[]] ? (B extends RequestOptions | undefined ? never : K) : never;
}[OperationId];

/** Operations that take a URL parameter and a body (all others take one or the other): every one, as the types say. */
const PARAM_AND_BODY: Record<ParamAndBody, true> = { inviteSigner: true, removeTemporarySigner: true };
const takesParamAndBody = (id: OperationId): boolean => id in PARAM_AND_BODY;

// every operation as a method: `(param?, body?, options?)`, as the path and the table say
for (const id of OPERATION_IDS) {
  const param = /\{(\w+)\}/.exec(OPERATIONS[id].path)?.[1];
  Reflect.set(EsignClient.prototype, id, function (this: EsignClient, ...args: unknown[]) {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the generated method's signature puts the path parameter first
    const params = param ? { [param]: args.shift() as string } : {};
    const body = !param || takesParamAndBody(id) ? args.shift() : {};
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the generated method's signature types the body and the options by the operation
    return this.call(OPERATIONS[id] as Operation<unknown>, body ?? {}, params, args[0] as RequestOptions | undefined);
  });
}

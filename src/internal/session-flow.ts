import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Channel, ProxyCaller } from '../client/caller.js';
import { EsignError, cancelledError } from '../client/errors.js';
import type { NoBody, Operation } from '../protocol/operations.js';
import type { OkResponse, WaitingResponse } from '../protocol/types.js';
import type { poll } from '../client/poll.js';

export type FlowState = 'idle' | 'starting' | 'waiting' | 'success' | 'error' | 'cancelled';

/** A status poll's time limit, ms: past it the poll is dropped and the next one goes at once. */
const STATUS_TIMEOUT = 10_000;

export interface FlowStart {
  token: string;
  control_code: string;
}

export interface FlowFollow<Result> {
  /** What sends the session's requests, or where it comes from once loaded (an element's caller is loaded after its form). */
  client: ProxyCaller | (() => Promise<ProxyCaller>);
  channel: Channel;
  /** The status operation of the session's channel and kind. */
  status: Operation<NoBody, Result | WaitingResponse>;
  interval: number;
  /** Give up after this many ms; 0: the channel's default. */
  timeLimit: number;
}

export interface FlowRun<Result> extends FlowFollow<Result> {
  start: (signal: AbortSignal, client: ProxyCaller) => Promise<FlowStart>;
  /** Called once the control code is known. */
  onStarted?: (start: FlowStart) => void;
}

/** A session started before (by this page before it was reloaded), to be followed to its end. */
export interface FlowResume<Result> extends FlowFollow<Result> {
  started: FlowStart;
  /** When waiting began, ms since the epoch. */
  since: number;
}

/** What a flow uses once it sends its first request (see flow-tools.ts), loaded on demand. */
export interface FlowTools {
  poll: typeof poll;
  DEFAULT_TIME_LIMIT: Readonly<Record<Channel, number>>;
  removeMobileSession: Operation<NoBody, OkResponse, 'sessionId'>;
  removeSmartIdSession: Operation<NoBody, OkResponse, 'sessionId'>;
}

/**
 * One session from start to end, for any element that runs one: a single session however
 * often start is pressed, polling that stops when the host leaves the page, and cancel that
 * removes the session at the service.
 */
export class SessionFlow implements ReactiveController {
  state: FlowState = 'idle';
  token = '';
  controlCode = '';
  channel: Channel = 'smartid';
  /** When waiting began (ms since the epoch). */
  since = 0;
  error: EsignError | undefined;
  /** While waiting: requests failing on the way (`lost`), one through again after that (`back`), or nothing to say. */
  connection: '' | 'lost' | 'back' = '';

  #controller: AbortController | undefined;
  #running: Promise<unknown> | undefined;
  #client: ProxyCaller | undefined;
  /** The wait between polls, ended early when the person comes back to the page. */
  #wakeUp: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly tools: () => Promise<FlowTools>,
  ) {
    host.addController(this);
  }

  get busy(): boolean {
    return this.state === 'starting' || this.state === 'waiting';
  }

  #set(state: FlowState): void {
    this.state = state;
    this.host.requestUpdate();
  }

  /** Runs a session; while one runs, returns the running one. */
  run<Result extends { status: string }>(options: FlowRun<Result>): Promise<Result> {
    return this.#drive(options, async (client, signal) => {
      const started = await options.start(signal, client);
      if (signal.aborted) throw cancelledError();
      return { started, since: Date.now(), onStarted: options.onStarted };
    });
  }

  /** Follows a session started before (no second start); while one runs, returns the running one. */
  resume<Result extends { status: string }>(options: FlowResume<Result>): Promise<Result> {
    return this.#drive(options, async () => ({ started: options.started, since: options.since }));
  }

  /** Polls at once instead of waiting out the interval or the back-off (the person came back). */
  wake(): void {
    this.#wakeUp?.resolve();
    this.#wakeUp = undefined;
  }

  /** One promise for every wait until the next wake, so a long session keeps no pile of waiters. */
  #nextWake = (): Promise<void> => (this.#wakeUp ??= withResolver()).promise;

  #drive<Result extends { status: string }>(
    options: FlowFollow<Result>,
    begin: (client: ProxyCaller, signal: AbortSignal) => Promise<{ started: FlowStart; since: number; onStarted?: ((start: FlowStart) => void) | undefined }>,
  ): Promise<Result> {
    if (this.#running) return this.#running as Promise<Result>;
    const controller = new AbortController();
    this.#controller = controller;
    this.#client = undefined;
    this.channel = options.channel;
    this.error = undefined;
    this.token = '';
    this.controlCode = '';
    this.connection = '';
    this.#set('starting');
    const running = (async () => {
      try {
        const [client, { DEFAULT_TIME_LIMIT, poll }] = await Promise.all([typeof options.client === 'function' ? options.client() : options.client, this.tools()]);
        if (controller.signal.aborted) throw cancelledError();
        this.#client = client;
        const { started, since, onStarted } = await begin(client, controller.signal);
        this.token = started.token;
        this.controlCode = started.control_code;
        this.since = since;
        this.#set('waiting');
        onStarted?.(started);
        // a status poll carries nothing and is small: it waits less than a start
        const timeoutMs = Math.min(client.timeoutMs, STATUS_TIMEOUT);
        const result = await poll<Result>((signal) => client.call(options.status, {}, { token: started.token }, signal ? { signal, timeoutMs } : { timeoutMs }), {
          interval: options.interval,
          timeLimit: options.timeLimit || DEFAULT_TIME_LIMIT[options.channel],
          signal: controller.signal,
          wake: this.#nextWake,
          // silent for half its time limit: said lost before the poll is given up
          slowAfter: Math.min(4_000, timeoutMs / 2),
          onConnection: (lost) => {
            this.connection = lost ? 'lost' : 'back';
            this.host.requestUpdate();
          },
        });
        this.#set('success');
        return result;
      } catch (error) {
        const esignError = error instanceof EsignError ? error : new EsignError('unknown', String(error), { cause: error });
        if (esignError.code === 'cancelled' || controller.signal.aborted) {
          this.#set('cancelled');
          throw cancelledError(error);
        }
        this.error = esignError;
        this.#set('error');
        throw esignError;
      } finally {
        this.#running = undefined;
        this.#controller = undefined;
        this.#wakeUp = undefined;
      }
    })();
    this.#running = running;
    return running;
  }

  /** Stops polling and removes the session at the service; resolves once the service answered. */
  async cancel(): Promise<void> {
    if (!this.#controller) return;
    const token = this.token;
    this.#controller.abort();
    await this.#running?.catch(() => undefined);
    if (token && this.#client) {
      const client = this.#client;
      const remove = this.tools().then(({ removeMobileSession, removeSmartIdSession }) =>
        client.call(this.channel === 'mobile' ? removeMobileSession : removeSmartIdSession, {}, { sessionId: token }),
      );
      // the session ends at the provider anyway; a failed removal must not hide the cancel
      await remove.catch(() => undefined);
    }
  }

  /** Ends in the error state without a session (a kept session that can no longer be alive). */
  fail(error: EsignError): void {
    if (this.busy) return;
    this.error = error;
    this.#set('error');
  }

  /** Back to idle after an end state. */
  reset(): void {
    if (this.busy) return;
    this.error = undefined;
    this.#set('idle');
  }

  hostDisconnected(): void {
    // no request may leave after the element left the page
    this.#controller?.abort();
  }
}

function withResolver(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

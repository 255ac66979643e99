import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Channel, ProxyCaller } from '../client/caller.js';
import { EsignError, cancelledError } from '../client/errors.js';
import { removeMobileSession, removeSmartIdSession, type NoBody, type Operation } from '../client/operations.js';
import { poll } from '../client/poll.js';
import type { WaitingResponse } from '../client/types.js';

export type FlowState = 'idle' | 'starting' | 'waiting' | 'success' | 'error' | 'cancelled';

export interface FlowStart {
  token: string;
  control_code: string;
}

export interface FlowRun<Result> {
  client: ProxyCaller;
  channel: Channel;
  /** The status operation of the session's channel and kind. */
  status: Operation<NoBody, Result | WaitingResponse>;
  start: (signal: AbortSignal) => Promise<FlowStart>;
  interval: number;
  timeLimit: number;
  /** Called once the control code is known. */
  onStarted?: (start: FlowStart) => void;
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

  #controller: AbortController | undefined;
  #running: Promise<unknown> | undefined;
  #client: ProxyCaller | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
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
    if (this.#running) return this.#running as Promise<Result>;
    const controller = new AbortController();
    this.#controller = controller;
    this.#client = options.client;
    this.channel = options.channel;
    this.error = undefined;
    this.token = '';
    this.controlCode = '';
    this.#set('starting');
    const running = (async () => {
      try {
        const started = await options.start(controller.signal);
        if (controller.signal.aborted) throw cancelledError();
        this.token = started.token;
        this.controlCode = started.control_code;
        this.since = Date.now();
        this.#set('waiting');
        options.onStarted?.(started);
        const result = await poll<Result>((signal) => options.client.call(options.status, {}, { token: started.token }, signal ? { signal } : {}), {
          interval: options.interval,
          timeLimit: options.timeLimit,
          signal: controller.signal,
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
      const remove = this.#client.call(this.channel === 'mobile' ? removeMobileSession : removeSmartIdSession, {}, { sessionId: token });
      // the session ends at the provider anyway; a failed removal must not hide the cancel
      await remove.catch(() => undefined);
    }
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

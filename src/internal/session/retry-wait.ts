import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { StringKey } from '../../i18n/index.js';

export interface WaitHost extends ReactiveControllerHost {
  t(key: StringKey, params?: Record<string, string | number>): string;
}

/**
 * After `rate-limited`: the time left until a new attempt can work, in whole minutes. The host
 * renders each second; the words change (and a screen reader says them) once a minute, and
 * once the time is over the host offers its action again (and has the focus on the words meanwhile).
 * Loaded with a session's controller.
 */
export class RetryWait implements ReactiveController {
  readonly #until: number;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly host: WaitHost,
    seconds: number,
  ) {
    this.#until = Date.now() + seconds * 1000;
    this.#timer = setInterval(() => host.requestUpdate(), 1000);
    host.addController(this);
    host.requestUpdate();
  }

  /** The words of the time left, for a status the host can focus; undefined once a new attempt can work. */
  words(): string | undefined {
    const left = this.#until - Date.now();
    if (left <= 0) {
      this.stop();
      return undefined;
    }
    return this.host.t('action.wait', { minutes: Math.ceil(left / 60_000) });
  }

  stop(): void {
    clearInterval(this.#timer);
    this.host.removeController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }
}

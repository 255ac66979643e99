import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { StringKey } from '../i18n/index.js';

export interface WaitHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
  t(key: StringKey, params?: Record<string, string | number>): string;
}

/**
 * After `rate-limited`: the time left until a new attempt can work, in whole minutes. The host
 * renders each second; the words change (and a screen reader says them) once a minute, and
 * once the time is over the host offers its action again. Loaded with a session's code (session-later.ts).
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
    // the focus on the time left, where Try again would have had it
    void host.updateComplete.then(() => host.renderRoot.querySelector<HTMLElement>('[part="retry-wait"]')?.focus());
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

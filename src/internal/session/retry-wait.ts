import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { StringKey } from '../../i18n/index.js';

export interface WaitHost extends ReactiveControllerHost {
  t(key: StringKey, params?: Record<string, string | number>): string;
}

/**
 * After `rate-limited`: the time left until a new attempt can work, in whole minutes. Its own clock
 * ticks each second and the host draws again when the words change (once a minute: a screen reader
 * says them then); once the time is over the host offers its action again (and has the focus on the
 * words meanwhile). Nothing reads a clock while drawing. Loaded with a session's controller.
 */
export class RetryWait implements ReactiveController {
  readonly #until: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #words: string | undefined;

  constructor(
    private readonly host: WaitHost,
    seconds: number,
  ) {
    this.#until = Date.now() + seconds * 1000;
    host.addController(this);
    this.#tick();
    if (this.#words !== undefined) this.#timer = setInterval(() => this.#tick(), 1000);
  }

  /** The words of the time left, for a status the host can focus; undefined once a new attempt can work. */
  words(): string | undefined {
    return this.#words;
  }

  #tick(): void {
    const left = this.#until - Date.now();
    const words = left > 0 ? this.host.t('action.wait', { minutes: Math.ceil(left / 60_000) }) : undefined;
    if (words === undefined) this.stop();
    if (words !== this.#words || !this.#timer) {
      this.#words = words;
      this.host.requestUpdate();
    }
  }

  stop(): void {
    clearInterval(this.#timer);
    this.host.removeController(this);
  }

  hostDisconnected(): void {
    this.stop();
  }
}

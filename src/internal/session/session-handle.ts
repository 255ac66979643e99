import { EsignError } from '../../client/errors.js';
import type { SessionKind } from '../../protocol/types.js';
import type { ByState, SessionController, SessionState, StartRequest } from './session-controller.js';

/**
 * An element's session from its first frame: the controller once its code came (loaded after the
 * form is on screen), or the failure to load that code. What the element draws, says and focuses
 * comes from here, by state, in one place: before the code came the session is at rest, and a
 * start whose code could not be loaded is a failure like any other (with Try again).
 */
export class SessionHandle<K extends SessionKind, Detail> {
  #controller: SessionController<K, Detail> | undefined;
  /** The session's code could not be loaded for a start: the one failure said until Try again. */
  #loadFailure: EsignError | undefined;

  /**
   * @param load loads the controller's code and gives back how to make it (made once, whoever asked first)
   * @param onLoadFailure says a start's failure to load the code, once
   */
  constructor(
    private readonly load: () => Promise<() => SessionController<K, Detail>>,
    private readonly onLoadFailure: (error: EsignError) => void,
  ) {}

  /** The controller, once its code came. */
  get controller(): SessionController<K, Detail> | undefined {
    return this.#controller;
  }

  get state(): SessionState {
    return this.#controller?.state ?? (this.#loadFailure ? 'error' : 'idle');
  }

  /** What ended the session in failure: the controller's, or the failure to load its code. */
  get error(): EsignError | undefined {
    return this.#controller ? this.#controller.error : this.#loadFailure;
  }

  /** What the map holds for the state the session is in. */
  render<T>(map: ByState<T>): T {
    return map[this.state];
  }

  /** The controller, its code loaded the first time (a failure here says nothing: no one asked to start). */
  async loaded(): Promise<SessionController<K, Detail>> {
    if (this.#controller) return this.#controller;
    const make = await this.load();
    return (this.#controller ??= make());
  }

  /** A start asked for before the code came: the one promise every start gives back until it settles. */
  #firstStart: Promise<Detail> | undefined;

  /** Starts, or gives back the session that runs (the controller holds one start at a time, this one the start before it came). */
  start(prepare: () => Promise<StartRequest>): Promise<Detail> {
    if (this.#firstStart) return this.#firstStart;
    if (this.#controller) return this.#controller.start(prepare);
    const first = this.loaded().then(
      (controller) => controller.start(prepare),
      (cause: unknown) => {
        throw this.#couldNotLoad(cause);
      },
    );
    this.#firstStart = first;
    void first.catch(() => undefined).finally(() => (this.#firstStart = undefined));
    return first;
  }

  /** Back to the form after an end; the code is asked for again at the next start if it could not be loaded. */
  reset(): void {
    this.#loadFailure = undefined;
    this.#controller?.reset();
  }

  #couldNotLoad(cause: unknown): EsignError {
    if (this.#loadFailure) return this.#loadFailure;
    const error = new EsignError('unknown', String(cause), { cause });
    this.#loadFailure = error;
    this.onLoadFailure(error);
    return error;
  }
}

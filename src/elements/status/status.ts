import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { EsignElement } from '../../internal/element/base-element.js';
import { controls } from '../../internal/element/controls.styles.js';
// its events on HTMLElementEventMap wherever its class is named (the framework types too)
import './events.js';
import { theme } from '../../internal/element/theme.js';
import { statusStyles } from './status.styles.js';
import { textOrNothing } from '../../internal/element/text-or-nothing.js';
import { DETAIL_SEPARATOR } from '../../internal/session/session-words.js';

export type StatusState = 'idle' | 'waiting' | 'success' | 'error' | 'cancelled';

/** `m:ss` */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The moments the time left is said to a screen reader (seconds left): often enough to act on, never every second. */
const SAID_AT = [60, 30] as const;

/** Only the end states have an icon. */
const END_ICONS: Partial<Record<string, string>> = { success: '✓', error: '!', cancelled: '–' };

/**
 * The waiting spinner with the time left (or, without a deadline, the time elapsed) and a cancel
 * button, and the final state. The message is announced when the state changes; the clock is
 * not (it would be noise): the time left is said at one minute and at half a minute.
 *
 * @fires esign-cancel-request - The person pressed cancel.
 * @csspart status - The box.
 * @csspart cancel - The cancel button.
 * @csspart time-left - The time left to confirm, while waiting with a deadline.
 *
 * @tag esign-status
 */
export class EsignStatus extends EsignElement {
  static override styles = [theme, controls, statusStyles];

  static override properties: PropertyDeclarations = {
    state: { type: String, reflect: true },
    message: { type: String },
    detail: { type: String },
    spokenDetail: { type: String, attribute: 'spoken-detail' },
    since: { type: Number },
    until: { type: Number },
    cancellable: { type: Boolean },
    cancelLabel: { type: String, attribute: 'cancel-label' },
    quiet: { type: Boolean },
    _now: { state: true },
    _said: { state: true },
  };

  declare state: StatusState;
  /** What to say; each state has a default. */
  declare message: string;
  /** A plain line under it: who and what while waiting, the reason of an error. */
  declare detail: string;
  /** How the detail is said, where it reads badly (a masked code: "ending in 9 1 4"); the detail itself when empty. */
  declare spokenDetail: string;
  /** When waiting began (ms since the epoch); the elapsed time counts from it. */
  declare since: number;
  /**
   * When the person's time to confirm ends (ms since the epoch): the time left is shown, draining,
   * in place of the time elapsed. 0: no deadline known.
   */
  declare until: number;
  declare cancellable: boolean;
  /** The cancel button's words while waiting; empty: "Cancel" in the element's language. */
  declare cancelLabel: string;
  /**
   * The message is said by moving the focus here (the host does, as a session starts), not by the
   * live region as well: a screen reader says it once.
   */
  declare quiet: boolean;
  declare _now: number;
  /** What was last said of the time left (a polite live region). */
  declare _said: string;
  /** The last moment of {@link SAID_AT} passed, so each is said once, as it passes. */
  #passed: number | undefined;

  #timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.state = 'idle';
    this.message = '';
    this.detail = '';
    this.spokenDetail = '';
    this.since = 0;
    this.until = 0;
    this.cancellable = true;
    this.cancelLabel = '';
    this.quiet = false;
    this._now = 0;
    this._said = '';
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopClock();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.state === 'waiting') this.#startClock();
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('state') || changed.has('since') || changed.has('until')) {
      // only on a page: a server rendering a waiting status must not be left with a clock
      if (this.state === 'waiting' && this.isConnected) this.#startClock();
      else this.#stopClock();
      // a new deadline: the moments already behind it are not said late
      this.#passed = undefined;
      this._said = '';
    }
    if (this.state === 'waiting' && this.until > 0) this.#sayTimeLeft();
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // the bar drains by a transform set here, not by an inline style (a strict CSP refuses those)
    const bar = this.renderRoot.querySelector<HTMLElement>('.drain-bar');
    if (bar) bar.style.transform = `scaleX(${this.#fractionLeft()})`;
  }

  /** ms left until the deadline, never below 0. */
  #left(): number {
    return Math.max(0, this.until - (this._now || Date.now()));
  }

  #fractionLeft(): number {
    const total = this.until - (this.since || this.until);
    return total > 0 ? Math.min(1, this.#left() / total) : 0;
  }

  /** The deadline has passed while waiting: the service's last answer is still awaited, nothing is to be confirmed any more. */
  #timeUp(): boolean {
    return this.state === 'waiting' && this.until > 0 && this.#left() === 0;
  }

  /** Says the time left as it passes one of {@link SAID_AT}: one minute, half a minute; then, once, that the time is up. */
  #sayTimeLeft(): void {
    if (this.#timeUp()) {
      // said once, in place of the last "30 seconds left", which is no longer true
      if (this.#passed !== 0) this._said = this.t('status.time-up');
      this.#passed = 0;
      return;
    }
    const seconds = Math.ceil(this.#left() / 1000);
    const passed = SAID_AT.filter((at) => seconds <= at).pop();
    if (this.#passed === undefined) {
      // the first look: what is already behind is not said (the status itself is said as it appears)
      this.#passed = passed ?? Infinity;
      return;
    }
    if (passed === undefined || passed >= this.#passed) return;
    this.#passed = passed;
    this._said = passed >= 60 ? this.t('status.left-minutes', { minutes: passed / 60 }) : this.t('status.left-seconds', { seconds: passed });
  }

  /** The page woke (a phone that slept): the clock read again at once, as the control code's box reads it. */
  readonly #woken = (): void => {
    if (this.#timer !== undefined) this._now = Date.now();
  };

  #startClock(): void {
    this._now = Date.now();
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => (this._now = Date.now()), 1000);
      if (typeof document === 'undefined') return;
      document.addEventListener('resume', this.#woken);
      document.addEventListener('visibilitychange', this.#woken);
    }
  }

  #stopClock(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    // (a server rendering has no document)
    if (typeof document === 'undefined') return;
    document.removeEventListener('resume', this.#woken);
    document.removeEventListener('visibilitychange', this.#woken);
  }

  #defaultMessage(): string {
    switch (this.state) {
      case 'waiting':
        return this.t('status.waiting');
      case 'success':
        return this.t('status.success');
      case 'cancelled':
        return this.t('error.cancelled');
      case 'error':
        return this.t('error.unknown');
      default:
        return '';
    }
  }

  /** Takes the focus onto the status itself (a session just started or ended: nothing is lost to the page). */
  override focus(options?: FocusOptions): void {
    this.renderRoot.querySelector<HTMLElement>('.status')?.focus(options);
  }

  /** The time left and its draining bar, or without a deadline the time elapsed. */
  #renderClock() {
    if (!(this.until > 0)) {
      return html`<p class="elapsed" role="timer">${this.t('status.elapsed', { time: formatElapsed((this._now || Date.now()) - (this.since || Date.now())) })}</p>`;
    }
    const left = this.#left();
    return html`<p class="elapsed left ${left <= 30_000 ? 'ending' : ''}" part="time-left" role="timer">${this.t('status.time-left', { time: formatElapsed(Math.ceil(left / 1000) * 1000) })}</p>
      <div class="drain" aria-hidden="true"><div class="drain-bar"></div></div>
      <p class="visually-hidden" aria-live="polite">${this._said}</p>`;
  }

  override render() {
    const waiting = this.state === 'waiting';
    const timeUp = this.#timeUp();
    const message = timeUp ? this.t('status.time-up') : this.message || this.#defaultMessage();
    const icon = END_ICONS[this.state];
    // the box stays in the page while idle so its live message is announced when it first changes
    const words = html`<p class="message" id="message">${textOrNothing(message)}</p>
      ${
        this.detail
          ? html`<p class="detail" id="detail">
            ${this.spokenDetail ? html`<span aria-hidden="true">${detailItems(this.detail)}</span><span class="visually-hidden">${this.spokenDetail}</span>` : detailItems(this.detail)}
          </p>`
          : nothing
      }`;
    // focused, the box says its message and detail by name and description, not all it holds
    return html`<div
      class="status ${this.state}"
      part="status"
      tabindex="-1"
      role="group"
      aria-labelledby="message"
      aria-describedby=${this.detail ? 'detail' : nothing}
      ?hidden=${this.state === 'idle'}
    >
      ${waiting ? html`<span class="spinner" aria-hidden="true"></span>` : html`<span class="icon" aria-hidden="true">${textOrNothing(icon)}</span>`}
      <div class="text">
        <div aria-live="polite">${this.quiet ? nothing : words}</div>
        ${this.quiet ? words : nothing}
        ${waiting ? this.#renderClock() : nothing}
      </div>
      ${
        waiting && this.cancellable
          ? html`<button class="secondary" part="cancel" type="button" @click=${() => this.emit('esign-cancel-request', undefined)}>
            ${timeUp ? this.t('action.start-again') : this.cancelLabel || this.t('action.cancel')}
          </button>`
          : nothing
      }
    </div>`;
  }
}

/**
 * A detail of several items (`Smart-ID · 3900••••607`, a signature's level, method and time) as
 * items: one a line where the status is narrow (a phone); where it is wide, side by side with a
 * separator between two on a line, and none before the first of a line (it falls outside the
 * items' box, which clips it), so no line starts with "·" and no item breaks inside.
 */
function detailItems(detail: string) {
  const items = detail.split(DETAIL_SEPARATOR);
  if (items.length < 2) return detail;
  return html`<span class="items">${items.map((item, i) => html`<span class="item">${i ? html`<span class="sep">${DETAIL_SEPARATOR}</span>` : nothing}${item}</span>`)}</span>`;
}

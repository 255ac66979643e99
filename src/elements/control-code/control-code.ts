import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { StringKey } from '../../i18n/index.js';
import { EsignElement } from '../../internal/element/base-element.js';
import { controls } from '../../internal/element/controls.styles.js';
import { theme } from '../../internal/element/theme.js';
import { controlCodeStyles } from './control-code.styles.js';
import type { Channel } from '../../protocol/types.js';
import { textOrNothing } from '../../internal/element/text-or-nothing.js';

/**
 * The control code, large, with what to do on the phone. A session element moves the focus onto
 * it as a session starts: a screen reader says it by its name, the code digit by digit ("Control
 * code: 3 5 6 0."), and its description, the instruction (never the code as one number, never
 * from a live region that appears already holding it, which several screen readers skip).
 *
 * @csspart code - The digits.
 * @csspart instruction - What to do on the phone.
 * @csspart warning - What to do when the phone shows another code: decline, never enter the PIN.
 * @csspart confirming - What the person confirms (a hash signing's subject: a payment's amount and payee), beside the code.
 *
 * @tag esign-control-code
 */
export class EsignControlCode extends EsignElement {
  static override styles = [theme, controls, controlCodeStyles];

  static override properties: PropertyDeclarations = {
    code: { type: String },
    channel: { type: String },
    kind: { type: String },
    until: { type: Number },
    subject: { type: String },
  };

  declare code: string;
  /** `smartid` or `mobile`. */
  declare channel: Channel;
  /** `login` (PIN1) or `sign` (PIN2). */
  declare kind: 'login' | 'sign';
  /** When the person's time to confirm ends (ms since the epoch; 0: not known): past it, nobody is asked to enter a PIN. */
  declare until: number;
  /** What the person confirms, in the site's words (a payment's amount and payee): shown beside the code, and said with it. */
  declare subject: string;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.code = '';
    this.channel = 'smartid';
    this.kind = 'login';
    this.until = 0;
    this.subject = '';
  }

  /**
   * Drawn again each second until the time to confirm ends, as the status counts it, and at once
   * when the page wakes (a phone that slept: its timers waited while the clock went on), so the
   * code's box and the status read one clock. Only on a page: a server rendering keeps no timer.
   */
  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (changed.has('until') && this.isConnected) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      if (this.until > Date.now()) {
        this.#timer = setInterval(() => {
          if (Date.now() >= this.until) clearInterval(this.#timer);
          this.requestUpdate();
        }, 1000);
      }
    }
  }

  readonly #woken = (): void => this.requestUpdate();

  override connectedCallback(): void {
    super.connectedCallback();
    // (a server rendering has no document to listen to)
    if (typeof document === 'undefined') return;
    document.addEventListener('resume', this.#woken);
    document.addEventListener('visibilitychange', this.#woken);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (typeof document === 'undefined') return;
    document.removeEventListener('resume', this.#woken);
    document.removeEventListener('visibilitychange', this.#woken);
  }

  /** Takes the focus onto the code's box (a session just started): a screen reader says the code and what to do. */
  override focus(options?: FocusOptions): void {
    this.renderRoot.querySelector<HTMLElement>('.box')?.focus(options);
  }

  override render() {
    // past the time to confirm, what to do on the phone is no longer true: only the code stays
    const timeUp = this.until > 0 && Date.now() >= this.until;
    const instruction = this.t(`code.${this.channel}.${this.kind}` as StringKey);
    const spoken = this.code.split('').join(' ');
    // its name says the digits one by one (the digits themselves are never read as one number), its
    // description what to do; the instruction stays readable for a page read from the top
    const described = [this.subject ? 'confirming' : '', timeUp ? '' : 'instruction warning'].filter(Boolean).join(' ');
    return html`<div class="box" tabindex="-1" role="group" aria-label=${this.code ? this.t('code.announce', { digits: spoken }) : this.t('code.label')} aria-describedby=${described || nothing}>
      <p class="label" aria-hidden="true">${this.t('code.label')}</p>
      <p class="digits" part="code" aria-hidden="true">${textOrNothing(this.code)}</p>
      ${this.subject ? html`<p class="confirming" id="confirming" part="confirming">${this.t('code.confirming', { subject: this.subject })}</p>` : nothing}
      ${
        timeUp
          ? nothing
          : html`<p class="instruction" id="instruction" part="instruction">${textOrNothing(instruction)}</p>
            <p class="warning" id="warning" part="warning">${this.t('code.warning')}</p>`
      }
    </div>`;
  }
}

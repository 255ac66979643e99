import { html, type PropertyDeclarations } from 'lit';
import type { StringKey } from '../../i18n/index.js';
import { EsignElement } from '../../internal/base-element.js';
import { controls } from '../../internal/controls.styles.js';
import { theme } from '../../internal/theme.js';
import { controlCodeStyles } from './control-code.styles.js';
import type { Channel } from '../../protocol/types.js';
import { textOrNothing } from '../../internal/text-or-nothing.js';

/**
 * The control code, large, with what to do on the phone. Screen readers hear the code digit
 * by digit when it appears or changes.
 *
 * @csspart code - The digits.
 * @csspart instruction - What to do on the phone.
 *
 * @tag esign-control-code
 */
export class EsignControlCode extends EsignElement {
  static override styles = [theme, controls, controlCodeStyles];

  static override properties: PropertyDeclarations = {
    code: { type: String },
    channel: { type: String },
    kind: { type: String },
  };

  declare code: string;
  /** `smartid` or `mobile`. */
  declare channel: Channel;
  /** `login` (PIN1) or `sign` (PIN2). */
  declare kind: 'login' | 'sign';

  constructor() {
    super();
    this.code = '';
    this.channel = 'smartid';
    this.kind = 'login';
  }

  override render() {
    const instruction = this.t(`code.${this.channel}.${this.kind}` as StringKey);
    const spoken = this.code.split('').join(' ');
    return html`<div class="box">
      <div role="status">
        <span class="visually-hidden">${textOrNothing(this.code && `${this.t('code.announce', { digits: spoken })} ${instruction}`)}</span>
      </div>
      <p class="label" aria-hidden="true">${this.t('code.label')}</p>
      <p class="digits" part="code" aria-hidden="true">${textOrNothing(this.code)}</p>
      <!-- said with the code above (once, also when reading down the page) -->
      <p class="instruction" part="instruction" aria-hidden="true">${textOrNothing(instruction)}</p>
    </div>`;
  }
}

/** Registers <esign-control-code>; safe to import twice. */
import { EsignControlCode } from './control-code.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-control-code', EsignControlCode);

export { EsignControlCode };

declare global {
  interface HTMLElementTagNameMap {
    'esign-control-code': EsignControlCode;
  }
}

/** Registers <esign-sign> and the elements it is made of; safe to import twice. */
import { EsignSign } from './sign.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-sign', EsignSign);

export { EsignSign };

declare global {
  interface HTMLElementTagNameMap {
    'esign-sign': EsignSign;
  }
}

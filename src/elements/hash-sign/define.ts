/** Registers <esign-hash-sign> and the elements it is made of; safe to import twice. */
import { EsignHashSign } from './hash-sign.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-hash-sign', EsignHashSign);

export { EsignHashSign };

declare global {
  interface HTMLElementTagNameMap {
    'esign-hash-sign': EsignHashSign;
  }
}

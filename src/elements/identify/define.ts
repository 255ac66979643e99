/** Registers <esign-identify> and the elements it is made of; safe to import twice. */
import { EsignIdentify } from './identify.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-identify', EsignIdentify);

export { EsignIdentify };

declare global {
  interface HTMLElementTagNameMap {
    'esign-identify': EsignIdentify;
  }
}

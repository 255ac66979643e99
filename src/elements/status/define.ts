/** Registers <esign-status>; safe to import twice. */
import { EsignStatus } from './status.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-status', EsignStatus);

export { EsignStatus };

declare global {
  interface HTMLElementTagNameMap {
    'esign-status': EsignStatus;
  }
}

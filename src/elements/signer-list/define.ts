/** Registers <esign-signer-list>; safe to import twice. */
import { EsignSignerList } from './signer-list.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-signer-list', EsignSignerList);

export { EsignSignerList };

declare global {
  interface HTMLElementTagNameMap {
    'esign-signer-list': EsignSignerList;
  }
}

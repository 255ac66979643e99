/** Registers <esign-signing-link>; safe to import twice. */
import { EsignSigningLink } from './signing-link.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-signing-link', EsignSigningLink);

export { EsignSigningLink };

declare global {
  interface HTMLElementTagNameMap {
    'esign-signing-link': EsignSigningLink;
  }
}

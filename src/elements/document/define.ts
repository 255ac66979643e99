/** Registers <esign-document> and the elements it is made of; safe to import twice. */
import { EsignDocument } from './document.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-document', EsignDocument);

export { EsignDocument };

declare global {
  interface HTMLElementTagNameMap {
    'esign-document': EsignDocument;
  }
}

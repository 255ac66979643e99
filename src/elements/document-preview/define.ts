/** Registers <esign-document-preview>; safe to import twice. PDF.js loads only when a preview is shown. */
import { EsignDocumentPreview } from './document-preview.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-document-preview', EsignDocumentPreview);

export { EsignDocumentPreview };

declare global {
  interface HTMLElementTagNameMap {
    'esign-document-preview': EsignDocumentPreview;
  }
}

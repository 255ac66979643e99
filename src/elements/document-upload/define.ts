/** Registers <esign-document-upload>; safe to import twice. */
import { EsignDocumentUpload } from './document-upload.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';

defineElement('esign-document-upload', EsignDocumentUpload);

export { EsignDocumentUpload };

declare global {
  interface HTMLElementTagNameMap {
    'esign-document-upload': EsignDocumentUpload;
  }
}

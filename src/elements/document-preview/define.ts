/** Registers <esign-document-preview>; safe to import twice. PDF.js loads only when a preview is shown. */
import { EsignDocumentPreview } from './document-preview.js';
import { defineElement } from '../../internal/define.js';

defineElement('esign-document-preview', EsignDocumentPreview);

export { EsignDocumentPreview };

/** Registers <esign-document-upload>; safe to import twice. */
import { EsignDocumentUpload } from './document-upload.js';
import { defineElement } from '../../internal/define.js';

defineElement('esign-document-upload', EsignDocumentUpload);

export { EsignDocumentUpload };

/** Everything the package offers, but the phone-message check (in index.ts; the script-tag files leave it out). */
export * from './api-shared.js';
export * from './client/index.js';
export { blobToBase64, base64ToBlob } from './internal/data/base64.js';
// every element's class and ELEMENTS, by tag (made from src/registry.ts)
export * from './elements.js';
export { readReport } from './elements/validation-report/read-report.js';
export { EsignDocumentElement } from './internal/documents/document-element.js';

// Made from src/registry.ts by `npm run registry`: change the registry, not this file.
// The elements of the all-in-one script-tag file (src/cdn.ts).
import type { ElementLoaders } from './internal/element/autoload.js';
import './elements/identify/define.js';
import './elements/person-form/define.js';

/** Every other element's define entry by tag, loaded when the element appears on the page. */
export const ELEMENT_LOADERS: ElementLoaders = {
  'esign-sign': () => import('./elements/sign/define.js'),
  'esign-hash-sign': () => import('./elements/hash-sign/define.js'),
  'esign-document-upload': () => import('./elements/document-upload/define.js'),
  'esign-signer-list': () => import('./elements/signer-list/define.js'),
  'esign-validation-report': () => import('./elements/validation-report/define.js'),
  'esign-signing-link': () => import('./elements/signing-link/define.js'),
  'esign-document': () => import('./elements/document/define.js'),
  'esign-document-preview': () => import('./elements/document-preview/define.js'),
  'esign-control-code': () => import('./elements/control-code/define.js'),
  'esign-status': () => import('./elements/status/define.js'),
};

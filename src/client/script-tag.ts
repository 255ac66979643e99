/**
 * The client as a script-tag file (`esign-client.js`): what `esign-elements/client` exports, and
 * the file helpers of the signing element. Its errors are `EsignError`s of its own: beside the
 * all-in-one file, tell them by `name` and `code`, not by `instanceof` of the other file's class.
 */
export * from './index.js';
export { blobToBase64, base64ToBlob } from '../internal/data/base64.js';

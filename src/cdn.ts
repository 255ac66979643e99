/**
 * The script-tag file for a page with several elements. The login (`<esign-identify>` and the form
 * it draws; the registry's `insideAllInOne`) is inside it, so a login page draws with no second file to wait for; every other element
 * is loaded when it first appears on the page and defined then (`customElements.whenDefined` says
 * when). It exports what the elements bring with them (errors, words, checks, base classes) and
 * the login's classes; the other classes come with their elements, the client is esign-client.js. Elements inside a host's own shadow roots are found once the host passes each
 * root to `discover`. The phone-message check (`checkMessage`) is left out: the elements load it
 * on demand, only when a host sets a Mobile-ID `message`.
 */
import { ELEMENT_LOADERS } from './all-in-one-elements.js';
import { autoloader } from './internal/element/autoload.js';

export * from './api-shared.js';
export { EsignIdentify } from './elements/identify/identify.js';
export { EsignPersonForm } from './elements/person-form/person-form.js';

const elements = autoloader(ELEMENT_LOADERS);

/** Finds and loads the elements a root holds now and later: for elements inside a host's own shadow roots. */
export const discover = (root: ParentNode & Node): void => elements.discover(root);

if (typeof document !== 'undefined') discover(document);

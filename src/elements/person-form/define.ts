/** Registers <esign-person-form> (its form's words in the five languages come with it); safe to import twice. */
import { EsignPersonForm } from './person-form.js';
// its events on HTMLElementEventMap, for a page (and its types) that imports this entry alone
import './events.js';
import { defineElement } from '../../internal/element/define.js';
defineElement('esign-person-form', EsignPersonForm);

export { EsignPersonForm };

declare global {
  interface HTMLElementTagNameMap {
    'esign-person-form': EsignPersonForm;
  }
}
